/**
 * One account's funding files: every page of fundingList, and each file not stored yet downloaded
 * into the payouts module. A file that fails is reported and the next one still goes; it is tried
 * again next run (the module stores a file whole or not at all).
 */
import type { Logger } from "@medusajs/framework/types"
import type { Funding } from "../../altapay"
import { amountText } from "../../altapay"
import type AltaPayPayoutsService from "../../modules/altapay-payouts/service"
import type { StoredFundingFile } from "../../modules/altapay-payouts/types"
import { MAX_FUNDING_FILE_DOWNLOADS } from "../../modules/altapay-payouts/sql/import"
import { messageOf } from "../follow-up/run-report"
import type { PayoutAccount } from "./accounts"

export interface AccountImport {
  filesImported: number
  filesSkipped: number
  /** Fundings listed but dated before the account's payouts.reconcileFrom: not downloaded. */
  filesBeforeReconcileFrom: number
  linesImported: number
  problems: string[]
}

/** Ample for any merchant (100 fundings a page): a gateway answering more pages than this is not believed. */
const MAX_PAGES = 10_000

export async function importAccountFiles(payouts: AltaPayPayoutsService, account: PayoutAccount, logger: Pick<Logger, "warn">, result: AccountImport): Promise<void> {
  const [{ client, providerId }] = account.registrations
  let numberOfPages = 1
  // Pages 0 to numberOfPages - 1, then page numberOfPages once more: should AltaPay number its pages
  // from 1 (not documented either way), that page would hold the newest fundings. There, an error
  // or an empty page only means there is no such page.
  for (let page = 0; page <= Math.min(numberOfPages, MAX_PAGES); page++) {
    const beyondLast = page === numberOfPages
    let fundings: Funding[]
    try {
      const listed = await client.fundings.fundingList({ page })
      if (!beyondLast) numberOfPages = listed.numberOfPages
      fundings = listed.fundings
    } catch (error) {
      if (beyondLast) return
      reportProblem(logger, result, `fundingList page ${page} of ${account.account} failed: ${messageOf(error)}; the rest is tried next run.`)
      return
    }
    for (const funding of fundings) {
      // Fundings dates are YYYY-MM-DD, so text order is date order.
      if (account.reconcileFrom && funding.fundingDate.slice(0, 10) < account.reconcileFrom) {
        result.filesBeforeReconcileFrom++
        continue
      }
      try {
        const stored = await payouts.storedFundingFile(account.account, funding.filename)
        if (stored && !sameFunding(stored, funding)) {
          reportProblem(logger, result, anotherFundingOfThatName(account.account, stored, funding))
          continue
        }
        if (stored?.final) {
          result.filesSkipped++
          continue
        }
        const imported = await payouts.importFundingFile({ account: account.account, providerId, funding, entries: client.fundings.fundingDownload(funding.downloadLink) })
        if (imported.outcome === "already_imported") {
          result.filesSkipped++
          continue
        }
        result.filesImported++
        result.linesImported += imported.lines
        if (!imported.totalsAgree) {
          logger.warn(
            `AltaPay payouts: the lines of funding file ${funding.filename} (${account.account}) net ${amountText(imported.netMinor, funding.currency)}, ` +
              `but AltaPay lists the funding as ${amountText(imported.amountMinor, funding.currency)}: the next runs download it again (${MAX_FUNDING_FILE_DOWNLOADS} downloads at most), and it is listed under the payout exceptions until it adds up.`
          )
        }
      } catch (error) {
        reportProblem(logger, result, `funding file ${funding.filename} of ${account.account} was not imported: ${messageOf(error)}; tried again next run.`)
      }
    }
  }
}

/** Whether a listed funding is the one stored under its filename (AltaPay's unique ID of a funding). */
function sameFunding(stored: StoredFundingFile, listed: Funding): boolean {
  return stored.fundingDate === listed.fundingDate && stored.currency === listed.currency.toUpperCase() && stored.amountMinor === listed.amountMinor
}

function anotherFundingOfThatName(account: string, stored: StoredFundingFile, listed: Funding): string {
  const of = (f: { fundingDate: string; amountMinor: number; currency: string }) => `${f.fundingDate}, ${amountText(f.amountMinor, f.currency)}`
  return (
    `AltaPay lists funding file ${listed.filename} of ${account} as ${of(listed)}, but the file stored under that name is ${of(stored)}. ` +
    `AltaPay's documentation makes a filename a funding's unique ID, so this one was not imported and its lines are in no payout: ask AltaPay which funding the name belongs to. Reported on every run until then.`
  )
}

/** A problem of the run: in its summary and logged. */
export function reportProblem(logger: Pick<Logger, "warn">, result: Pick<AccountImport, "problems">, problem: string): void {
  result.problems.push(problem)
  logger.warn(`AltaPay payouts: ${problem}`)
}
