/**
 * The payout CSV exports: a header row, then one row per funding, line or exception, written page
 * by page as the module answers (a file has thousands of lines). Amounts are decimals of their
 * currency. docs/finance.md's Exports section describes every column (test/docs/exports.test.ts).
 */
import type { MedusaResponse } from "@medusajs/framework/http"
import { minorToDecimal } from "../../../../altapay"
import type { FundingFileSummary, FundingLineView, PayoutException } from "../../../../modules/altapay-payouts/types"
import { MAX_PAGE_SIZE } from "./payouts-query"

type Cell = string | number | boolean | null | undefined

/** A cell that is only a decimal number (`-0.25`, `1250`): a spreadsheet reads it as a number, never as a formula. */
const PLAIN_NUMBER = /^[+-]?\d+(?:\.\d+)?$/
/**
 * Where a spreadsheet may start a cell inside our text: the cell's start, and after each character
 * it may split cells or rows on (`,`; `;` for Danish and other locales' Excel; tab; CR and LF, which
 * end a row when the quote before them was not at a cell start). A start followed (after spaces and
 * double quotes) by `=`, `+`, `-`, `@`, tab or CR would be run as a formula.
 */
const FORMULA_AT_CELL_START = /(?<=^|[,;\t\r\n])(?=[ "]*[=+\-@\t\r])/g

/**
 * The text of a cell, with `'` put before every place a spreadsheet could start a formula, however
 * it splits the row; a plain number (finance's negative amounts) stays a number.
 */
export function neutraliseFormulas(text: string): string {
  return PLAIN_NUMBER.test(text) ? text : text.replace(FORMULA_AT_CELL_START, "'")
}

/** RFC 4180 quoting of cells whose formulas are neutralised (every cell, amounts included). */
export function csvRow(cells: readonly Cell[]): string {
  return (
    cells
      .map((cell) => {
        const text = neutraliseFormulas(cell === null || cell === undefined ? "" : String(cell))
        return /[",\r\n]/.test(text) ? `"${text.replace(/"/g, '""')}"` : text
      })
      .join(",") + "\r\n"
  )
}

/** `12.50` for 1250 DKK; the minor units as they are for a currency we do not know. */
export function decimal(minor: number | null, currency: string | null): string {
  if (minor === null) return ""
  if (!currency) return String(minor)
  try {
    return minorToDecimal(minor, currency)
  } catch {
    return String(minor)
  }
}

/** A CSV export: its header row, and an item's cells in the header's order. */
export interface CsvTable<T> {
  header: readonly string[]
  row(item: T): Cell[]
}

/** A column: its name in the header row, and its cell for an item. */
type CsvColumn<T> = readonly [name: string, cell: (item: T) => Cell]

/** The table of `columns`, each name kept beside its cell so the two cannot drift apart. */
function csvTable<T>(columns: readonly CsvColumn<T>[]): CsvTable<T> {
  return { header: columns.map(([name]) => name), row: (item) => columns.map(([, cell]) => cell(item)) }
}

/** The fundings, one row per bank transfer, newest first (GET /admin/altapay/payouts/export). */
export const PAYOUT_CSV = csvTable<FundingFileSummary>([
  ["funding_date", (f) => f.fundingDate],
  ["filename", (f) => f.filename],
  ["account", (f) => f.account],
  ["provider_id", (f) => f.providerId],
  ["currency", (f) => f.currency],
  ["gross", (f) => decimal(f.grossMinor, f.currency)],
  ["fees", (f) => decimal(f.feesMinor, f.currency)],
  ["fee_vat", (f) => decimal(f.feeVatMinor, f.currency)],
  ["net", (f) => decimal(f.netMinor, f.currency)],
  ["amount", (f) => decimal(f.amountMinor, f.currency)],
  ["totals_agree", (f) => f.totalsAgree],
  ["lines", (f) => f.lineCount],
  ["unreadable_lines", (f) => f.unreadableLineCount],
  ["matched", (f) => f.matchedCount],
  ["unmatched", (f) => f.unmatchedCount],
  ["imported_at", (f) => f.importedAt],
  ["id", (f) => f.id],
])

/** A funding file's lines (GET /admin/altapay/payouts/:id/export). */
export const LINE_CSV = csvTable<FundingLineView>([
  ["line_number", (l) => l.lineNumber],
  ["date", (l) => l.date],
  ["type", (l) => l.type],
  ["acquirer_id", (l) => l.acquirerId],
  ["reconciliation_identifier", (l) => l.reconciliationIdentifier],
  ["altapay_payment_id", (l) => l.altapayPaymentId],
  ["altapay_order_id", (l) => l.altapayOrderId],
  ["terminal", (l) => l.terminal],
  ["shop", (l) => l.shop],
  ["transaction_currency", (l) => l.transactionCurrency],
  ["transaction_amount", (l) => decimal(l.transactionAmountMinor, l.transactionCurrency)],
  ["exchange_rate", (l) => l.exchangeRate],
  ["settlement_currency", (l) => l.settlementCurrency],
  ["settlement_amount", (l) => decimal(l.settlementAmountMinor, l.settlementCurrency)],
  ["fixed_fee", (l) => decimal(l.fixedFeeMinor, l.settlementCurrency)],
  ["fixed_fee_vat", (l) => decimal(l.fixedFeeVatMinor, l.settlementCurrency)],
  ["rate_based_fee", (l) => decimal(l.rateBasedFeeMinor, l.settlementCurrency)],
  ["rate_based_fee_vat", (l) => decimal(l.rateBasedFeeVatMinor, l.settlementCurrency)],
  ["fees", (l) => decimal(l.feesMinor, l.settlementCurrency)],
  ["net", (l) => decimal(l.netMinor, l.settlementCurrency)],
  ["match_method", (l) => l.match?.method],
  ["matched_kind", (l) => l.match?.kind],
  ["medusa_id", (l) => l.match?.medusaId],
  ["payment_id", (l) => l.match?.paymentId],
  ["order_id", (l) => l.match?.orderId],
  ["medusa_currency", (l) => l.match?.currency],
  ["medusa_amount", (l) => (l.match ? decimal(l.match.amountMinor, l.match.currency) : null)],
  ["issue", (l) => l.issue],
])

/** The payout exceptions (GET /admin/altapay/payout-exceptions/export). */
export const EXCEPTION_CSV = csvTable<PayoutException>([
  ["kind", (e) => e.kind],
  ["message", (e) => e.message],
  ["filename", (e) => e.filename],
  ["funding_date", (e) => e.fundingDate],
  ["line_number", (e) => e.lineNumber],
  ["line_type", (e) => e.lineType],
  ["medusa_id", (e) => e.medusaId],
  ["payment_id", (e) => e.paymentId],
  ["order_id", (e) => e.orderId],
  ["currency", (e) => e.currency],
  ["medusa_amount", (e) => decimal(e.medusaAmountMinor, e.medusaCurrency ?? e.currency)],
  ["medusa_currency", (e) => e.medusaCurrency],
  ["altapay_amount", (e) => decimal(e.altapayAmountMinor, e.currency)],
  ["date", (e) => e.date],
])

/**
 * Streams `table`'s rows page by page. The first page is read before anything is sent, so a
 * failure there is still an ordinary error answer; a later one cuts the download short.
 */
export async function streamCsv<T>(
  res: MedusaResponse,
  filename: string,
  table: CsvTable<T>,
  page: (offset: number, limit: number) => Promise<{ items: T[]; count: number }>
): Promise<void> {
  let current = await page(0, MAX_PAGE_SIZE)
  res.status(200)
  res.setHeader("Content-Type", "text/csv; charset=utf-8")
  res.setHeader("Content-Disposition", `attachment; filename="${filename.replace(/[^A-Za-z0-9._-]/g, "_")}.csv"`)
  res.setHeader("Cache-Control", "no-store")
  await write(res, csvRow(table.header))
  try {
    for (let offset = 0; ;) {
      await write(res, current.items.map((item) => csvRow(table.row(item))).join(""))
      offset += current.items.length
      if (current.items.length === 0 || offset >= current.count || res.destroyed) break
      current = await page(offset, MAX_PAGE_SIZE)
    }
    res.end()
  } catch (error) {
    // Headers are sent: a cut download is all that can tell the client.
    res.destroy(error as Error)
  }
}

async function write(res: MedusaResponse, text: string): Promise<void> {
  if (!text || res.write(text)) return
  // A client that went away ends the wait too (the loop then stops). Whichever comes first, both
  // listeners go: an export waits once per page, and each wait would leave a `close` listener.
  await new Promise<void>((resolve) => {
    const done = () => {
      res.off("drain", done).off("close", done)
      resolve()
    }
    res.once("drain", done).once("close", done)
  })
}
