/**
 * Payouts in a whole store: orders paid through AltaPay, captured and refunded from Medusa's admin,
 * paid out by the sandbox's funding files (one capture rejected by the acquirer) and by a file of
 * the acquirer's own (a payment Medusa never saw, a capture paid out with another amount, a line
 * without a reconciliation identifier). The import ties them together and the admin lists the
 * files, their lines with their orders, the exceptions and their CSV. A download that fails is
 * tried again by the next runs (two at once store it once); a run after that changes nothing.
 * Every file is laid out as AltaPay's own are (`;`, quoted header, negative fees, empty cells:
 * test/altapay/documented-samples/files/), and every one adds up to its funding's Amount.
 */
import type { MedusaContainer } from "@medusajs/framework/types"
import { ContainerRegistrationKeys, Modules } from "@medusajs/framework/utils"
import type { Knex } from "@medusajs/framework/mikro-orm/knex"
import { storeSuite } from "../../tools/test-store/store-app/runner"
import { parse } from "csv-parse/sync"
import { minorToDecimal } from "../../src/altapay/money"
import { toMinorUnits } from "../../src/lib/medusa-mapping/amounts"
import type { AltaPayPaymentData } from "../../src/lib/payment-data/data"
import altapayPayoutsJob from "../../src/jobs/altapay-payouts"
import type { FundingFileSummary, FundingLineView, PayoutException } from "../../src/modules/altapay-payouts/types"
import { FUNDING_HEADER, fees as sandboxFees, fundingCsv, netOf, type SandboxFundingLine } from "../../src/sandbox/fundings/funding-file"
import { altapayStore } from "../../tools/test-store/store-app/altapay-store"
import { createAdminUser, createAltaPayOrder, seedStore, type Api, type SeededStore } from "../../tools/test-store/store"

const store = altapayStore()
const DAY = 24 * 60 * 60 * 1000

interface Captured {
  orderId: string
  paymentId: string
  captureId: string
  reconciliationIdentifier: string
  /** What a funding file's Payment column names this payment by: the gateway's TransactionId. */
  altapayPaymentId: string
  amountMinor: number
}

async function capturedPayment(container: MedusaContainer, order: { orderId: string; paymentId: string }): Promise<Captured> {
  const payment = await container.resolve(Modules.PAYMENT).retrievePayment(order.paymentId, { relations: ["captures"] })
  const data = payment.data as unknown as AltaPayPaymentData
  const capture = payment.captures![payment.captures!.length - 1]
  return {
    ...order,
    captureId: capture.id,
    reconciliationIdentifier: data.captures.find((c) => c.capture_id === capture.id)!.reconciliation_identifier,
    altapayPaymentId: data.transaction_id!,
    amountMinor: toMinorUnits(capture.raw_amount as never, payment.currency_code),
  }
}

/** An export's rows by column name (RFC 4180, as a spreadsheet reads it). */
const csvRecords = (body: unknown): Record<string, string>[] => parse(String(body), { columns: true, record_delimiter: "\r\n" })

/** A line of the acquirer's own file, in DKK without conversion or fees. */
function acquirerLine(id: string, amountMinor: number, ids: { reconciliationIdentifier: string; paymentId: string; shopOrderId: string }): SandboxFundingLine {
  return {
    date: new Date().toISOString().slice(0, 10),
    type: "payment",
    id,
    transaction: { ...ids, terminal: "AltaPay Sandbox Test Terminal", shop: "AltaPay Sandbox Shop", currency: "DKK", amountMinor, exchangeRate: "100" },
    settlementCurrency: "DKK",
    settlementAmountMinor: amountMinor,
  }
}

