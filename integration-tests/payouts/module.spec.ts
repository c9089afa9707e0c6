/**
 * The payouts module on real Postgres (Medusa's module runner, the module's own migration): a
 * funding file stored once however often (and however concurrently) it is imported, its lines
 * matched to Medusa's captures and refunds, and every exception finance is shown.
 */
import path from "node:path"
import { moduleIntegrationTestRunner } from "@medusajs/test-utils"
import type { Funding, FundingFileEntry, FundingLine } from "../../src/altapay"
import { ALTAPAY_PAYOUTS_MODULE } from "../../src/modules/altapay-payouts"
import type AltaPayPayoutsService from "../../src/modules/altapay-payouts/service"
import type { MoneyMovementInput } from "../../src/modules/altapay-payouts/types"

const MODULE_DIR = path.resolve(__dirname, "../../src/modules/altapay-payouts")
const ACCOUNT = "gateway.example/shop_api"
const DAY = 24 * 60 * 60 * 1000

const funding = (filename: string, amountMinor: number): Funding => ({
  filename,
  contractIdentifier: "C-1",
  shops: ["Shop"],
  acquirer: "Test",
  fundingDate: "2026-11-20",
  amountMinor,
  currency: "EUR",
  createdDate: "2026-11-20",
  downloadLink: `https://gateway.example/merchant/API/fundingDownload?id=${filename}`,
})

let lineNumber = 1
function line(overrides: Partial<FundingLine>): FundingFileEntry {
  lineNumber += 1
  return {
    ok: true,
    line: {
      line: lineNumber,
      date: "2026-11-19",
      type: "payment",
      knownType: true,
      settlementCurrency: "EUR",
      settlementAmountMinor: 0,
      transactionCurrency: "EUR",
      // Empty fee cells read as 0; a fee charged is negative, as in AltaPay's files.
      fixedFeeMinor: 0,
      fixedFeeVatMinor: 0,
      rateBasedFeeMinor: 0,
      rateBasedFeeVatMinor: 0,
      extra: {},
      ...overrides,
    },
  }
}

async function* stream(entries: FundingFileEntry[]): AsyncIterable<FundingFileEntry> {
  for (const entry of entries) yield entry
}

const movement = (overrides: Partial<MoneyMovementInput> & Pick<MoneyMovementInput, "medusaId">): MoneyMovementInput => ({
  kind: "capture",
  paymentId: "pay_1",
  orderId: "order_1",
  providerId: "pp_altapay_altapay",
  reconciliationIdentifier: null,
  altapayPaymentId: "ap-1",
  altapayOrderId: "sess_1",
  currency: "eur",
  amountMinor: 10000,
  recordedAt: new Date(Date.now() - 30 * DAY),
  ...overrides,
})

