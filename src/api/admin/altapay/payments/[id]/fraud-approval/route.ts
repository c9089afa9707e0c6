/**
 * POST /admin/altapay/payments/:id/fraud-approval
 *
 * Approves the capture of a payment the registration's fraud policy holds (AltaPay recommended
 * Challenge, or AVS outside the accepted codes): from then on Medusa's Capture, "Capture items" and
 * `captureOn` capture it. Answers the payment as the order panel shows it.
 */
import type { AuthenticatedMedusaRequest, MedusaResponse } from "@medusajs/framework/http"
import { approveHeldCapture } from "../../../../../../lib/fraud/approval"
import { altapayFromConfig } from "../../../../../../lib/registrations/from-config"
import { loadAltaPayPayment } from "../../../_lib/altapay-payment"
import { readLiveTransaction } from "../../../_lib/live-transaction"
import { adminAltaPayPayment, type AdminAltaPayPayment } from "../../../_lib/payment-view"

export interface AdminAltaPayFraudApprovalResponse {
  altapay_payment: AdminAltaPayPayment
}

export const POST = async (req: AuthenticatedMedusaRequest, res: MedusaResponse<AdminAltaPayFraudApprovalResponse>) => {
  const paymentId = req.params.id
  await loadAltaPayPayment(req.scope, paymentId) // 404 / not AltaPay's, before anything changes
  await approveHeldCapture(req.scope, paymentId, req.auth_context?.actor_id ?? null)
  const after = await loadAltaPayPayment(req.scope, paymentId)
  const { client, options } = altapayFromConfig(req.scope, after.provider_id)
  res.json({ altapay_payment: adminAltaPayPayment(after, await readLiveTransaction(client, after.data), undefined, options) })
}
