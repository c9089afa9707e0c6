/**
 * A customer's saved cards as the store and admin routes read and delete them. The customer is
 * always the one the route knows (the signed-in customer, or the customer page's), and every
 * read and delete is scoped to that customer: a card of someone else is "not found", never
 * "forbidden", so an id tells nothing about whether it exists.
 */
import type { MedusaContainer } from "@medusajs/framework/types"
import { MedusaError } from "@medusajs/framework/utils"
import type { SavedCardRecord } from "../../modules/altapay-saved-cards/types"
import { registeredSavedCardsModule } from "./module"

/** The customer's cards, newest first; none where the store does not have the saved-cards module. */
export async function customerSavedCards(scope: MedusaContainer, customerId: string): Promise<SavedCardRecord[]> {
  return (await registeredSavedCardsModule(scope)?.listCustomerCards(customerId)) ?? []
}

/** Any customer's card by id, for the admin; throws NOT_FOUND when there is none. */
export async function savedCardById(scope: MedusaContainer, cardId: string): Promise<SavedCardRecord> {
  const [card] = (await registeredSavedCardsModule(scope)?.listAltapaySavedCards({ id: cardId }, { take: 1 })) ?? []
  if (!card) throw notFound(cardId)
  return card as SavedCardRecord
}

/** Deletes the card if it is this customer's; NOT_FOUND (and nothing changed) otherwise. */
export async function deleteCustomerSavedCard(scope: MedusaContainer, customerId: string, cardId: string): Promise<void> {
  const deleted = (await registeredSavedCardsModule(scope)?.deleteCustomerCard(customerId, cardId)) ?? false
  if (!deleted) throw notFound(cardId)
}

function notFound(cardId: string): MedusaError {
  return new MedusaError(MedusaError.Types.NOT_FOUND, `Saved card ${cardId} was not found.`)
}
