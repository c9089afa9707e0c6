/**
 * Scheduled: captures, refunds, releases and merchant charges that got no answer and that AltaPay
 * could not be asked about; made ones are recorded in Medusa, unmade ones forgotten. See
 * src/lib/follow-up/uncertain-money.ts.
 */
import type { MedusaContainer } from "@medusajs/framework/types"
import { followUpSchedule, runFollowUp, type RunSummary } from "../lib/follow-up/run"
import { followUpUncertainMoney } from "../lib/follow-up/uncertain-money"

export default async function altapayUncertainMoneyJob(container: MedusaContainer, context?: { scheduledFor?: Date }): Promise<RunSummary> {
  return runFollowUp(container, "money attempts without an answer", followUpUncertainMoney, context?.scheduledFor)
}

export const config = { name: "altapay-follow-up-uncertain-money", schedule: followUpSchedule() }
