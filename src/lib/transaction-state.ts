/**
 * Folds AltaPay's live transaction into our stored data: amounts, status, card, and every capture
 * and refund AltaPay knows of (by reconciliation identifier), so data never misses a refund made
 * elsewhere and open refunds settle once AltaPay reports them.
 */
import type { GatewayTransaction } from "../altapay"
import type { AltaPayPaymentData } from "./payment-data"

export function withTransaction(data: AltaPayPaymentData, transaction: GatewayTransaction | undefined, now = new Date()): AltaPayPaymentData {
  if (!transaction) return data
  const at = now.toISOString()
  const reconciliation = transaction.reconciliationIdentifiers
  const refunded = new Map(reconciliation.filter((r) => r.type === "refunded").map((r) => [r.id, r]))
  const captured = reconciliation.filter((r) => r.type === "captured")

  const refunds = data.refunds.map((r) => (r.status === "open" && refunded.has(r.reconciliation_identifier) ? { ...r, status: "succeeded" as const } : r))
  for (const [id, r] of refunded) {
    if (!refunds.some((known) => known.reconciliation_identifier === id)) {
      refunds.push({ refund_id: null, reconciliation_identifier: id, amount_minor: r.amount?.minor ?? 0, status: "succeeded", created_at: r.date?.toISOString() ?? at })
    }
  }
  const captures = [...data.captures]
  for (const r of captured) {
    if (!captures.some((known) => known.reconciliation_identifier === r.id)) {
      captures.push({ capture_id: null, reconciliation_identifier: r.id, amount_minor: r.amount?.minor ?? 0, created_at: r.date?.toISOString() ?? at })
    }
  }
  return {
    ...data,
    payment_id: transaction.paymentId ?? data.payment_id,
    transaction_id: transaction.transactionId,
    transaction_status: transaction.transactionStatus ?? data.transaction_status,
    terminal: transaction.terminal ?? data.terminal,
    masked_pan: transaction.cardInformation?.maskedPan ?? transaction.creditCardMaskedPan ?? data.masked_pan,
    card_scheme: transaction.cardInformation?.scheme ?? data.card_scheme,
    reserved_minor: transaction.reservedAmount?.minor ?? data.reserved_minor,
    captured_minor: transaction.capturedAmount?.minor ?? data.captured_minor,
    refunded_minor: transaction.refundedAmount?.minor ?? data.refunded_minor,
    captures,
    refunds,
  }
}

/** True when AltaPay's transaction already carries this reconciliation identifier. */
export function hasReconciliation(transaction: GatewayTransaction | undefined, id: string, type: "captured" | "refunded"): boolean {
  return !!transaction?.reconciliationIdentifiers.some((r) => r.id === id && r.type === type)
}
