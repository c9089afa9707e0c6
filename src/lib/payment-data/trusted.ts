/**
 * A Medusa Payment's data, as far as it can be trusted to act on. Payment data is written only by
 * the provider's own answers (authorize, capture, refund, ...), never by a browser, so a seal that
 * does not verify there means the key changed (the API password was rotated without
 * `paymentDataSecret`) or the data predates sealing: that must not strand the money. The data is
 * then used only after AltaPay confirms, live, that its transaction belongs to its order id, with
 * AltaPay's own reserved amount and currency, and is sealed again on the way out.
 */
import type { Logger } from "@medusajs/framework/types"
import type { GatewayTransaction } from "../../altapay"
import { openPaymentData, untrustedDataError, type AltaPayPaymentData } from "./data"
import { namesSession } from "../medusa-mapping/shop-order-id"
import type { ServerKeys } from "../registrations/server-keys"
import { withTransaction } from "./transaction-state"

export interface TrustDependencies {
  keys: ServerKeys
  lookupTransaction: (transactionId: string) => Promise<GatewayTransaction | undefined>
  logger?: Pick<Logger, "warn">
}

/**
 * The payment's data to act on, or `undefined` when it is unsealed and has no AltaPay transaction
 * (nothing at AltaPay could belong to it, and no AltaPay call is made for its order id).
 */
export async function trustedPaymentData(raw: Record<string, unknown> | undefined, hook: string, deps: TrustDependencies): Promise<AltaPayPaymentData | undefined> {
  const opened = openPaymentData(raw, deps.keys)
  if (opened.sealed) return opened.data
  if (!opened.data) throw untrustedDataError(hook, opened.problem)
  const claimed = opened.data
  if (!claimed.transaction_id) return undefined
  const live = await deps.lookupTransaction(claimed.transaction_id)
  const reserved = live?.reservedAmount
  if (!live || !namesSession(live.shopOrderId, claimed.order_id) || !reserved?.currency) {
    throw untrustedDataError(hook, `${opened.problem}, and AltaPay does not confirm that transaction ${claimed.transaction_id} belongs to order ${claimed.order_id}`)
  }
  deps.logger?.warn(
    `AltaPay ${hook} ${claimed.order_id}: ${opened.problem}. AltaPay confirmed transaction ${live.transactionId} belongs to this order, so its live figures are used and the data is sealed again. Set paymentDataSecret to keep seals valid across API password changes.`
  )
  return withTransaction(
    {
      ...claimed,
      amount_minor: reserved.minor,
      currency: reserved.currency,
      // Nothing unproven shapes a refund, and a paid payment is Medusa's, never a session to retire.
      pending_refund: null,
      authorized_at: claimed.authorized_at ?? new Date().toISOString(),
    },
    live
  )
}
