import { altapayText, type AltaPayLanguage } from "./altapay-i18n"

/**
 * A customer's card saved at AltaPay, as medusa-payment-altapay's GET /store/altapay/saved-cards
 * lists it: the masked number, expiry and scheme only, never the card or AltaPay's agreement.
 */
export type AltaPaySavedCard = {
  id: string
  provider_id: string
  masked_pan: string
  expiry: { month: number; year: number }
  scheme: string
}

/** "Visa •••• 1111": the way a customer tells their cards apart. */
export const savedCardName = (
  card: AltaPaySavedCard,
  language: AltaPayLanguage,
) =>
  `${card.scheme || altapayText(language, "card")} •••• ${card.masked_pan.slice(-4)}`

/** "09/30" */
export const savedCardExpiry = (card: AltaPaySavedCard) =>
  `${String(card.expiry.month).padStart(2, "0")}/${String(
    card.expiry.year,
  ).slice(-2)}`
