/**
 * The request log (issue 43): what the plugin said to AltaPay about a payment, for the order's
 * AltaPay panel. An entry is built field by field from the client's AltaPayCall (itself an
 * allow-list), and each field must also have the shape the plugin's own values have: an
 * operation is a method and a path template, a result one word, a reconciliation identifier one
 * the plugin makes (medusa-capture-…, payses-…). Anything else is left out, never cut down to
 * fit. AltaPay's messages are the one free text kept: card-number-like digit runs, e-mail
 * addresses and token-like strings in them are masked. Payments are found by hashes of their
 * AltaPay ids, so no id stands in a cache key either. Kept in Medusa's cache module (every
 * server sees it), bounded per payment in entries and days; concurrent writes to one payment
 * from two servers may drop one entry: a log for reading, not a record anything acts on.
 */
import { createHash, randomUUID } from "node:crypto"
import type { AltaPayCall, AltaPayCallOutcome, AltaPayCallSubjects } from "../../altapay"
import type { RequestLogOptions } from "../registrations/request-log-options"
import type { SharedStore } from "../scale-out/shared-state"

export interface RequestLogEntry {
  id: string
  /** When the call started (ISO 8601). */
  at: string
  /** `METHOD path template`, e.g. `POST /merchant/API/captureReservation`. */
  operation: string
  duration_ms: number
  retries: number
  /** AltaPay's HTTP status; null when no answer came. */
  status: number | null
  outcome: AltaPayCallOutcome
  /** AltaPay's Result (Success, Open, Failed…). */
  result: string | null
  merchant_message: string | null
  cardholder_message: string | null
  /** The client's error code, and the gateway's ErrorCode when it was not 0. */
  error_code: string | null
  gateway_error_code: number | null
  reconciliation_identifier: string | null
}

const OUTCOMES: readonly AltaPayCallOutcome[] = ["success", "open", "declined", "lost", "not_sent", "error"]
const OPERATION = /^(GET|POST|PUT) \/[A-Za-z0-9/{}_-]{1,120}$/
const WORD = /^[A-Za-z_]{1,40}$/
/** The reconciliation identifiers the plugin makes: medusa-<kind>-<Medusa id>, and a session's shop_orderid. */
const OWN_RECONCILIATION_ID = /^(medusa-(capture|refund|charge)-[A-Za-z0-9_-]{1,85}|payses[-_][A-Za-z0-9]{1,60})$/
const MESSAGE_MAX = 300

/** The entry for one call: each field copied only in the shape the plugin's own values have. */
export function requestLogEntry(call: AltaPayCall): RequestLogEntry {
  return {
    id: randomUUID(),
    at: call.startedAt.toISOString(),
    operation: OPERATION.test(call.operation) ? call.operation : "unknown",
    duration_ms: wholeNumber(call.durationMs) ?? 0,
    retries: wholeNumber(call.retries) ?? 0,
    status: wholeNumber(call.status) ?? null,
    outcome: OUTCOMES.includes(call.outcome) ? call.outcome : "error",
    result: call.result !== undefined && WORD.test(call.result) ? call.result : null,
    merchant_message: maskedMessage(call.merchantMessage),
    cardholder_message: maskedMessage(call.cardHolderMessage),
    error_code: call.errorCode !== undefined && WORD.test(call.errorCode) ? call.errorCode : null,
    gateway_error_code: wholeNumber(call.gatewayErrorCode) ?? null,
    reconciliation_identifier: call.reconciliationIdentifier !== undefined && OWN_RECONCILIATION_ID.test(call.reconciliationIdentifier) ? call.reconciliationIdentifier : null,
  }
}

/**
 * AltaPay's message with what could be a card number, an account, a phone number or an address's
 * number (six digits or more, spaced or not), an e-mail address or a token masked; at most 300
 * characters, on one line.
 */
export function maskedMessage(text: string | undefined): string | null {
  if (!text) return null
  const masked = text
    .replace(/[\p{Cc}]+/gu, " ")
    .replace(/[^\s@]+@[^\s@]+/g, "[email]")
    .replace(/[A-Za-z0-9+/=_.-]{24,}/g, "[redacted]")
    .replace(/\d(?:[\s./-]?\d){5,}/g, "[number]")
    .trim()
  if (!masked) return null
  return masked.length > MESSAGE_MAX ? `${masked.slice(0, MESSAGE_MAX - 1)}…` : masked
}

function wholeNumber(value: number | undefined): number | undefined {
  return value !== undefined && Number.isSafeInteger(value) && value >= 0 ? value : undefined
}

const KINDS = ["sessionId", "paymentId", "transactionId", "shopOrderId", "agreementId"] as const satisfies ReadonlyArray<keyof AltaPayCallSubjects>

/** The cache keys of a payment's ids: hashes, so the keys carry no id. */
export function requestLogKeys(subjects: AltaPayCallSubjects): string[] {
  const ids = new Set(KINDS.map((kind) => subjects[kind]).filter((id): id is string => typeof id === "string" && id.length > 0))
  return [...ids].map((id) => `altapay:request-log:${createHash("sha256").update(id).digest("hex").slice(0, 40)}`)
}

const DAY_MS = 24 * 60 * 60 * 1000

/** A payment's log in the shared store; writes of one process to one payment are made one after another. */
export class RequestLog {
  private readonly tails = new Map<string, Promise<void>>()

  constructor(
    private readonly store: SharedStore,
    private readonly options: Pick<RequestLogOptions, "maxEntries" | "retentionDays">,
    private readonly onError: (error: unknown) => void = () => {}
  ) {}

  /** Adds the call to the log of every id it names (one entry, the same id, in each). */
  append(call: AltaPayCall): void {
    const keys = requestLogKeys(call.subjects)
    if (keys.length === 0) return
    const entry = requestLogEntry(call)
    for (const key of keys) {
      const tail = (this.tails.get(key) ?? Promise.resolve())
        .then(() => this.write(key, entry))
        .catch(this.onError)
        .finally(() => {
          if (this.tails.get(key) === tail) this.tails.delete(key)
        })
      this.tails.set(key, tail)
    }
  }

  /** Resolves once every write started so far is done. */
  async settled(): Promise<void> {
    await Promise.all([...this.tails.values()])
  }

  /** The entries about any of a payment's ids, oldest first, each once. */
  async read(subjects: AltaPayCallSubjects): Promise<RequestLogEntry[]> {
    const lists = await Promise.all(requestLogKeys(subjects).map((key) => this.store.get<RequestLogEntry[]>(key)))
    const byId = new Map<string, RequestLogEntry>()
    for (const entry of lists.flatMap((list) => (Array.isArray(list) ? list : []))) byId.set(entry.id, entry)
    const since = Date.now() - this.options.retentionDays * DAY_MS
    return [...byId.values()].filter((entry) => Date.parse(entry.at) >= since).sort((a, b) => a.at.localeCompare(b.at))
  }

  private async write(key: string, entry: RequestLogEntry): Promise<void> {
    const since = Date.now() - this.options.retentionDays * DAY_MS
    const kept = ((await this.store.get<RequestLogEntry[]>(key)) ?? []).filter((old) => Date.parse(old.at) >= since)
    kept.push(entry)
    await this.store.set(key, kept.slice(-this.options.maxEntries), this.options.retentionDays * 24 * 60 * 60)
  }
}
