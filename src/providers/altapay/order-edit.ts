/**
 * The provider's part in an order edit of an invoice payment (lib/item-captures/order-edit.ts): a
 * cancel that is Medusa's answer to a confirmed edit lowers the reservation with updateOrder and keeps
 * it, instead of releasing it; the new collection's session names the kept payment, and authorizes
 * only when AltaPay's own record reserves exactly the session's amount on that payment.
 */
import type { AuthorizePaymentOutput, InitiatePaymentInput, InitiatePaymentOutput } from "@medusajs/framework/types"
import { MedusaError, PaymentSessionStatus } from "@medusajs/framework/utils"
import { AltaPayDeclinedError } from "../../altapay"
import { carriedReservationIn, editedOrderLines, finishingEditTotal, orderEditBehindCancel } from "../../lib/item-captures/order-edit"
import { wholeItemsOnly } from "../../lib/item-captures/basis"
import { medusaSession } from "../../lib/medusa-mapping/medusa-session"
import { sessionIdFromOrderId, shopOrderIdFor } from "../../lib/medusa-mapping/shop-order-id"
import { sessionStatusFor } from "../../lib/medusa-mapping/status"
import { updateOrderThroughDoor } from "../../lib/money-door/order-update"
import { openPaymentData, type AltaPayPaymentData } from "../../lib/payment-data/data"
import { withTransaction } from "../../lib/payment-data/transaction-state"
import { toMedusaError } from "../../lib/medusa-mapping/errors"
import type { ProviderContext } from "./context"

/**
 * In cancelPayment: the data with the reservation lowered to the edited order and kept, when Medusa
 * cancels this invoice payment because an edit of its order was confirmed; undefined: release as usual.
 */
export async function keepForOrderEdit(ctx: ProviderContext, data: AltaPayPaymentData): Promise<AltaPayPaymentData | undefined> {
  if (!ctx.query || !data.transaction_id || !data.payment_id || (data.captured_minor ?? 0) > 0 || !wholeItemsOnly(data, ctx.options)) return undefined
  // The follow-up completing an edit whose update failed marks its cancel (whileFinishingEdit).
  const finishingTotal = await finishingEditTotal(ctx.scaleOut.store, data.transaction_id).catch(() => undefined)
  const edit = await orderEditBehindCancel(ctx.query, sessionIdFromOrderId(data.order_id), data.currency, { finishingTotal })
  if (!edit) return undefined
  const where = `AltaPay order edit of ${edit.order.id} (transaction ${data.transaction_id})`
  const reserved = data.reserved_minor ?? data.amount_minor
  if (edit.totalMinor > reserved) {
    ctx.logger?.warn(
      `${where}: the edit raised the total to ${edit.totalMinor} minor units; AltaPay does not raise a reservation, so it is released and the customer pays the new total (a payment link).`
    )
    return undefined
  }
  const lines = editedOrderLines(edit.order, edit.totalMinor, ctx.options.productUrlTemplate)
  let transaction
  try {
    transaction = await updateOrderThroughDoor(ctx.door, ctx.client, {
      transactionId: data.transaction_id,
      paymentId: data.payment_id,
      amountMinor: edit.totalMinor,
      currency: data.currency,
      orderLines: lines,
      data,
    })
  } catch (error) {
    if (!(error instanceof AltaPayDeclinedError)) throw toMedusaError(error, "order update", ctx.logger)
    ctx.logger?.warn(`${where}: AltaPay refused updateOrder (${error.message}); the reservation is released and the customer pays the new total (a payment link).`)
    return undefined
  }
  ctx.logger?.info(`${where}: AltaPay's reservation updated from ${reserved} to ${edit.totalMinor} minor units with the order's ${lines.length} lines (updateOrder).`)
  const kept = { payment_collection_id: edit.collectionId, total_minor: edit.totalMinor, at: new Date().toISOString() }
  return { ...withTransaction({ ...data, order_lines: lines, reserved_minor: edit.totalMinor }, transaction), order_edit: { ...data.order_edit, order_id: edit.order.id, kept } }
}

/** Whether Medusa creates this session to carry a kept reservation (lib/item-captures/order-edit.ts). */
export const carriesReservation = (input: InitiatePaymentInput): boolean => carriedReservationIn(input.context) !== undefined

/** The session's data: the kept payment's, for this session and amount. Nothing is sent to AltaPay. */
export async function initiateCarried(ctx: ProviderContext, input: InitiatePaymentInput, paymentSessionId: string, amountMinor: number): Promise<InitiatePaymentOutput> {
  const fromId = carriedReservationIn(input.context)!
  const refuse = (why: string) => new MedusaError(MedusaError.Types.INVALID_DATA, `AltaPay initiate: payment ${fromId} cannot be carried into this collection: ${why}.`)
  if (!ctx.query) throw refuse("Medusa's query is not available to the provider")
  const { data: rows } = await ctx.query.graph({ entity: "payment", fields: ["id", "data", "canceled_at"], filters: { id: fromId } })
  const row = rows[0] as { data?: Record<string, unknown> | null; canceled_at?: unknown } | undefined
  const opened = openPaymentData(row?.data, ctx.sealKeys)
  const kept = opened.sealed ? opened.data.order_edit?.kept : undefined
  if (!opened.sealed || !kept || !row?.canceled_at) throw refuse("it holds no reservation kept for an order edit")
  const session = await medusaSession(ctx.query, paymentSessionId)
  if (session?.collectionId !== kept.payment_collection_id) throw refuse(`it was kept for collection ${kept.payment_collection_id}`)
  if (amountMinor !== kept.total_minor) throw refuse(`it was kept for ${kept.total_minor} minor units, not ${amountMinor}`)
  const from = opened.data
  const data: AltaPayPaymentData = {
    ...from,
    order_id: shopOrderIdFor(paymentSessionId),
    amount_minor: amountMinor,
    failure_reason: null,
    revision: 0,
    order_edit: { order_id: from.order_edit!.order_id, carried: { from_payment_id: fromId, altapay_order_id: from.order_edit?.carried?.altapay_order_id ?? from.order_id } },
  }
  return { id: from.transaction_id!, status: PaymentSessionStatus.PENDING, data: ctx.seal(data) }
}

/** AUTHORIZED only when AltaPay's transaction is the carried one and reserves exactly the session's amount. */
export async function authorizeCarried(ctx: ProviderContext, data: AltaPayPaymentData): Promise<AuthorizePaymentOutput> {
  const carried = data.order_edit!.carried!
  const transaction = data.transaction_id ? await ctx.lookupOne(data.transaction_id, "order edit check") : undefined
  const { status, reason } = sessionStatusFor(transaction, { amountMinor: data.amount_minor, currency: data.currency })
  const why =
    transaction?.shopOrderId !== carried.altapay_order_id
      ? `AltaPay's transaction ${data.transaction_id} is not the order's reservation ${carried.altapay_order_id}`
      : status !== PaymentSessionStatus.AUTHORIZED
        ? (reason ?? `AltaPay shows transaction ${data.transaction_id} as ${transaction?.transactionStatus ?? "unknown"}`)
        : undefined
  if (why) {
    ctx.logger?.warn(`AltaPay authorize ${data.order_id} (order edit): ${why}; not authorized.`)
    return { status: PaymentSessionStatus.ERROR, data: ctx.seal({ ...data, failure_reason: why }) }
  }
  return { status, data: ctx.seal({ ...withTransaction(data, transaction), failure_reason: null }) }
}
