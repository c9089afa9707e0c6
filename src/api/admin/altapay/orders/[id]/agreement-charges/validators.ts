import { z } from "@medusajs/framework/zod"
import { MERCHANT_UNSCHEDULED_TYPES } from "../../../../../../lib/saved-cards/merchant-charge/charge"

/**
 * POST /admin/altapay/orders/:id/agreement-charges: which saved card, whether to capture at once
 * (default: the card's registration's `autoCapture`) and AltaPay's merchant-initiated kind of
 * charge (default `incremental`; `charge`, the customer-initiated kind, is not the merchant's).
 */
export const AdminCreateAltaPayAgreementCharge = z
  .object({
    saved_card_id: z.string().min(1),
    capture: z.boolean().optional(),
    unscheduled_type: z.enum(MERCHANT_UNSCHEDULED_TYPES).optional(),
  })
  .strict()
export type AdminCreateAltaPayAgreementChargeType = z.infer<typeof AdminCreateAltaPayAgreementCharge>
