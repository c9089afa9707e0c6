import { model } from "@medusajs/framework/utils"

/**
 * Per registration, up to when Medusa's captures and refunds have been read into the module: the
 * next read starts there (less an overlap). A registration with none is read from the beginning.
 */
export const PayoutCursor = model
  .define("altapay_payout_cursor", {
    id: model.id({ prefix: "apcur" }).primaryKey(),
    provider_id: model.text(),
    synced_through: model.dateTime(),
  })
  .indexes([{ on: ["provider_id"], unique: true, where: "deleted_at IS NULL" }])
