/**
 * How the merchant learns of a payment no order claims. Such a payment has no order page, so it
 * goes to the admin's notification feed (Medusa's notification module, channel "feed": the bell in
 * the admin) and to the log as an error, with the AltaPay transaction to look up. One notice per
 * transaction: the notification's idempotency key makes a second server's or a later run's the same.
 */
import type { INotificationModuleService, Logger, MedusaContainer } from "@medusajs/framework/types"
import { ContainerRegistrationKeys, Modules } from "@medusajs/framework/utils"

export interface UnclaimedPayment {
  /**
   * released: the reservation is released; captured: the money is taken and a person must refund
   * it; attention: a paid session the job has not been able to record after its tries (it keeps
   * trying, and releases nothing); pending: a payment still open at AltaPay past the session
   * lifetime (the job keeps following it until AltaPay settles it).
   */
  kind: "released" | "captured" | "attention" | "pending"
  providerId: string
  sessionId: string
  cartId: string | null
  /** The order a payment link's session pays into. */
  orderId?: string | null
  email: string | null
  transactionId: string
  /** e.g. "274.90 DKK". */
  amount: string
  why: string
}

export function noticeText(payment: UnclaimedPayment): { title: string; description: string } {
  const where = payment.orderId
    ? `order ${payment.orderId}${payment.email ? ` (${payment.email})` : ""}`
    : payment.cartId
      ? `cart ${payment.cartId}${payment.email ? ` (${payment.email})` : ""}`
      : `payment session ${payment.sessionId}`
  if (payment.kind === "attention") {
    return {
      title: "AltaPay payment needs attention",
      description: `A customer paid ${payment.amount} for ${where} (AltaPay transaction ${payment.transactionId}), but it could not be recorded in Medusa yet: ${payment.why}. The reservation is kept and the follow-up job keeps trying. Fix the cause (e.g. stock, the cart, AltaPay's access) and it completes on its own; if no order should take this payment, release it in AltaPay's merchant interface.`,
    }
  }
  if (payment.kind === "pending") {
    return {
      title: "AltaPay payment still pending",
      description: `A customer's payment of ${payment.amount} for ${where} (AltaPay transaction ${payment.transactionId}) is still open at AltaPay after the session lifetime: ${payment.why}. AltaPay sets no time limit on open payments; the follow-up job keeps following it and places the order (or releases it) when AltaPay settles it. Nothing is needed unless you want to cancel it in AltaPay's merchant interface.`,
    }
  }
  if (payment.kind === "released") {
    return {
      title: "AltaPay payment released: no order",
      description: `A customer paid ${payment.amount} for ${where} but no order could be placed: ${payment.why}. The reservation (AltaPay transaction ${payment.transactionId}) was released, so the money is no longer held.`,
    }
  }
  return {
    title: "AltaPay payment captured without an order",
    description: `A customer paid ${payment.amount} for ${where} and AltaPay captured it, but no order could be placed: ${payment.why}. Refund AltaPay transaction ${payment.transactionId} in AltaPay's merchant interface.`,
  }
}

export async function tellMerchant(container: MedusaContainer, payment: UnclaimedPayment): Promise<void> {
  const logger = container.resolve<Logger>(ContainerRegistrationKeys.LOGGER)
  const { title, description } = noticeText(payment)
  logger.error(`${title} (${payment.providerId}, payment session ${payment.sessionId}): ${description}`)
  await postFeedNotice(
    container,
    payment.kind === "attention" || payment.kind === "pending" ? `altapay-${payment.kind}-${payment.sessionId}` : `altapay-unclaimed-${payment.kind}-${payment.transactionId}`,
    { title, description },
    `transaction ${payment.transactionId}`
  )
}

/**
 * One notice in the admin's notification feed (the bell); the same `idempotencyKey` twice is one
 * notice. Without the Notification module, or a provider for the feed channel, the caller's log
 * line is the notice (`about` names what in the warning).
 */
export async function postFeedNotice(container: MedusaContainer, idempotencyKey: string, notice: { title: string; description: string }, about: string): Promise<void> {
  if (!container.hasRegistration(Modules.NOTIFICATION)) return
  try {
    await container.resolve<INotificationModuleService>(Modules.NOTIFICATION).createNotifications({
      to: "",
      channel: "feed",
      template: "admin-ui",
      idempotency_key: idempotencyKey,
      data: notice,
    })
  } catch (error) {
    container
      .resolve<Logger>(ContainerRegistrationKeys.LOGGER)
      .warn(`AltaPay: the admin notification for ${about} could not be created (${error instanceof Error ? error.message : String(error)}).`)
  }
}
