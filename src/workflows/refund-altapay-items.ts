/**
 * An item-level refund through Medusa's own refund workflow. Medusa hands a provider only an
 * amount, so the exact AltaPay lines are left in the payment's data first (`pending_refund`, read
 * by the provider's refundPayment); if the refund fails they are taken out again.
 */
import type { IPaymentModuleService, UpdatePaymentDTO } from "@medusajs/framework/types"
import { Modules } from "@medusajs/framework/utils"
import { createStep, createWorkflow, StepResponse, WorkflowResponse } from "@medusajs/framework/workflows-sdk"
import { refundPaymentWorkflow } from "@medusajs/medusa/core-flows"
import type { PendingRefund } from "../lib/payment-data"

export interface RefundAltaPayItemsInput {
  payment_id: string
  /** Major units as exact decimal text, e.g. "96.66" (never a float). */
  amount: string
  pending_refund: PendingRefund
  note?: string
  created_by?: string
}

async function writePendingRefund(payments: IPaymentModuleService, paymentId: string, pending: PendingRefund | null): Promise<void> {
  const [payment] = await payments.listPayments({ id: paymentId }, { select: ["id", "data"] })
  // The Payment module updates `data` as a whole; its DTO type just does not list the field.
  await payments.updatePayment({ id: paymentId, data: { ...(payment?.data ?? {}), pending_refund: pending } } as UpdatePaymentDTO)
}

export const setAltaPayPendingRefundStep = createStep(
  "set-altapay-pending-refund",
  async (input: { payment_id: string; pending_refund: PendingRefund }, { container }) => {
    await writePendingRefund(container.resolve(Modules.PAYMENT), input.payment_id, input.pending_refund)
    return new StepResponse(undefined, { payment_id: input.payment_id, requested_at: input.pending_refund.requested_at })
  },
  async (written, { container }) => {
    if (!written) return
    const payments = container.resolve(Modules.PAYMENT)
    const [payment] = await payments.listPayments({ id: written.payment_id }, { select: ["id", "data"] })
    const pending = (payment?.data as { pending_refund?: PendingRefund | null } | undefined)?.pending_refund
    // Only ours: the provider clears it once used, and a later request may have written its own.
    if (pending?.requested_at === written.requested_at) await writePendingRefund(payments, written.payment_id, null)
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