moduleIntegrationTestRunner<AltaPayPayoutsService>({
  moduleName: ALTAPAY_PAYOUTS_MODULE,
  resolve: MODULE_DIR,
  pathToMigrations: path.join(MODULE_DIR, "migrations"),
  testSuite: ({ service }) => {
    beforeEach(() => {
      lineNumber = 1
    })

    it("stores a file once, with its totals, however often and however concurrently it is imported", async () => {
      const entries = () =>
        stream([
          line({ settlementAmountMinor: 10000, fixedFeeMinor: -25, fixedFeeVatMinor: -6, rateBasedFeeMinor: -150, rateBasedFeeVatMinor: -38 }),
          line({ type: "refund", settlementAmountMinor: -2500, fixedFeeMinor: -25, fixedFeeVatMinor: -6 }),
          { ok: false, issue: { line: 99, message: "Settlement Amount is not a number", cells: { "Settlement Amount": "abc" } } },
        ])
      const file = funding("f-1.csv", 10000 - 219 - 2500 - 31)
      const [first, second] = await Promise.all([
        service.importFundingFile({ account: ACCOUNT, providerId: "pp_altapay_altapay", funding: file, entries: entries() }),
        service.importFundingFile({ account: ACCOUNT, providerId: "pp_altapay_altapay", funding: file, entries: entries() }),
      ])
      expect([first.outcome, second.outcome].sort()).toEqual(["already_imported", "imported"])
      expect(first.fileId).toBe(second.fileId)
      const again = await service.importFundingFile({ account: ACCOUNT, providerId: "pp_altapay_altapay", funding: file, entries: entries() })
      expect(again).toMatchObject({ outcome: "already_imported", lines: 3, unreadableLines: 1, totalsAgree: true })

      const { files, count } = await service.listPayoutFiles({ limit: 10, offset: 0 })
      expect(count).toBe(1)
      expect(files[0]).toMatchObject({
        filename: "f-1.csv",
        grossMinor: 7500,
        feesMinor: -250,
        feeVatMinor: -6 - 38 - 6,
        netMinor: 7250,
        amountMinor: 7250,
        totalsAgree: true,
        lineCount: 3,
        unreadableLineCount: 1,
      })
      const lines = await service.listPayoutFileLines(first.fileId, { limit: 10, offset: 0 })
      expect(lines.count).toBe(3)
      expect(lines.lines.map((l) => [l.type, l.settlementAmountMinor, l.feesMinor, l.netMinor])).toEqual([
        ["payment", 10000, -219, 9781],
        ["refund", -2500, -31, -2531],
        [null, null, 0, null],
      ])
      // Each fee as stored, VAT apart; none on a line that could not be read.
      expect(lines.lines.map((l) => [l.fixedFeeMinor, l.fixedFeeVatMinor, l.rateBasedFeeMinor, l.rateBasedFeeVatMinor])).toEqual([
        [-25, -6, -150, -38],
        [-25, -6, 0, 0],
        [null, null, null, null],
      ])
      expect(lines.lines[2]).toMatchObject({ issue: "Settlement Amount is not a number", cells: { "Settlement Amount": "abc" } })
      expect(await service.storedFundingFile(ACCOUNT, "f-1.csv")).toEqual({ fundingDate: "2026-11-20", currency: "EUR", amountMinor: file.amountMinor, final: true })
      expect(await service.storedFundingFile("other/api", "f-1.csv")).toBeUndefined()
    })

    it("downloads a file whose lines do not add up again, replacing its lines, at most three times", async () => {
      const full = [line({ settlementAmountMinor: 10000 }), line({ settlementAmountMinor: 5000 })]
      const file = funding("f-cut.csv", 15000)
      const args = (entries: FundingFileEntry[]) => ({ account: ACCOUNT, providerId: "pp_altapay_altapay", funding: file, entries: stream(entries) })
      // A download cut after its first line looks whole (funding files have no trailer).
      expect(await service.importFundingFile(args(full.slice(0, 1)))).toMatchObject({ outcome: "imported", lines: 1, totalsAgree: false })
      expect(await service.storedFundingFile(ACCOUNT, "f-cut.csv")).toMatchObject({ final: false })
      const replaced = await service.importFundingFile(args(full))
      expect(replaced).toMatchObject({ outcome: "replaced", lines: 2, netMinor: 15000, totalsAgree: true })
      expect(await service.storedFundingFile(ACCOUNT, "f-cut.csv")).toMatchObject({ final: true })
      expect(await service.importFundingFile(args(full))).toMatchObject({ outcome: "already_imported", lines: 2 })
      expect((await service.listPayoutFileLines(replaced.fileId, { limit: 10, offset: 0 })).count).toBe(2)

      // A file that never adds up (fees AltaPay does not list, say) stays after three downloads, as an exception.
      const odd = funding("f-odd.csv", 1)
      const oddArgs = () => ({ account: ACCOUNT, providerId: "pp_altapay_altapay", funding: odd, entries: stream([line({ settlementAmountMinor: 100 })]) })
      const outcomes = []
      for (let i = 0; i < 4; i++) outcomes.push((await service.importFundingFile(oddArgs())).outcome)
      expect(outcomes).toEqual(["imported", "replaced", "replaced", "already_imported"])
      expect(await service.storedFundingFile(ACCOUNT, "f-odd.csv")).toMatchObject({ final: true })
      expect((await service.listPayoutFiles({ limit: 10, offset: 0 })).count).toBe(2)
      // Paged newest funding first, then by filename: one a page.
      const pages = await Promise.all([0, 1].map((offset) => service.listPayoutFiles({ limit: 1, offset })))
      expect(pages.map((p) => [p.count, p.files.map((f) => [f.filename, f.totalsAgree])])).toEqual([
        [2, [["f-odd.csv", false]]],
        [2, [["f-cut.csv", true]]],
      ])
    })

    it("matches by reconciliation identifier, else by AltaPay payment and amount only when the pair is unique", async () => {
      expect(
        await service.recordMovements([
          movement({ medusaId: "capt_A", reconciliationIdentifier: "medusa-capture-capt_A" }),
          movement({ medusaId: "ref_A", kind: "refund", amountMinor: 2500 }),
          movement({ medusaId: "capt_B", paymentId: "pay_2", altapayPaymentId: "ap-2", amountMinor: 5000 }),
          movement({ medusaId: "capt_C1", paymentId: "pay_3", altapayPaymentId: "ap-3", amountMinor: 700 }),
          movement({ medusaId: "capt_C2", paymentId: "pay_3", altapayPaymentId: "ap-3", amountMinor: 700 }),
        ])
      ).toEqual(["capt_A", "ref_A", "capt_B", "capt_C1", "capt_C2"])
      // One already stored and one new: only the new one is inserted, and named.
      expect(await service.recordMovements([movement({ medusaId: "capt_A" }), movement({ medusaId: "capt_D", altapayPaymentId: "ap-4" })])).toEqual(["capt_D"])

      const imported = await service.importFundingFile({
        account: ACCOUNT,
        providerId: "pp_altapay_altapay",
        funding: funding("f-2.csv", 0),
        entries: stream([
          line({ reconciliationIdentifier: "medusa-capture-capt_A", paymentId: "ap-1", transactionAmountMinor: 10000, settlementAmountMinor: 10000 }),
          // The movement was recorded without an identifier: the plugin's own form still matches.
          line({ type: "refund", reconciliationIdentifier: "medusa-refund-ref_A", paymentId: "ap-1", transactionAmountMinor: -2500, settlementAmountMinor: -2500 }),
          line({ reconciliationIdentifier: "9b5e2f0c-acquirer-uuid", paymentId: "ap-2", transactionAmountMinor: 5000, settlementAmountMinor: 5000 }),
          line({ paymentId: "ap-3", transactionAmountMinor: 700, settlementAmountMinor: 700 }),
          line({ type: "fee", settlementAmountMinor: -100 }),
        ]),
      })
      expect(await service.matchLines()).toEqual({ byReconciliationIdentifier: 2, byPaymentAndAmount: 1 })
      expect(await service.matchLines()).toEqual({ byReconciliationIdentifier: 0, byPaymentAndAmount: 0 })

      const { lines } = await service.listPayoutFileLines(imported.fileId, { limit: 10, offset: 0 })
      expect(lines.map((l) => [l.type, l.match?.medusaId ?? null, l.match?.method ?? null, l.match?.orderId ?? null])).toEqual([
        ["payment", "capt_A", "reconciliation_identifier", "order_1"],
        ["refund", "ref_A", "reconciliation_identifier", "order_1"],
        ["payment", "capt_B", "payment_and_amount", "order_1"],
        ["payment", null, null, null],
        ["fee", null, null, null],
      ])
      const [file] = (await service.listPayoutFiles({ limit: 1, offset: 0 })).files
      expect(file).toMatchObject({ matchedCount: 3, unmatchedCount: 1 })
    })

    it("lists each exception finance must see, paged, with the cut-off per registration", async () => {
      await service.recordMovements([
        movement({ medusaId: "capt_funded", altapayPaymentId: "ap-1" }),
        movement({ medusaId: "capt_old", altapayPaymentId: "ap-9" }),
        movement({ medusaId: "capt_recent", altapayPaymentId: "ap-9", recordedAt: new Date(Date.now() - DAY) }),
        movement({ medusaId: "capt_other_registration", providerId: "pp_altapay_card", altapayPaymentId: "ap-9" }),
        movement({ medusaId: "capt_short", altapayPaymentId: "ap-5", amountMinor: 10000 }),
        movement({ medusaId: "capt_rejected", altapayPaymentId: "ap-6", amountMinor: 4000 }),
        movement({ medusaId: "capt_bare", altapayPaymentId: "ap-7", amountMinor: 3000 }),
      ])
      await service.importFundingFile({
        account: ACCOUNT,
        providerId: "pp_altapay_altapay",
        funding: funding("f-3.csv", 1),
        entries: stream([
          line({ reconciliationIdentifier: "medusa-capture-capt_funded", paymentId: "ap-1", transactionAmountMinor: 10000, settlementAmountMinor: 10000 }),
          line({ reconciliationIdentifier: "medusa-capture-capt_short", paymentId: "ap-5", transactionAmountMinor: 9000, settlementAmountMinor: 9000 }),
          line({ type: "payment_rejected", reconciliationIdentifier: "medusa-capture-capt_rejected", paymentId: "ap-6", transactionAmountMinor: 4000 }),
          line({ reconciliationIdentifier: "not-ours", paymentId: "ap-404", transactionAmountMinor: 1234, settlementAmountMinor: 1234 }),
          { ok: false, issue: { line: 50, message: "Date is not YYYY-MM-DD", cells: { Date: "yesterday" } } },
          // No transaction columns: compared on the settlement amount, which agrees.
          line({ reconciliationIdentifier: "medusa-capture-capt_bare", settlementAmountMinor: 3000, transactionCurrency: undefined }),
          // In the net, explained by nothing: an acquirer's chargeback of ap-9 (Medusa's order_1) and an amount AltaPay calls unknown.
          line({ type: "chargeback", knownType: false, paymentId: "ap-9", transactionAmountMinor: -2500, settlementAmountMinor: -2500 }),
          line({ type: "unknown", settlementAmountMinor: -75 }),
          // AltaPay's own fee: part of the payout, not an exception.
          line({ type: "fee", settlementAmountMinor: -300 }),
        ]),
      })
      // A later funding pays capt_funded again.
      await service.importFundingFile({
        account: ACCOUNT,
        providerId: "pp_altapay_altapay",
        funding: { ...funding("f-3b.csv", 10000), fundingDate: "2026-11-21" },
        entries: stream([line({ reconciliationIdentifier: "medusa-capture-capt_funded", paymentId: "ap-1", transactionAmountMinor: 10000, settlementAmountMinor: 10000 })]),
      })
      await service.matchLines()

      const cutoff = { default: new Date(Date.now() - 14 * DAY), byProvider: { pp_altapay_card: new Date(Date.now() - 60 * DAY) } }
      const all = await service.listPayoutExceptions({ unfundedBefore: cutoff, limit: 50, offset: 0 })
      const summary = all.exceptions.map((e) => `${e.kind}:${e.medusaId ?? e.lineNumber ?? e.filename}`).sort()
      expect(summary).toEqual(
        [
          "amount_differs:capt_short",
          "file_total_differs:f-3.csv",
          "paid_twice:capt_funded",
          "rejected:capt_rejected",
          "unexplained_line:7",
          "unexplained_line:8",
          "unfunded:capt_old",
          "unmatched_line:5",
          "unreadable_line:50",
        ].sort()
      )
      expect(all.count).toBe(9)
      const chargeback = all.exceptions.find((e) => e.kind === "unexplained_line" && e.lineType === "chargeback")!
      expect(chargeback).toMatchObject({ orderId: "order_1", paymentId: "pay_1", altapayAmountMinor: -2500, currency: "EUR" })
      expect(chargeback.message).toMatch(/line 7: a line of type chargeback \(-25\.00 EUR\) on order order_1 is in the payout's net/)
      const differs = all.exceptions.find((e) => e.kind === "amount_differs")!
      expect(differs).toMatchObject({ medusaAmountMinor: 10000, medusaCurrency: "EUR", altapayAmountMinor: 9000, orderId: "order_1", currency: "EUR" })
      expect(all.exceptions.find((e) => e.kind === "paid_twice")).toMatchObject({ filename: "f-3b.csv", medusaId: "capt_funded", orderId: "order_1" })
      expect(differs.message).toContain("90.00 EUR")
      expect(differs.message).toContain("100.00 EUR")

      const firstPage = await service.listPayoutExceptions({ unfundedBefore: cutoff, limit: 4, offset: 0 })
      const secondPage = await service.listPayoutExceptions({ unfundedBefore: cutoff, limit: 4, offset: 4 })
      const thirdPage = await service.listPayoutExceptions({ unfundedBefore: cutoff, limit: 4, offset: 8 })
      expect(firstPage.count).toBe(9)
      expect([...firstPage.exceptions, ...secondPage.exceptions, ...thirdPage.exceptions].map((e) => e.message).sort()).toEqual(all.exceptions.map((e) => e.message).sort())

      // One a page, the same order as all at once (each kind keeps only its first offset + limit rows).
      const oneByOne = []
      for (let offset = 0; offset < all.count; offset++) oneByOne.push(...(await service.listPayoutExceptions({ unfundedBefore: cutoff, limit: 1, offset })).exceptions)
      expect(oneByOne).toEqual(all.exceptions)

      const onlyRejected = await service.listPayoutExceptions({ kinds: ["rejected"], unfundedBefore: cutoff, limit: 50, offset: 0 })
      expect(onlyRejected.exceptions.map((e) => e.kind)).toEqual(["rejected"])

      // payouts.reconcileFrom after capt_old (30 days ago): finance's earlier business, never unfunded.
      const unfundedFrom = async (reconcileFrom: Record<string, Date>) =>
        (await service.listPayoutExceptions({ kinds: ["unfunded"], unfundedBefore: cutoff, reconcileFrom, limit: 50, offset: 0 })).exceptions.map((e) => e.medusaId)
      expect(await unfundedFrom({ pp_altapay_altapay: new Date(Date.now() - 20 * DAY) })).toEqual([])
      expect(await unfundedFrom({ pp_altapay_altapay: new Date(Date.now() - 40 * DAY) })).toEqual(["capt_old"])
      expect(await unfundedFrom({ pp_altapay_card: new Date(Date.now() - 20 * DAY) })).toEqual(["capt_old"])
    })

    it("remembers per registration up to when Medusa was read, and reads a new registration from the start", async () => {
      expect(await service.movementsSyncedThrough(["pp_altapay_card"])).toBeNull()
      await service.markMovementsSynced(["pp_altapay_card"], new Date("2026-11-20T10:00:00Z"))
      await service.markMovementsSynced(["pp_altapay_card"], new Date("2026-11-19T10:00:00Z")) // never back
      expect(await service.movementsSyncedThrough(["pp_altapay_card"])).toEqual(new Date("2026-11-20T10:00:00Z"))
      // A registration added later (or given payouts later) has no cursor: everything is read again.
      expect(await service.movementsSyncedThrough(["pp_altapay_card", "pp_altapay_mobilepay"])).toBeNull()
      await service.markMovementsSynced(["pp_altapay_card", "pp_altapay_mobilepay"], new Date("2026-11-21T10:00:00Z"))
      await service.markMovementsSynced(["pp_altapay_card"], new Date("2026-11-22T10:00:00Z"))
      expect(await service.movementsSyncedThrough(["pp_altapay_card", "pp_altapay_mobilepay"])).toEqual(new Date("2026-11-21T10:00:00Z"))
    })

    it("tells the order page which payout each capture and refund went into", async () => {
      await service.recordMovements([
        movement({ medusaId: "capt_1", reconciliationIdentifier: "medusa-capture-capt_1" }),
        movement({ medusaId: "capt_2" }),
        movement({ medusaId: "ref_1", kind: "refund", amountMinor: 500 }),
      ])
      await service.importFundingFile({
        account: ACCOUNT,
        providerId: "pp_altapay_altapay",
        funding: funding("f-4.csv", 0),
        entries: stream([
          line({ reconciliationIdentifier: "medusa-capture-capt_1", transactionAmountMinor: 10000, settlementAmountMinor: 10000, fixedFeeMinor: -25 }),
          line({ type: "payment_rejected", reconciliationIdentifier: "medusa-capture-capt_2", transactionAmountMinor: 10000 }),
        ]),
      })
      await service.matchLines()
      const payouts = await service.payoutsForPayments(["pay_1", "pay_none"])
      expect(payouts.pay_none).toEqual([])
      const byId = (a: { medusaId: string }, b: { medusaId: string }) => a.medusaId.localeCompare(b.medusaId)
      expect([...payouts.pay_1].sort(byId).map((p) => [p.medusaId, p.status, p.lines.map((l) => [l.filename, l.fundingDate, l.netMinor])])).toEqual([
        ["capt_1", "funded", [["f-4.csv", "2026-11-20", 9975]]],
        ["capt_2", "rejected", [["f-4.csv", "2026-11-20", 0]]],
        ["ref_1", "awaiting", []],
      ])
    })
  },
})
