/**
 * GET  /admin/altapay/orders/:id/agreement-charges: what could be charged on the order now (the
 *      amount outstanding) and the customer's saved cards that could pay it.
 * POST /admin/altapay/orders/:id/agreement-charges { saved_card_id, capture?, unscheduled_type? }:
 *      charges that card for the amount outstanding (chargeAltaPayAgreementWorkflow) and answers
 *      the payment Medusa recorded. A decline answers 400 with AltaPay's message.
 */
import type { AuthenticatedMedusaRequest, MedusaResponse } from "@medusajs/framework/http"
import { minorToDecimal } from "../../../../../../altapay"
import { chargeableOrder } from "../../../../../../lib/saved-cards/merchant-charge/chargeable"
import { adminSavedCard, type AdminSavedCard } from "../../../../../../lib/saved-cards/views"
import { chargeAltaPayAgreementWorkflow } from "../../../../../../workflows/charge-altapay-agreement"
import type { Money } from "../../../_lib/payment-view"
import type { AdminCreateAltaPayAgreementChargeType } from "./validators"

export interface AdminAltaPayChargeableOrder {
  order_id: string
  /** What a charge would take now (0: nothing). */
  outstanding: Money
  payment_collection_id: string | null
  /** Why nothing can be charged now, when nothing can. */
  reason: string | null
  /** The customer's cards in the order's currency on registrations with saved cards on; `auto_capture`: what a charge does by default. */
  saved_cards: Array<AdminSavedCard & { auto_capture: boolean }>
}

export interface AdminAltaPayAgreementChargeResponse {
  agreement_charge: {
    payment_id: string
    payment_collection_id: string
    payment_session_id: string
    transaction_id: string
    amount: Money
    status: "captured" | "authorized"
    /** False when AltaPay already had this charge (a retry after a lost answer): nothing was charged now. */
    charged: boolean
  }
}

const money = (minor: number, currency: string): Money => ({ minor, decimal: minorToDecimal(minor, currency), currency })

export const GET = async (req: AuthenticatedMedusaRequest, res: MedusaResponse<AdminAltaPayChargeableOrder>) => {
  const chargeable = await chargeableOrder(req.scope, req.params.id)
  res.setHeader("Cache-Control", "no-store")
  res.json({
    order_id: chargeable.order_id,
    outstanding: money(chargeable.outstanding_minor, chargeable.currency),
    payment_collection_id: chargeable.payment_collection_id,
    reason: chargeable.reason,
    saved_cards: chargeable.cards.map(({ card, auto_capture }) => ({ ...adminSavedCard(card), auto_capture })),
  })
}

export const POST = async (req: AuthenticatedMedusaRequest<AdminCreateAltaPayAgreementChargeType>, res: MedusaResponse<AdminAltaPayAgreementChargeResponse>) => {
  const body = req.validatedBody
  const { result } = await chargeAltaPayAgreementWorkflow(req.scope).run({
    input: { order_id: req.params.id, saved_card_id: body.saved_card_id, capture: body.capture, unscheduled_type: body.unscheduled_type },
  })
  res.setHeader("Cache-Control", "no-store")
  res.status(200).json({
    agreement_charge: {
      payment_id: result.payment_id,
      payment_collection_id: result.payment_collection_id,
      payment_session_id: result.payment_session_id,
      transaction_id: result.transaction_id,
      amount: money(result.amount_minor, result.currency),
      status: result.status,
      charged: result.charged,
    },
  })
}
