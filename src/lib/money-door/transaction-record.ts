/**
 * AltaPay's record of one payment (a gateway transaction), as the capture, refund and release roads
 * read it: what shows that an attempt went through, and what shows Medusa recorded it. Each road of
 * a payment judges the others' attempts too (a refund finds the capture before it uncertain).
 */
import { RELEASED_STATUSES, statusIn, type GatewayTransaction, type ReconciliationIdentifier } from "../../altapay"
import type { AltaPayPaymentData } from "../payment-data/data"
import { hasReconciliation } from "../payment-data/transaction-state"
import type { Attempt } from "./attempts"

/** The look-up's answer; `transaction` undefined: AltaPay answered and has no such payment. */
export interface TransactionRecord {
  transaction: GatewayTransaction | undefined
}

export type MovedTotal = "captured" | "refunded"

export function totalMinor(transaction: GatewayTransaction | undefined, type: MovedTotal): number {
  return (type === "captured" ? transaction?.capturedAmount?.minor : transaction?.refundedAmount?.minor) ?? 0
}

/**
 * The attempt's identifier is on the payment, or (where AltaPay did not keep it) the total grew by
 * exactly its amount since just before it was sent: movements of a payment are serialized under its
 * lock, so that growth is this attempt.
 */
export function movedBy(record: TransactionRecord, attempt: Attempt, type: MovedTotal): boolean {
  if (hasReconciliation(record.transaction, attempt.id, type)) return true
  return record.transaction !== undefined && attempt.beforeMinor !== undefined && totalMinor(record.transaction, type) - attempt.beforeMinor === attempt.amountMinor
}

/** The subject of one AltaPay payment's movements. */
export const transactionSubject = (transactionId: string) => `transaction:${transactionId}`

/** Whether AltaPay's record shows the attempt (a capture, refund or release of this payment) went through. */
export function happenedOn(record: TransactionRecord, attempt: Attempt): boolean {
  switch (attempt.kind) {
    case "capture":
      return movedBy(record, attempt, "captured")
    case "refund":
      return movedBy(record, attempt, "refunded")
    case "release":
      return statusIn(record.transaction?.transactionStatus, RELEASED_STATUSES)
    case "order-update":
      // The attempt's amount is the reservation's new amount: AltaPay reserving exactly that is the update.
      return record.transaction?.reservedAmount?.minor === attempt.amountMinor
    default:
      return false
  }
}

/**
 * Whether the payment's data records the attempt as Medusa's: a capture or refund with Medusa's id
 * (one AltaPay's record only folded in is not yet Medusa's), a release as the payment's status.
 */
export function recordedIn(data: AltaPayPaymentData | undefined, attempt: Attempt): boolean {
  if (!data) return false
  switch (attempt.kind) {
    case "capture":
      return data.captures.some((c) => c.reconciliation_identifier === attempt.id && c.capture_id !== null)
    case "refund":
      return refundRecordedIn(data, attempt.id)
    case "release":
      return statusIn(data.transaction_status ?? undefined, RELEASED_STATUSES)
    case "order-update":
      return data.reserved_minor === attempt.amountMinor
    default:
      return false
  }
}

function refundRecordedIn(data: AltaPayPaymentData, id: string): boolean {
  return data.refunds.some((r) => r.reconciliation_identifier === id && r.refund_id !== null)
}

/**
 * The plugin's own refunds (identifier starting with `prefix`) on AltaPay's record that the data does
 * not record as Medusa's, leaving out the ids in `held`: each is a refund being made right now, or an
 * earlier attempt whose answer was lost where the attempt book was not seen.
 */
export function unrecordedRefunds(record: TransactionRecord, data: AltaPayPaymentData, prefix: string, held: ReadonlySet<string>): ReconciliationIdentifier[] {
  return (record.transaction?.reconciliationIdentifiers ?? []).filter((r) => r.type === "refunded" && r.id.startsWith(prefix) && !held.has(r.id) && !refundRecordedIn(data, r.id))
}
