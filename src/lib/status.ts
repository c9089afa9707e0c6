/** How AltaPay states map onto Medusa's: one place, so every hook and the webhook agree. */
import { PaymentActions, PaymentSessionStatus } from "@medusajs/framework/utils"
import {
  AUTHORIZED_STATUSES,
  CAPTURED_STATUSES,
  DECLINED_STATUSES,
  RELEASED_STATUSES,
  REFUNDED_STATUSES,
  statusIn,
  type AltaPayCallback,
  type GatewayTransaction,
} from "../altapay"

/** Of all transactions for one order, the one that matters: a paid one if any, else the latest. */
export function pickTransaction(transactions: GatewayTransaction[]): GatewayTransaction | undefined {
  const byDate = [...transactions].sort((a, b) => (a.createdDate?.getTime() ?? 0) - (b.createdDate?.getTime() ?? 0))
  const paid = byDate.filter((t) => statusIn(t.transactionStatus, [...AUTHORIZED_STATUSES, ...CAPTURED_STATUSES, ...REFUNDED_STATUSES]))
  return paid.at(-1) ?? byDate.at(-1)
}

export interface SessionStatusResult {
  status: PaymentSessionStatus
  reason?: string
}

/** Medusa's session status for an AltaPay transaction that should reserve `expectedMinor`. */
export function sessionStatusFor(transaction: GatewayTransaction | undefined, expectedMinor: number): SessionStatusResult {
  if (!transaction) return { status: PaymentSessionStatus.PENDING }
  const status = transaction.transactionStatus
  const paid = statusIn(status, AUTHORIZED_STATUSES) || statusIn(status, CAPTURED_STATUSES) || statusIn(status, REFUNDED_STATUSES)
  if (paid && transaction.reservedAmount && transaction.reservedAmount.minor !== expectedMinor) {
    // A payment for another amount (the cart changed after the customer paid) never authorizes this session.
    return {
      status: PaymentSessionStatus.ERROR,
      reason: `AltaPay reserved ${transaction.reservedAmount.decimal} but the session is for ${expectedMinor} minor units`,
    }
  }
  if (statusIn(status, CAPTURED_STATUSES) || statusIn(status, REFUNDED_STATUSES)) return { status: PaymentSessionStatus.CAPTURED }
  if (statusIn(status, AUTHORIZED_STATUSES)) return { status: PaymentSessionStatus.AUTHORIZED }
  if (statusIn(status, RELEASED_STATUSES)) return { status: PaymentSessionStatus.CANCELED }
  if (statusIn(status, DECLINED_STATUSES)) {
    return { status: PaymentSessionStatus.ERROR, reason: `AltaPay declined the payment (${status}${transaction.reasonCode ? `, ${transaction.reasonCode}` : ""})` }
  }
  return { status: PaymentSessionStatus.PENDING }
}

/** The webhook action for a (verified) callback. */
export function webhookActionFor(callback: AltaPayCallback): PaymentActions {
  const payment = callback.paymentStatus ?? ""
  switch (callback.status) {
    case "succeeded":
      if (statusIn(payment, CAPTURED_STATUSES)) return PaymentActions.SUCCESSFUL
      if (statusIn(payment, AUTHORIZED_STATUSES) || payment === "") return PaymentActions.AUTHORIZED
      return PaymentActions.NOT_SUPPORTED
    case "open":
    case "new":
    case "incomplete":
      return PaymentActions.PENDING
    case "failed":
    case "error":
    case "declined":
      return PaymentActions.FAILED
    case "cancelled":
      return PaymentActions.CANCELED
    default:
      return PaymentActions.NOT_SUPPORTED
  }
}
