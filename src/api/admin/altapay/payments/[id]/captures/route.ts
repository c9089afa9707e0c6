/**
 * GET  /admin/altapay/payments/:id/captures
 * POST /admin/altapay/payments/:id/captures  { items: [{ line_item_id, quantity }], shipping?, preview? }
 *
 * Captures what was shipped, item by item: AltaPay receives those items' lines exactly as they
 * were reserved (what Klarna and invoice payments require) and Medusa records a capture of the
 * same amount, so both captured totals agree. GET says what can still be captured (or why item
 * captures cannot be used for this payment); `preview: true` plans without capturing. Planning,
 * the payment's lock and Medusa's capture workflow live in lib/item-captures: the route only
 * checks the body and shapes the answer.
 */
import type { AuthenticatedMedusaRequest, MedusaResponse } from "@medusajs/framework/http"
import { z } from "zod"
import { altapayFromConfig } from "../../../../../../lib/registrations/from-config"
import {
  captureAltaPayItems,
  itemCaptureState,
  orderOwesMinor,
  previewAltaPayItemCapture,
  type ItemCapturePreview,
  type ItemCaptureState,
} from "../../../../../../lib/item-captures/capture-items"
import { loadAltaPayPayment } from "../../../_lib/altapay-payment"
import { itemQuantities } from "../../../_lib/item-quantities"
import { readLiveTransaction } from "../../../_lib/live-transaction"
import { parseBody } from "../../../_lib/parse-body"
import { adminAltaPayPayment, type AdminAltaPayPayment } from "../../../_lib/payment-view"

const AdminAltaPayItemCapture = z
  .object({
    items: itemQuantities,
    /** Also capture the order's shipping. */
    shipping: z.boolean().optional(),
    /** Only plan: the amount and lines this capture would send, nothing captured. */
    preview: z.boolean().optional(),
  })
  .strict()
  .refine((body) => body.items.length > 0 || body.shipping === true, { message: "choose at least one item or the shipping" })

export interface AdminAltaPayItemCaptureStateResponse {
  capture_state: ItemCaptureState
}

export type AdminAltaPayItemCaptureResponse =
  { preview: true; capture: ItemCapturePreview } | { preview: false; capture: ItemCapturePreview & { capture_id: string | null }; altapay_payment: AdminAltaPayPayment }

export const GET = async (req: AuthenticatedMedusaRequest, res: MedusaResponse<AdminAltaPayItemCaptureStateResponse>) => {
  res.setHeader("Cache-Control", "no-store")
  res.json({ capture_state: await itemCaptureState(req.scope, req.params.id) })
}

export const POST = async (req: AuthenticatedMedusaRequest, res: MedusaResponse<AdminAltaPayItemCaptureResponse>) => {
  const { preview, ...request } = parseBody(AdminAltaPayItemCapture, req.body)
  const paymentId = req.params.id
  if (preview) {
    res.json({ preview: true, capture: await previewAltaPayItemCapture(req.scope, paymentId, request) })
    return
  }
  const capture = await captureAltaPayItems(req.scope, paymentId, request, { capturedBy: req.auth_context?.actor_id })
  // The panel redraws from this: AltaPay's captured amount as AltaPay now reports it.
  const after = await loadAltaPayPayment(req.scope, paymentId)
  const { client, options } = altapayFromConfig(req.scope, after.provider_id)
  const [live, owed] = await Promise.all([readLiveTransaction(client, after.data), orderOwesMinor(req.scope, after)])
  res.json({ preview: false, capture, altapay_payment: adminAltaPayPayment(after, live, undefined, options, owed) })
}
