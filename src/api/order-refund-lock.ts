/**
 * One refund of an AltaPay payment's order at a time, on Medusa's refund route and the plugin's
 * item refunds. Medusa's refundPaymentWorkflow refunds first and then opens an order change for
 * the refund's credit line; a second refund of the same order at once fails on "already has an
 * existing active order change" after its money moved, and rolls back order transactions the
 * first had booked. Pressed three times at once, AltaPay refunded three times while the admin
 * was told two had failed and the order showed the refunded amount as due again.
 * The lock is held until the route answers, in Medusa's locking module (every server sees it),
 * and taken before the payment's own lock, so the two are always taken in the same order.
 */
import type { MedusaNextFunction, MedusaRequest, MedusaResponse } from "@medusajs/framework/http"
import type { ILockingModule } from "@medusajs/framework/types"
import { Modules } from "@medusajs/framework/utils"
import { holdingLock } from "../lib/follow-up/medusa-lock"
import { altapayPaymentOrder } from "../lib/medusa-mapping/altapay-payment"

/** Longer than a refund takes with AltaPay at its slowest: the refund before this one is still running. */
const REFUND_WAIT_MS = 60_000

export async function oneRefundOfAnOrderAtATime(req: MedusaRequest, res: MedusaResponse, next: MedusaNextFunction): Promise<void> {
  let orderId: string | undefined
  try {
    orderId = req.params.id ? (await altapayPaymentOrder(req.scope, req.params.id))?.orderId : undefined
  } catch (error) {
    return next(error)
  }
  if (!orderId) return next()
  const ran = await holdingLock(
    req.scope.resolve<ILockingModule>(Modules.LOCKING),
    `altapay:order-refunds:${orderId}`,
    REFUND_WAIT_MS,
    () =>
      new Promise<boolean>((resolve) => {
        // Held until the route answers, not until the socket closes: an admin who leaves mid-refund
        // must not let the next refund of the order start beside this one.
        const end = res.end.bind(res) as (...args: unknown[]) => MedusaResponse
        res.end = ((...args: unknown[]) => {
          resolve(true)
          return end(...args)
        }) as MedusaResponse["end"]
        next()
      }),
    false
  )
  if (!ran) {
    res.status(409).json({
      type: "conflict",
      message: `Another refund of order ${orderId} was still running after ${REFUND_WAIT_MS / 1000} s. Reload the order to see whether it went through before refunding again.`,
    })
  }
}
