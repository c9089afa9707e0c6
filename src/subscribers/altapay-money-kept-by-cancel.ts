/**
 * A canceled order whose AltaPay payment still holds money: a reservation kept for an order edit is
 * released (lib/item-captures/kept-on-canceled-order.ts); captured money the cancel's refund left
 * (it failed, which Medusa only logs) is told to the merchant (lib/medusa-mapping/cancel-check.ts).
 */
import type { SubscriberArgs, SubscriberConfig } from "@medusajs/framework"
import { releaseEditReservationsOfCanceledOrder } from "../lib/item-captures/kept-on-canceled-order"
import { tellOfMoneyKeptByCancel } from "../lib/medusa-mapping/cancel-check"

export default async function altapayMoneyKeptByCancel({ event, container }: SubscriberArgs<{ id?: string }>): Promise<void> {
  if (!event.data?.id) return
  try {
    await releaseEditReservationsOfCanceledOrder(container, event.data.id)
  } finally {
    await tellOfMoneyKeptByCancel(container, event.data.id)
  }
}

export const config: SubscriberConfig = {
  event: "order.canceled",
  context: { subscriberId: "altapay-money-kept-by-cancel" },
}
