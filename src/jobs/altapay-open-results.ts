/**
 * Scheduled: refunds and captures AltaPay answered Open, until AltaPay settles them; the outcome
 * is recorded on the payment and shown in the admin panel. See src/lib/follow-up/open-results.ts.
 */
import type { MedusaContainer } from "@medusajs/framework/types"
import { followUpOpenResults } from "../lib/follow-up/open-results"
import { followUpSchedule, runFollowUp, type RunSummary } from "../lib/follow-up/run"

export default async function altapayOpenResultsJob(container: MedusaContainer, context?: { scheduledFor?: Date }): Promise<RunSummary> {
  return runFollowUp(container, "Open refunds and captures", followUpOpenResults, context?.scheduledFor)
}

export const config = { name: "altapay-follow-up-open-results", schedule: followUpSchedule() }
