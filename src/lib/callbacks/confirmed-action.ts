/**
 * What AltaPay's own record says about a payment session, as Medusa's webhook action: used where
 * nothing a sender posted may be trusted (a callback without a callback secret, a customer's return
 * whose signature does not verify, a plain browser GET). Only a reservation AltaPay states with
 * its amount and currency, for a transaction whose shop_orderid is this session, counts.
 */
import type { WebhookActionResult } from "@medusajs/framework/types"
import { PaymentActions, PaymentSessionStatus } from "@medusajs/framework/utils"
import type { GatewayTransaction } from "../../altapay"
import { toBigNumber } from "../medusa-mapping/amounts"
import { sessionStatusFor, transactionForOrder } from "../medusa-mapping/status"

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
  return { action, data: { session_id: shopOrderId, amount: toBigNumber(reserved.minor, reserved.currency) } }
}
