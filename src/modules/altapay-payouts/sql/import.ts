/**
 * A funding file into the database: one transaction per file, lines written in batches as the
 * download streams in (a file is never held whole). The unique (account, filename) index makes the
 * import happen once: a second server inserting the same file waits for the first one's commit and
 * then inserts nothing. Funding files have no trailer, so a download cut at a line break looks whole:
 * a file whose lines do not add up to the funding's Amount is downloaded again on later runs, its
 * lines replaced, up to MAX_FUNDING_FILE_DOWNLOADS downloads (then it stays, as an exception).
 */
import type { Knex } from "@medusajs/framework/mikro-orm/knex"
import { generateEntityId } from "@medusajs/framework/utils"
import type { FundingFileEntry } from "../../../altapay"
import { FundingFileTotals } from "../totals"
import type { ImportFundingFileInput, ImportFundingFileResult, StoredFundingFile } from "../types"
import { minorFrom, moneyColumns } from "./columns"

const BATCH_SIZE = 1000

export const MAX_FUNDING_FILE_DOWNLOADS = 3

/**
 * The account's stored file of that name, with what AltaPay listed for it, and whether it is stored
 * for good: its lines add up, or it was downloaded as often as it will be.
 */
export async function storedFundingFile(knex: Knex, account: string, filename: string): Promise<StoredFundingFile | undefined> {
  const row = await knex("altapay_funding_file")
    .where({ account, filename })
    .whereNull("deleted_at")
    .first("funding_date", "currency", "amount_minor", "net_minor", "download_count")
  if (!row) return undefined
  const amountMinor = minorFrom(row.amount_minor)
  return { fundingDate: row.funding_date, currency: row.currency, amountMinor, final: minorFrom(row.net_minor) === amountMinor || row.download_count >= MAX_FUNDING_FILE_DOWNLOADS }
}

export async function importFundingFile(knex: Knex, input: ImportFundingFileInput): Promise<ImportFundingFileResult> {
  return knex.transaction(async (trx) => {
    let fileId = await claimFile(trx, input)
    let outcome: "imported" | "replaced" = "imported"
    if (!fileId) {
      const stored = await storedFile(trx, input)
      if (!stored.replaceable) return stored.result
      fileId = stored.result.fileId
      outcome = "replaced"
      await trx("altapay_funding_line").where({ file_id: fileId }).delete()
    }
    const totals = new FundingFileTotals()
    let batch: Record<string, unknown>[] = []
    for await (const entry of input.entries) {
      batch.push(lineRow(fileId, entry))
      totals.add(entry)
      if (batch.length === BATCH_SIZE) {
        await trx("altapay_funding_line").insert(batch)
        batch = []
      }
    }
    if (batch.length > 0) await trx("altapay_funding_line").insert(batch)
    // Fees are negative in AltaPay's files (AltaPay/sdk-csharp Funding42221.csv), so they are added.
    const netMinor = Number(totals.net)
    await trx("altapay_funding_file")
      .where({ id: fileId })
      .update({
        ...moneyColumns("gross_minor", Number(totals.gross)),
        ...moneyColumns("fees_minor", Number(totals.fees)),
        ...moneyColumns("net_minor", netMinor),
        line_count: totals.lines,
        unreadable_line_count: totals.unreadable,
        ...(outcome === "replaced" ? { download_count: trx.raw("download_count + 1"), imported_at: new Date(), updated_at: new Date() } : {}),
      })
    const amountMinor = input.funding.amountMinor
    return { outcome, fileId, lines: totals.lines, unreadableLines: totals.unreadable, netMinor, amountMinor, totalsAgree: netMinor === amountMinor }
  })
}

