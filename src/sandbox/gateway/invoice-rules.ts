/**
 * What an invoice terminal (Klarna) asks of a payment beyond a card's, as AltaPay documents it:
 * - Payment Provider Specific Notes, "Invoice payments": the reservation carries order lines with
 *   description, itemId, quantity, unitPrice, taxPercent or taxAmount, and goodsType;
 * - Scenarios, "Partially capture a Klarna payment": "All components of the order line in the
 *   partial capture must exactly match the order line from the original payment", and the final
 *   capture "must be completed within twenty-eight days of the original order reservation";
 * - Scenarios, "Refund a Klarna payment": order lines are left blank for goodwill refunds, and
 *   otherwise must relate to the original set of order lines.
 * Each check returns the reason for the merchant, or undefined when the operation may go on.
 */
import { gatewayDate } from "../clock"
import { parseDecimal } from "../order-lines"
import type { InvoiceReservation, ReservationLine, StoredTransaction } from "../state"

type Line = Record<string, string>

const DAY_MS = 86_400_000
/** Every component a partial capture's line must repeat exactly. */
const CAPTURE_TEXT = ["description", "itemId", "goodsType"] as const
const CAPTURE_NUMBERS = ["quantity", "unitPrice", "taxAmount", "taxPercent", "discount"] as const
/** What a refund line must keep of its original line (its quantity and tax may be smaller). */
const REFUND_TEXT = ["description", "goodsType"] as const
const REFUND_NUMBERS = ["unitPrice", "taxPercent"] as const
const KEPT = ["description", "itemId", "quantity", "unitPrice", "taxAmount", "taxPercent", "goodsType", "discount", "unitCode"] as const

const present = (value: string | undefined): value is string => value !== undefined && value.trim() !== ""

function sameNumber(a: string | undefined, b: string | undefined): boolean {
  if (!present(a) || !present(b)) return !present(a) && !present(b)
  const x = parseDecimal(a)
  const y = parseDecimal(b)
  return x !== null && y !== null && x.n * y.d === y.n * x.d
}

const shown = (value: string | undefined): string => (present(value) ? value : "(none)")

/** "unitPrice 40.00 differs from 40.01" for each component of `sent` that is not the original's. */
function differences(sent: Line, original: Line, texts: readonly string[], numbers: readonly string[]): string[] {
  const found: string[] = []
  for (const field of texts) if ((sent[field] ?? "") !== (original[field] ?? "")) found.push(`${field} '${sent[field] ?? ""}' differs from '${original[field] ?? ""}'`)
  for (const field of numbers) if (!sameNumber(sent[field], original[field])) found.push(`${field} ${shown(sent[field])} differs from ${shown(original[field])}`)
  return found
}

const lineName = (index: number, line: Line): string => `Order line ${index + 1} (itemId '${line.itemId ?? ""}')`

/**
 * The reservation's order lines for an invoice terminal, or why the payment cannot be made: no
 * lines, or a line without a component Klarna needs. (The session already checked that the lines
 * are well formed and add up to its amount.)
 */
export function reservationLines(orderLines: unknown, captureWithinDays: number): InvoiceReservation | { refusal: string } {
  if (!Array.isArray(orderLines) || orderLines.length === 0) {
    return { refusal: "Invoice payments need order lines (description, itemId, quantity, unitPrice, taxPercent or taxAmount, goodsType); the session has none." }
  }
  const problems: string[] = []
  const lines = orderLines.map((raw, index) => {
    const record = (typeof raw === "object" && raw !== null ? raw : {}) as Record<string, unknown>
    const fields: Line = {}
    for (const field of KEPT) {
      const value = record[field]
      if (typeof value === "string" || typeof value === "number") fields[field] = String(value)
    }
    const missing = ["description", "itemId", "quantity", "unitPrice", "goodsType"].filter((field) => !present(fields[field]))
    if (!present(fields.taxPercent) && !present(fields.taxAmount)) missing.push("taxPercent or taxAmount")
    if (missing.length > 0) problems.push(`${lineName(index, fields)} lacks ${missing.join(", ")}`)
    return { fields, captured: false, refundedQuantity: "0" }
  })
  if (problems.length > 0) return { refusal: `Invoice payments need complete order lines: ${problems.join("; ")}.` }
  return { lines, captureWithinDays }
}

/** Why an invoice terminal refuses this capture (undefined: it may go on). `lines` are the capture's own. */
export function invoiceCaptureRefusal(t: StoredTransaction, lines: Line[] | undefined, amountMinor: number, remainingMinor: number, now: number): string | undefined {
  const invoice = t.invoice
  if (!invoice) return undefined
  if (now - t.createdAt > invoice.captureWithinDays * DAY_MS) {
    return `Capture after ${invoice.captureWithinDays} days of the reservation (reserved ${gatewayDate(t.createdAt)}): an invoice payment must be captured within ${invoice.captureWithinDays} days unless an extended payment period is agreed with Klarna.`
  }
  if (!lines) {
    if (amountMinor < remainingMinor) return "A partial capture of an invoice payment must carry the order lines it captures, each exactly as reserved."
    return undefined
  }
  const taken = new Set<ReservationLine>()
  for (const [index, line] of lines.entries()) {
    const match = invoice.lines.find((original) => !original.captured && !taken.has(original) && differences(line, original.fields, CAPTURE_TEXT, CAPTURE_NUMBERS).length === 0)
    if (match) {
      taken.add(match)
      continue
    }
    const sameItem = invoice.lines.filter((original) => original.fields.itemId === line.itemId)
    if (sameItem.length === 0) return `${lineName(index, line)} does not match any order line of the reservation: no reserved line has that itemId.`
    const open = sameItem.filter((original) => !original.captured)
    if (open.length === 0) return `${lineName(index, line)} was captured before: each reserved order line is captured once.`
    const diff = differences(line, open[0].fields, CAPTURE_TEXT, CAPTURE_NUMBERS)
    return `${lineName(index, line)} does not match any order line of the reservation: ${diff.join(", ")}.`
  }
  return undefined
}

