/**
 * capturePayment: one capture at AltaPay, never twice. Each carries a reconciliation identifier
 * derived from Medusa's capture id; a decline or a lost answer is settled by AltaPay's own record.
 */
import type { CapturePaymentInput } from "@medusajs/framework/types"
import { AltaPayDeclinedError, AltaPayError } from "../../altapay"
import { toMedusaError } from "../../lib/medusa-mapping/errors"
import type { AltaPayPaymentData } from "../../lib/payment-data/data"
import { hasReconciliation, withTransaction } from "../../lib/payment-data/transaction-state"
import { medusaCaptureAmount } from "./capture-amount"
import { captureLines, type CaptureLines } from "./capture-lines"
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
  const chosen = await captureLines(ctx, data, amountMinor)
  try {
    const result = await ctx.client.gateway.captureReservation({
      transactionId,
      amountMinor,
      currency: data.currency,
      orderLines: chosen.lines,
      reconciliationIdentifier,
      ...(chosen.trackingInfo ? { trackingInfo: chosen.trackingInfo } : {}),
    })
    if (result.result === "Open") ctx.logger?.warn(`AltaPay capture ${reconciliationIdentifier} is Open: the open-results job follows it up.`)
    const captured = withCapture(data, { captureId, reconciliationIdentifier, amountMinor, chosen, status: result.result === "Open" ? "open" : undefined })
    return { data: withTransaction(captured, result.transaction) }
  } catch (error) {
    // Declined because it is captured already, or the answer was lost: AltaPay's state decides.
    if (error instanceof AltaPayDeclinedError || (error instanceof AltaPayError && error.mayHaveReachedAltaPay)) {
      const transaction = await ctx.lookupOne(transactionId, "capture check").catch(() => undefined)
      if (transaction && hasReconciliation(transaction, reconciliationIdentifier, "captured")) {
        // This capture went through and only its answer was lost: keep its record.
        return { data: withTransaction(withCapture(data, { captureId, reconciliationIdentifier, amountMinor, chosen }), transaction) }
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

interface CaptureSent {
  captureId: string | undefined
  reconciliationIdentifier: string
  amountMinor: number
  chosen: CaptureLines
  status?: "open"
}

/** The capture recorded with the lines and items it took; an item capture's pending lines are used up. */
function withCapture(data: AltaPayPaymentData, sent: CaptureSent): AltaPayPaymentData {
  const { chosen } = sent
  return {
    ...data,
    ...(chosen.fromPending ? { pending_capture: null } : {}),
    captures: [
      ...data.captures,
      {
        capture_id: sent.captureId ?? null,
        reconciliation_identifier: sent.reconciliationIdentifier,
        amount_minor: sent.amountMinor,
        order_lines: chosen.lines,
        ...(chosen.items ? { items: chosen.items } : {}),
        ...(chosen.fulfillmentId ? { fulfillment_id: chosen.fulfillmentId } : {}),
        ...(sent.status ? { status: sent.status } : {}),
        created_at: new Date().toISOString(),
      },
    ],
  }
}
