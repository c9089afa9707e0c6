/**
 * GET /admin/altapay/payout-exceptions?kind=unfunded&kind=rejected&limit=50&offset=0[&unfunded_after_days=7]
 *
 * What finance should look at: captures and refunds no payout has funded after the cut-off (each
 * registration's payouts.unfundedAfterDays, or unfunded_after_days for all; none recorded before its
 * payouts.reconcileFrom), lines tied to nothing in Medusa, amounts that differ, rejected and
 * unreadable lines, files whose lines do not add up, lines in a payout nothing explains, and
 * chargebacks AltaPay notified (lib/payouts/chargeback-exceptions.ts).
 */
import type { AuthenticatedMedusaRequest, MedusaResponse } from "@medusajs/framework/http"
import { z } from "zod"
import { listWithChargebacks, type ListedPayoutException } from "../../../../lib/payouts/chargeback-exceptions"
import { parseBody } from "../_lib/parse-body"
import { exceptionFilterQuery, exceptionQuery, pageQuery, payoutsModule, unfundedCutoff, type UnfundedAfterDays } from "../_lib/payouts-query"

export interface AdminAltaPayPayoutExceptionsResponse {
  exceptions: ListedPayoutException[]
  count: number
  limit: number
  offset: number
  /** The cut-off used: days per registration, and for payments of other providers. */
  unfundedAfterDays: UnfundedAfterDays
  /** Registrations with payouts.reconcileFrom: captures and refunds recorded before that day are never unfunded. */
  reconcileFrom: Record<string, string>
}

const Query = z.object({ ...pageQuery(50), ...exceptionFilterQuery }).strict()

export const GET = async (req: AuthenticatedMedusaRequest, res: MedusaResponse<AdminAltaPayPayoutExceptionsResponse>) => {
  const { kind, unfunded_after_days, ...page } = parseBody(Query, req.query)
  const cutoff = unfundedCutoff(req.scope, unfunded_after_days)
  const payouts = payoutsModule(req.scope)
  const { exceptions, count } = await listWithChargebacks(req.scope, kind, page, (kinds, modulePage) => payouts.listPayoutExceptions(exceptionQuery(cutoff, kinds, modulePage)))
  res.setHeader("Cache-Control", "no-store")
  res.json({ exceptions, count, ...page, unfundedAfterDays: cutoff.days, reconcileFrom: cutoff.reconcileFrom })
}
