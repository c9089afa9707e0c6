/**
 * AltaPay's notification of a payment captured or refunded after the order: money moved in AltaPay's
 * merchant interface that Medusa's own handler does not record is told to the merchant
 * (lib/callbacks/outside-movements.ts, which asks AltaPay rather than trusting the post).
 */
import type { SubscriberArgs, SubscriberConfig } from "@medusajs/framework"
import type { ProviderWebhookPayload } from "@medusajs/framework/types"
import { PaymentWebhookEvents } from "@medusajs/framework/utils"
import { mayHaveMovedMoney, tellOfOutsideMovement } from "../lib/callbacks/outside-movements"
import { webhookRawBody } from "../lib/callbacks/webhook-body"
import { webhookRegistration } from "../lib/callbacks/webhook-provider"
import { altapayFromConfig } from "../lib/registrations/from-config"

export default async function altapayOutsideMovements({ event, container }: SubscriberArgs<ProviderWebhookPayload>): Promise<void> {
  const providerId = webhookRegistration(event.data?.provider)
  if (!providerId) return
  const raw = webhookRawBody(event.data.payload?.rawData)
  const fields = raw.length > 0 ? new URLSearchParams(raw.toString("latin1")) : new URLSearchParams(event.data.payload?.data as Record<string, string>)
  const shopOrderId = fields.get("shop_orderid")
  if (!shopOrderId || !mayHaveMovedMoney(fields.get("payment_status") ?? "")) return
  let registration
  try {
    registration = altapayFromConfig(container, providerId)
  } catch {
    return
  }
  await tellOfOutsideMovement(container, registration, shopOrderId)
}

export const config: SubscriberConfig = {
  event: PaymentWebhookEvents.WebhookReceived,
  context: { subscriberId: "altapay-outside-movements" },
}
