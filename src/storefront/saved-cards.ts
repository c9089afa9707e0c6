/**
 * A signed-in customer's saved cards from the browser (issue 32): list, delete, add one from the
 * account page, and the payment-session `data` that saves a card while paying or pays with one.
 * Connect with the customer's auth (`sdk`, or `headers: { authorization }`): without it Medusa
 * answers 401.
 *
 *   const cards = await listSavedCards({ sdk })
 *   await sdk.store.payment.initiatePaymentSession(cart, { provider_id, data: payWithSavedCard(cards[0].id) })
 */
import { AltaPaySessionRequestError } from "./errors"
import { callMedusa, type MedusaConnection } from "./medusa"

export interface SavedCard {
  id: string
  /** The AltaPay registration it pays on (pp_altapay_<id>). */
  providerId: string
  /** As AltaPay masks it, e.g. 411111******1111. */
  maskedPan: string
  expiry: { month: number; year: number }
  scheme: string | null
}

interface StoreSavedCard {
  id: string
  provider_id: string
  masked_pan: string
  expiry: { month: number; year: number }
  scheme: string | null
}

const PATH = "/store/altapay/saved-cards"

/** The customer's own saved cards, newest first. */
export async function listSavedCards(connection: MedusaConnection): Promise<SavedCard[]> {
  const answer = await callMedusa<{ saved_cards?: StoreSavedCard[] }>(connection, "GET", PATH, undefined, "listSavedCards")
  return (answer?.saved_cards ?? []).map((card) => ({ id: card.id, providerId: card.provider_id, maskedPan: card.masked_pan, expiry: card.expiry, scheme: card.scheme }))
}

/** Deletes one of the customer's cards (another customer's id is a 404: AltaPaySessionRequestError with status 404). */
export async function deleteSavedCard(connection: MedusaConnection, savedCardId: string): Promise<void> {
  await callMedusa(connection, "DELETE", `${PATH}/${encodeURIComponent(savedCardId)}`, undefined, "deleteSavedCard")
}

/** Starts AltaPay's page where the customer adds a card; send them to `redirectUrl`. They come back to the store's savedCards.returnUrl. */
export async function addSavedCard(connection: MedusaConnection, input: { currencyCode: string; providerId?: string }): Promise<{ redirectUrl: string }> {
  const body = { currency_code: input.currencyCode, ...(input.providerId ? { provider_id: input.providerId } : {}) }
  const answer = await callMedusa<{ redirect_url?: string }>(connection, "POST", PATH, body, "addSavedCard")
  if (!answer?.redirect_url) throw new AltaPaySessionRequestError("Medusa answered without AltaPay's page: is the plugin loaded, with its savedCards option on?")
  return { redirectUrl: answer.redirect_url }
}

/** Payment-session data that pays with a saved card (complete the cart next). */
export const payWithSavedCard = (savedCardId: string): { saved_card_id: string } => ({ saved_card_id: savedCardId })

/** Payment-session data that saves the card the customer enters on AltaPay's page while paying. */
export const saveCardWhilePaying = (): { save_card: true } => ({ save_card: true })
