/**
 * One run of a follow-up job over every AltaPay registration, and the jobs' schedule. Scheduled
 * jobs run on Medusa's worker (workerMode "worker" or "shared"); with Redis' workflow engine each
 * run happens on one worker, and the locks the follow-ups take keep two runs that overlap anyway
 * (several servers on in-memory engines) from handling the same payment.
 */
import type { Logger, MedusaContainer } from "@medusajs/framework/types"
import { ContainerRegistrationKeys } from "@medusajs/framework/utils"
import { configManager } from "@medusajs/framework/config"
import { findAltaPayProviderEntries, parsedFor } from "../registrations/from-config"
import { DEFAULT_JOB_OPTIONS } from "../registrations/job-options"
import { altapayRegistrations, type AltaPayRegistration } from "../registrations/registrations"
import { countFollowUpFinds } from "../observability/telemetry"
import { noteJobRun } from "../health/hooks"
import { RunReport } from "./run-report"

export type FollowUp = (container: MedusaContainer, registration: AltaPayRegistration, now: Date, report: RunReport) => Promise<void>

/** What a run found and did, as logged. */
export interface RunSummary {
  line: string
  counts: Record<string, number>
  stopped: boolean
}

/** `now` is the time the run was scheduled for (Medusa passes it to jobs), so a late run judges ages as planned. */
export async function runFollowUp(container: MedusaContainer, what: string, followUp: FollowUp, now = new Date()): Promise<RunSummary> {
  const logger = container.resolve<Logger>(ContainerRegistrationKeys.LOGGER)
  const report = new RunReport(`AltaPay follow-up of ${what}`, logger)
  for (const registration of altapayRegistrations(container)) {
    if (report.stopped) break
    const before = report.counts()
    // A failure to list is a failure of this run (Medusa logs the job's error); an outage stops it.
    await report.each("the registration", [registration.providerId], () => followUp(container, registration, now, report))
    countFollowUpFinds(registration.providerId, what, before, report.counts())
  }
  const line = report.line()
  if (report.stopped) logger.warn(line)
  else logger.info(line)
  await noteJobRun(container, what, { line, counts: report.counts(), stopped: report.stopped })
  return { line, counts: report.counts(), stopped: report.stopped }
}

/**
 * Every `jobs.intervalMinutes` (the shortest of all registrations), read from medusa-config when
 * Medusa loads the job; the default when there is no config to read.
 */
export function followUpSchedule(): { interval: number } {
  let minutes = DEFAULT_JOB_OPTIONS.intervalMinutes
  try {
    const intervals = findAltaPayProviderEntries(configManager.config).flatMap((entry) => {
      const parsed = parsedFor(entry)
      return "options" in parsed ? [parsed.options.jobs.intervalMinutes] : []
    })
    if (intervals.length > 0) minutes = Math.min(...intervals)
  } catch {
    // No config loaded (the file imported outside Medusa): the default.
  }
  return { interval: minutes * 60_000 }
}
