/**
 * A canceled order, or one whose amount due changed (an edit, claim, exchange or return), retires
 * the payment links that no longer fit it (lib/medusa-mapping/stale-link-sessions.ts).
 */
import type { SubscriberArgs, SubscriberConfig } from "@medusajs/framework"
import type { Logger } from "@medusajs/framework/types"
import { ContainerRegistrationKeys } from "@medusajs/framework/utils"
import { retireStaleLinkSessions } from "../lib/medusa-mapping/stale-link-sessions"

export default async function altapayStalePaymentLinks({ event, container }: SubscriberArgs<{ id?: string; order_id?: string }>): Promise<void> {
  // order.canceled names the order as `id`; the others as `order_id`.
  const orderId = event.data?.order_id ?? (event.name === "order.canceled" ? event.data?.id : undefined)
  if (!orderId) return
  await retireStaleLinkSessions(container, orderId, container.resolve<Logger>(ContainerRegistrationKeys.LOGGER))
}

export const config: SubscriberConfig = {
  event: ["order.canceled", "order-edit.confirmed", "order.claim_created", "order.exchange_created", "order.return_received"],
}
