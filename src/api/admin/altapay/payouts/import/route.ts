/**
 * POST /admin/altapay/payouts/import
 *
 * Runs the payouts import now (what the altapay-payouts job does on its schedule) for every AltaPay
 * registration and answers the run's summary per account. Safe to run at any time: a file already
 * stored is not imported again.
 */
import type { AuthenticatedMedusaRequest, MedusaResponse } from "@medusajs/framework/http"
import { runPayoutImport, type PayoutRunSummary } from "../../../../../lib/payouts/run"
import { payoutsModule } from "../../_lib/payouts-query"

export const POST = async (req: AuthenticatedMedusaRequest, res: MedusaResponse<PayoutRunSummary>) => {
  const summary = await runPayoutImport(req.scope, payoutsModule(req.scope))
  res.json(summary)
}
