/**
 * GET /admin/altapay/payouts/:id/lines?limit=50&offset=0
 *
 * A funding file's lines in file order, each with the Medusa capture or refund (and its order)
 * it was matched to, if any; 404 when the file is unknown.
 */
import type { AuthenticatedMedusaRequest, MedusaResponse } from "@medusajs/framework/http"
import { z } from "zod"
import type { FundingLineView } from "../../../../../../modules/altapay-payouts/types"
import { parseBody } from "../../../_lib/parse-body"
import { pageQuery, payoutFile, payoutsModule } from "../../../_lib/payouts-query"

export interface AdminAltaPayPayoutLinesResponse {
  lines: FundingLineView[]
  count: number
  limit: number
  offset: number
}

const Query = z.object(pageQuery(50)).strict()

export const GET = async (req: AuthenticatedMedusaRequest, res: MedusaResponse<AdminAltaPayPayoutLinesResponse>) => {
  const page = parseBody(Query, req.query)
  const file = await payoutFile(req.scope, req.params.id)
  const { lines, count } = await payoutsModule(req.scope).listPayoutFileLines(file.id, page)
  res.setHeader("Cache-Control", "no-store")
  res.json({ lines, count, ...page })
}
