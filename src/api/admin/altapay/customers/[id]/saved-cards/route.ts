/**
 * GET /admin/altapay/customers/:id/saved-cards
 *
 * A customer's saved cards for the customer page's widget: the shopper's view plus terminal,
 * currency and when it was saved.
 */
import type { AuthenticatedMedusaRequest, MedusaResponse } from "@medusajs/framework/http"
import { customerSavedCards } from "../../../../../../lib/saved-cards/customer-cards"
import { adminSavedCard, type AdminSavedCard } from "../../../../../../lib/saved-cards/views"

export interface AdminAltaPaySavedCardsResponse {
  saved_cards: AdminSavedCard[]
}

export const GET = async (req: AuthenticatedMedusaRequest, res: MedusaResponse<AdminAltaPaySavedCardsResponse>) => {
  const cards = await customerSavedCards(req.scope, req.params.id)
  res.setHeader("Cache-Control", "no-store")
  res.json({ saved_cards: cards.map(adminSavedCard) })
}
