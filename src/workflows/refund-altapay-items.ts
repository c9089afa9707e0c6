/**
 * An item-level refund through Medusa's own refund workflow. Medusa hands a provider only an
 * amount, so the exact AltaPay lines are left in the payment's data first (`pending_refund`, read
 * by the provider's refundPayment); if the refund fails they are taken out again. Both writes run
 * under the payment's lock, like the provider's captures and refunds, so neither can overwrite
 * the other's data; the item-refund route holds that lock across the whole workflow, so no other
 * refund of the payment can take these lines.
 */
import { createWorkflow, WorkflowResponse } from "@medusajs/framework/workflows-sdk"
import { refundPaymentWorkflow } from "@medusajs/medusa/core-flows"
import type { PendingRefund } from "../lib/payment-data/data"
import { pendingLinesStep } from "./steps/pending-lines"

export interface RefundAltaPayItemsInput {
  payment_id: string
  /**
   * What the customer gets back, in major units as exact decimal text, e.g. "96.66" (never a
   * float): the goods lines' total, less the pending refund's return fee when it keeps one.
   */
  amount: string
  pending_refund: PendingRefund
  note?: string
  created_by?: string
}

export const setAltaPayPendingRefundStep = pendingLinesStep("set-altapay-pending-refund", "pending_refund")

export const refundAltaPayItemsWorkflowId = "refund-altapay-items"

export const refundAltaPayItemsWorkflow = createWorkflow(refundAltaPayItemsWorkflowId, (input: RefundAltaPayItemsInput) => {
  setAltaPayPendingRefundStep({ payment_id: input.payment_id, pending: input.pending_refund })
  const payment = refundPaymentWorkflow.runAsStep({
    input: { payment_id: input.payment_id, amount: input.amount, note: input.note, created_by: input.created_by },
  })
  return new WorkflowResponse(payment)
})
