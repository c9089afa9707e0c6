/**
 * A capture by item through Medusa's own capture workflow: the items' reserved AltaPay lines wait
 * in the payment's data (`pending_capture`, read by the provider's capturePayment). The item
 * capture holds the payment's lock across the whole workflow, so no other capture can take them.
 */
import { createWorkflow, WorkflowResponse } from "@medusajs/framework/workflows-sdk"
import { capturePaymentWorkflow } from "@medusajs/medusa/core-flows"
import type { PendingCapture } from "../lib/payment-data/data"
import { pendingLinesStep } from "./steps/pending-lines"

export interface CaptureAltaPayItemsInput {
  payment_id: string
  /** Major units as exact decimal text, e.g. "96.66" (never a float). */
  amount: string
  pending_capture: PendingCapture
  captured_by?: string
}

export const setAltaPayPendingCaptureStep = pendingLinesStep("set-altapay-pending-capture", "pending_capture")

export const captureAltaPayItemsWorkflowId = "capture-altapay-items"

export const captureAltaPayItemsWorkflow = createWorkflow(captureAltaPayItemsWorkflowId, (input: CaptureAltaPayItemsInput) => {
  setAltaPayPendingCaptureStep({ payment_id: input.payment_id, pending: input.pending_capture })
  const payment = capturePaymentWorkflow.runAsStep({ input: { payment_id: input.payment_id, amount: input.amount, captured_by: input.captured_by } })
  return new WorkflowResponse(payment)
})
