/**
 * A refund of a canceled order's payment: money the cancel's own refund did not give back (AltaPay
 * failed it, or its answer was lost). Medusa's cancel has booked the refund on the order already,
 * and Medusa 2.21's refundPaymentWorkflow, which books it again as the order's credit line, refunds
 * and then fails on the canceled order ("Order … has been canceled"). So the refund is made and
 * recorded on the payment alone, through the payment module: the provider's money door sends it,
 * or adopts an attempt AltaPay already made.
 */
import type { IPaymentModuleService, MedusaContainer, PaymentDTO } from "@medusajs/framework/types"
import { ContainerRegistrationKeys, Modules } from "@medusajs/framework/utils"

export interface CanceledOrderRefund {
  payment_id: string
  amount?: number
  note?: string
  created_by?: string
  refund_reason_id?: string
}

export async function isCanceledOrder(container: MedusaContainer, orderId: string): Promise<boolean> {
  const { data } = await container.resolve(ContainerRegistrationKeys.QUERY).graph({ entity: "order", fields: ["status"], filters: { id: orderId } })
  return (data[0] as { status?: string } | undefined)?.status === "canceled"
}

/** The payment after the refund, with its captures and refunds (as Medusa's refund route answers it). */
export async function refundOfCanceledOrder(container: MedusaContainer, refund: CanceledOrderRefund): Promise<PaymentDTO> {
  const payments = container.resolve<IPaymentModuleService>(Modules.PAYMENT)
  await payments.refundPayment(refund)
  return payments.retrievePayment(refund.payment_id, { relations: ["captures", "refunds"] })
}
