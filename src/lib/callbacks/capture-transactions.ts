/**
 * A payment's captures as its order's transactions, as Medusa's own flows book them
 * (complete-cart's add-order-transaction step, capturePaymentWorkflow): one per capture,
 * referenced by the capture's id. Without them the order shows the money as still due, so a
 * payment link or a saved-card charge would ask for it again. Captures booked before are skipped,
 * and a capture booked twice at once is booked once again (removeDoubleBookings).
 */
import type { BigNumberInput, ILockingModule, IOrderModuleService, MedusaContainer } from "@medusajs/framework/types"
import { ContainerRegistrationKeys, Modules } from "@medusajs/framework/utils"
import { holdingLock } from "../follow-up/medusa-lock"
import { altapayPaymentOrder } from "../medusa-mapping/altapay-payment"

/** Books the captures of the session's payment not booked yet: the payment's id and how many it booked, or undefined without captures. */
export async function bookCapturesOnOrder(scope: MedusaContainer, orderId: string, sessionId: string): Promise<{ paymentId: string; booked: number } | undefined> {
  const query = scope.resolve(ContainerRegistrationKeys.QUERY)
  const { data } = await query.graph({
    entity: "payment_session",
    fields: ["payment.id", "payment.currency_code", "payment.captures.id", "payment.captures.raw_amount"],
    filters: { id: sessionId },
  })
  const payment = (data[0] as { payment?: { id: string; currency_code: string; captures?: Array<{ id: string; raw_amount: BigNumberInput }> } } | undefined)?.payment
  const captures = payment?.captures ?? []
  if (!payment || !captures.length) return undefined
  const orders = scope.resolve<IOrderModuleService>(Modules.ORDER)
  const existing = new Set((await orders.listOrderTransactions({ order_id: orderId, reference: "capture" }, { select: ["reference_id"] })).map((t) => t.reference_id))
  const missing = captures.filter((capture) => !existing.has(capture.id))
  for (const capture of missing) {
    await orders.addOrderTransactions({ order_id: orderId, amount: capture.raw_amount, currency_code: payment.currency_code, reference: "capture", reference_id: capture.id })
  }
  return { paymentId: payment.id, booked: missing.length }
}

/** Waited for another run of the same order: it may have read the bookings before the last one was added. */
const BOOKINGS_WAIT_MS = 30_000

/**
 * A capture booked more than once on its order: the first booking kept, the others removed (soft
 * deleted: Medusa's order summary follows). Medusa's capture workflow, which its webhook runs for a
 * payment AltaPay captured, checks for a booking and then adds one without a lock, so beside the
 * customer's return booking the same capture both can add it, and the order shows the money as paid
 * twice. Each booker sends payment.captured after it added, so the run after the last one sees all.
 * Undefined: not an AltaPay payment of an order, or another run holds the order's key.
 */
export async function removeDoubleBookings(scope: MedusaContainer, paymentId: string): Promise<{ orderId: string; removed: number } | undefined> {
  const paid = await altapayPaymentOrder(scope, paymentId)
  if (!paid?.captureIds.length) return undefined
  const { orderId, captureIds } = paid
  const removeExtra = async () => {
    const orders = scope.resolve<IOrderModuleService>(Modules.ORDER)
    const booked = await orders.listOrderTransactions(
      { order_id: orderId, reference: "capture", reference_id: captureIds },
      { select: ["id", "reference_id", "created_at"], order: { created_at: "ASC", id: "ASC" } }
    )
    const kept = new Set<string>()
    const extra: string[] = []
    for (const booking of booked) {
      if (kept.has(booking.reference_id!)) extra.push(booking.id)
      else kept.add(booking.reference_id!)
    }
    if (extra.length) await orders.softDeleteOrderTransactions(extra)
    return { orderId, removed: extra.length }
  }
  return holdingLock(scope.resolve<ILockingModule>(Modules.LOCKING), `altapay:capture-bookings:${orderId}`, BOOKINGS_WAIT_MS, removeExtra, undefined)
}