/** Inserts the file's row, or nothing when the account has that file already; the new id or null. */
async function claimFile(trx: Knex.Transaction, { account, providerId, funding }: ImportFundingFileInput): Promise<string | null> {
  const id = generateEntityId(undefined, "apfund")
  const insert = trx("altapay_funding_file")
    .insert({
      id,
      account,
      provider_id: providerId,
      filename: funding.filename,
      contract_identifier: funding.contractIdentifier || null,
      funding_type: funding.fundingType ?? null,
      shops: JSON.stringify(funding.shops),
      acquirer: funding.acquirer || null,
      funding_date: funding.fundingDate,
      created_date: funding.createdDate || null,
      reference_text: funding.referenceText ?? null,
      currency: funding.currency.toUpperCase(),
      ...moneyColumns("amount_minor", funding.amountMinor),
      ...moneyColumns("gross_minor", 0),
      ...moneyColumns("fees_minor", 0),
      ...moneyColumns("net_minor", 0),
      line_count: 0,
      unreadable_line_count: 0,
      imported_at: new Date(),
    })
    .toSQL()
  const result = await trx.raw(`${insert.sql} on conflict ("account", "filename") where deleted_at is null do nothing returning "id"`, insert.bindings)
  return result.rows.length === 1 ? id : null
}

/**
 * The stored file, locked until this transaction ends (a second server replacing it waits, then sees
 * the first one's lines); replaceable when its lines do not add up and it may be downloaded again.
 */
async function storedFile(trx: Knex.Transaction, { account, funding }: ImportFundingFileInput): Promise<{ replaceable: boolean; result: ImportFundingFileResult }> {
  const row = await trx("altapay_funding_file")
    .where({ account, filename: funding.filename })
    .whereNull("deleted_at")
    .forUpdate()
    .first("id", "line_count", "unreadable_line_count", "net_minor", "amount_minor", "download_count")
  if (!row) throw new Error(`AltaPay payouts: funding file ${funding.filename} was neither new nor stored; run the import again.`)
  const [netMinor, amountMinor] = [minorFrom(row.net_minor), minorFrom(row.amount_minor)]
  const totalsAgree = netMinor === amountMinor
  return {
    replaceable: !totalsAgree && row.download_count < MAX_FUNDING_FILE_DOWNLOADS,
    result: { outcome: "already_imported", fileId: row.id, lines: row.line_count, unreadableLines: row.unreadable_line_count, netMinor, amountMinor, totalsAgree },
  }
}

function lineRow(fileId: string, entry: FundingFileEntry): Record<string, unknown> {
  const base = { id: generateEntityId(undefined, "apline"), file_id: fileId }
  if (!entry.ok) {
    const { line, message, cells } = entry.issue
    return { ...base, line_number: line, known_type: false, extra: "{}", issue: message, cells: JSON.stringify(cells) }
  }
  const l = entry.line
  return {
    ...base,
    line_number: l.line,
    date: l.date,
    type: l.type,
    known_type: l.knownType,
    acquirer_id: l.id ?? null,
    reconciliation_identifier: l.reconciliationIdentifier ?? null,
    altapay_payment_id: l.paymentId ?? null,
    altapay_order_id: l.shopOrderId ?? null,
    terminal: l.terminal ?? null,
    shop: l.shop ?? null,
    transaction_currency: l.transactionCurrency?.toUpperCase() ?? null,
    ...moneyColumns("transaction_amount_minor", l.transactionAmountMinor),
    exchange_rate: l.exchangeRate ?? null,
    settlement_currency: l.settlementCurrency.toUpperCase(),
    ...moneyColumns("settlement_amount_minor", l.settlementAmountMinor),
    ...moneyColumns("fixed_fee_minor", l.fixedFeeMinor),
    ...moneyColumns("fixed_fee_vat_minor", l.fixedFeeVatMinor),
    ...moneyColumns("rate_based_fee_minor", l.rateBasedFeeMinor),
    ...moneyColumns("rate_based_fee_vat_minor", l.rateBasedFeeVatMinor),
    extra: JSON.stringify(l.extra),
  }
}
