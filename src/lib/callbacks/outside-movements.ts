/**
 * Money moved in AltaPay's merchant interface, not through Medusa: a capture of part of a payment,
 * a refund (and, told by the expiring-reservations job, a full capture or a release). Medusa's own handler of AltaPay's notification records a capture of the whole payment
 * and nothing else; the rest would leave AltaPay's money and Medusa's records apart with nobody
 * told. AltaPay's notification only prompts a look: the payment's record is read from AltaPay
 * (never taken from the post), compared with what Medusa recorded, and a difference is told to the
 * merchant in the admin's notification feed, with what to do, once per AltaPay state.
 */
import type { Logger, MedusaContainer } from "@medusajs/framework/types"
import { ContainerRegistrationKeys } from "@medusajs/framework/utils"
import { CAPTURED_STATUSES, minorToDecimal, REFUNDED_STATUSES, RELEASED_STATUSES, statusIn, type GatewayTransaction } from "../../altapay"
import { postFeedNotice } from "../follow-up/merchant-notice"
import { loadAltaPayPayment } from "../medusa-mapping/altapay-payment"
import { medusaSession, orderOfCart } from "../medusa-mapping/medusa-session"
import { changingOrderMoney } from "../follow-up/medusa-lock"
import { sessionIdFromOrderId } from "../medusa-mapping/shop-order-id"
import { pickTransaction } from "../medusa-mapping/status"
import type { AltaPayRegistration } from "../registrations/registrations"

/** Whether a notification's payment_status can mean money moved after the payment (captured, refunded). */
export const mayHaveMovedMoney = (paymentStatus: string): boolean => statusIn(paymentStatus, [...CAPTURED_STATUSES, ...REFUNDED_STATUSES])

/** Looks at the payment of AltaPay order `shopOrderId` and tells the merchant of money moved outside Medusa; answers whether it told. */
export async function tellOfOutsideMovement(container: MedusaContainer, registration: Pick<AltaPayRegistration, "client">, shopOrderId: string): Promise<boolean> {
  const query = container.resolve(ContainerRegistrationKeys.QUERY)
  const session = await medusaSession(query, sessionIdFromOrderId(shopOrderId))
  if (!session?.paymentId) return false // no payment yet: Medusa's own handler records the payment
  const orderId = session.orderId ?? (session.cartId ? await orderOfCart(query, session.cartId) : undefined)
  const paymentId = session.paymentId
  // After any capture or refund of the order under way in Medusa has been recorded: AltaPay's notice of it is no news.
  const look = () => compare(container, registration, paymentId)
  return orderId ? changingOrderMoney(container, orderId, look, false) : look()
}

async function compare(container: MedusaContainer, registration: Pick<AltaPayRegistration, "client">, paymentId: string): Promise<boolean> {
  const payment = await loadAltaPayPayment(container, paymentId)
  const transactionId = payment.data.transaction_id
  const transaction = transactionId ? pickTransaction(await registration.client.gateway.payments({ transactionId })) : undefined
  if (!transaction) return false
  const captured = transaction.capturedAmount?.minor ?? 0
  const refunded = transaction.refundedAmount?.minor ?? 0
  // A capture of the whole payment is Medusa's own handler's to record; part of one, or a refund, is not.
  const capturedOutside = captured > payment.captured_minor && captured < payment.amount_minor
  const refundedOutside = refunded > payment.refunded_minor
  if (!capturedOutside && !refundedOutside) return false
  const notice = outsideMovementNotice(payment, transaction)
  container.resolve<Logger>(ContainerRegistrationKeys.LOGGER).warn(`${notice.title} (payment ${payment.id}): ${notice.description}`)
  await postFeedNotice(container, `altapay-outside-${payment.id}-${captured}-${refunded}`, notice, `payment ${payment.id}`)
  return true
}

/** What Medusa recorded of a payment, against which AltaPay's record is told. */
interface MedusaRecord {
  id: string
  currency_code: string
  amount_minor: number
  captured_minor: number
  refunded_minor: number
}

/** The merchant's notice of a payment AltaPay shows released, captured or refunded beyond Medusa's records, with what to do. */
export function outsideMovementNotice(payment: MedusaRecord, transaction: GatewayTransaction): { title: string; description: string } {
  const fmt = (minor: number) => `${minorToDecimal(minor, payment.currency_code)} ${payment.currency_code.toUpperCase()}`
  const captured = transaction.capturedAmount?.minor ?? 0
  const refunded = transaction.refundedAmount?.minor ?? 0
  const left = (transaction.reservedAmount?.minor ?? payment.amount_minor) - captured
  const released = statusIn(transaction.transactionStatus, RELEASED_STATUSES)
  const todo = [
    released && captured === 0 ? "Cancel the order in Medusa to match (nothing is released again)." : "",
    captured > payment.captured_minor && left <= 0 ? "Press Capture on the payment in Medusa to record it (nothing is captured again)." : "",
    captured > payment.captured_minor && left > 0
      ? `To record the capture, capture in Medusa first the ${fmt(left)} AltaPay has left (if you ship it), then the ${fmt(captured - payment.captured_minor)} captured in AltaPay (AltaPay refuses it, and the plugin records it: nothing is captured again).`
      : "",
    refunded > payment.refunded_minor
      ? `Medusa's Refund would refund the ${fmt(refunded - payment.refunded_minor)} again: do not repeat it there; cancel the order only once AltaPay holds what Medusa shows.`
      : "",
  ].filter(Boolean)
  return {
    title: "AltaPay payment changed outside Medusa",
    description: `AltaPay shows payment ${payment.id} (AltaPay transaction ${transaction.transactionId}) as ${transaction.transactionStatus}, with ${fmt(captured)} captured and ${fmt(refunded)} refunded; Medusa has recorded ${fmt(payment.captured_minor)} captured and ${fmt(payment.refunded_minor)} refunded: it was changed in AltaPay's merchant interface. ${todo.join(" ")}`,
  }
}
