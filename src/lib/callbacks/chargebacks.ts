/**
 * Recording AltaPay's chargeback notifications. Medusa has no payment state for a chargeback, so
 * the provider answers NOT_SUPPORTED (no workflow runs) and the plugin's subscriber to Medusa's
 * `payment.webhook_received` calls this: the events go on the Medusa payment's sealed data (under
 * its lock, each event once by its key) and the merchant is told in the admin's notification feed.
 */
import { createHash } from "node:crypto"
import type { IPaymentModuleService, Logger, MedusaContainer } from "@medusajs/framework/types"
import { ContainerRegistrationKeys, Modules } from "@medusajs/framework/utils"
import { minorToDecimal, type ChargebackEvent } from "../../altapay"
import type { ChargebackRecord } from "../payment-data/data"
import { postFeedNotice } from "../follow-up/merchant-notice"
import { changePaymentData } from "../payment-data/writer"
import { sessionIdFromOrderId } from "../medusa-mapping/shop-order-id"

export interface RecordedChargebacks {
  paymentId: string | null
  orderId: string | null
  /** Events recorded now (not those recorded before). */
  added: ChargebackRecord[]
}

export function chargebackRecord(event: ChargebackEvent, receivedAt: Date): ChargebackRecord {
  return {
    key: event.key,
    date: event.date,
    type: event.type,
    reason_code: event.reasonCode,
    reason: event.reason,
    amount_minor: event.amountMinor,
    currency: event.currency,
    acquirer_transaction_id: event.acquirerTransactionId,
    received_at: receivedAt.toISOString(),
  }
}

/** The events of `incoming` not in `recorded` (by key), in order. */
export function newChargebacks(recorded: ChargebackRecord[] | undefined, incoming: ChargebackRecord[]): ChargebackRecord[] {
  const seen = new Set((recorded ?? []).map((r) => r.key))
  return incoming.filter((r) => !seen.has(r.key) && seen.add(r.key))
}

/**
 * Records the events on the payment of AltaPay order `shopOrderId` (the Medusa payment session id)
 * and tells the merchant of each new one. A payment Medusa does not have is logged and left.
 */
export async function recordChargebacks(container: MedusaContainer, shopOrderId: string, events: ChargebackEvent[], now = new Date()): Promise<RecordedChargebacks> {
  const logger = container.resolve<Logger>(ContainerRegistrationKeys.LOGGER)
  const payments = container.resolve<IPaymentModuleService>(Modules.PAYMENT)
  // shop_orderid is the session id with `-` for `_` (or the id itself for older sessions).
  const [payment] = await payments.listPayments({ payment_session_id: sessionIdFromOrderId(shopOrderId) }, { select: ["id", "payment_collection_id"] })
  if (!payment) {
    logger.error(`AltaPay chargeback for payment session ${shopOrderId}: Medusa has no payment for it; look it up in AltaPay's merchant interface.`)
    return { paymentId: null, orderId: null, added: [] }
  }
  let added: ChargebackRecord[] = []
  const incoming = events.map((e) => chargebackRecord(e, now))
  await changePaymentData(container, payment.id, (latest) => {
    added = newChargebacks(latest.chargebacks, incoming)
    return added.length ? { ...latest, chargebacks: [...(latest.chargebacks ?? []), ...added] } : undefined
  })
  const orderId = payment.payment_collection_id ? await orderOf(container, payment.payment_collection_id) : null
  for (const chargeback of added) await tellMerchantOfChargeback(container, { paymentId: payment.id, orderId, chargeback })
  return { paymentId: payment.id, orderId, added }
}

async function orderOf(container: MedusaContainer, paymentCollectionId: string): Promise<string | null> {
  try {
    const query = container.resolve(ContainerRegistrationKeys.QUERY)
    const { data } = await query.graph({ entity: "order_payment_collection", fields: ["order_id"], filters: { payment_collection_id: paymentCollectionId } })
    return (data[0] as { order_id?: string } | undefined)?.order_id ?? null
  } catch {
    return null
  }
}

export function chargebackNoticeText(notice: { paymentId: string; orderId: string | null; chargeback: ChargebackRecord }): { title: string; description: string } {
  const c = notice.chargeback
  const where = notice.orderId ? `order ${notice.orderId}` : `payment ${notice.paymentId}`
  const reason = [c.reason_code, c.reason].filter(Boolean).join(" ") || "no reason given"
  return {
    title: `AltaPay chargeback on ${where}`,
    description: `AltaPay chargeback on ${where}: ${reason}, ${minorToDecimal(c.amount_minor, c.currency)} ${c.currency} (${c.type}, ${c.date}). Respond in AltaPay's merchant interface or with your acquirer.`,
  }
}

/** The admin notification (feed) and an error log line; one notification per event (its idempotency key). */
export async function tellMerchantOfChargeback(container: MedusaContainer, notice: { paymentId: string; orderId: string | null; chargeback: ChargebackRecord }): Promise<void> {
  const logger = container.resolve<Logger>(ContainerRegistrationKeys.LOGGER)
  const { title, description } = chargebackNoticeText(notice)
  logger.error(description)
  await postFeedNotice(
    container,
    `altapay-chargeback-${notice.paymentId}-${createKey(notice.chargeback.key)}`,
    { title, description },
    `the chargeback on payment ${notice.paymentId}`
  )
}

/** A short, fixed-length form of an event key for the idempotency key. */
function createKey(key: string): string {
  return createHash("sha256").update(key).digest("hex").slice(0, 32)
}
