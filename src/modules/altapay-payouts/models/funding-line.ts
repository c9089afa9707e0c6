import { model } from "@medusajs/framework/utils"

/**
 * One line of a funding file as AltaPay wrote it (amounts in minor units), or a line that could not
 * be read (`issue`, its `cells`). `movement_id` ties it to the Medusa capture or refund it pays out.
 */
export const FundingLine = model
  .define("altapay_funding_line", {
    id: model.id({ prefix: "apline" }).primaryKey(),
    file_id: model.text(),
    line_number: model.number(),
    date: model.text().nullable(),
    type: model.text().nullable(),
    known_type: model.boolean(),
    acquirer_id: model.text().nullable(),
    reconciliation_identifier: model.text().nullable(),
    altapay_payment_id: model.text().nullable(),
    altapay_order_id: model.text().nullable(),
    terminal: model.text().nullable(),
    shop: model.text().nullable(),
    transaction_currency: model.text().nullable(),
    transaction_amount_minor: model.bigNumber().nullable(),
    exchange_rate: model.text().nullable(),
    settlement_currency: model.text().nullable(),
    settlement_amount_minor: model.bigNumber().nullable(),
    fixed_fee_minor: model.bigNumber().nullable(),
    fixed_fee_vat_minor: model.bigNumber().nullable(),
    rate_based_fee_minor: model.bigNumber().nullable(),
    rate_based_fee_vat_minor: model.bigNumber().nullable(),
    extra: model.json(),
    issue: model.text().nullable(),
    cells: model.json().nullable(),
    movement_id: model.text().nullable(),
    match_method: model.text().nullable(),
  })
  .indexes([
    { on: ["file_id", "line_number"], unique: true, where: "deleted_at IS NULL" },
    { on: ["reconciliation_identifier"], where: "deleted_at IS NULL" },
    { on: ["altapay_payment_id"], where: "deleted_at IS NULL" },
    { on: ["movement_id"], where: "deleted_at IS NULL" },
    { name: "IDX_altapay_funding_line_matched", on: ["movement_id", "type"], where: "movement_id IS NOT NULL AND deleted_at IS NULL" },
    { name: "IDX_altapay_funding_line_rejected", on: ["date"], where: "type IN ('payment_rejected', 'refund_rejected') AND deleted_at IS NULL" },
    { name: "IDX_altapay_funding_line_unreadable", on: ["file_id"], where: "issue IS NOT NULL AND deleted_at IS NULL" },
  ])
