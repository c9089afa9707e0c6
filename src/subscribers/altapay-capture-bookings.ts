/**
 * After every capture of an AltaPay payment (`payment.captured`, sent by Medusa's capture workflow
 * and by the customer's return that books a payment link's capture): a capture booked on its order
 * twice at once is booked once again (lib/callbacks/capture-transactions.ts, removeDoubleBookings).
 */
import type { SubscriberArgs, SubscriberConfig } from "@medusajs/framework"
import type { Logger } from "@medusajs/framework/types"
import { ContainerRegistrationKeys, PaymentEvents } from "@medusajs/framework/utils"
import { removeDoubleBookings } from "../lib/callbacks/capture-transactions"

export default async function altapayCaptureBookings({ event, container }: SubscriberArgs<{ id?: string }>): Promise<void> {
  const paymentId = event.data?.id
  if (!paymentId) return
  const done = await removeDoubleBookings(container, paymentId)
  if (!done?.removed) return
  container
    .resolve<Logger>(ContainerRegistrationKeys.LOGGER)
    .warn(
      `AltaPay payment ${paymentId}: order ${done.orderId} had a capture booked twice (Medusa's webhook and the customer's return at once); ${done.removed} extra booking(s) removed, so the order no longer shows the money as paid twice.`
    )
}

export const config: SubscriberConfig = { event: PaymentEvents.CAPTURED }
