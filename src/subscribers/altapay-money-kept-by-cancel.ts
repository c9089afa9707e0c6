/**
 * A canceled order whose AltaPay payment still holds captured money (the cancel's refund failed,
 * which Medusa only logs) is told to the merchant (lib/medusa-mapping/cancel-check.ts).
 */
import type { SubscriberArgs, SubscriberConfig } from "@medusajs/framework"
import { tellOfMoneyKeptByCancel } from "../lib/medusa-mapping/cancel-check"

export default async function altapayMoneyKeptByCancel({ event, container }: SubscriberArgs<{ id?: string }>): Promise<void> {
  if (event.data?.id) await tellOfMoneyKeptByCancel(container, event.data.id)
}

export const config: SubscriberConfig = {
  event: "order.canceled",
  context: { subscriberId: "altapay-money-kept-by-cancel" },
}
