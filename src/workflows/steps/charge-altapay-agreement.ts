/**
 * The two steps of a merchant-started charge on a saved card (src/lib/saved-cards/merchant-charge/):
 * the charge at AltaPay, then its record in Medusa. Neither compensates: a charge AltaPay made stays
 * there when recording fails, and running the workflow again finds it at AltaPay and records it,
 * where releasing it would leave the merchant to charge the customer a second time.
 */
import { createStep, StepResponse } from "@medusajs/framework/workflows-sdk"
import { chargeOrderOnSavedCard, type AgreementCharge, type AgreementChargeRequest } from "../../lib/saved-cards/merchant-charge/charge"
import { recordAgreementCharge, type RecordedAgreementCharge } from "../../lib/saved-cards/merchant-charge/record"

export const chargeAltaPayAgreementStep = createStep("charge-altapay-agreement", async (input: AgreementChargeRequest, { container }) => {
  return new StepResponse<AgreementCharge>(await chargeOrderOnSavedCard(container, input))
})

export const recordAltaPayAgreementChargeStep = createStep("record-altapay-agreement-charge", async (charge: AgreementCharge, { container }) => {
  return new StepResponse<RecordedAgreementCharge>(await recordAgreementCharge(container, charge))
})
