/**
 * Writes a saved-card row from AltaPay's record of an agreement's set-up transaction: the masked
 * card, expiry, scheme, terminal and currency it shows. Never the token it also carries. Once per
 * agreement and registration: a repeated callback or event finds the row.
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
  const [existing] = (await savedCards.listAltapaySavedCards({ provider_id: input.providerId, agreement_id: card.agreementId }, { take: 1 })) as SavedCardRecord[]
  if (existing) return { card: existing, created: false }
  if (!card.maskedPan || !card.expiry) {
    logger?.warn(`AltaPay: the card of agreement ${card.agreementId} was not saved: AltaPay's record of it has no masked card or expiry.`)
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
  logger?.info(`AltaPay: saved card ${card.maskedPan} for customer ${input.customerId} (agreement ${card.agreementId}).`)
  return { card: created, created: true }
}