export default storeSuite({
  testSuite: ({ api: rawApi, getContainer }) => {
    const api = rawApi as unknown as Api
    let admin: { headers: Record<string, string> }
    let seed: SeededStore
    const as = () => ({ headers: admin.headers, validateStatus: () => true })
    const get = async (url: string) => {
      const res = await api.get(url, as())
      expect(res.status).toBe(200)
      return res.data
    }

    beforeAll(async () => {
      admin = await createAdminUser(api, getContainer())
      seed = await seedStore(getContainer())
    })

    async function order(): Promise<{ orderId: string; paymentId: string }> {
      const { orderId, paymentId } = await createAltaPayOrder(api, seed, getContainer(), store.sandbox())
      return { orderId, paymentId }
    }

    async function capture(o: { orderId: string; paymentId: string }): Promise<Captured> {
      expect((await api.post(`/admin/payments/${o.paymentId}/capture`, {}, as())).status).toBe(200)
      return capturedPayment(getContainer(), o)
    }

    it("imports the payouts once, ties their lines to Medusa's captures, refunds and orders, and lists every exception", async () => {
      const sandbox = store.sandbox()
      // Paid out by the sandbox: a capture and a refund of it, and a capture the acquirer rejects.
      const paid = await capture(await order())
      expect((await api.post(`/admin/payments/${paid.paymentId}/refund`, { amount: 10 }, as())).status).toBe(200)
      const refund = (await getContainer().resolve(Modules.PAYMENT).listRefunds({ payment_id: paid.paymentId }))[0]
      const rejected = await capture(await order())
      sandbox.fundings.reject(rejected.reconciliationIdentifier)
      // The sandbox pays out a day after; its clock goes forward for the settlement only.
      sandbox.setClock(() => Date.now() + 2 * DAY)
      const [settled, ...more] = sandbox.fundings.settle()
      expect(more).toEqual([])
      sandbox.setClock(() => Date.now())

      // Paid out by the acquirer's own file: with another amount, and without a reconciliation identifier.
      const differs = await capture(await order())
      const byPayment = await capture(await order())
      // Never paid out, and captured long before the store's first payouts import (as a store that
      // turns payouts on after taking payments for a while).
      const unfunded = await capture(await order())
      const pg = getContainer().resolve<Knex>(ContainerRegistrationKeys.PG_CONNECTION)
      await pg("capture")
        .where({ id: unfunded.captureId })
        .update({ created_at: new Date(Date.now() - 30 * DAY) })
      const lines = [
        acquirerLine("ACQ1", 5_000, { reconciliationIdentifier: "acquirer-only-1", paymentId: "not-in-medusa", shopOrderId: "not-in-medusa" }),
        acquirerLine("ACQ2", differs.amountMinor - 100, { reconciliationIdentifier: differs.reconciliationIdentifier, paymentId: differs.altapayPaymentId, shopOrderId: "" }),
        acquirerLine("ACQ3", byPayment.amountMinor, { reconciliationIdentifier: "", paymentId: byPayment.altapayPaymentId, shopOrderId: "" }),
      ]
      sandbox.fundings.add({ csv: fundingCsv(lines), currency: "DKK", amountMinor: lines.reduce((sum, l) => sum + netOf(l), 0), filename: "Acquirer_DKK_0001" })

      // The first download fails at AltaPay: reported, and the next file is still imported.
      sandbox.faults.add({ route: "fundingDownload", kind: "500" })
      const first = await api.post("/admin/altapay/payouts/import", {}, as())
      expect(first.status).toBe(200)
      expect(first.data.accounts).toEqual([
        expect.objectContaining({
          providerIds: ["pp_altapay_altapay"],
          filesImported: 1,
          filesSkipped: 0,
          linesImported: 3,
          movementsRecorded: 6,
          matched: { byReconciliationIdentifier: 1, byPaymentAndAmount: 1 },
          problems: [expect.stringContaining(`funding file ${settled.filename} of `)],
          // The old capture is said to be listed at once, with the way to leave such ones out.
          notices: [expect.stringMatching(/^1 capture\(s\) and refund\(s\) of pp_altapay_altapay recorded more than 14 days ago .* set payouts\.reconcileFrom/)],
        }),
      ])
      // Two runs at once (two admins, or the job and an admin): the failed file is stored once.
      const second = await Promise.all([api.post("/admin/altapay/payouts/import", {}, as()), api.post("/admin/altapay/payouts/import", {}, as())])
      expect(second.map((r) => r.status)).toEqual([200, 200])
      const runs = second.map((r) => r.data.accounts[0])
      const total = (pick: (run: (typeof runs)[number]) => number) => runs.reduce((sum, run) => sum + pick(run), 0)
      expect(runs.flatMap((run) => run.problems)).toEqual([])
      expect([total((r) => r.filesImported), total((r) => r.filesSkipped), total((r) => r.movementsRecorded)]).toEqual([1, 3, 0])
      expect([total((r) => r.matched.byReconciliationIdentifier), total((r) => r.matched.byPaymentAndAmount)]).toEqual([3, 0])

      // The files, with gross, fees, net and how many of their lines are tied to Medusa.
      const listed = await get("/admin/altapay/payouts?limit=10")
      expect(listed.count).toBe(2)
      const files: FundingFileSummary[] = listed.files
      const sandboxFile = files.find((f) => f.filename !== "Acquirer_DKK_0001")!
      const acquirerFile = files.find((f) => f.filename === "Acquirer_DKK_0001")!
      expect(sandboxFile).toMatchObject({ currency: "EUR", totalsAgree: true, matchedCount: 3, unmatchedCount: 0 })
      // Fees are negative, as AltaPay writes them, and added.
      expect(sandboxFile.feesMinor).toBeLessThan(0)
      expect(sandboxFile.netMinor).toBe(sandboxFile.grossMinor + sandboxFile.feesMinor)
      expect(acquirerFile).toMatchObject({ currency: "DKK", totalsAgree: true, matchedCount: 2, unmatchedCount: 1, feesMinor: 0, feeVatMinor: 0 })
      expect(acquirerFile.grossMinor).toBe(5_000 + differs.amountMinor - 100 + byPayment.amountMinor)
      expect((await get(`/admin/altapay/payouts/${acquirerFile.id}`)).file).toEqual(acquirerFile)
      expect((await api.get("/admin/altapay/payouts/apfile_nothing", as())).status).toBe(404)
      expect((await api.get("/admin/altapay/payouts?limit=500", as())).status).toBe(400)

      // The list as CSV (the static route, not :id): a row per funding, in the list's order, with its amounts.
      const listCsv = await api.get("/admin/altapay/payouts/export", as())
      expect(listCsv.status).toBe(200)
      expect(String(listCsv.headers["content-type"])).toMatch(/^text\/csv/)
      expect(String(listCsv.headers["content-disposition"])).toMatch(/^attachment; filename="altapay-payouts-\d{4}-\d{2}-\d{2}\.csv"$/)
      const payoutRows = csvRecords(listCsv.data)
      const decimalsOf = (f: FundingFileSummary) => [f.grossMinor, f.feesMinor, f.feeVatMinor, f.netMinor, f.amountMinor].map((minor) => minorToDecimal(minor, f.currency))
      expect(payoutRows.map((r) => [r.id, r.filename, r.funding_date, r.currency, r.gross, r.fees, r.fee_vat, r.net, r.amount])).toEqual(
        files.map((f) => [f.id, f.filename, f.fundingDate, f.currency, ...decimalsOf(f)])
      )
      expect(payoutRows.map((r) => [r.totals_agree, r.matched, r.unmatched, r.provider_id, r.account])).toEqual(
        files.map((f) => ["true", String(f.matchedCount), String(f.unmatchedCount), "pp_altapay_altapay", f.account])
      )
      expect(Number(payoutRows.find((r) => r.id === sandboxFile.id)!.fee_vat)).toBeLessThan(0)
      expect((await api.get("/admin/altapay/payouts/export?limit=5", as())).status).toBe(400)
      expect((await api.get("/admin/altapay/payouts/export", { validateStatus: () => true })).status).toBe(401)

      // A file's lines with the Medusa capture or refund and the order each paid out.
      const sandboxLines: FundingLineView[] = (await get(`/admin/altapay/payouts/${sandboxFile.id}/lines`)).lines
      const lineFor = (all: FundingLineView[], medusaId: string) => all.find((l) => l.match?.medusaId === medusaId)
      expect(lineFor(sandboxLines, paid.captureId)).toMatchObject({ type: "payment", match: { method: "reconciliation_identifier", kind: "capture", orderId: paid.orderId } })
      expect(lineFor(sandboxLines, refund.id)).toMatchObject({ type: "refund", match: { kind: "refund", orderId: paid.orderId } })
      expect(lineFor(sandboxLines, rejected.captureId)).toMatchObject({ type: "payment_rejected", match: { orderId: rejected.orderId } })
      // Each of the four fees as the sandbox wrote it, VAT apart, and in the file's CSV as stored.
      const feesOf = (l: FundingLineView) => [l.fixedFeeMinor, l.fixedFeeVatMinor, l.rateBasedFeeMinor, l.rateBasedFeeVatMinor]
      for (const l of sandboxLines.filter((l) => l.type === "payment" || l.type === "refund")) {
        expect(feesOf(l)).toEqual(sandboxFees(l.settlementAmountMinor!, l.settlementCurrency!, l.type as "payment" | "refund"))
      }
      expect(sandboxLines.some((l) => l.fixedFeeVatMinor! < 0 && l.rateBasedFeeVatMinor! < 0)).toBe(true)
      // The funding's fee VAT is its lines', a part of its fees.
      expect(sandboxFile.feeVatMinor).toBe(sandboxLines.reduce((sum, l) => sum + l.fixedFeeVatMinor! + l.rateBasedFeeVatMinor!, 0))
      expect(sandboxFile.feesMinor).toBeLessThan(sandboxFile.feeVatMinor)
      const sandboxRows = csvRecords((await api.get(`/admin/altapay/payouts/${sandboxFile.id}/export`, as())).data)
      const euros = (minor: number | null) => (minor === null ? "" : minorToDecimal(minor, "EUR"))
      expect(sandboxRows.map((r) => [r.line_number, r.fixed_fee, r.fixed_fee_vat, r.rate_based_fee, r.rate_based_fee_vat, r.fees, r.net])).toEqual(
        sandboxLines.map((l) => [String(l.lineNumber), ...feesOf(l).map(euros), euros(l.feesMinor), euros(l.netMinor)])
      )
      const acquirerLines: FundingLineView[] = (await get(`/admin/altapay/payouts/${acquirerFile.id}/lines?limit=2&offset=1`)).lines
      expect(acquirerLines.map((l) => l.lineNumber)).toEqual([3, 4])
      expect(lineFor(acquirerLines, differs.captureId)).toMatchObject({
        match: { method: "reconciliation_identifier", orderId: differs.orderId, amountMinor: differs.amountMinor },
      })
      expect(lineFor(acquirerLines, byPayment.captureId)).toMatchObject({ reconciliationIdentifier: null, match: { method: "payment_and_amount", orderId: byPayment.orderId } })

      // The exceptions: at the registration's 14 days only the old capture is unfunded, every kind with a cut-off of now.
      const atDefault: PayoutException[] = (await get("/admin/altapay/payout-exceptions")).exceptions
      expect(atDefault.filter((e) => e.kind === "unfunded").map((e) => e.medusaId)).toEqual([unfunded.captureId])
      const exceptions = await get("/admin/altapay/payout-exceptions?unfunded_after_days=0&limit=200")
      expect(exceptions.unfundedAfterDays).toEqual({ default: 0, byProvider: { pp_altapay_altapay: 0 } })
      const all: PayoutException[] = exceptions.exceptions
      const of = (kind: string) => all.filter((e) => e.kind === kind)
      expect(of("unfunded").map((e) => e.medusaId)).toEqual(expect.arrayContaining([unfunded.captureId]))
      expect(of("unfunded").map((e) => e.medusaId)).not.toContain(paid.captureId)
      expect(of("unmatched_line")).toEqual([expect.objectContaining({ filename: "Acquirer_DKK_0001", altapayAmountMinor: 5_000 })])
      expect(of("amount_differs")).toEqual([
        expect.objectContaining({ medusaId: differs.captureId, orderId: differs.orderId, medusaAmountMinor: differs.amountMinor, altapayAmountMinor: differs.amountMinor - 100 }),
      ])
      expect(of("rejected")).toEqual([expect.objectContaining({ medusaId: rejected.captureId, lineType: "payment_rejected" })])
      const onlyTwo = await get("/admin/altapay/payout-exceptions?kind=rejected&kind=amount_differs")
      expect(onlyTwo.exceptions.map((e: PayoutException) => e.kind).sort()).toEqual(["amount_differs", "rejected"])
      expect((await api.get("/admin/altapay/payout-exceptions?kind=lost", as())).status).toBe(400)

      // The CSV exports: a header row and a row per line or exception.
      const fileCsv = await api.get(`/admin/altapay/payouts/${acquirerFile.id}/export`, as())
      expect(fileCsv.status).toBe(200)
      expect(String(fileCsv.headers["content-type"])).toMatch(/^text\/csv/)
      const fileRows = String(fileCsv.data).trimEnd().split("\r\n")
      expect(fileRows[0]).toMatch(/^line_number,date,type,/)
      expect(fileRows).toHaveLength(1 + 3)
      expect(fileRows.find((r) => r.includes(byPayment.captureId))).toContain("payment_and_amount")
      expect(fileRows.find((r) => r.includes("not-in-medusa"))).toContain(",50.00,")
      const exceptionCsv = await api.get("/admin/altapay/payout-exceptions/export?unfunded_after_days=0", as())
      expect(exceptionCsv.status).toBe(200)
      const exceptionRows = String(exceptionCsv.data).trimEnd().split("\r\n")
      expect(exceptionRows).toHaveLength(1 + all.length)
      for (const kind of ["unfunded", "unmatched_line", "amount_differs", "rejected"]) expect(exceptionRows.some((r) => r.startsWith(`${kind},`))).toBe(true)

      // The scheduled job's run changes nothing: no file, line, match or exception twice.
      const again = await altapayPayoutsJob(getContainer())
      expect(again?.accounts).toEqual([
        expect.objectContaining({
          filesImported: 0,
          filesSkipped: 2,
          linesImported: 0,
          movementsRecorded: 0,
          matched: { byReconciliationIdentifier: 0, byPaymentAndAmount: 0 },
          problems: [],
          notices: [],
        }),
      ])
      expect(await get("/admin/altapay/payouts?limit=10")).toEqual(listed)
      expect((await get(`/admin/altapay/payouts/${sandboxFile.id}/lines`)).lines).toEqual(sandboxLines)
      expect((await get("/admin/altapay/payout-exceptions?unfunded_after_days=0&limit=200")).exceptions).toEqual(all)
    })

    it("a file in AltaPay's own layout, with negative fees and empty cells, adds up and is matched by its Payment column", async () => {
      const sandbox = store.sandbox()
      const captured = await capture(await order())
      const amount = (minor: number) => (minor / 100).toFixed(2)
      // As AltaPay/sdk-csharp Funding42221.csv (fees negative, Payment the transaction id, no
      // reconciliation identifier of ours) and Funding1.csv (a "Monthly fee" line with every amount
      // empty), with a fee line of its own; CRLF line endings as in Funding42221.csv.
      const rows = [
        FUNDING_HEADER,
        `2026-11-20;payment;8f0c4e1a-0000-4000-8000-000000000001;;${captured.altapayPaymentId};;"AltaPay Sandbox Test Terminal";"AltaPay Sandbox Shop";DKK;${amount(captured.amountMinor)};100.000000;DKK;${amount(captured.amountMinor)};-0.25;0.00;-0.86;0.00`,
        `2026-11-20;fee;"Monthly fee";;;;;"AltaPay Sandbox Shop";DKK;;;DKK;;;;;`,
        `2026-11-20;fee;"Service fee";;;;;"AltaPay Sandbox Shop";DKK;;;DKK;-15.00;;;;`,
      ]
      const amountMinor = captured.amountMinor - 25 - 86 - 1_500
      sandbox.fundings.add({ csv: rows.join("\r\n") + "\r\n", currency: "DKK", amountMinor, filename: "AltaPay_Layout_DKK_0001" })

      const run = await api.post("/admin/altapay/payouts/import", {}, as())
      expect(run.status).toBe(200)
      // The store's tables are emptied between cases, so the sandbox's earlier files come in again too.
      const [account, ...others] = run.data.accounts
      expect(others).toEqual([])
      expect(account).toMatchObject({ matched: { byReconciliationIdentifier: 0, byPaymentAndAmount: 1 }, problems: [] })
      const files: FundingFileSummary[] = (await get("/admin/altapay/payouts?limit=10")).files
      expect(files).toHaveLength(account.filesImported)
      const file = files.find((f) => f.filename === "AltaPay_Layout_DKK_0001")!
      expect(file).toMatchObject({
        currency: "DKK",
        grossMinor: captured.amountMinor - 1_500,
        feesMinor: -111,
        netMinor: amountMinor,
        amountMinor,
        totalsAgree: true,
        unreadableLineCount: 0,
      })
      // Every file adds up: none downloaded again, none an exception.
      expect(files.map((f) => [f.filename, f.totalsAgree])).toEqual(files.map((f) => [f.filename, true]))
      const exceptions: PayoutException[] = (await get("/admin/altapay/payout-exceptions?unfunded_after_days=0&limit=200")).exceptions
      expect(exceptions.filter((e) => e.kind === "file_total_differs")).toEqual([])
      const lines: FundingLineView[] = (await get(`/admin/altapay/payouts/${file.id}/lines`)).lines
      expect(lines.map((l) => [l.type, l.settlementAmountMinor, l.feesMinor, l.netMinor])).toEqual([
        ["payment", captured.amountMinor, -111, captured.amountMinor - 111],
        ["fee", 0, 0, 0],
        ["fee", -1_500, 0, -1_500],
      ])
      expect(lines[0]).toMatchObject({
        altapayPaymentId: captured.altapayPaymentId,
        match: { method: "payment_and_amount", medusaId: captured.captureId, orderId: captured.orderId },
      })
      expect(captured.altapayPaymentId).toMatch(/^\d+$/)
    })
  },
})
