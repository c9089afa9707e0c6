/**
 * A payment AltaPay declined or cancelled after the customer left. Medusa 2.21's payment-webhook
 * subscriber drops the `failed` and `canceled` webhook actions (node_modules/@medusajs/medusa
 * dist/subscribers/payment-webhook.js; medusajs/medusa#16398), so nothing in Medusa changes and the
 * merchant would see nothing. The plugin's own subscriber (src/subscribers/altapay-failed-payments.ts)
 * hands them here: when someone is waiting on the payment (an order that was placed awaiting it, a
 * payment link's order, or a customer the return told the payment is being reviewed), the merchant
 * is told in the admin's notification feed and a warning is logged, with what to do.
 */
import type { Logger, MedusaContainer, RemoteQueryFunction } from "@medusajs/framework/types"
import { ContainerRegistrationKeys, PaymentActions } from "@medusajs/framework/utils"
import { postFeedNotice } from "../follow-up/merchant-notice"
import { medusaSession, orderOfCart } from "../medusa-mapping/medusa-session"
import { shopOrderIdFor } from "../medusa-mapping/shop-order-id"
import type { SharedStore } from "../scale-out/shared-state"

/** Long enough for any open payment to be concluded (AltaPay sets no limit; a month covers Klarna's reviews). */
const REVIEW_TOLD_TTL_SECONDS = 35 * 24 * 60 * 60

const reviewToldKey = (sessionId: string) => `altapay:review-told:${sessionId}`

/** The customer's return told the customer their payment is being reviewed (an open payment): they left expecting an order. */
export async function noteReviewTold(store: SharedStore, sessionId: string): Promise<void> {
  await store.set(reviewToldKey(sessionId), true, REVIEW_TOLD_TTL_SECONDS)
}

export interface FailedPayment {
  /** pp_altapay_<id>. */
  providerId: string
  sessionId: string
  /** Medusa's webhook action: `failed` or `canceled`. */
  action: `${PaymentActions.FAILED}` | `${PaymentActions.CANCELED}`
}

type Told = "order" | "reviewed cart" | "nobody waits" | "paid" | "no session"

/** Tells the merchant of a failed or cancelled payment someone waits on; answers whom it concerned. */
export async function tellOfFailedPayment(container: MedusaContainer, store: SharedStore, failure: FailedPayment): Promise<Told> {
  const logger = container.resolve<Logger>(ContainerRegistrationKeys.LOGGER)
  const query = container.resolve<Pick<RemoteQueryFunction, "graph">>(ContainerRegistrationKeys.QUERY)
  const what = failure.action === PaymentActions.CANCELED ? "cancelled" : "declined"
  const session = await medusaSession(query, failure.sessionId)
  // Another attempt on the same session was paid: AltaPay's latest transaction decides, not this one.
  if (session?.paymentId) return "paid"
  if (!session) {
    logger.info(`AltaPay callback for payment session ${failure.sessionId}: AltaPay ${what} the payment; Medusa has no such session, so nothing waits on it.`)
    return "no session"
  }
  const collection = session.collectionId ? await collectionOf(query, session.collectionId) : undefined
  // Paid by another payment, or the order was canceled: nobody waits on this one.
  if (collection && !WAITING.includes(collection.status)) return "paid"
  const orderId = session.orderId ?? (session.cartId ? await orderOfCart(query, session.cartId) : undefined) ?? null
  const reviewed = !orderId && (await store.get<boolean>(reviewToldKey(failure.sessionId)).catch(() => undefined)) === true
  if (!orderId && !reviewed) {
    logger.info(`AltaPay callback for payment session ${failure.sessionId}: AltaPay ${what} the payment; no order waits on it and its customer was not told it is being reviewed.`)
    return "nobody waits"
  }
  const email = (orderId ? collection?.order?.email : collection?.cart?.email) ?? null
  const notice = failedPaymentNotice({ ...failure, what, orderId, cartId: session.cartId, email })
  logger.warn(`${notice.title} (${failure.providerId}, payment session ${failure.sessionId}): ${notice.description}`)
  await postFeedNotice(container, `altapay-${what}-${failure.sessionId}`, notice, `payment session ${failure.sessionId}`)
  return orderId ? "order" : "reviewed cart"
}

export function failedPaymentNotice(payment: FailedPayment & { what: string; orderId: string | null; cartId: string | null; email: string | null }): {
  title: string
  description: string
} {
  const who = payment.email ? ` (${payment.email})` : ""
  const at = `AltaPay order ${shopOrderIdFor(payment.sessionId)}`
  const ignored = `Medusa ignores ${payment.what} payment callbacks (medusajs/medusa#16398), so nothing changed in Medusa.`
  if (payment.orderId) {
    return {
      title: `AltaPay payment ${payment.what}: order not paid`,
      description: `AltaPay ${payment.what} the payment of order ${payment.orderId}${who} after the customer left (${at}). ${ignored} The order is not paid: ask the customer to pay again (a payment link) or cancel the order.`,
    }
  }
  return {
    title: `AltaPay payment ${payment.what} after review: no order`,
    description: `AltaPay ${payment.what} the payment for cart ${payment.cartId}${who} after the customer was told it was being reviewed (${at}). ${ignored} No order was placed and nothing is charged, but the customer may still expect the order: contact them if you want the sale.`,
  }
}

/** A payment collection's statuses while nothing has paid it. */
const WAITING: ReadonlyArray<string | null> = ["not_paid", "awaiting", "failed", null]

async function collectionOf(
  query: Pick<RemoteQueryFunction, "graph">,
  id: string
): Promise<{ status: string | null; cart?: { email?: string | null } | null; order?: { email?: string | null } | null } | undefined> {
  const { data } = await query.graph({ entity: "payment_collection", fields: ["status", "cart.email", "order.email"], filters: { id } })
  return data[0] as { status: string | null } | undefined
}
