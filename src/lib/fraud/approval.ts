/**
 * A merchant approves the capture of a payment the fraud policy holds (the order panel's
 * "Approve capture", POST /admin/altapay/payments/:id/fraud-approval): recorded in the payment's
 * data under its lock, with who and when, so capturePayment lets the next capture through.
 */
import type { MedusaContainer } from "@medusajs/framework/types"
import { MedusaError } from "@medusajs/framework/utils"
import { changePaymentData } from "../payment-data/writer"

export async function approveHeldCapture(container: MedusaContainer, paymentId: string, approvedBy: string | null): Promise<void> {
  await changePaymentData(container, paymentId, (latest) => {
    const fraud = latest.fraud
    if (fraud?.decision !== "hold") {
      throw new MedusaError(MedusaError.Types.NOT_ALLOWED, `Payment ${paymentId} is not held for review by AltaPay's fraud check: there is nothing to approve.`)
    }
    if (fraud.approved_at) return undefined // approved already: the first approval stands
    return { ...latest, fraud: { ...fraud, approved_at: new Date().toISOString(), approved_by: approvedBy } }
  })
}
