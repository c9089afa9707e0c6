/**
 * Scheduled: uncaptured reservations whose AltaPay authorisation expires within
 * `jobs.expiryNoticeDays` are told to the merchant (admin notifications and the log). See
 * src/lib/follow-up/expiring-reservations.ts.
 */
import type { MedusaContainer } from "@medusajs/framework/types"
import { followUpExpiringReservations } from "../lib/follow-up/expiring-reservations"
import { followUpSchedule, runFollowUp, type RunSummary } from "../lib/follow-up/run"

export default async function altapayExpiringReservationsJob(container: MedusaContainer, context?: { scheduledFor?: Date }): Promise<RunSummary> {
  return runFollowUp(container, "reservations about to expire", followUpExpiringReservations, context?.scheduledFor)
}

export const config = { name: "altapay-follow-up-expiring-reservations", schedule: followUpSchedule() }
