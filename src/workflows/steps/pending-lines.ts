/**
 * Lines waiting in a payment's data for the provider's next capture or refund. Medusa hands a
 * provider only an amount, so an item capture or refund leaves the items' AltaPay lines in the
 * payment's data (`pending_capture` / `pending_refund`) before it runs Medusa's own workflow; if
 * that fails they are taken out again. Both writes run under the payment's lock.
 */
import { createStep, StepResponse } from "@medusajs/framework/workflows-sdk"
import type { AltaPayPaymentData, PendingCapture, PendingRefund } from "../../lib/payment-data/data"
import { changePaymentData } from "../../lib/payment-data/writer"

type PendingField = "pending_capture" | "pending_refund"
type Pending<F extends PendingField> = F extends "pending_capture" ? PendingCapture : PendingRefund

/** A step that sets `field` to the input's lines, and on compensation clears them if they are still its own. */
export function pendingLinesStep<F extends PendingField>(stepName: string, field: F) {
  const own = (latest: AltaPayPaymentData): { requested_at: string } | null | undefined => latest[field]
  return createStep(
    stepName,
    async (input: { payment_id: string; pending: Pending<F> }, { container }) => {
      await changePaymentData(container, input.payment_id, (latest) => ({ ...latest, [field]: input.pending }))
      return new StepResponse(undefined, { payment_id: input.payment_id, requested_at: input.pending.requested_at })
    },
    async (written, { container }) => {
      if (!written) return
      // Only ours: the provider clears it once used, and a later request may have written its own.
      await changePaymentData(container, written.payment_id, (latest) => (own(latest)?.requested_at === written.requested_at ? { ...latest, [field]: null } : undefined))
    }
  )
}
