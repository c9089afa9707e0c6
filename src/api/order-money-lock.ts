/**
 * One change of an AltaPay order's money at a time: Medusa's Capture, Refund and Cancel, and the
 * plugin's item captures, item refunds and saved-card charges, and the confirms that move an order
 * to its next version (order edits, claims, exchanges, returns). Medusa's refund and cancel each open
 * an order change for their credit line after the money moved, and two at once fail on "already
 * has an existing active order change" and roll back order transactions the other booked: Refund
 * pressed three times left a refunded order showing the amount as due again. Cancel reads the
 * payment's captures once and refunds them: beside a capture that was still running it booked a
 * refund AltaPay never made (the provider refused it; Medusa's step logs a refused refund and books
 * it), and beside a refund it booked the whole amount as refunded while part was still captured.
 * The lock is held until the route answers, in Medusa's locking module (every server sees it), and
 * taken before the payment's own lock, so the two are always taken in the same order.
 */
import type { MedusaNextFunction, MedusaRequest, MedusaResponse } from "@medusajs/framework/http"
import { ContainerRegistrationKeys, MedusaError } from "@medusajs/framework/utils"
import { changingOrderMoney, ORDER_MONEY_WAIT_MS } from "../lib/follow-up/medusa-lock"
import { altapayPaymentOrder } from "../lib/medusa-mapping/altapay-payment"
import { cancelRefusal } from "../lib/medusa-mapping/cancel-check"

type Middleware = (req: MedusaRequest, res: MedusaResponse, next: MedusaNextFunction) => Promise<void>

/** The order whose money the request changes; undefined: none of AltaPay's, the request passes untouched. */
type OrderOf = (req: MedusaRequest) => Promise<string | undefined>

function oneChangeOfAnOrderAtATime(orderOf: OrderOf): Middleware {
  return async (req, res, next) => {
    let orderId: string | undefined
    try {
      orderId = req.params.id ? await orderOf(req) : undefined
    } catch (error) {
      return next(error)
    }
    if (!orderId) return next()
    const ran = await changingOrderMoney(
      req.scope,
      orderId,
      () =>
        new Promise<boolean>((resolve) => {
          // Held until the route answers, not until the socket closes: an admin who leaves mid-refund
          // must not let the next change of the order start beside this one.
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
        message: `Another capture, refund, charge, cancel or confirmed change of order ${orderId} was still running after ${ORDER_MONEY_WAIT_MS / 1000} s. Reload the order to see whether it went through before trying again.`,
      })
    }
  }
}

/** Routes of one payment (`:id`): the order of an AltaPay payment. */
export const oneChangeOfAPaymentsOrderAtATime = oneChangeOfAnOrderAtATime(async (req) => (await altapayPaymentOrder(req.scope, req.params.id))?.orderId)

/**
 * Routes of one order (`:id`): every order, since a saved-card charge can pay an order that has no
 * AltaPay payment yet, and a cancel beside it must wait for it.
 */
export const oneChangeOfThisOrderAtATime = oneChangeOfAnOrderAtATime(async (req) => req.params.id)

/**
 * Confirms of a claim, an exchange or a return (`:id` is theirs): the order they change. Each, like
 * an order edit's confirm (`:id` is the order), moves the order to its next version: beside a
 * capture, Medusa booked the capture on the version being replaced, or the confirm's rollback
 * dropped it, and the order then showed money AltaPay had captured as due again (and a payment
 * link asked for it a second time).
 */
export const oneChangeOfTheOrderOf = (entity: "order_claim" | "order_exchange" | "return") =>
  oneChangeOfAnOrderAtATime(async (req) => {
    const query = req.scope.resolve(ContainerRegistrationKeys.QUERY)
    const { data } = await query.graph({ entity, fields: ["order_id"], filters: { id: req.params.id } })
    return (data[0] as { order_id?: string } | undefined)?.order_id
  })

/** Medusa's Cancel, under the order's lock: refused (400) while it would leave AltaPay holding money (lib/medusa-mapping/cancel-check.ts). */
export async function refuseCancelThatKeepsMoney(req: MedusaRequest, _res: MedusaResponse, next: MedusaNextFunction): Promise<void> {
  try {
    const refusal = req.params.id ? await cancelRefusal(req.scope, req.params.id) : undefined
    next(refusal ? new MedusaError(MedusaError.Types.NOT_ALLOWED, refusal) : undefined)
  } catch (error) {
    next(error)
  }
}
