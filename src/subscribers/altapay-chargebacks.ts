/**
 * AltaPay's chargeback notifications (status ChargebackEvent), beside Medusa's own handler of the
 * same `payment.webhook_received` event: the provider answers NOT_SUPPORTED for them (Medusa has no
 * payment state to move), and this records the events on the payment and tells the merchant
 * (lib/callbacks/chargebacks.ts). Only a callback whose AltaPay-Signature matches the
 * registration's callbackSecret is recorded, at any age: a replay records nothing twice.
 */
import type { SubscriberArgs, SubscriberConfig } from "@medusajs/framework"
import type { Logger } from "@medusajs/framework/types"
import { ContainerRegistrationKeys, PaymentWebhookEvents } from "@medusajs/framework/utils"
import { CHARGEBACK_STATUS, parseCallback, SIGNATURE_HEADER, verifyCallbackSignature } from "../altapay"
import { recordChargebacks } from "../lib/callbacks/chargebacks"
import { webhookRawBody } from "../lib/callbacks/webhook-body"
import { webhookRegistration } from "../lib/callbacks/webhook-provider"
import { altapayOptionsFromConfig } from "../lib/registrations/from-config"

interface WebhookEvent {
  provider?: string
  payload?: { rawData?: unknown; headers?: Record<string, unknown> }
}

export default async function altapayChargebacks({ event, container }: SubscriberArgs<WebhookEvent>): Promise<void> {
  const providerId = webhookRegistration(event.data?.provider)
  if (!providerId) return
  const rawBody = webhookRawBody(event.data.payload?.rawData)
  // Cheap test first: most notifications are not chargebacks.
  if (!/(^|&)status=chargebackevent(&|$)/i.test(rawBody.toString("latin1"))) return
  const logger = container.resolve<Logger>(ContainerRegistrationKeys.LOGGER)
  let registration
  try {
    registration = altapayOptionsFromConfig(container, providerId)
  } catch {
    return
  }
  const secret = registration.options.callbackSecret
  if (!secret) {
    logger.warn(
      `AltaPay chargeback notification for ${providerId} not recorded: it can only be trusted signed, and no callbackSecret is set. See it in AltaPay's merchant interface.`
    )
    return
  }
  let callback
  try {
    verifyCallbackSignature({ rawBody, signatureHeader: headerOf(event.data.payload?.headers ?? {}, SIGNATURE_HEADER), secret, toleranceSeconds: Number.MAX_SAFE_INTEGER })
    callback = parseCallback(rawBody.toString("utf8"))
  } catch (error) {
    logger.warn(`AltaPay chargeback notification refused: ${error instanceof Error ? error.message : String(error)}`)
    return
  }
  if (callback.status !== CHARGEBACK_STATUS || !callback.chargebacks?.length) return
  // A failure throws: the Redis event bus runs this again; each event is recorded once.
  await recordChargebacks(container, callback.shopOrderId, callback.chargebacks)
}

function headerOf(headers: Record<string, unknown>, name: string): string | undefined {
  const value = headers[name] ?? Object.entries(headers).find(([k]) => k.toLowerCase() === name)?.[1]
  return Array.isArray(value) ? String(value[0]) : typeof value === "string" ? value : undefined
}

export const config: SubscriberConfig = {
  event: PaymentWebhookEvents.WebhookReceived,
  context: { subscriberId: "altapay-chargebacks" },
}
