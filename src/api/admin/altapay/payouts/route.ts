/**
 * GET /admin/altapay/payouts?limit=20&offset=0
 *
 * AltaPay's funding files (payouts) imported so far, newest first: gross, fees, net, and how many
 * of their payment and refund lines are tied to Medusa's captures and refunds.
 */
import type { AuthenticatedMedusaRequest, MedusaResponse } from "@medusajs/framework/http"
import { z } from "zod"
import type { FundingFileSummary } from "../../../../modules/altapay-payouts/types"
import { parseBody } from "../_lib/parse-body"
import { pageQuery, payoutsModule } from "../_lib/payouts-query"

export interface AdminAltaPayPayoutsResponse {
  files: FundingFileSummary[]
  count: number
  limit: number
  offset: number
}

const Query = z.object(pageQuery(20)).strict()

export const GET = async (req: AuthenticatedMedusaRequest, res: MedusaResponse<AdminAltaPayPayoutsResponse>) => {
  const page = parseBody(Query, req.query)
  const { files, count } = await payoutsModule(req.scope).listPayoutFiles(page)
  res.setHeader("Cache-Control", "no-store")
  res.json({ files, count, ...page })
}
