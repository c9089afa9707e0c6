/**
 * Charges a customer's saved card (an AltaPay agreement) for what an order still waits to be paid,
 * typically the difference Medusa opened a payment collection for after an order edit, claim or
 * exchange; the admin's "Charge saved card" runs it, and other plugins may. The charge is captured
 * at once or only reserved (`capture`, default: the registration's `autoCapture`), and never made
 * twice: see src/lib/saved-cards/merchant-charge/charge.ts.
 */
import { createWorkflow, WorkflowResponse } from "@medusajs/framework/workflows-sdk"
import type { MerchantUnscheduledType } from "../lib/saved-cards/merchant-charge/charge"
import { chargeAltaPayAgreementStep, recordAltaPayAgreementChargeStep } from "./steps/charge-altapay-agreement"

export interface ChargeAltaPayAgreementInput {
  order_id: string
  /** The plugin's saved card (altapay_saved_card.id); it must be the order's customer's. */
  saved_card_id: string
  /** true: captured at once (chargeSubscription); false: reserved (reserveSubscriptionCharge). */
  capture?: boolean
  /** AltaPay's merchant-initiated kind of charge; default `incremental`. */
  unscheduled_type?: MerchantUnscheduledType
}

export const chargeAltaPayAgreementWorkflowId = "charge-altapay-agreement"

export const chargeAltaPayAgreementWorkflow = createWorkflow(chargeAltaPayAgreementWorkflowId, (input: ChargeAltaPayAgreementInput) => {
  const charge = chargeAltaPayAgreementStep(input)
  const recorded = recordAltaPayAgreementChargeStep(charge)
  return new WorkflowResponse(recorded)
})
