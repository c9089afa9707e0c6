/**
 * AltaPay's updateOrder through the door: an invoice reservation lowered to an edited order's total
 * and lines (lib/item-captures/order-edit.ts). No idempotency key at AltaPay: a lost answer is settled
 * by AltaPay's record (it reserves exactly the new amount), never by sending again blind. One that
 * surely failed is kept too: Medusa confirms the edit without it (it goes on when its cancel of the
 * old payment fails), so the follow-up job makes it (lib/follow-up/uncertain-money.ts).
 */
import type { AltaPayClient, GatewayTransaction, OrderLine } from "../../altapay"
import { pickTransaction } from "../medusa-mapping/status"
import type { AltaPayPaymentData } from "../payment-data/data"
import { paymentLockKey } from "../scale-out/shared-state"
import type { MoneyDoor } from "./door"
import { happenedOn, recordedIn, transactionSubject, type TransactionRecord } from "./transaction-record"

export interface OrderUpdateRequest {
  transactionId: string
  /** AltaPay's payment id (updateOrder's `payment_id`). */
  paymentId: string
  amountMinor: number
  currency: string
  orderLines: OrderLine[]
  /** The payment's data: a reserved amount already equal to the update's settles it without asking AltaPay. */
  data?: AltaPayPaymentData
}

/** AltaPay's transaction after the update (undefined: AltaPay's answer did not include it). */
export function updateOrderThroughDoor(door: MoneyDoor, client: AltaPayClient, request: OrderUpdateRequest): Promise<GatewayTransaction | undefined> {
  const { transactionId, paymentId, amountMinor, currency, orderLines, data } = request
  return door.move<TransactionRecord, GatewayTransaction | undefined>({
    kind: "order-update",
    subject: transactionSubject(transactionId),
    lockKey: paymentLockKey(transactionId),
    attempt: { id: `order-update-${transactionId}-${amountMinor}`, amountMinor, currency, key: null },
    lookFirst: false,
    retryUnsent: true,
    recorded: (a) => recordedIn(data, a),
    look: async () => ({ transaction: pickTransaction(await client.gateway.payments({ transactionId })) }),
    happened: happenedOn,
    adopt: (_attempt, record) => record.transaction,
    prepare: () => ({ send: async () => (await client.gateway.updateOrder({ paymentId, amountMinor, currency, orderLines })).transaction }),
  })
}
