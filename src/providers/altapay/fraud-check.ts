/**
 * authorizePayment's fraud step: the registration's `fraud` policy (lib/fraud/policy.ts) applied
 * to a paid transaction. Deny releases the reservation through the money door and the session is
 * not authorized (the customer's return lands on `declined`); a payment AltaPay captured at once is
 * kept and the merchant told to refund it (cancelling the order does); hold is recorded and capture
 * waits for the merchant's approval (service.ts capturePayment, the order panel).
 */
import { PaymentSessionStatus } from "@medusajs/framework/utils"
import type { GatewayTransaction } from "../../altapay"
import { fraudDecision } from "../../lib/fraud/policy"
import { releaseThroughDoor } from "../../lib/money-door/release"
import type { AltaPayPaymentData } from "../../lib/payment-data/data"
import type { ProviderContext } from "./context"

export interface FraudChecked {
  status: PaymentSessionStatus
  data: AltaPayPaymentData
  transaction: GatewayTransaction | undefined
  /** Why the session is not authorized (deny). */
  reason?: string
}

const PAID: ReadonlySet<PaymentSessionStatus> = new Set([PaymentSessionStatus.AUTHORIZED, PaymentSessionStatus.CAPTURED])

export async function checkFraud(ctx: ProviderContext, data: AltaPayPaymentData, transaction: GatewayTransaction | undefined, status: PaymentSessionStatus): Promise<FraudChecked> {
  const unchanged = { status, data, transaction }
  // A reservation this step released earlier (a second authorize: the callback beside the return) stays declined.
  const releasedEarlier = status === PaymentSessionStatus.CANCELED && data.fraud?.decision === "deny"
  if (!transaction || (!PAID.has(status) && !releasedEarlier)) return unchanged
  const fraud = fraudDecision(transaction, ctx.options.fraud, data.fraud)
  if (!fraud) return unchanged
  const checked = { ...data, fraud }
  const where = `AltaPay authorize ${data.order_id} (transaction ${transaction.transactionId})`
  const why = fraud.reasons.join("; ")
  if (fraud.decision === "hold") {
    ctx.logger?.warn(`${where}: held for review: ${why}. The order is placed; nothing is captured until a merchant approves it in the order's AltaPay panel.`)
    return { ...unchanged, data: checked }
  }
  if (fraud.decision !== "deny") return { ...unchanged, data: checked }
  if (status === PaymentSessionStatus.CAPTURED) {
    ctx.logger?.error(`${where}: ${why}, but AltaPay captured the payment at once: the order is placed; cancel it to refund the customer if you do not deliver.`)
    return { ...unchanged, data: checked }
  }
  const reason = `declined by the fraud policy: ${why}; the reservation is released and no order is placed`
  if (status === PaymentSessionStatus.CANCELED) return { status: PaymentSessionStatus.ERROR, data: checked, transaction, reason }
  let released = transaction
  try {
    released =
      (await releaseThroughDoor(ctx.door, ctx.client, {
        transactionId: transaction.transactionId,
        amountMinor: transaction.reservedAmount?.minor ?? data.amount_minor,
        currency: data.currency,
        captured: () => new Error(`AltaPay shows transaction ${transaction.transactionId} captured: it is not released.`),
        data: checked,
      })) ?? transaction
    ctx.logger?.error(`${where}: ${reason}.`)
  } catch (error) {
    const message = error instanceof Error ? error.message : String(error)
    ctx.logger?.error(
      `${where}: ${why}; the session is not authorized, but releasing the reservation failed (${message}): release transaction ${transaction.transactionId} in AltaPay's merchant interface.`
    )
  }
  return { status: PaymentSessionStatus.ERROR, data: checked, transaction: released, reason }
}
