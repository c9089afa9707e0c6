/** A card saved while paying becomes the customer's saved card once Medusa placed the order (lib/saved-cards/save-from-order.ts). */
import type { SubscriberArgs, SubscriberConfig } from "@medusajs/framework"
import type { Logger } from "@medusajs/framework/types"
import { ContainerRegistrationKeys } from "@medusajs/framework/utils"
import { saveCardsOfOrder } from "../lib/saved-cards/save-from-order"

export default async function altapaySavedCardOnOrder({ event, container }: SubscriberArgs<{ id?: string }>): Promise<void> {
  if (!event.data?.id) return
  const logger = container.resolve<Logger>(ContainerRegistrationKeys.LOGGER)
  try {
    await saveCardsOfOrder(container, event.data.id, logger)
  } catch (error) {
    // The order stands either way; the customer can save the card again.
    logger.warn(`AltaPay: the card saved with order ${event.data.id} could not be kept: ${error instanceof Error ? error.message : String(error)}`)
  }
}

export const config: SubscriberConfig = { event: "order.placed" }
