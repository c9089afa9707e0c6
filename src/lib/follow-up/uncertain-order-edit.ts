/**
 * The follow-up of an order edit's update of an invoice reservation (updateOrder) the door could not
 * settle. Medusa's edit went on without it (it goes on when its cancel of the old payment fails): the
 * old payment still shows the old total and the edit's collection waits. The cancel is made again,
 * marked as the edit's (whileFinishingEdit), so the provider keeps the reservation through the door,
 * which adopts the update AltaPay made or, when AltaPay never made it, sends it now; the kept
 * reservation then pays the edit's collection (lib/item-captures/order-edit.ts). Without a confirmed
 * edit waiting for that total nothing is canceled: that would release the reservation.
 */
import type { IPaymentModuleService, MedusaContainer, PaymentDTO } from "@medusajs/framework/types"
import { ContainerRegistrationKeys, Modules } from "@medusajs/framework/utils"
import { minorToDecimal } from "../../altapay"
import { carryKeptReservations, orderEditBehindCancel, whileFinishingEdit } from "../item-captures/order-edit"
import { sessionIdFromOrderId } from "../medusa-mapping/shop-order-id"
import type { Attempt } from "../money-door/attempts"
import { openPaymentData, type AltaPayPaymentData } from "../payment-data/data"
import type { AltaPayRegistration } from "../registrations/registrations"

export type OrderEditVerdict =
  /** recorded: AltaPay had made it; made: AltaPay had not, the follow-up made it now. */
  | { outcome: "recorded" | "made" | "needs the merchant"; description: string }
  /** Not made, and no edit waits for it any more: forgotten. */
  | { outcome: "not made" }

/**
 * `made`: AltaPay's record shows the update. Throws when the cancel fails (AltaPay not askable, a
 * refusal to send yet): the run tries again next time, the attempt stays.
 */
export async function finishOrderEdit(
  container: MedusaContainer,
  registration: Pick<AltaPayRegistration, "keys" | "scaleOut">,
  attempt: Attempt,
  payment: PaymentDTO,
  data: AltaPayPaymentData | undefined,
  orderId: string | undefined,
  made: boolean
): Promise<OrderEditVerdict> {
  const amount = `${minorToDecimal(attempt.amountMinor, attempt.currency)} ${attempt.currency}`
  const what = `AltaPay's update of order ${orderId ?? data?.order_id}'s reservation to ${amount} (an order edit, payment ${payment.id})`
  const query = container.resolve(ContainerRegistrationKeys.QUERY)
  const edit = data && orderId ? await orderEditBehindCancel(query, sessionIdFromOrderId(data.order_id), data.currency, { finishingTotal: attempt.amountMinor }) : undefined
  const transactionId = data?.transaction_id
  if (!edit || !transactionId || edit.totalMinor !== attempt.amountMinor || edit.order.id !== orderId) {
    if (!made) return { outcome: "not made" }
    return {
      outcome: "needs the merchant",
      description: `${what} went through at AltaPay though nobody heard back, and no confirmed edit of the order waits for that total. Do not cancel the payment in Medusa: that releases the reservation at AltaPay. Capture what AltaPay reserves, or settle it in AltaPay's merchant interface.`,
    }
  }
  const happened = made ? `${what} went through at AltaPay though nobody heard back` : `${what} could not be made when the edit was confirmed`
  const cancel = () => container.resolve<IPaymentModuleService>(Modules.PAYMENT).cancelPayment(payment.id)
  const canceled = await whileFinishingEdit(registration.scaleOut.store, transactionId, attempt.amountMinor, cancel)
  const opened = openPaymentData(canceled.data, registration.keys)
  if (!(opened.sealed && opened.data.order_edit?.kept)) {
    // AltaPay refused the update now: the provider released the reservation, as for any edit it refuses.
    return {
      outcome: "needs the merchant",
      description: `${happened}; AltaPay refused it when it was made again, so the reservation was released and the edited order's total waits for the customer's payment (send a payment link).`,
    }
  }
  if ((await carryKeptReservations(container, edit.order.id)) === 0) {
    return {
      outcome: "needs the merchant",
      description: `${happened}; the reservation is now ${amount} but Medusa did not record it as the payment of collection ${edit.collectionId} yet. The payment-session follow-up records it there once AltaPay confirms the reservation, and tells you if it cannot; do not capture or release it in AltaPay's merchant interface.`,
    }
  }
  return made
    ? { outcome: "recorded", description: `${happened}; the reservation now pays the edited order (nothing was sent again).` }
    : { outcome: "made", description: `${happened}; the follow-up made it now, and the reservation pays the edited order.` }
}
