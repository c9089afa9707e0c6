/**
 * Capture on fulfillment or shipment (registration option captureOn): Medusa's fulfillment and
 * shipment events capture the items they sent (lib/item-captures/fulfillment.ts). A fulfillment
 * is captured once, ever: a repeated event finds its capture and sends nothing.
 */
import type { SubscriberArgs, SubscriberConfig } from "@medusajs/framework"
import type { Logger } from "@medusajs/framework/types"
import { ContainerRegistrationKeys } from "@medusajs/framework/utils"
import { captureFulfillment } from "../lib/item-captures/fulfillment"

const FULFILLMENT_CREATED = "order.fulfillment_created"
const SHIPMENT_CREATED = "shipment.created"

export default async function altapayCaptureOnFulfillment({ event, container }: SubscriberArgs<{ fulfillment_id?: string; id?: string }>): Promise<void> {
  const fulfillmentId = event.name === SHIPMENT_CREATED ? event.data?.id : event.data?.fulfillment_id
  if (!fulfillmentId) return
  const logger = container.resolve<Logger>(ContainerRegistrationKeys.LOGGER)
  await captureFulfillment(container, fulfillmentId, event.name === SHIPMENT_CREATED ? "shipment" : "fulfillment", logger)
}

export const config: SubscriberConfig = { event: [FULFILLMENT_CREATED, SHIPMENT_CREATED] }
