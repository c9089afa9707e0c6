import { model } from "@medusajs/framework/utils"

/**
 * A customer's card saved on an AltaPay agreement, for one registration. What AltaPay charges by is
 * the agreement id (with the merchant's API credentials); the card token and the full card number
 * are never stored here (docs/security.md, "Saved cards").
 */
export const AltapaySavedCard = model
  .define("altapay_saved_card", {
    id: model.id({ prefix: "apcard" }).primaryKey(),
    customer_id: model.text(),
    /** The Medusa payment provider id of the registration, e.g. pp_altapay_altapay. */
    provider_id: model.text(),
    /** AltaPay's agreement id (agreement[id] on chargeSubscription / reserveSubscriptionCharge). */
    agreement_id: model.text(),
    /** As AltaPay shows it (CreditCardMaskedPan), e.g. 411111******1111. */
    masked_pan: model.text(),
    expiry_month: model.number(),
    expiry_year: model.number(),
    /** PaymentSchemeName, e.g. Visa. */
    scheme: model.text().nullable(),
    terminal: model.text(),
    /** ISO 4217 alpha code the agreement was set up in. */
    currency: model.text(),
  })
  .indexes([
    { on: ["customer_id", "provider_id"], where: "deleted_at IS NULL" },
    { on: ["provider_id", "agreement_id"], unique: true, where: "deleted_at IS NULL" },
  ])
