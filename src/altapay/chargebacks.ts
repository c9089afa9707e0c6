/**
 * Chargeback notifications. AltaPay posts them to the notification URL (callback_notification) with
 * `status=ChargebackEvent`; the callback's `xml` (the payment as an APIResponse) then carries the
 * events in the transaction's `ChargebackEvents`: Date, Type, ReasonCode, Reason, Amount, Currency,
 * AcquirerTransactionId (AltaPay's Scenarios: Chargebacks page; AltaPay/api-php
 * src/Response/Embeds/Transaction.php reads `ChargebackEvents/ChargebackEvent` in each Transaction).
 */
import { XMLParser } from "fast-xml-parser"
import { z } from "zod"
import { AltaPayValidationError } from "./errors"
import { currencyInfo, decimalToMinor } from "./money"

/** The notification's `status` for a chargeback (compared in lower case). */
export const CHARGEBACK_STATUS = "chargebackevent"

export interface ChargebackEvent {
  /** A stable key of the event (the same event posted twice has the same key). */
  key: string
  /** As AltaPay wrote it, e.g. 2020-12-06T00:00:00+01:00. */
  date: string
  /** e.g. Copy Request, Chargeback. */
  type: string
  reasonCode: string | null
  reason: string | null
  amountMinor: number
  /** ISO 4217 alpha. */
  currency: string
  acquirerTransactionId: string | null
  /** The transaction the event belongs to, when the XML names it. */
  transactionId: string | null
}

const text = z.preprocess((value) => (value === undefined || value === null ? undefined : String(value).trim()), z.string().optional())
const eventSchema = z.object({
  Date: text.pipe(z.string().min(1)),
  Type: text.pipe(z.string().min(1)),
  ReasonCode: text,
  Reason: text,
  Amount: text.pipe(z.string().regex(/^-?\d+(\.\d+)?$/, "must be a decimal amount")),
  Currency: text.pipe(z.string().min(1)),
  AcquirerTransactionId: text,
})

const parser = new XMLParser({
  ignoreAttributes: true,
  parseTagValue: false,
  trimValues: true,
  htmlEntities: true,
  isArray: (name) => name === "ChargebackEvent" || name === "Transaction",
})

/**
 * The chargeback events in a callback's `xml`: those of every Transaction (where AltaPay's own
 * client reads them), and any directly under Body. Throws AltaPayValidationError for XML that
 * is not readable or an event without its date, type, amount or currency.
 */
export function chargebackEventsIn(xml: string): ChargebackEvent[] {
  let doc: Record<string, unknown>
  try {
    doc = parser.parse(xml) as Record<string, unknown>
  } catch (error) {
    throw new AltaPayValidationError(`The chargeback notification's xml is not readable: ${error instanceof Error ? error.message : String(error)}.`, [])
  }
  const body = record(record(doc.APIResponse)?.Body) ?? record(doc.Body)
  const transactions = [body?.Transactions, doc.Transactions].flatMap((t) => list(record(t)?.Transaction)).map(record)
  const found: Array<{ raw: unknown; transactionId: string | null }> = []
  for (const transaction of transactions) {
    const id = transaction?.TransactionId
    for (const raw of eventsOf(transaction?.ChargebackEvents)) found.push({ raw, transactionId: typeof id === "string" && id ? id : null })
  }
  for (const raw of [...eventsOf(body?.ChargebackEvents), ...eventsOf(doc.ChargebackEvents)]) found.push({ raw, transactionId: null })
  return found.map(({ raw, transactionId }, index) => toEvent(raw, transactionId, index))
}

function toEvent(raw: unknown, transactionId: string | null, index: number): ChargebackEvent {
  const parsed = eventSchema.safeParse(record(raw) ?? {})
  if (!parsed.success) {
    const issues = parsed.error.issues.map((i) => ({ field: `ChargebackEvent[${index}].${i.path.join(".")}`, message: i.message }))
    throw new AltaPayValidationError(`A chargeback event is not usable: ${issues.map((i) => `${i.field} ${i.message}`).join("; ")}.`, issues)
  }
  const e = parsed.data
  const currency = currencyInfo(e.Currency).alpha
  const event = {
    date: e.Date,
    type: e.Type,
    reasonCode: e.ReasonCode || null,
    reason: e.Reason || null,
    amountMinor: decimalToMinor(e.Amount, currency),
    currency,
    acquirerTransactionId: e.AcquirerTransactionId || null,
    transactionId,
  }
  return { key: chargebackKey(event), ...event }
}

/** The acquirer's id when AltaPay sends one, else what the event says. */
export function chargebackKey(e: Omit<ChargebackEvent, "key">): string {
  return [e.acquirerTransactionId ?? "", e.date, e.type, e.reasonCode ?? "", e.amountMinor, e.currency].join("|")
}

/** The ChargebackEvent elements of one or more (an empty one beside a filled one) ChargebackEvents elements. */
function eventsOf(node: unknown): unknown[] {
  return list(node).flatMap((events) => list(record(events)?.ChargebackEvent))
}

function record(value: unknown): Record<string, unknown> | undefined {
  return value !== null && typeof value === "object" && !Array.isArray(value) ? (value as Record<string, unknown>) : undefined
}

function list(value: unknown): unknown[] {
  return value === undefined || value === null || value === "" ? [] : Array.isArray(value) ? value : [value]
}
