import { model } from "@medusajs/framework/utils"

/**
 * One AltaPay funding (a payout to the merchant's bank) and its file, imported once per account.
 * Totals are the file's lines added up at import; `amount_minor` is what fundingList said.
 */
export const FundingFile = model
  .define("altapay_funding_file", {
    id: model.id({ prefix: "apfund" }).primaryKey(),
    /** Gateway host and API user the file belongs to (files are per API user, not per terminal). */
    account: model.text(),
    provider_id: model.text(),
    filename: model.text(),
    contract_identifier: model.text().nullable(),
    funding_type: model.text().nullable(),
    shops: model.json(),
    acquirer: model.text().nullable(),
    funding_date: model.text(),
    created_date: model.text().nullable(),
    reference_text: model.text().nullable(),
    currency: model.text(),
    amount_minor: model.bigNumber(),
    gross_minor: model.bigNumber(),
    fees_minor: model.bigNumber(),
    net_minor: model.bigNumber(),
    line_count: model.number(),
    unreadable_line_count: model.number(),
    /** A file whose lines do not add up to the funding's amount is downloaded again, up to MAX_DOWNLOADS times. */
    download_count: model.number().default(1),
    imported_at: model.dateTime(),
  })
  .indexes([
    { on: ["account", "filename"], unique: true, where: "deleted_at IS NULL" },
    { on: ["funding_date"], where: "deleted_at IS NULL" },
  ])
