/** capturePayment on a payment the fraud policy holds (lib/fraud/policy.ts): refused until a merchant approves it. */
import { MedusaError } from "@medusajs/framework/utils"
import { heldForReview } from "../../lib/fraud/policy"
import type { AltaPayPaymentData } from "../../lib/payment-data/data"

/** Medusa's Capture button, "Capture items" and `captureOn` all reach capturePayment: each is refused while held. */
export function refuseHeldCapture(data: AltaPayPaymentData): void {
  const why = heldForReview(data)
  if (!why) return
  throw new MedusaError(
    MedusaError.Types.NOT_ALLOWED,
    `AltaPay capture: payment ${data.order_id} is held for review (${why}). Approve the capture in the order's AltaPay panel first, or cancel the order to release the reservation. Nothing was captured.`
  )
}
