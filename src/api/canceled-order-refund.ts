/**
 * Medusa's Refund of an AltaPay payment whose order is canceled: money the cancel could not give
 * back (lib/medusa-mapping/cancel-check.ts tells the merchant). Medusa 2.21's own route refunds at
 * AltaPay, then answers 400 though the money moved; this makes the refund recorded on the payment
 * alone (lib/medusa-mapping/canceled-order-refund.ts) and answers as Medusa's route answers. Runs
 * under the order's money lock.
 */
import type { AuthenticatedMedusaRequest, MedusaNextFunction, MedusaRequest, MedusaResponse } from "@medusajs/framework/http"
import { z } from "zod"
import { altapayPaymentOrder } from "../lib/medusa-mapping/altapay-payment"
import { isCanceledOrder, refundOfCanceledOrder } from "../lib/medusa-mapping/canceled-order-refund"

/** Medusa's AdminCreatePaymentRefund, as far as this route uses it; anything else is Medusa's to answer. */
const refundBody = z.object({ amount: z.number().positive().optional(), note: z.string().optional(), refund_reason_id: z.string().optional() }).strict()

export async function refundWhenOrderCanceled(req: MedusaRequest, res: MedusaResponse, next: MedusaNextFunction): Promise<void> {
  try {
    const body = refundBody.safeParse(req.body ?? {})
    const order = body.success && req.params.id ? await altapayPaymentOrder(req.scope, req.params.id) : undefined
    if (!body.success || !order || !(await isCanceledOrder(req.scope, order.orderId))) return next()
    const createdBy = (req as AuthenticatedMedusaRequest).auth_context?.actor_id
    res.status(200).json({ payment: await refundOfCanceledOrder(req.scope, { payment_id: req.params.id, created_by: createdBy, ...body.data }) })
  } catch (error) {
    next(error)
  }
}
