/**
 * GET /admin/altapay/payouts/:id/export
 *
 * All of a funding file's lines as CSV (text/csv, streamed page by page), with the Medusa capture
 * or refund and order each was matched to; 404 when the file is unknown.
 */
import type { AuthenticatedMedusaRequest, MedusaResponse } from "@medusajs/framework/http"
import { z } from "zod"
import { parseBody } from "../../../_lib/parse-body"
import { LINE_CSV, streamCsv } from "../../../_lib/payouts-csv"
import { payoutFile, payoutsModule } from "../../../_lib/payouts-query"

const Query = z.object({}).strict()

export const GET = async (req: AuthenticatedMedusaRequest, res: MedusaResponse) => {
  parseBody(Query, req.query)
  const file = await payoutFile(req.scope, req.params.id)
  const payouts = payoutsModule(req.scope)
  await streamCsv(res, file.filename, LINE_CSV, async (offset, limit) => {
    const { lines, count } = await payouts.listPayoutFileLines(file.id, { offset, limit })
    return { items: lines, count }
  })
}
