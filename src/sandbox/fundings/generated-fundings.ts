/**
 * Funding files of generated lines, for scale tests (the payouts benchmark): a file is a few
 * numbers, each line is computed from its index, and the CSV is written as it is sent, so the
 * sandbox serves a million lines without holding them. Line `index` is the same in every run.
 */
import { currencyInfo } from "../../altapay/money"
import { fees, fundingCsvHeader, fundingCsvRow, netOf, type SandboxFundingLine } from "./funding-file"

export const MAX_GENERATED_LINES = 1_000_000
const LINES_PER_CHUNK = 500

export interface GeneratedFundingSpec {
  /** Lines in the file (besides the header), 1 to 1,000,000. */
  lines: number
  /** Index of the file's first line; line n of the file is line `firstIndex + n` of the series. */
  firstIndex: number
  /** Transaction and settlement currency (no conversion). */
  currency: string
  /** Settlement date of every line, `YYYY-MM-DD`. */
  date: string
  /** Reconciliation identifier of a payment line: this prefix and the line's index. */
  paymentPrefix: string
  /** Of a refund line (every 10th line, index ending in 9). */
  refundPrefix: string
}

export type GeneratedFundingInput = Partial<Omit<GeneratedFundingSpec, "lines">> & { lines: number }

export function generatedSpec(input: GeneratedFundingInput, today: string): GeneratedFundingSpec {
  const spec: GeneratedFundingSpec = {
    lines: input.lines,
    firstIndex: input.firstIndex ?? 0,
    currency: input.currency ?? "EUR",
    date: input.date ?? today,
    paymentPrefix: input.paymentPrefix ?? "generated-payment-",
    refundPrefix: input.refundPrefix ?? "generated-refund-",
  }
  if (!Number.isInteger(spec.lines) || spec.lines < 1 || spec.lines > MAX_GENERATED_LINES) throw new Error(`lines must be a whole number from 1 to ${MAX_GENERATED_LINES}.`)
  if (!Number.isSafeInteger(spec.firstIndex) || spec.firstIndex < 0) throw new Error("firstIndex must be a whole number from 0.")
  if (!/^\d{4}-\d{2}-\d{2}$/.test(spec.date)) throw new Error("date must be YYYY-MM-DD.")
  spec.currency = currencyInfo(spec.currency).alpha
  return spec
}

/** The line with this index of the series (not of one file): a payment, or a refund when the index ends in 9. */
export function generatedLine(spec: GeneratedFundingSpec, index: number): SandboxFundingLine {
  const kind = index % 10 === 9 ? "refund" : "payment"
  // 10.00 to 999.99 in the currency's minor units (for 2 decimals), spread over the series.
  const amount = 1_000 + ((index * 7_919) % 99_000)
  const signed = kind === "payment" ? amount : -amount
  return {
    date: spec.date,
    type: kind,
    id: `GEN${String(index).padStart(12, "0")}`,
    transaction: {
      reconciliationIdentifier: `${kind === "payment" ? spec.paymentPrefix : spec.refundPrefix}${index}`,
      // A numeric transaction id, as AltaPay's files carry in the Payment column.
      paymentId: String(100_000_000 + index),
      shopOrderId: `generated-order-${index}`,
      terminal: "AltaPay Sandbox Terminal",
      shop: "AltaPay Sandbox Shop",
      currency: spec.currency,
      amountMinor: signed,
      exchangeRate: "100",
    },
    settlementCurrency: spec.currency,
    settlementAmountMinor: signed,
    fees: fees(signed, spec.currency, kind),
  }
}

/** The file's lines, one at a time. */
export function* generatedLines(spec: GeneratedFundingSpec): Generator<SandboxFundingLine> {
  for (let n = 0; n < spec.lines; n++) yield generatedLine(spec, spec.firstIndex + n)
}

/** The funding's Amount: the lines' settlement amounts plus their negative fees (computed once, line by line). */
export function generatedAmount(spec: GeneratedFundingSpec): number {
  let sum = 0
  for (const line of generatedLines(spec)) sum += netOf(line)
  return sum
}

/** The CSV in chunks of a few hundred rows, header first. */
export function* generatedCsvChunks(spec: GeneratedFundingSpec): Generator<string> {
  let chunk = `${fundingCsvHeader()}\n`
  let rows = 0
  for (const line of generatedLines(spec)) {
    chunk += `${fundingCsvRow(line)}\n`
    if (++rows % LINES_PER_CHUNK === 0) {
      yield chunk
      chunk = ""
    }
  }
  if (chunk) yield chunk
}
