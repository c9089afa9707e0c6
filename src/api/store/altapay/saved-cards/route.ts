/**
 * GET /store/altapay/saved-cards
 *
 * The signed-in customer's own saved cards (401 without a customer, see ../../../middlewares.ts):
 * id, provider, masked card number, expiry and scheme. Never the agreement, a token or a full
 * card number.
 */
import type { AuthenticatedMedusaRequest, MedusaResponse } from "@medusajs/framework/http"
import { customerSavedCards } from "../../../../lib/saved-cards/customer-cards"
import { storeSavedCard, type StoreSavedCard } from "../../../../lib/saved-cards/views"

export interface StoreAltaPaySavedCardsResponse {
  saved_cards: StoreSavedCard[]
}

export const GET = async (req: AuthenticatedMedusaRequest, res: MedusaResponse<StoreAltaPaySavedCardsResponse>) => {
  const cards = await customerSavedCards(req.scope, req.auth_context.actor_id)
  res.setHeader("Cache-Control", "no-store")
  res.json({ saved_cards: cards.map(storeSavedCard) })
}
