/** authorizePayment: whether AltaPay reserved exactly what the sealed session asked, and who found out. */
import type { AuthorizePaymentInput, AuthorizePaymentOutput } from "@medusajs/framework/types"
import { PaymentSessionStatus } from "@medusajs/framework/utils"
import { reconcilerOf } from "../../lib/callbacks/reconciled-by"
import { sessionStatusFor, transactionForOrder as forOrder } from "../../lib/medusa-mapping/status"
import { openPaymentData } from "../../lib/payment-data/data"
import { withTransaction } from "../../lib/payment-data/transaction-state"
import type { ProviderContext } from "./context"

/**
 * Authorizes the session Medusa names (its id is the idempotency key) and no other: the sealed
 * data must be that session's, and the AltaPay payment whose shop_orderid is that id must have
 * reserved exactly the sealed amount, in the sealed currency.
 */
export async function authorizeSession(ctx: ProviderContext, input: AuthorizePaymentInput): Promise<AuthorizePaymentOutput> {
  const sessionId = input.context?.idempotency_key
  const opened = openPaymentData(input.data, ctx.sealKeys)
  const refusal = !opened.sealed
    ? opened.problem
    : !sessionId
      ? "Medusa passed no payment session id"
      : opened.data.order_id !== sessionId
        ? `the data is payment session ${opened.data.order_id}'s`
        : undefined
  if (refusal !== undefined || !opened.sealed) {
    ctx.logger?.warn(`AltaPay authorize ${sessionId ?? "(no session id)"}: ${refusal}; not authorized, and nothing was asked of AltaPay.`)
    return { status: PaymentSessionStatus.ERROR, data: input.data }
  }
  const data = opened.data
  const transaction = forOrder(data.order_id, await ctx.lookup({ shopOrderId: data.order_id }, "authorization"))
  const { status, reason } = sessionStatusFor(transaction, { amountMinor: data.amount_minor, currency: data.currency })
  if (reason) ctx.logger?.warn(`AltaPay authorize ${data.order_id}: ${reason}`)
  const authorized = status === PaymentSessionStatus.AUTHORIZED || status === PaymentSessionStatus.CAPTURED
  const now = new Date().toISOString()
  const authorizedAt = authorized ? (data.authorized_at ?? now) : null
  const reconciled = { at: now, by: await reconcilerOf(ctx.store, data.order_id) }
  return { status, data: ctx.seal({ ...withTransaction(data, transaction), failure_reason: reason ?? null, authorized_at: authorizedAt, reconciled }) }
}
