/**
 * Payment links an order change made wrong. A link pays a pending AltaPay session of the order for
 * the amount due when it was sent; Medusa neither deletes that session when it cancels the order
 * nor changes its amount when an edit, claim, exchange or return changes what is due. Paid, it was
 * recorded on the canceled order, or for more than was due (113.75 DKK on an order that owed the
 * customer money). Such a session is retired as Medusa retires a replaced one (the provider's
 * deletePayment): the link can no longer place a payment, and one paid meanwhile is released by the
 * follow-up job (captured: the merchant is told to refund it), as for any retired session.
 *
 * A canceled order's payment still awaiting the customer's approval (an app or bank payment Medusa
 * placed the order for, pending_authorization) is retired too: Medusa's cancel leaves it, having
 * no payment to cancel, and an approval after it was booked as captured on the canceled order.
 */
import type { ILockingModule, IPaymentModuleService, Logger, MedusaContainer } from "@medusajs/framework/types"
import { Modules } from "@medusajs/framework/utils"
import { minorToDecimal } from "../../altapay"
import { altapayProviderIds } from "../registrations/from-config"
import { linkNoLongerFits, loadOrderDue, type DueSessionRow } from "./amount-due"
import { toMinorUnits } from "./amounts"
import { PENDING_AUTHORIZATION } from "./status"

/** Held while an order's payment link session is chosen or made (the admin's route) and while its stale ones are retired. */
export const orderLinkLockKey = (orderId: string): string => `altapay-payment-link:${orderId}`

/** Retires the order's pending AltaPay sessions that no longer pay what is due; returns their ids. */
export async function retireStaleLinkSessions(container: MedusaContainer, orderId: string, logger: Pick<Logger, "warn">): Promise<string[]> {
  // A link sent right after the change replaces these sessions through Medusa's own workflow: one after the other.
  const locking = container.resolve<ILockingModule>(Modules.LOCKING)
  return locking.execute(orderLinkLockKey(orderId), () => retireUnderLock(container, orderId, logger), { timeout: 30 })
}

async function retireUnderLock(container: MedusaContainer, orderId: string, logger: Pick<Logger, "warn">): Promise<string[]> {
  const due = await loadOrderDue(container, orderId)
  const currency = due.order.currency_code.toUpperCase()
  const canceled = due.order.status === "canceled"
  const altapay = new Set(altapayProviderIds(container))
  const stale = (due.order.payment_collections ?? [])
    .flatMap((collection) => collection?.payment_sessions ?? [])
    .filter((s): s is DueSessionRow => !!s && altapay.has(s.provider_id) && (s.status === "pending" || (canceled && s.status === PENDING_AUTHORIZATION)))
    .flatMap((s) => {
      const now = linkNoLongerFits(due, toMinorUnits(s.amount, currency))
      return now ? [{ ...s, now }] : []
    })
  const payments = container.resolve<IPaymentModuleService>(Modules.PAYMENT)
  for (const session of stale) {
    await payments.deletePaymentSession(session.id)
    const amount = `${minorToDecimal(toMinorUnits(session.amount, currency), currency)} ${currency}`
    logger.warn(
      session.status === "pending"
        ? `AltaPay: the payment link for ${amount} on order ${due.name} (payment session ${session.id}) no longer fits the order (${session.now}) and was retired. A payment made on it is released by the follow-up job; send a new link for what is due.`
        : `AltaPay: the payment of ${amount} on order ${due.name} still awaiting the customer's approval (payment session ${session.id}) was retired, since the order is canceled. If the customer approves it still, the follow-up job releases it, or tells you to refund it where AltaPay captured it at once.`
    )
  }
  return stale.map((s) => s.id)
}
