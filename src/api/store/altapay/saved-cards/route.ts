/**
 * GET /store/altapay/saved-cards
 *
 * The signed-in customer's own saved cards (401 without a customer, see ../../../middlewares.ts):
 * id, provider, masked card number, expiry and scheme. Never the agreement, a token or a full
 * card number.
 *
 * POST /store/altapay/saved-cards { currency_code, provider_id? }
 *
 * Adds a card from the account page: answers `redirect_url`, AltaPay's page where the customer
 * enters it (lib/saved-cards/account-setup.ts). The card is listed once AltaPay confirmed it.
 */
import type { AuthenticatedMedusaRequest, MedusaResponse } from "@medusajs/framework/http"
import { startCardSetup } from "../../../../lib/saved-cards/account-setup"
import { customerSavedCards } from "../../../../lib/saved-cards/customer-cards"
import { storeSavedCard, type StoreSavedCard } from "../../../../lib/saved-cards/views"
import type { StoreAddAltaPaySavedCardType } from "./validators"

export interface StoreAltaPaySavedCardsResponse {
  saved_cards: StoreSavedCard[]
}

export const GET = async (req: AuthenticatedMedusaRequest, res: MedusaResponse<StoreAltaPaySavedCardsResponse>) => {
  const cards = await customerSavedCards(req.scope, req.auth_context.actor_id)
  res.setHeader("Cache-Control", "no-store")
  res.json({ saved_cards: cards.map(storeSavedCard) })
}

export const POST = async (req: AuthenticatedMedusaRequest<StoreAddAltaPaySavedCardType>, res: MedusaResponse<{ redirect_url: string }>) => {
  const body = req.validatedBody
  const providerId = body.provider_id?.replace(/^pp_altapay_/, "")
  const { redirectUrl } = await startCardSetup(req.scope, req.auth_context.actor_id, {
    providerId: providerId ? `pp_altapay_${providerId}` : undefined,
    currency: body.currency_code,
  })
  res.setHeader("Cache-Control", "no-store")
  res.json({ redirect_url: redirectUrl })
}
