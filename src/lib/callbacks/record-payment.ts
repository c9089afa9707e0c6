/**
 * Records a payment AltaPay confirmed for a Medusa payment session whose cart was read before (the
 * customer's return, the follow-up job): what Medusa's processPaymentWorkflow does, with the read
 * and the decision one step. processPaymentWorkflow looks the cart up again by the session, and for
 * a session deleted in between (a shopper's new session, a cart change) that look-up has an
 * undefined filter, which matches every cart: it completes whichever comes first. Here the session
 * is read again under the cart's lock (the key Medusa's cart completion holds: no completion, cart
 * update or refresh of its payment collection interleaves), or an order's session under its own key,
 * and acted on by ids only:
 *
 * - gone, or no longer this cart's: nothing; the caller notes it for the follow-up job;
 * - a cart without an order: Medusa's completeCartWorkflow for that cart id, once the lock is let go
 *   (the completion takes it itself, as processPaymentWorkflow lets go before completing);
 * - an order's collection (a payment link's, or an order placed while the payment was open) the
 *   session has not paid yet: the session is authorized, under the lock (the provider asks AltaPay),
 *   and a payment that came back captured is booked as the order's transactions; a link the order
 *   no longer fits (canceled, another amount due) is retired instead, and is then gone;
 * - a collection whose cart was deleted: failed, nothing may take the payment;
 * - anything else was recorded before.
 *
 * A completion Medusa's workflow engine stopped part-way (stopped-completion.ts) is finished: its
 * lock let go, the session decided again (its order now exists: the payment is recorded), its
 * events sent.
 */
import type { IEventBusModuleService, ILockingModule, IPaymentModuleService, Logger, MedusaContainer } from "@medusajs/framework/types"
import { ContainerRegistrationKeys, Modules, PaymentEvents } from "@medusajs/framework/utils"
import { randomUUID } from "node:crypto"
import { completeCartWorkflow } from "@medusajs/medusa/core-flows"
import { holdingLock } from "../follow-up/medusa-lock"
import { medusaSession, orderOfCart } from "../medusa-mapping/medusa-session"
import { retireStaleLinkSessions } from "../medusa-mapping/stale-link-sessions"
import { bookCapturesOnOrder } from "./capture-transactions"
import { releaseStoppedRunEvents, releaseStoppedRunLock, type CompletionRun } from "./stopped-completion"

/** `failed`: Medusa could not record it now (the cart cannot complete, its lock stayed taken, a read failed): `error` says why. */
export type RecordedPayment = "completed" | "authorized" | "recorded before" | "gone" | "failed"

/** As long as Medusa's own steps wait for a cart's lock. */
const CART_LOCK_WAIT_MS = 30_000

export async function recordConfirmedPayment(scope: MedusaContainer, session: { id: string; cartId: string | null }): Promise<{ outcome: RecordedPayment; error?: unknown }> {
  const query = scope.resolve(ContainerRegistrationKeys.QUERY)
  const cartId = session.cartId
  const decide = async (): Promise<RecordedPayment> => {
    const now = await medusaSession(query, session.id)
    if (!now || now.cartId !== cartId) return "gone"
    const orderId = cartId ? await orderOfCart(query, cartId) : now.orderId
    if (cartId && !orderId) return "completed"
    // A deleted cart's collection: nothing may take the payment (the follow-up gives it back).
    if (!orderId) throw new Error(`payment collection ${now.collectionId ?? "(none)"} belongs to no cart or order any more`)
    const recordedBefore = !!now.paymentId
    // A link the order no longer fits (canceled, another amount due) pays nothing, also when the change's own retirement has not run yet.
    if (!recordedBefore && !cartId && (await retireStaleLinkSessions(scope, orderId, logger(scope))).includes(session.id)) return "gone"
    if (!recordedBefore) await scope.resolve<IPaymentModuleService>(Modules.PAYMENT).authorizePaymentSession(session.id, {})
    // Paid captured (autoCapture, a terminal that captures at once): the order's transactions, or the
    // order shows the money as still due; also when recorded before (a run that ended between the
    // two). For an order's own collection, as Medusa's capture workflow does it.
    const captured = await bookCapturesOnOrder(scope, orderId, session.id)
    if (captured?.booked && !cartId) await scope.resolve<IEventBusModuleService>(Modules.EVENT_BUS).emit({ name: PaymentEvents.CAPTURED, data: { id: captured.paymentId } })
    return recordedBefore ? "recorded before" : "authorized"
  }
  // Without a cart no completion holds a key; the session's own makes two returns (a reload, the
  // follow-up beside a return) read the order's transactions one after the other, or both would book a capture.
  const lockKey = cartId ?? `altapay:record:session:${session.id}`
  const decideUnderLock = async () => {
    const decided = await holdingLock(scope.resolve<ILockingModule>(Modules.LOCKING), lockKey, CART_LOCK_WAIT_MS, decide, "busy")
    if (decided === "busy") throw new Error(`${cartId ? `cart ${cartId}` : `payment session ${session.id}`} stayed locked by another completion for ${CART_LOCK_WAIT_MS / 1000} s`)
    return decided
  }
  try {
    const decided = await decideUnderLock()
    if (decided !== "completed") return { outcome: decided }
    // The run's event group is ours, so a run the engine stops can still send its events.
    const startedAt = Date.now()
    const eventGroupId = randomUUID()
    const { errors, transaction } = await completeCartWorkflow(scope).run({ input: { id: cartId! }, throwOnError: false, context: { eventGroupId } })
    if (errors.length) return { outcome: "failed", error: errors[0].error }
    if (transaction.hasFinished()) return { outcome: decided }
    return await finishStoppedCompletion(scope, cartId!, { startedAt, eventGroupId, transaction }, decideUnderLock)
  } catch (error) {
    return { outcome: "failed", error }
  }
}

async function finishStoppedCompletion(
  scope: MedusaContainer,
  cartId: string,
  run: CompletionRun,
  decideUnderLock: () => Promise<RecordedPayment>
): Promise<{ outcome: RecordedPayment; error?: unknown }> {
  const stopped = `Medusa's completion of cart ${cartId} stopped part-way (its workflow engine left the run ${run.transaction.getState()})`
  if (!(await releaseStoppedRunLock(scope, cartId, run)))
    return { outcome: "failed", error: new Error(`${stopped}; its lock may be another's by now: the follow-up job records the payment`) }
  const decided = await decideUnderLock()
  // No order linked: the run stopped before linking it, and completing again could make a second one.
  if (decided === "completed") return { outcome: "failed", error: new Error(`${stopped} before its order was linked: the follow-up job completes it`) }
  if (decided !== "authorized" && decided !== "recorded before") return { outcome: decided }
  await releaseStoppedRunEvents(scope, run)
  const orderId = await orderOfCart(scope.resolve(ContainerRegistrationKeys.QUERY), cartId)
  logger(scope).warn(`${stopped}; the plugin let go of the cart's lock, recorded the payment on order ${orderId} and sent the run's events.`)
  return { outcome: "completed" }
}

const logger = (scope: MedusaContainer): Pick<Logger, "warn"> =>
  scope.resolve<Logger | undefined>(ContainerRegistrationKeys.LOGGER, { allowUnregistered: true }) ?? { warn: () => undefined }
