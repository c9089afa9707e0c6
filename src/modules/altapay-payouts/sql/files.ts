/** The Payouts page's reads: funding files with their match counts, and a file's lines. */
import type { Knex } from "@medusajs/framework/mikro-orm/knex"
import type { FundingFileSummary, FundingLineView, MatchMethod, Page } from "../types"
import { LINE_FEES_SQL, TRANSACTION_LINE_TYPES, isoOrNull, minorFrom, optionalMinorFrom, sqlList } from "./columns"

type Row = Record<string, any>

const FILE_ORDER = "order by funding_date desc, filename desc, id desc"

const IS_TRANSACTION_LINE = `l.type in (${sqlList(TRANSACTION_LINE_TYPES)})`

// Counted per file through the (file_id, line_number) index, after the page is chosen (`files`):
// a page of files reads only its own lines, however far into the list it is. The fees' VAT is
// added up from the lines (the file row keeps only the fees with their VAT).
const fileSelect = (files: string) => `
  select f.*, coalesce(c.matched, 0)::int as matched_count, coalesce(c.unmatched, 0)::int as unmatched_count,
         coalesce(c.fee_vat, 0)::bigint as fee_vat_minor
    from ${files} f
    left join lateral (
      select count(*) filter (where l.movement_id is not null and ${IS_TRANSACTION_LINE}) as matched,
             count(*) filter (where l.movement_id is null and ${IS_TRANSACTION_LINE}) as unmatched,
             sum(coalesce(l.fixed_fee_vat_minor, 0) + coalesce(l.rate_based_fee_vat_minor, 0)) as fee_vat
        from altapay_funding_line l
       where l.file_id = f.id and l.deleted_at is null
    ) c on true`

export async function listPayoutFiles(knex: Knex, page: Page): Promise<{ files: FundingFileSummary[]; count: number }> {
  const [rows, total] = await Promise.all([
    knex.raw(`${fileSelect(`(select * from altapay_funding_file where deleted_at is null ${FILE_ORDER} limit ? offset ?)`)} ${FILE_ORDER}`, [page.limit, page.offset]),
    knex("altapay_funding_file").whereNull("deleted_at").count({ count: "*" }).first(),
  ])
  return { files: rows.rows.map(fileSummary), count: Number(total?.count ?? 0) }
}

export async function retrievePayoutFile(knex: Knex, id: string): Promise<FundingFileSummary | null> {
  const rows = await knex.raw(fileSelect(`(select * from altapay_funding_file where deleted_at is null and id = ?)`), [id])
  return rows.rows[0] ? fileSummary(rows.rows[0]) : null
}

export async function listPayoutFileLines(knex: Knex, fileId: string, page: Page): Promise<{ lines: FundingLineView[]; count: number }> {
  const [rows, total] = await Promise.all([
    knex.raw(
      `select l.*, ${LINE_FEES_SQL} as fees_minor,
              m.kind as m_kind, m.medusa_id as m_medusa_id, m.payment_id as m_payment_id, m.order_id as m_order_id,
              m.currency as m_currency, m.amount_minor as m_amount_minor
         from altapay_funding_line l
         left join altapay_money_movement m on m.id = l.movement_id and m.deleted_at is null
        where l.file_id = ? and l.deleted_at is null
        order by l.line_number limit ? offset ?`,
      [fileId, page.limit, page.offset]
    ),
    knex("altapay_funding_line").where({ file_id: fileId }).whereNull("deleted_at").count({ count: "*" }).first(),
  ])
  return { lines: rows.rows.map(lineView), count: Number(total?.count ?? 0) }
}

function fileSummary(row: Row): FundingFileSummary {
  const amountMinor = minorFrom(row.amount_minor)
  const netMinor = minorFrom(row.net_minor)
  return {
    id: row.id,
    account: row.account,
    providerId: row.provider_id,
    filename: row.filename,
    fundingDate: row.funding_date,
    createdDate: row.created_date,
    contractIdentifier: row.contract_identifier,
    acquirer: row.acquirer,
    shops: Array.isArray(row.shops) ? row.shops : [],
    currency: row.currency,
    amountMinor,
    grossMinor: minorFrom(row.gross_minor),
    feesMinor: minorFrom(row.fees_minor),
    feeVatMinor: minorFrom(row.fee_vat_minor),
    netMinor,
    totalsAgree: netMinor === amountMinor,
    lineCount: row.line_count,
    unreadableLineCount: row.unreadable_line_count,
    matchedCount: row.matched_count,
    unmatchedCount: row.unmatched_count,
    importedAt: isoOrNull(row.imported_at) ?? "",
  }
}

export function lineView(row: Row): FundingLineView {
  const settlementAmountMinor = optionalMinorFrom(row.settlement_amount_minor)
  const feesMinor = minorFrom(row.fees_minor)
  return {
    id: row.id,
    fileId: row.file_id,
    lineNumber: row.line_number,
    date: row.date,
    type: row.type,
    knownType: row.known_type,
    acquirerId: row.acquirer_id,
    reconciliationIdentifier: row.reconciliation_identifier,
    altapayPaymentId: row.altapay_payment_id,
    altapayOrderId: row.altapay_order_id,
    terminal: row.terminal,
    shop: row.shop,
    transactionCurrency: row.transaction_currency,
    transactionAmountMinor: optionalMinorFrom(row.transaction_amount_minor),
    exchangeRate: row.exchange_rate,
    settlementCurrency: row.settlement_currency,
    settlementAmountMinor,
    fixedFeeMinor: optionalMinorFrom(row.fixed_fee_minor),
    fixedFeeVatMinor: optionalMinorFrom(row.fixed_fee_vat_minor),
    rateBasedFeeMinor: optionalMinorFrom(row.rate_based_fee_minor),
    rateBasedFeeVatMinor: optionalMinorFrom(row.rate_based_fee_vat_minor),
    feesMinor,
    netMinor: settlementAmountMinor === null ? null : settlementAmountMinor + feesMinor,
    extra: row.extra ?? {},
    issue: row.issue,
    cells: row.cells,
    match: row.m_medusa_id
      ? {
          method: row.match_method as MatchMethod,
          kind: row.m_kind,
          medusaId: row.m_medusa_id,
          paymentId: row.m_payment_id,
          orderId: row.m_order_id,
          currency: row.m_currency,
          amountMinor: minorFrom(row.m_amount_minor),
        }
      : null,
  }
}
