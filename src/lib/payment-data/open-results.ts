/**
 * Settling refunds and captures AltaPay answered `Open` (accepted, not final). AltaPay shows one
 * as done by its reconciliation identifier on the transaction (transaction-state.ts folds that in);
 * one it still does not show after the timeout is recorded as failed, with what the merchant
 * should check, so it never stays "open" forever.
 */
import type { GatewayTransaction } from "../../altapay"
import type { AltaPayPaymentData, CaptureRecord, RefundRecord } from "./data"
import { withTransaction } from "./transaction-state"

export interface SettledOpenResults {
  data: AltaPayPaymentData
  succeeded: number
  failed: number
  open: number
}

export function settleOpenResults(data: AltaPayPaymentData, transaction: GatewayTransaction | undefined, now: Date, timeoutHours: number): SettledOpenResults {
  const at = now.toISOString()
  const folded = withTransaction(data, transaction, now)
  const overdue = (record: { created_at: string }) => now.getTime() - Date.parse(record.created_at) >= timeoutHours * 3_600_000
  const refunds = folded.refunds.map((r): RefundRecord =>
    r.status === "open" && overdue(r) ? { ...r, status: "failed", failure_reason: notShown("refund", r, timeoutHours), settled_at: at } : r
  )
  const captures = folded.captures.map((c): CaptureRecord =>
    c.status === "open" && overdue(c) ? { ...c, status: "failed", failure_reason: notShown("capture", c, timeoutHours), settled_at: at } : c
  )

  const wasOpen = new Set([...data.refunds, ...data.captures].filter((r) => r.status === "open").map((r) => r.reconciliation_identifier))
  const now_ = [...refunds, ...captures].filter((r) => wasOpen.has(r.reconciliation_identifier))
  return {
    data: { ...folded, refunds, captures },
    succeeded: now_.filter((r) => r.status === undefined || r.status === "succeeded").length,
    failed: now_.filter((r) => r.status === "failed").length,
    open: now_.filter((r) => r.status === "open").length,
  }
}

function notShown(kind: "refund" | "capture", record: { reconciliation_identifier: string; created_at: string }, timeoutHours: number): string {
  const moved = kind === "refund" ? "returned to the customer" : "captured"
  return (
    `AltaPay answered Open on ${record.created_at} and still does not show this ${kind} after ${timeoutHours} h, so as far as AltaPay shows no money was ${moved}; ` +
    `Medusa counts it as done. Look up reconciliation identifier ${record.reconciliation_identifier} in AltaPay's merchant interface.`
  )
}
