/**
 * capturePayment: one capture at AltaPay, never twice. Each carries a reconciliation identifier
 * derived from Medusa's capture id; a decline or a lost answer is settled by AltaPay's own record.
 */
import type { CapturePaymentInput } from "@medusajs/framework/types"
import { AltaPayDeclinedError, AltaPayError, proportionalAdjustmentLine } from "../../altapay"
import { toMedusaError } from "../../lib/medusa-mapping/errors"
import type { AltaPayPaymentData } from "../../lib/payment-data/data"
import { hasReconciliation, withTransaction } from "../../lib/payment-data/transaction-state"
import { medusaCaptureAmount } from "./capture-amount"
import type { ProviderContext } from "./context"
import { reconciliationId } from "./reconciliation"
import { sessionIdFromOrderId } from "../../lib/medusa-mapping/shop-order-id"

export async function captureReservation(ctx: ProviderContext, input: CapturePaymentInput, data: AltaPayPaymentData, transactionId: string): Promise<{ data: AltaPayPaymentData }> {
  const captureId = input.context?.idempotency_key
  const reconciliationIdentifier = reconciliationId("capture", captureId)
  const alreadyCaptured = data.captured_minor ?? 0
  if (alreadyCaptured >= data.amount_minor) return { data } // auto-capture, or captured before: never twice
  if (captureId && data.captures.some((c) => c.reconciliation_identifier === reconciliationIdentifier)) return { data }

  const amountMinor = await captureAmount(ctx, data, captureId, data.amount_minor - alreadyCaptured)
  if (amountMinor <= 0) {
    ctx.logger?.warn(`AltaPay capture ${reconciliationIdentifier}: Medusa's capture rounds to nothing in ${data.currency}; nothing was sent.`)
    return { data }
  }
  const whole = alreadyCaptured === 0 && amountMinor === data.amount_minor
  const orderLines = whole
    ? data.order_lines
    : proportionalAdjustmentLine(data.order_lines, amountMinor, {
        itemId: alreadyCaptured === 0 ? "capture" : "capture-remaining",
        description: alreadyCaptured === 0 ? "Partial capture" : "Remaining capture",
      })
  try {
    const result = await ctx.client.gateway.captureReservation({ transactionId, amountMinor, currency: data.currency, orderLines, reconciliationIdentifier })
    if (result.result === "Open") ctx.logger?.warn(`AltaPay capture ${reconciliationIdentifier} is Open: the open-results job follows it up.`)
    const captured = withCapture(data, captureId, reconciliationIdentifier, amountMinor, result.result === "Open" ? "open" : undefined)
    return { data: withTransaction(captured, result.transaction) }
  } catch (error) {
    // Declined because it is captured already, or the answer was lost: AltaPay's state decides.
    if (error instanceof AltaPayDeclinedError || (error instanceof AltaPayError && error.mayHaveReachedAltaPay)) {
      const transaction = await ctx.lookupOne(transactionId, "capture check").catch(() => undefined)
      if (transaction && hasReconciliation(transaction, reconciliationIdentifier, "captured")) {
        // This capture went through and only its answer was lost: keep its record.
        return { data: withTransaction(withCapture(data, captureId, reconciliationIdentifier, amountMinor), transaction) }
      }
      if (transaction && (transaction.capturedAmount?.minor ?? 0) >= data.amount_minor) return { data: withTransaction(data, transaction) }
    }
    throw toMedusaError(error, "capture", ctx.logger)
  }
}

/**
 * Exactly what Medusa recorded for this capture (a partial capture from the admin), read through
 * `query`; without `query`, or when the capture cannot be found, what is left of the reservation.
 */
async function captureAmount(ctx: ProviderContext, data: AltaPayPaymentData, captureId: string | undefined, remainingMinor: number): Promise<number> {
  const read = await medusaCaptureAmount(ctx.query, sessionIdFromOrderId(data.order_id), captureId, data.currency).catch((error: unknown) => ({
    found: false as const,
    reason: error instanceof Error ? error.message : String(error),
  }))
  if (read.found) return Math.min(read.amountMinor, remainingMinor)
  ctx.logger?.warn(`AltaPay capture of ${data.order_id}: Medusa's capture amount could not be read (${read.reason}); capturing what is left of the reservation.`)
  return remainingMinor
}

function withCapture(data: AltaPayPaymentData, captureId: string | undefined, reconciliationIdentifier: string, amountMinor: number, status?: "open"): AltaPayPaymentData {
  return {
    ...data,
    captures: [
      ...data.captures,
      {
        capture_id: captureId ?? null,
        reconciliation_identifier: reconciliationIdentifier,
        amount_minor: amountMinor,
        ...(status ? { status } : {}),
        created_at: new Date().toISOString(),
      },
    ],
  }
}
