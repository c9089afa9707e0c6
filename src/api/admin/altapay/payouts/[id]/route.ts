/**
 * GET /admin/altapay/payouts/:id
 *
 * One imported funding file's summary; 404 when there is none with this id.
 */
import type { AuthenticatedMedusaRequest, MedusaResponse } from "@medusajs/framework/http"
import type { FundingFileSummary } from "../../../../../modules/altapay-payouts/types"
import { payoutFile } from "../../_lib/payouts-query"

export interface AdminAltaPayPayoutResponse {
  file: FundingFileSummary
}

export const GET = async (req: AuthenticatedMedusaRequest, res: MedusaResponse<AdminAltaPayPayoutResponse>) => {
  const file = await payoutFile(req.scope, req.params.id)
  res.setHeader("Cache-Control", "no-store")
  res.json({ file })
}
