import { model } from "@medusajs/framework/utils"

/**
 * A capture or refund Medusa recorded on an AltaPay payment, copied from the Payment module so
 * funding lines can be matched to it (and its absence from every payout noticed) in one database query.
 */
export const MoneyMovement = model
  .define("altapay_money_movement", {
    id: model.id({ prefix: "apmove" }).primaryKey(),
    kind: model.enum(["capture", "refund"]),
    medusa_id: model.text(),
    payment_id: model.text(),
    order_id: model.text().nullable(),
    provider_id: model.text(),
    reconciliation_identifier: model.text().nullable(),
    altapay_payment_id: model.text().nullable(),
    altapay_order_id: model.text().nullable(),
    currency: model.text(),
    amount_minor: model.bigNumber(),
    recorded_at: model.dateTime(),
  })
  .indexes([
    { on: ["medusa_id"], unique: true, where: "deleted_at IS NULL" },
    { on: ["reconciliation_identifier"], where: "deleted_at IS NULL" },
    { on: ["altapay_payment_id"], where: "deleted_at IS NULL" },
    { on: ["payment_id"], where: "deleted_at IS NULL" },
    { on: ["recorded_at"], where: "deleted_at IS NULL" },
  ])
