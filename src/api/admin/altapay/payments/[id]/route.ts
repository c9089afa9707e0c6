/**
 * GET /admin/altapay/payments/:id
 *
 * An AltaPay payment for the order page: AltaPay's live transaction (state, reserved, captured
 * and refunded amounts, reconciliation identifiers, card, fraud score) next to the refunds Medusa
 * recorded (open ones marked) and what can still be refunded per item. When AltaPay cannot be
 * reached the stored values are returned with `altapay.live: false` and the reason. `payouts`:
 * which AltaPay payout each capture and refund went into (the payouts module; none without it).
 */
import type { AuthenticatedMedusaRequest, MedusaResponse } from "@medusajs/framework/http"
import { orderOwesMinor } from "../../../../../lib/item-captures/capture-items"
import { altapayFromConfig } from "../../../../../lib/registrations/from-config"
import { loadAltaPayPayment } from "../../_lib/altapay-payment"
import { readLiveTransaction } from "../../_lib/live-transaction"
import { readPaymentPayouts } from "../../_lib/payment-payouts"
import { adminAltaPayPayment, type AdminAltaPayPayment } from "../../_lib/payment-view"

export interface AdminAltaPayPaymentResponse {
  altapay_payment: AdminAltaPayPayment
}

export const GET = async (req: AuthenticatedMedusaRequest, res: MedusaResponse<AdminAltaPayPaymentResponse>) => {
  const payment = await loadAltaPayPayment(req.scope, req.params.id)
  // The payment's own registration reads it: its terminal may belong to another API user.
  const { client, options } = altapayFromConfig(req.scope, payment.provider_id)
  // What the order still owes caps what the panel offers to capture (an edit may have lowered it).
  const [live, payouts, owed] = await Promise.all([readLiveTransaction(client, payment.data), readPaymentPayouts(req.scope, payment.id), orderOwesMinor(req.scope, payment)])
  res.setHeader("Cache-Control", "no-store")
  res.json({ altapay_payment: adminAltaPayPayment(payment, live, payouts, options, owed) })
}
