/**
 * Medusa's Refund of an AltaPay payment whose order is canceled: money the cancel could not give
 * back (its refund failed; lib/medusa-mapping/cancel-check.ts tells the merchant). Medusa 2.21's
 * refundPaymentWorkflow refunds at AltaPay, then fails to add the order's credit line ("Order …
 * has been canceled") and answers 400 though the money moved. The cancel already booked the refund
 * on the order, so only the payment records it: the payment module's refund, through the provider
 * and its money door, answered as Medusa's route answers. Runs under the order's money lock.
 */
import type { AuthenticatedMedusaRequest, MedusaNextFunction, MedusaRequest, MedusaResponse } from "@medusajs/framework/http"
import { ContainerRegistrationKeys, Modules } from "@medusajs/framework/utils"
import { z } from "zod"
import { altapayPaymentOrder } from "../lib/medusa-mapping/altapay-payment"

/** Medusa's AdminCreatePaymentRefund, as far as this route uses it; anything else is Medusa's to answer. */
const refundBody = z.object({ amount: z.number().positive().optional(), note: z.string().optional(), refund_reason_id: z.string().optional() }).strict()

export async function refundOfCanceledOrder(req: MedusaRequest, res: MedusaResponse, next: MedusaNextFunction): Promise<void> {
  try {
    const body = refundBody.safeParse(req.body ?? {})
    const order = body.success && req.params.id ? await altapayPaymentOrder(req.scope, req.params.id) : undefined
    if (!body.success || !order) return next()
    const { data } = await req.scope.resolve(ContainerRegistrationKeys.QUERY).graph({ entity: "order", fields: ["status"], filters: { id: order.orderId } })
    if ((data[0] as { status?: string } | undefined)?.status !== "canceled") return next()
    const payments = req.scope.resolve(Modules.PAYMENT)
    await payments.refundPayment({ payment_id: req.params.id, created_by: (req as AuthenticatedMedusaRequest).auth_context?.actor_id, ...body.data })
    res.status(200).json({ payment: await payments.retrievePayment(req.params.id, { relations: ["captures", "refunds"] }) })
  } catch (error) {
    next(error)
  }
}
