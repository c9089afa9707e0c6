/**
 * What a first import brings: the captures and refunds Medusa recorded long before it, copied in
 * one go. Those no imported funding pays out become "not paid out" exceptions at once, so the run
 * says how many there are and how to leave them out (payouts.reconcileFrom) instead of letting a
 * wave of exceptions surprise finance.
 */
import type { MoneyMovementInput } from "../../modules/altapay-payouts/types"
import { DEFAULT_PAYOUTS_OPTIONS, type PayoutsOptions } from "../registrations/options"
import type { AltaPayRegistration } from "../registrations/registrations"

const DAY_MS = 24 * 60 * 60 * 1000

export class OldMovements {
  private readonly payoutsOf: Map<string, PayoutsOptions>
  private readonly counts = new Map<string, number>()

  constructor(registrations: AltaPayRegistration[]) {
    this.payoutsOf = new Map(registrations.map((r) => [r.providerId, r.options.payouts]))
  }

  /** Notes a movement just copied if it is already past its registration's unfunded cut-off and not before its reconcileFrom. */
  count(movement: Pick<MoneyMovementInput, "providerId" | "recordedAt">, now: Date): void {
    const payouts = this.payoutsOf.get(movement.providerId) ?? DEFAULT_PAYOUTS_OPTIONS
    const recorded = movement.recordedAt.getTime()
    if (recorded >= now.getTime() - payouts.unfundedAfterDays * DAY_MS) return
    if (payouts.reconcileFrom && recorded < Date.parse(`${payouts.reconcileFrom}T00:00:00Z`)) return
    this.counts.set(movement.providerId, (this.counts.get(movement.providerId) ?? 0) + 1)
  }

  /** One sentence for the account's registrations, or undefined when none of its copied movements was old. */
  notice(providerIds: string[]): string | undefined {
    const old = providerIds.filter((id) => (this.counts.get(id) ?? 0) > 0)
    if (old.length === 0) return undefined
    const total = old.reduce((sum, id) => sum + this.counts.get(id)!, 0)
    const days = [...new Set(old.map((id) => (this.payoutsOf.get(id) ?? DEFAULT_PAYOUTS_OPTIONS).unfundedAfterDays))].join(" or ")
    return (
      `${total} capture(s) and refund(s) of ${old.join(", ")} recorded more than ${days} days ago were copied in this run (a first import, or payouts just turned on): ` +
      `each one that no imported funding pays out is listed at once as "not paid out" (unfunded). If finance reconciled them before, set payouts.reconcileFrom ` +
      `to the day reconciliation in Medusa starts (YYYY-MM-DD) and restart: earlier ones are then left out.`
    )
  }
}
