/**
 * `order-edit.confirmed`: an invoice reservation the provider kept when Medusa canceled its payment
 * for the edit (updated to the edited order with AltaPay's updateOrder) becomes the payment of the
 * order's new collection (lib/item-captures/order-edit.ts).
 */
import type { SubscriberArgs, SubscriberConfig } from "@medusajs/framework"
import type { Logger } from "@medusajs/framework/types"
import { ContainerRegistrationKeys } from "@medusajs/framework/utils"
import { carryKeptReservations } from "../lib/item-captures/order-edit"

export default async function altapayOrderEdit({ event, container }: SubscriberArgs<{ order_id?: string }>): Promise<void> {
  const orderId = event.data?.order_id
  if (!orderId) return
  await carryKeptReservations(container, orderId, container.resolve<Logger>(ContainerRegistrationKeys.LOGGER))
}

export const config: SubscriberConfig = { event: "order-edit.confirmed" }
