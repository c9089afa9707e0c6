/**
 * The demo's payout: the sandbox settles the day's captures and refunds into a funding file (AltaPay
 * does so a bank day later), the plugin imports it, and every line is matched to the demo order's
 * capture and refunds, as finance would see it on the admin's Payouts page.
 */
import Medusa from "@medusajs/js-sdk"
import { minorToDecimal } from "../../src/altapay/money"
import type { FundingFileSummary } from "../../src/modules/altapay-payouts/types"
import type { Sandbox } from "../../src/sandbox"
import { flowStep, say } from "./progress"

interface PayoutsInput {
  medusaUrl: string
  adminLogin: { email: string; password: string }
  sandbox: Sandbox
}

interface ImportSummary {
  accounts: Array<{
    account: string
    filesImported: number
    linesImported: number
    matched: { byReconciliationIdentifier: number; byPaymentAndAmount: number }
    problems: string[]
  }>
}

const JWT_IN_MEMORY = { type: "jwt", jwtTokenStorageMethod: "memory" } as const

export async function runPayouts({ medusaUrl, adminLogin, sandbox }: PayoutsInput): Promise<FundingFileSummary[]> {
  say("Payouts")
  const admin = new Medusa({ baseUrl: medusaUrl, auth: JWT_IN_MEMORY })
  await admin.auth.login("user", "emailpass", adminLogin)
  await flowStep(
    async () => sandbox.fundings.settle(),
    (files) => `AltaPay paid out the day: ${files.map((f) => f.filename).join(", ") || "nothing new"} (the sandbox pays out at once)`
  )
  const summary = await flowStep(
    () => admin.client.fetch<ImportSummary>("/admin/altapay/payouts/import", { method: "POST" }),
    (s) => {
      const total = (pick: (a: ImportSummary["accounts"][number]) => number) => s.accounts.reduce((sum, a) => sum + pick(a), 0)
      return `imported ${total((a) => a.filesImported)} file(s), ${total((a) => a.linesImported)} lines (POST /admin/altapay/payouts/import)`
    }
  )
  const problems = summary.accounts.flatMap((a) => a.problems)
  if (problems.length > 0) throw new Error(`The payouts import reported: ${problems.join("; ")}`)
  const { files } = await admin.client.fetch<{ files: FundingFileSummary[] }>("/admin/altapay/payouts", { query: { limit: 5, offset: 0 } })
  const money = (minor: number, currency: string) => `${minorToDecimal(minor, currency)} ${currency}`
  for (const f of files) {
    say(
      `  ${f.fundingDate} ${f.filename}: gross ${money(f.grossMinor, f.currency)}, fees ${money(f.feesMinor, f.currency)}, net ${money(f.netMinor, f.currency)}; ${f.matchedCount} of ${f.matchedCount + f.unmatchedCount} lines matched to Medusa`
    )
  }
  // The demo's own file holds only the demo order's capture and refunds: every line must match.
  const unmatched = files.filter((f) => f.unmatchedCount > 0 || !f.totalsAgree)
  if (files.length === 0 || unmatched.length > 0) throw new Error(`The demo's payout did not reconcile: ${JSON.stringify(files)}`)
  return files
}
