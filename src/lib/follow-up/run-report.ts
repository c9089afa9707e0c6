/**
 * What one run of a follow-up job found and did, logged as one line; and the rule that stops a
 * run early: AltaPay (or the way to it) is down, so the rest waits for the next run instead of
 * failing one payment after another.
 */
import type { Logger } from "@medusajs/framework/types"
import { MedusaError } from "@medusajs/framework/utils"
import { AltaPayDeclinedError, AltaPayError, AltaPayValidationError } from "../../altapay"
import { ALTAPAY_UNREACHABLE } from "../medusa-mapping/errors"

export class RunReport {
  private readonly tally = new Map<string, number>()
  private readonly providers = new Set<string>()
  private stopReason: string | undefined

  constructor(
    private readonly title: string,
    private readonly logger: Pick<Logger, "warn">
  ) {}

  /**
   * Handles each item in turn. An AltaPay outage stops the run; any other failure is logged and
   * counted, and the item is tried again next run.
   */
  async each(what: string, ids: string[], handle: (id: string) => Promise<void>): Promise<void> {
    for (const id of ids) {
      if (this.stopped) return
      try {
        await handle(id)
      } catch (error) {
        if (isAltaPayOutage(error)) return this.stop(messageOf(error))
        this.count("failed")
        this.logger.warn(`AltaPay follow-up of ${what} ${id}: ${messageOf(error)}; tried again next run.`)
      }
    }
  }

  looked(providerId: string, items: number): void {
    this.providers.add(providerId)
    this.count("checked", items)
  }

  count(outcome: string, n = 1): void {
    if (n > 0) this.tally.set(outcome, (this.tally.get(outcome) ?? 0) + n)
  }

  /** AltaPay could not be reached: nothing more is attempted in this run. */
  stop(reason: string): void {
    this.stopReason ??= reason
  }

  get stopped(): boolean {
    return this.stopReason !== undefined
  }

  counts(): Record<string, number> {
    return Object.fromEntries(this.tally)
  }

  line(): string {
    const { checked = 0, ...rest } = this.counts()
    const outcomes = Object.entries(rest).map(([outcome, n]) => `${n} ${outcome}`)
    const where = this.providers.size > 0 ? ` of ${[...this.providers].join(", ")}` : ""
    const stopped = this.stopReason ? `; stopped early, the rest is tried next run: ${this.stopReason}` : ""
    return `${this.title}: checked ${checked}${where}${outcomes.length ? `: ${outcomes.join(", ")}` : ""}${stopped}`
  }
}

/**
 * True for failures of AltaPay as a service (network, timeouts, 5xx, unreadable answers, refused
 * credentials), also when they reach the job through a Medusa workflow; false for answers about
 * one payment (a refusal, invalid input), after which the run goes on with the next.
 */
export function isAltaPayOutage(error: unknown): boolean {
  if (error instanceof AltaPayError) return !(error instanceof AltaPayValidationError || error instanceof AltaPayDeclinedError)
  return !!error && typeof error === "object" && (error as { code?: unknown }).code === ALTAPAY_UNREACHABLE
}

/** Medusa refusals that trying again will not change (validation, stock, a cart that moved on). */
export function isPermanentRefusal(error: unknown): boolean {
  const type = error && typeof error === "object" ? (error as { type?: unknown }).type : undefined
  const permanent: unknown[] = [MedusaError.Types.NOT_ALLOWED, MedusaError.Types.INVALID_DATA, MedusaError.Types.NOT_FOUND, MedusaError.Types.PAYMENT_AUTHORIZATION_ERROR]
  return permanent.includes(type) && !isAltaPayOutage(error)
}

export function messageOf(error: unknown): string {
  if (error && typeof error === "object" && typeof (error as { message?: unknown }).message === "string") return (error as { message: string }).message
  return String(error)
}
