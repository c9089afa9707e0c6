/**
 * AltaPay's notifications of a declined or cancelled payment, beside Medusa's own handler of the same
 * `payment.webhook_received` event, which drops the `failed` and `canceled` actions (Medusa 2.21,
 * medusajs/medusa#16398). The provider decides the action as for any callback (a fresh signature, or
 * AltaPay's own record); a failure someone waits on is told to the merchant
 * (lib/callbacks/failed-payments.ts).
 */
import type { SubscriberArgs, SubscriberConfig } from "@medusajs/framework"
import type { IPaymentModuleService, ProviderWebhookPayload } from "@medusajs/framework/types"
import { Modules, PaymentActions, PaymentWebhookEvents } from "@medusajs/framework/utils"
import { tellOfFailedPayment } from "../lib/callbacks/failed-payments"
import { webhookRawBody } from "../lib/callbacks/webhook-body"
import { webhookRegistration } from "../lib/callbacks/webhook-provider"
import { altapayFromConfig } from "../lib/registrations/from-config"
import { processStore } from "../lib/scale-out/shared-state"

/** The callback statuses AltaPay's Magento plugin reads as failed or cancelled (lib/medusa-mapping/status.ts, webhookActionFor). */
const FAILED_STATUS = /(^|&)status=(failed|error|incomplete|declined|cancelled)(&|$)/i

export default async function altapayFailedPayments({ event, container }: SubscriberArgs<ProviderWebhookPayload>): Promise<void> {
  const providerId = webhookRegistration(event.data?.provider)
  if (!providerId) return
  const payload = { ...event.data.payload, rawData: webhookRawBody(event.data.payload?.rawData) }
  // Cheap test first: most notifications are payments that went through. A Medusa that does not
  // keep a form post's raw body (before 2.14.2) hands over only its fields.
  const status = payload.rawData.length > 0 ? payload.rawData.toString("latin1") : `status=${String((payload.data as { status?: unknown } | undefined)?.status ?? "")}`
  if (!FAILED_STATUS.test(status)) return
  let registration
  try {
    registration = altapayFromConfig(container, providerId)
  } catch {
    return
  }
  // The provider's own verdict (as Medusa's subscriber gets it); a failing look-up throws, and the event is retried.
  const { action, data } = await container.resolve<IPaymentModuleService>(Modules.PAYMENT).getWebhookActionAndData({ provider: event.data.provider, payload })
  if ((action !== PaymentActions.FAILED && action !== PaymentActions.CANCELED) || !data?.session_id) return
  await tellOfFailedPayment(container, registration.scaleOut.store ?? processStore(), { providerId: registration.providerId, sessionId: data.session_id, action })
}

export const config: SubscriberConfig = {
  event: PaymentWebhookEvents.WebhookReceived,
  context: { subscriberId: "altapay-failed-payments" },
}
