/**
 * An item-level refund through Medusa's own refund workflow. Medusa hands a provider only an
 * amount, so the exact AltaPay lines are left in the payment's data first (`pending_refund`, read
 * by the provider's refundPayment); if the refund fails they are taken out again. Both writes run
 * under the payment's lock, like the provider's captures and refunds, so neither can overwrite
 * the other's data; the item-refund route holds that lock across the whole workflow, so no other
 * refund of the payment can take these lines.
 */
import { createStep, createWorkflow, StepResponse, WorkflowResponse } from "@medusajs/framework/workflows-sdk"
import { refundPaymentWorkflow } from "@medusajs/medusa/core-flows"
import type { PendingRefund } from "../lib/payment-data/data"
import { changePaymentData } from "../lib/payment-data/writer"

export interface RefundAltaPayItemsInput {
  payment_id: string
  /** Major units as exact decimal text, e.g. "96.66" (never a float). */
  amount: string
  pending_refund: PendingRefund
  note?: string
  created_by?: string
}

export const setAltaPayPendingRefundStep = createStep(
  "set-altapay-pending-refund",
  async (input: { payment_id: string; pending_refund: PendingRefund }, { container }) => {
    await changePaymentData(container, input.payment_id, (latest) => ({ ...latest, pending_refund: input.pending_refund }))
    return new StepResponse(undefined, { payment_id: input.payment_id, requested_at: input.pending_refund.requested_at })
  },
  async (written, { container }) => {
    if (!written) return
    // Only ours: the provider clears it once used, and a later request may have written its own.
    await changePaymentData(container, written.payment_id, (latest) =>
      latest.pending_refund?.requested_at === written.requested_at ? { ...latest, pending_refund: null } : undefined
    )
  }
)

export const refundAltaPayItemsWorkflowId = "refund-altapay-items"

export const refundAltaPayItemsWorkflow = createWorkflow(refundAltaPayItemsWorkflowId, (input: RefundAltaPayItemsInput) => {
  setAltaPayPendingRefundStep({ payment_id: input.payment_id, pending_refund: input.pending_refund })
  const payment = refundPaymentWorkflow.runAsStep({
    input: { payment_id: input.payment_id, amount: input.amount, note: input.note, created_by: input.created_by },
  })
  return new WorkflowResponse(payment)
})