/** Marks what a capture took: its lines, or every line not captured yet when it came without. */
export function recordInvoiceCapture(t: StoredTransaction, lines: Line[] | undefined): void {
  if (!t.invoice) return
  const open = t.invoice.lines.filter((original) => !original.captured)
  if (!lines) {
    for (const original of open) original.captured = true
    return
  }
  for (const line of lines) {
    const match = open.find((original) => !original.captured && differences(line, original.fields, CAPTURE_TEXT, CAPTURE_NUMBERS).length === 0)
    if (match) match.captured = true
  }
}

const minus = (a: string, b: string): { n: bigint; d: bigint } => {
  const x = parseDecimal(a)!
  const y = parseDecimal(b)!
  return { n: x.n * y.d - y.n * x.d, d: x.d * y.d }
}

/** Why an invoice terminal refuses this refund's lines (undefined: they relate to the reservation's). */
export function invoiceRefundRefusal(t: StoredTransaction, lines: Line[] | undefined): string | undefined {
  if (!t.invoice || !lines) return undefined // no lines: a goodwill refund, as the Klarna refund page allows
  for (const [index, line] of lines.entries()) {
    // AltaPay's "Refund a Klarna payment" deducts a return fee as a handling line of its own: handling
    // lines (fees, a share of a promotion) need not be reserved lines.
    if (line.goodsType === "handling") continue
    const original = t.invoice.lines.find((candidate) => candidate.fields.itemId === line.itemId)
    if (!original) return `${lineName(index, line)} does not relate to any order line of the reservation: no reserved line has that itemId.`
    const diff = differences(line, original.fields, REFUND_TEXT, REFUND_NUMBERS)
    if (diff.length > 0) return `${lineName(index, line)} does not relate to the reservation's order line: ${diff.join(", ")}.`
    const left = minus(original.fields.quantity, original.refundedQuantity)
    const asked = parseDecimal(line.quantity)
    if (asked && asked.n * left.d > left.n * asked.d) {
      return `${lineName(index, line)} refunds quantity ${line.quantity}, more than the ${plain(left)} of that line not refunded yet.`
    }
  }
  return undefined
}

/** Adds a refund's line quantities to what was refunded of each reservation line. */
export function recordInvoiceRefund(t: StoredTransaction, lines: Line[] | undefined): void {
  if (!t.invoice || !lines) return
  for (const line of lines) {
    const original = t.invoice.lines.find((candidate) => candidate.fields.itemId === line.itemId)
    if (!original) continue
    const added = minus(original.refundedQuantity, `-${line.quantity.trim().replace(/^[+-]/, "")}`)
    original.refundedQuantity = plain(added)
  }
}

/** Exact decimal text of a fraction whose denominator is a power of ten. */
function plain(value: { n: bigint; d: bigint }): string {
  const digits = value.d.toString().length - 1
  const negative = value.n < 0n
  const abs = (negative ? -value.n : value.n).toString().padStart(digits + 1, "0")
  const whole = abs.slice(0, abs.length - digits)
  const fraction = digits > 0 ? abs.slice(abs.length - digits).replace(/0+$/, "") : ""
  return `${negative ? "-" : ""}${whole}${fraction ? `.${fraction}` : ""}`
}

/**
 * updateOrder on an invoice reservation: its new lines replace the reserved ones and its amount
 * becomes the reserved amount. Refused (the reason) for a card or wallet payment (the page lists
 * only some methods; its order lines are "only relevant for invoice payment methods such as
 * KlarnaPayments"), once anything is captured, and for a larger amount (Klarna re-assesses an
 * increase; the sandbox does not): those rules are the sandbox's own.
 */
export function updateInvoiceReservation(t: StoredTransaction, lines: Line[] | undefined, amountMinor: number): string | undefined {
  if (t.nature !== "Invoice" || !t.invoice) return "updateOrder is not supported for this payment method (only invoice payments such as Klarna)."
  if (t.capturedMinor > 0) return "The order cannot be updated: part of it is captured already."
  if (amountMinor > t.reservedMinor) return "The sandbox does not raise a reservation: updateOrder may only lower the amount."
  const replaced = reservationLines(lines, t.invoice.captureWithinDays)
  if ("refusal" in replaced) return replaced.refusal
  t.invoice.lines = replaced.lines
  t.reservedMinor = amountMinor
  return undefined
}
