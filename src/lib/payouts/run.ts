/**
 * One payouts import over every AltaPay registration: Medusa's new captures and refunds recorded
 * first (so the lines about to arrive can match them), then each account's new funding files, then
 * the matching. Exactly once across servers: the module stores a file under a unique (account,
 * filename) in one transaction; with Medusa's locking module in the Payment module's dependencies
 * (as the provider's locks) two servers also never download one account's files at once.
 */
import type { Logger, MedusaContainer } from "@medusajs/framework/types"
import { ContainerRegistrationKeys } from "@medusajs/framework/utils"
import { configManager } from "@medusajs/framework/config"
import type AltaPayPayoutsService from "../../modules/altapay-payouts/service"
import type { MatchResult } from "../../modules/altapay-payouts/types"
import { messageOf } from "../follow-up/run-report"
import { notePayoutRun } from "../health/hooks"
import { findAltaPayProviderEntries, parsedFor } from "../registrations/from-config"
import { DEFAULT_PAYOUTS_OPTIONS } from "../registrations/options"
import { altapayRegistrations, type AltaPayRegistration } from "../registrations/registrations"
import { payoutAccounts, type PayoutAccount } from "./accounts"
import { importAccountFiles, reportProblem, type AccountImport } from "./import-files"
import { MOVEMENT_OVERLAP_MS, medusaMovements } from "./movements"
import { OldMovements } from "./old-movements"

export interface AccountRunSummary extends AccountImport {
  account: string
  providerIds: string[]
  movementsRecorded: number
  /** Lines matched after this account's files were imported. */
  matched: MatchResult
  /** What finance should expect from this run (not a problem): e.g. old captures copied on a first import. */
  notices: string[]
}

export interface PayoutRunSummary {
  accounts: AccountRunSummary[]
}

export async function runPayoutImport(container: MedusaContainer, payouts: AltaPayPayoutsService): Promise<PayoutRunSummary> {
  const logger = container.resolve<Logger>(ContainerRegistrationKeys.LOGGER)
  const registrations = altapayRegistrations(container)
  const accounts = payoutAccounts(registrations)
  const summaries = accounts.map((account): AccountRunSummary => ({
    account: account.account,
    providerIds: account.providerIds,
    filesImported: 0,
    filesSkipped: 0,
    filesBeforeReconcileFrom: 0,
    linesImported: 0,
    movementsRecorded: 0,
    matched: { byReconciliationIdentifier: 0, byPaymentAndAmount: 0 },
    problems: [],
    notices: [],
  }))
  await recordMovements(container, payouts, registrations, accounts, summaries, logger)
  for (const [index, account] of accounts.entries()) {
    const summary = summaries[index]
    await importUnderLock(payouts, account, logger, summary)
    try {
      summary.matched = await payouts.matchLines()
    } catch (error) {
      reportProblem(logger, summary, `matching the funding lines failed: ${messageOf(error)}; tried again next run.`)
    }
  }
  const line = reportLine(summaries)
  if (summaries.some((s) => s.problems.length > 0)) logger.warn(line)
  else logger.info(line)
  await notePayoutRun(container, line, summaries)
  return { accounts: summaries }
}

/** Medusa's captures and refunds since shortly before the registrations were last read (all, for one never read), recorded per account. */
async function recordMovements(
  container: MedusaContainer,
  payouts: AltaPayPayoutsService,
  registrations: AltaPayRegistration[],
  accounts: PayoutAccount[],
  summaries: AccountRunSummary[],
  logger: Pick<Logger, "warn" | "info">
): Promise<void> {
  const summaryOf = new Map(accounts.flatMap((account, index) => account.providerIds.map((id) => [id, summaries[index]] as const)))
  const backlog = new OldMovements(registrations)
  try {
    const providerIds = [...summaryOf.keys()]
    const syncedThrough = await payouts.movementsSyncedThrough(providerIds)
    const since = syncedThrough ? new Date(syncedThrough.getTime() - MOVEMENT_OVERLAP_MS) : null
    // Everything created before this moment is read by the end of the loop (later commits: the overlap).
    const readStartedAt = new Date()
    for await (const batch of medusaMovements(container, providerIds, since)) {
      // Ones recorded before (the overlap) or by another server at the same moment are not inserted
      // again: each account counts only what this run inserted.
      const inserted = new Set(await payouts.recordMovements(batch))
      for (const movement of batch) {
        if (!inserted.has(movement.medusaId)) continue
        summaryOf.get(movement.providerId)!.movementsRecorded++
        backlog.count(movement, readStartedAt)
      }
    }
    await payouts.markMovementsSynced(providerIds, readStartedAt)
    for (const [index, account] of accounts.entries()) {
      const notice = backlog.notice(account.providerIds)
      if (notice) {
        summaries[index].notices.push(notice)
        logger.info(`AltaPay payouts: ${notice}`)
      }
    }
  } catch (error) {
    // The files are still imported; what was not recorded is read again next run.
    for (const summary of summaries) reportProblem(logger, summary, `recording Medusa's captures and refunds failed: ${messageOf(error)}; tried again next run.`)
  }
}

async function importUnderLock(payouts: AltaPayPayoutsService, account: PayoutAccount, logger: Pick<Logger, "warn">, summary: AccountRunSummary): Promise<void> {
  const lock = account.registrations[0].scaleOut.lock
  let started = false
  const job = async () => {
    started = true
    await importAccountFiles(payouts, account, logger, summary)
  }
  try {
    await (lock ? lock(`altapay:payouts:${account.account}`, job) : job())
  } catch (error) {
    if (started) reportProblem(logger, summary, `the import of ${account.account} failed: ${messageOf(error)}; tried again next run.`)
    else reportProblem(logger, summary, `another server has been importing the funding files of ${account.account} for a while; this server tries again next run.`)
  }
}

/** The run in one line, as the follow-up jobs report theirs. */
export function reportLine(summaries: AccountRunSummary[]): string {
  if (summaries.length === 0) return "AltaPay payouts: no registration imports payouts."
  const parts = summaries.map((s) => {
    const matched = s.matched.byReconciliationIdentifier + s.matched.byPaymentAndAmount
    const problems = s.problems.length > 0 ? `, ${s.problems.length} problem(s)` : ""
    return (
      `${s.account} (${s.providerIds.join(", ")}): ${s.filesImported} file(s) imported with ${s.linesImported} line(s), ${s.filesSkipped} already stored, ` +
      (s.filesBeforeReconcileFrom > 0 ? `${s.filesBeforeReconcileFrom} dated before payouts.reconcileFrom left out, ` : "") +
      `${s.movementsRecorded} capture(s) and refund(s) recorded, ${matched} line(s) matched (${s.matched.byPaymentAndAmount} by payment and amount)${problems}`
    )
  })
  return `AltaPay payouts: ${parts.join("; ")}.`
}

/** Every `payouts.intervalMinutes` (the shortest of the registrations importing payouts), read from medusa-config when Medusa loads the job. */
export function payoutsSchedule(): { interval: number } {
  let minutes = DEFAULT_PAYOUTS_OPTIONS.intervalMinutes
  try {
    const intervals = findAltaPayProviderEntries(configManager.config).flatMap((entry) => {
      const parsed = parsedFor(entry)
      return "options" in parsed && parsed.options.payouts.enabled ? [parsed.options.payouts.intervalMinutes] : []
    })
    if (intervals.length > 0) minutes = Math.min(...intervals)
  } catch {
    // No config loaded (the file imported outside Medusa): the default.
  }
  return { interval: minutes * 60_000 }
}
