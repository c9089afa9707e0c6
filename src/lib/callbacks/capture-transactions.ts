/**
 * A payment's captures as its order's transactions, as Medusa's own flows book them
 * (complete-cart's add-order-transaction step, capturePaymentWorkflow): one per capture,
 * referenced by the capture's id. Without them the order shows the money as still due, so a
 * payment link or a saved-card charge would ask for it again. Captures booked before are skipped.
 */
import type { BigNumberInput, IOrderModuleService, MedusaContainer } from "@medusajs/framework/types"
import { ContainerRegistrationKeys, Modules } from "@medusajs/framework/utils"

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
