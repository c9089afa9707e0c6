/**
 * Writes a saved-card row from AltaPay's record of an agreement's set-up transaction: the masked
 * card, expiry, scheme, terminal and currency it shows. Never the token it also carries. Once per
 * agreement and registration: a repeated callback or event finds the row, and a card that was
 * deleted (by the customer, the admin, or with the customer) is never written again: a replayed
 * set-up post or a second order.placed restores nothing. Logs name the card's row, never the
 * agreement id: that is the set-up's transaction id, which is what a replay would post.
 */
import type { Logger } from "@medusajs/framework/types"
import { agreementCardOf, type GatewayTransaction } from "../../altapay"
import type AltaPaySavedCardsService from "../../modules/altapay-saved-cards/service"
import type { SavedCardRecord } from "../../modules/altapay-saved-cards/types"

export interface KeptCard {
  card: SavedCardRecord
  /** false: the row was there already. */
  created: boolean
}

export async function keepAgreementCard(
  savedCards: AltaPaySavedCardsService,
  input: { customerId: string; providerId: string; setUp: GatewayTransaction; fallback: { terminal: string | null; currency: string } },
  logger?: Pick<Logger, "warn" | "info">
): Promise<KeptCard | undefined> {
  const card = agreementCardOf(input.setUp)
  const existing = await savedCards.cardOnAgreement(input.providerId, card.agreementId)
  if (existing === "deleted") {
    logger?.info(
      `AltaPay: a deleted saved card of customer ${input.customerId} was not restored: AltaPay's record of its set-up was read again, and what was deleted stays deleted.`
    )
    return undefined
  }
  if (existing) return { card: existing, created: false }
  if (!card.maskedPan || !card.expiry) {
    logger?.warn(`AltaPay: the card of customer ${input.customerId} (set-up ${input.setUp.shopOrderId}) was not saved: AltaPay's record of it has no masked card or expiry.`)
    return undefined
  }
  const [created] = (await savedCards.createAltapaySavedCards([
    {
      customer_id: input.customerId,
      provider_id: input.providerId,
      agreement_id: card.agreementId,
      masked_pan: card.maskedPan,
      expiry_month: Number(card.expiry.month),
      expiry_year: Number(card.expiry.year),
      scheme: card.scheme ?? null,
      terminal: card.terminal ?? input.fallback.terminal ?? "",
      currency: card.currency ?? input.fallback.currency,
    },
  ])) as SavedCardRecord[]
  logger?.info(`AltaPay: saved card ${card.maskedPan} for customer ${input.customerId} (${created.id}).`)
  return { card: created, created: true }
}
