/**
 * A deleted Medusa customer's saved cards are deleted with them: nobody can pay with them any more,
 * and the admin's list of the customer is empty. AltaPay's agreements are not ended: we found no
 * Merchant API call documented for it (docs/merchant.md, "Saved cards").
 */
import type { SubscriberArgs, SubscriberConfig } from "@medusajs/framework"
import type { Logger } from "@medusajs/framework/types"
import { ContainerRegistrationKeys } from "@medusajs/framework/utils"
import { registeredSavedCardsModule } from "../lib/saved-cards/module"

export default async function altapaySavedCardsOfDeletedCustomer({ event, container }: SubscriberArgs<{ id?: string }>): Promise<void> {
  const customerId = event.data?.id
  const savedCards = registeredSavedCardsModule(container)
  if (!customerId || !savedCards) return
  const cards = await savedCards.listCustomerCards(customerId)
  if (cards.length === 0) return
  await savedCards.softDeleteAltapaySavedCards(cards.map((card) => card.id))
  container.resolve<Logger>(ContainerRegistrationKeys.LOGGER).info(`AltaPay: deleted the ${cards.length} saved card(s) of deleted customer ${customerId}.`)
}

export const config: SubscriberConfig = { event: "customer.deleted" }
