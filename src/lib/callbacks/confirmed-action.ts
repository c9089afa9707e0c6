/**
 * A callback as Medusa's webhook action, from one of two sources. statedAction: the callback's own
 * fields, once its signature is verified and fresh. confirmedActionFor: AltaPay's own record, used where
 * nothing a sender posted may be trusted (a callback without a callback secret, a customer's return
 * whose signature does not verify, a plain browser GET). Only a reservation AltaPay states with
 * its amount and currency, for a transaction whose shop_orderid is this session, counts.
 */
import type { WebhookActionResult } from "@medusajs/framework/types"
import { PaymentActions, PaymentSessionStatus } from "@medusajs/framework/utils"
import type { AltaPayCallback, GatewayTransaction } from "../../altapay"
import { toBigNumber } from "../medusa-mapping/amounts"
import { namesSession, sessionIdFromOrderId, shopOrderIdFor } from "../medusa-mapping/shop-order-id"
import { chargedSession, sessionStatusFor, transactionForOrder, webhookActionFor } from "../medusa-mapping/status"

export function confirmedActionFor(shopOrderId: string, transactions: GatewayTransaction[]): WebhookActionResult {
  const transaction = transactionForOrder(shopOrderId, transactions)
  const reserved = transaction?.reservedAmount
  if (!transaction || !reserved?.currency) return { action: PaymentActions.NOT_SUPPORTED }
  const { status } = sessionStatusFor(transaction, { amountMinor: reserved.minor, currency: reserved.currency })
  const action =
    status === PaymentSessionStatus.CAPTURED
      ? PaymentActions.SUCCESSFUL
      : status === PaymentSessionStatus.AUTHORIZED
        ? PaymentActions.AUTHORIZED
        : status === PaymentSessionStatus.ERROR
          ? PaymentActions.FAILED
          : PaymentActions.NOT_SUPPORTED
  // Medusa's session id, whichever form of shop_orderid AltaPay holds (shop-order-id.ts).
  return { action, data: { session_id: sessionIdFromOrderId(shopOrderId), amount: toBigNumber(reserved.minor, reserved.currency) } }
}

/**
 * The action a verified, fresh callback states for its own session, from its own fields; undefined
 * when it leaves out the amount or currency Medusa needs (AltaPay's record must supply them then).
 */
export function statedAction(callback: AltaPayCallback): WebhookActionResult | undefined {
  if (callback.amountMinor === undefined || !callback.currency) return undefined
  return { action: webhookActionFor(callback), data: { session_id: sessionIdFromOrderId(callback.shopOrderId), amount: toBigNumber(callback.amountMinor, callback.currency) } }
}

/**
 * A saved card's charge (AltaPay's record of it) as the payment of the session it was made for. A
 * charge keeps its agreement's set-up shop_orderid, which names the session that saved the card, so
 * a callback or a return posted for it names that one; the paying session is in the charge's
 * transaction_info. Undefined when the charge names no session, is not under the posted
 * shop_orderid, or names the posted session itself (then it is that session's own payment).
 */
export function chargedSessionAction(charge: GatewayTransaction, postedShopOrderId: string): { sessionId: string; result: WebhookActionResult } | undefined {
  const sessionId = chargedSession(charge)
  if (!sessionId || !namesSession(charge.shopOrderId, postedShopOrderId) || sessionId === sessionIdFromOrderId(postedShopOrderId)) return undefined
  const asSession = { ...charge, shopOrderId: shopOrderIdFor(sessionId) }
  return { sessionId, result: confirmedActionFor(asSession.shopOrderId, [asSession]) }
}
