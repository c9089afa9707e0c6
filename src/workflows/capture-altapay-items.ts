/**
 * A capture by item through Medusa's own capture workflow. Medusa hands a provider only an amount,
 * so the items' reserved AltaPay lines are left in the payment's data first (`pending_capture`,
 * read by the provider's capturePayment); if the capture fails they are taken out again. The item
 * capture holds the payment's lock across the whole workflow, so no other capture can take them.
 */
import { createStep, createWorkflow, StepResponse, WorkflowResponse } from "@medusajs/framework/workflows-sdk"
import { capturePaymentWorkflow } from "@medusajs/medusa/core-flows"
import type { PendingCapture } from "../lib/payment-data/data"
import { changePaymentData } from "../lib/payment-data/writer"

export interface CaptureAltaPayItemsInput {
  payment_id: string
  /** Major units as exact decimal text, e.g. "96.66" (never a float). */
  amount: string
  pending_capture: PendingCapture
  captured_by?: string
}

export const setAltaPayPendingCaptureStep = createStep(
  "set-altapay-pending-capture",
  async (input: { payment_id: string; pending_capture: PendingCapture }, { container }) => {
    await changePaymentData(container, input.payment_id, (latest) => ({ ...latest, pending_capture: input.pending_capture }))
    return new StepResponse(undefined, { payment_id: input.payment_id, requested_at: input.pending_capture.requested_at })
  },
  async (written, { container }) => {
    if (!written) return
    // Only ours: the provider clears it once used, and a later request may have written its own.
    await changePaymentData(container, written.payment_id, (latest) =>
      latest.pending_capture?.requested_at === written.requested_at ? { ...latest, pending_capture: null } : undefined
    )
  }
)

export const captureAltaPayItemsWorkflowId = "capture-altapay-items"

export const captureAltaPayItemsWorkflow = createWorkflow(captureAltaPayItemsWorkflowId, (input: CaptureAltaPayItemsInput) => {
  setAltaPayPendingCaptureStep({ payment_id: input.payment_id, pending_capture: input.pending_capture })
  const payment = capturePaymentWorkflow.runAsStep({ input: { payment_id: input.payment_id, amount: input.amount, captured_by: input.captured_by } })
  return new WorkflowResponse(payment)
})
