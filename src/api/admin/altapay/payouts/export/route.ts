/**
 * GET /admin/altapay/payouts/export
 *
 * The imported fundings (see ../route.ts) as CSV, one row per bank transfer, newest first, all of
 * them, streamed page by page. Medusa's router tries this static path before ../[id].
 */
import type { AuthenticatedMedusaRequest, MedusaResponse } from "@medusajs/framework/http"
import { z } from "zod"
import { parseBody } from "../../_lib/parse-body"
import { PAYOUT_CSV, streamCsv } from "../../_lib/payouts-csv"
import { payoutsModule } from "../../_lib/payouts-query"

const Query = z.object({}).strict()

export const GET = async (req: AuthenticatedMedusaRequest, res: MedusaResponse) => {
  parseBody(Query, req.query)
  const payouts = payoutsModule(req.scope)
  const filename = `altapay-payouts-${new Date().toISOString().slice(0, 10)}`
  await streamCsv(res, filename, PAYOUT_CSV, (offset, limit) => payouts.listPayoutFiles({ offset, limit }).then(({ files, count }) => ({ items: files, count })))
}
