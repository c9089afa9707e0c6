/**
 * Scheduled: AltaPay payment sessions still pending in Medusa after the grace period. Paid ones
 * complete into their order (as the lost callback would have done), paid ones no order can claim
 * are released and shown to the merchant, unpaid ones past their lifetime are retired.
 * See src/lib/follow-up/payment-sessions.ts.
 */
import type { MedusaContainer } from "@medusajs/framework/types"
import { followUpPaymentSessions } from "../lib/follow-up/payment-sessions"
import { followUpSchedule, runFollowUp, type RunSummary } from "../lib/follow-up/run"

export default async function altapayPaymentSessionsJob(container: MedusaContainer, context?: { scheduledFor?: Date }): Promise<RunSummary> {
  return runFollowUp(container, "payment sessions", followUpPaymentSessions, context?.scheduledFor)
}

export const config = { name: "altapay-follow-up-payment-sessions", schedule: followUpSchedule() }
