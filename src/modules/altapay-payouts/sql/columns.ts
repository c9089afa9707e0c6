/**
 * Shared pieces of the module's SQL: money columns (Medusa's bigNumber: a numeric column and its
 * raw_ twin, here holding integer minor units), reading numerics back, and which line types pay
 * out or take back a capture or refund.
 */

/** A bigNumber column's pair of values for an insert. */
export function moneyColumns(column: string, minor: number | null | undefined): Record<string, unknown> {
  if (minor === null || minor === undefined) return { [column]: null, [`raw_${column}`]: null }
  return { [column]: String(minor), [`raw_${column}`]: JSON.stringify({ value: String(minor), precision: 20 }) }
}

/** Postgres numerics arrive as text: minor units are integers far below 2^53, so a number is exact. */
export function minorFrom(value: unknown): number {
  if (typeof value === "number") return value
  if (typeof value === "string" && /^-?\d+$/.test(value)) return Number(value)
  throw new Error(`AltaPay payouts: expected whole minor units from the database, got ${JSON.stringify(value)}`)
}

export function optionalMinorFrom(value: unknown): number | null {
  return value === null || value === undefined ? null : minorFrom(value)
}

/** Line types that pay out (or fail to pay out) a capture, and a refund. */
export const CAPTURE_LINE_TYPES = ["payment", "payment_rejected"] as const
export const REFUND_LINE_TYPES = ["refund", "refund_rejected"] as const
export const SETTLING_LINE_TYPES = ["payment", "refund"] as const
export const REJECTED_LINE_TYPES = ["payment_rejected", "refund_rejected"] as const
export const TRANSACTION_LINE_TYPES = [...CAPTURE_LINE_TYPES, ...REFUND_LINE_TYPES] as const
/** AltaPay's own charges and corrections tied to no order: part of a payout, nothing to look into. */
export const EXPLAINED_OTHER_LINE_TYPES = ["fee", "adjustment", "rolling", "roundoff"] as const

/** SQL: the movement kind a line of type `l.type` belongs to (null for fees, adjustments and the like). */
export const LINE_KIND_SQL = `(case when l.type in ('payment', 'payment_rejected') then 'capture' when l.type in ('refund', 'refund_rejected') then 'refund' end)`

/**
 * SQL: the amount and currency a line names for its transaction; a file that leaves the transaction
 * columns empty is compared on its settlement amount and currency instead.
 */
export const LINE_AMOUNT_SQL = `coalesce(l.transaction_amount_minor, l.settlement_amount_minor)`
export const LINE_CURRENCY_SQL = `coalesce(l.transaction_currency, l.settlement_currency)`

/** SQL condition: line `l` is on a funding file not deleted. */
export const LINE_FILE_LIVE_SQL = `exists (select 1 from altapay_funding_file lf where lf.id = l.file_id and lf.deleted_at is null)`

/** SQL: a line's fees and their VAT, signed as AltaPay writes them (a fee charged is negative). */
export const LINE_FEES_SQL = `(coalesce(l.fixed_fee_minor, 0) + coalesce(l.fixed_fee_vat_minor, 0) + coalesce(l.rate_based_fee_minor, 0) + coalesce(l.rate_based_fee_vat_minor, 0))`

/** SQL list literal of fixed identifiers (constants above only, never user input). */
export const sqlList = (values: readonly string[]): string => values.map((v) => `'${v}'`).join(", ")

export const isoOrNull = (value: unknown): string | null => (value instanceof Date ? value.toISOString() : value === null || value === undefined ? null : String(value))
