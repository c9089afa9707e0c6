/**
 * Folds AltaPay's live transaction into our stored data: amounts, status, card, and every capture
 * and refund AltaPay knows of (by reconciliation identifier), so data never misses a refund made
 * elsewhere and open refunds settle once AltaPay reports them.
 */
import type { GatewayTransaction } from "../../altapay"
import type { AltaPayPaymentData, CaptureRecord, RefundRecord } from "./data"

export function withTransaction(data: AltaPayPaymentData, transaction: GatewayTransaction | undefined, now?: Date): AltaPayPaymentData {
  if (!transaction) return data
  // Only a record settled or found here is stamped (most captures and refunds stamp nothing).
  let stamp: string | undefined
  const at = (): string => (stamp ??= (now ?? new Date()).toISOString())
  const reconciliation = transaction.reconciliationIdentifiers
  const refunded = new Map(reconciliation.filter((r) => r.type === "refunded").map((r) => [r.id, r]))
  const captured = reconciliation.filter((r) => r.type === "captured")

  // AltaPay showing the identifier settles an Open refund or capture (also one recorded as failed).
  const refunds = data.refunds.map((r) => (r.status !== "succeeded" && refunded.has(r.reconciliation_identifier) ? settledRefund(r, at()) : r))
  // Sets, not a scan per identifier: a payment's history can hold dozens of refunds.
  const knownRefunds = new Set(refunds.map((r) => r.reconciliation_identifier))
  for (const [id, r] of refunded) {
    if (!knownRefunds.has(id)) {
      refunds.push({ refund_id: null, reconciliation_identifier: id, amount_minor: r.amount?.minor ?? 0, status: "succeeded", created_at: r.date?.toISOString() ?? at() })
    }
  }
  const capturedIds = new Set(captured.map((r) => r.id))
  const captures = data.captures.map((c) => (c.status && capturedIds.has(c.reconciliation_identifier) ? settledCapture(c, at()) : c))
  const knownCaptures = new Set(captures.map((c) => c.reconciliation_identifier))
  for (const r of captured) {
    if (!knownCaptures.has(r.id)) {
      knownCaptures.add(r.id)
      captures.push({ capture_id: null, reconciliation_identifier: r.id, amount_minor: r.amount?.minor ?? 0, created_at: r.date?.toISOString() ?? at() })
    }
  }
  return {
    ...data,
    payment_id: transaction.paymentId ?? data.payment_id,
    transaction_id: transaction.transactionId,
    transaction_status: transaction.transactionStatus ?? data.transaction_status,
    terminal: transaction.terminal ?? data.terminal,
    payment_nature: transaction.paymentNature ?? data.payment_nature,
    masked_pan: transaction.cardInformation?.maskedPan ?? transaction.creditCardMaskedPan ?? data.masked_pan,
    card_scheme: transaction.cardInformation?.scheme ?? data.card_scheme,
    reserved_minor: transaction.reservedAmount?.minor ?? data.reserved_minor,
    captured_minor: transaction.capturedAmount?.minor ?? data.captured_minor,
    refunded_minor: transaction.refundedAmount?.minor ?? data.refunded_minor,
    ...(transaction.authorisationExpiryDate ? { authorisation_expires_at: transaction.authorisationExpiryDate.toISOString() } : {}),
    ...(transaction.surchargeAmount?.minor ? { surcharge_minor: transaction.surchargeAmount.minor } : {}),
    captures,
    refunds,
  }
}

/** An Open (or failed) refund or capture that AltaPay now shows as done. */
function settledRefund({ failure_reason: _reason, ...refund }: RefundRecord, at: string): RefundRecord {
  return { ...refund, status: "succeeded", settled_at: at }
}

function settledCapture({ status: _status, failure_reason: _reason, ...capture }: CaptureRecord, at: string): CaptureRecord {
  return { ...capture, settled_at: at }
}

/** True when AltaPay's transaction already carries this reconciliation identifier. */
export function hasReconciliation(transaction: GatewayTransaction | undefined, id: string, type: "captured" | "refunded"): boolean {
  return !!transaction?.reconciliationIdentifiers.some((r) => r.id === id && r.type === type)
}
