/**
 * GET /admin/altapay/payout-exceptions/export?kind=...[&unfunded_after_days=7]
 *
 * The payout exceptions (see ../route.ts) as CSV, all of them, streamed page by page.
 */
import type { AuthenticatedMedusaRequest, MedusaResponse } from "@medusajs/framework/http"
import { z } from "zod"
import { listWithChargebacks } from "../../../../../lib/payouts/chargeback-exceptions"
import type { PayoutException } from "../../../../../modules/altapay-payouts/types"
import { parseBody } from "../../_lib/parse-body"
import { EXCEPTION_CSV, streamCsv } from "../../_lib/payouts-csv"
import { exceptionFilterQuery, exceptionQuery, payoutsModule, unfundedCutoff } from "../../_lib/payouts-query"

const Query = z.object(exceptionFilterQuery).strict()

export const GET = async (req: AuthenticatedMedusaRequest, res: MedusaResponse) => {
  const { kind, unfunded_after_days } = parseBody(Query, req.query)
  const cutoff = unfundedCutoff(req.scope, unfunded_after_days)
  const payouts = payoutsModule(req.scope)
  // One "now" for every page, so the unfunded cut-off does not move during the download.
  const now = new Date()
  await streamCsv(res, `altapay-payout-exceptions-${now.toISOString().slice(0, 10)}`, EXCEPTION_CSV, async (offset, limit) => {
    const { exceptions, count } = await listWithChargebacks(req.scope, kind, { offset, limit }, (kinds, page) =>
      payouts.listPayoutExceptions(exceptionQuery(cutoff, kinds, page, now))
    )
    // The CSV reads `kind` as text: a chargeback's is one more value of it.
    return { items: exceptions as unknown as PayoutException[], count }
  })
}
