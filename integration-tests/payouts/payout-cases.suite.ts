/**
 * Payouts as finance meets them, through the admin's real routes (POST /admin/altapay/payouts/import,
 * GET /admin/altapay/payouts, its lines, the exceptions, the CSV exports, the order's AltaPay panel):
 * DKK and JPY payments paid out in EUR, JPY and DKK (two currency exponents), a chargeback in a
 * later payout than its capture, a payout listed twice, a capture paid out again, a payment Medusa
 * never made an order of, another funding under a stored filename, a payout that nets negative.
 * What finance relies on (docs/finance.md): each payout's gross, fees and net equal its
 * file's lines to the minor unit (read here from the CSV the sandbox served, not by the plugin's
 * reader); every payment and refund line is tied to the right capture or refund and order, or is an
 * exception finance sees, never dropped; importing again, or at once, changes nothing.
 */
import type { MedusaContainer } from "@medusajs/framework/types"
import { Modules } from "@medusajs/framework/utils"
import { storeSuite } from "../../tools/test-store/store-app/runner"
import { toMinorUnits } from "../../src/lib/medusa-mapping/amounts"
import type { AltaPayPaymentData } from "../../src/lib/payment-data/data"
import type { FundingFileSummary, FundingLineView, MovementPayout, PayoutException } from "../../src/modules/altapay-payouts/types"
import { fundingCsv, netOf, type SandboxFundingLine } from "../../src/sandbox/fundings/funding-file"
import { altapayStore } from "../../tools/test-store/store-app/altapay-store"
import { createAdminUser, createAltaPayOrder, createCart, payWithAltaPay, seedStore, startSession, type Api, type SeededStore } from "../../tools/test-store/store"

const store = altapayStore()
const DAY = 24 * 60 * 60 * 1000
const EXPONENT: Record<string, number> = { JPY: 0, DKK: 2, EUR: 2 }

/** A decimal cell in minor units, read independently of the plugin, digit by digit (amounts here are exact to the currency's exponent). */
function minorOf(text: string, currency: string): number {
  if (text === "") return 0
  const [whole, fraction = ""] = text.replace(/^-/, "").split(".")
  const minor = Number(whole + fraction.padEnd(EXPONENT[currency], "0"))
  return text.startsWith("-") ? -minor : minor
}

/** What a served funding file's lines add up to, read from its CSV text (`;`, quoted cells, no `;` inside). */
function witness(csv: string) {
  const [head, ...rows] = csv.trim().split(/\r?\n/)
  const unquote = (cell: string) => cell.replace(/^"(.*)"$/, "$1")
  const columns = head.split(";").map(unquote)
  const lines = rows.map((row) => Object.fromEntries(row.split(";").map((cell, i) => [columns[i], unquote(cell)])) as Record<string, string>)
  let gross = 0
  let fees = 0
  for (const l of lines) {
    const c = l["Settlement Currency"]
    gross += minorOf(l["Settlement Amount"], c)
    fees += ["Fixed Fee", "Fixed Fee VAT", "Rate Based Fee", "Rate Based Fee VAT"].reduce((s, k) => s + minorOf(l[k] ?? "", c), 0)
  }
  return { lines, gross, fees, net: gross + fees }
}

interface Paid {
  orderId: string
  paymentId: string
  transactionId: string
  currency: string
}

export default storeSuite({
  testSuite: ({ api: rawApi, getContainer }) => {
    const api = rawApi as unknown as Api
    let admin: { headers: Record<string, string> }
    let dkk: SeededStore
    let jpy: SeededStore
    const as = () => ({ headers: admin.headers, validateStatus: () => true })
    const ok = async (step: string, request: Promise<{ status: number; data: any }>) => {
      const r = await request
      expect({ step, status: r.status, message: r.data?.message }).toEqual({ step, status: 200, message: undefined })
      return r.data
    }
    const get = (url: string) => ok(`GET ${url}`, api.get(url, as()))

    beforeAll(async () => {
      admin = await createAdminUser(api, getContainer())
      dkk = await seedStore(getContainer())
      jpy = await seedStore(getContainer(), { currency: "jpy" })
    })
    afterEach(() => {
      store.sandbox().setClock(() => Date.now())
      store.sandbox().faults.clear()
    })

    async function paid(seed: SeededStore): Promise<Paid> {
      const o = await createAltaPayOrder(api, seed, getContainer(), store.sandbox())
      const payment = await getContainer().resolve(Modules.PAYMENT).retrievePayment(o.paymentId)
      return {
        orderId: o.orderId,
        paymentId: o.paymentId,
        transactionId: (payment.data as unknown as AltaPayPaymentData).transaction_id!,
        currency: payment.currency_code.toUpperCase(),
      }
    }
    const capture = (p: Paid, amount?: number) => ok("capture", api.post(`/admin/payments/${p.paymentId}/capture`, amount === undefined ? {} : { amount }, as()))
    const refund = (p: Paid, amount: number) => ok("refund", api.post(`/admin/payments/${p.paymentId}/refund`, { amount }, as()))

    /** Medusa's captures and refunds of a payment, in minor units, with the identifier the plugin sent AltaPay. */
    async function movements(container: MedusaContainer, p: Paid) {
      const payment = await container.resolve(Modules.PAYMENT).retrievePayment(p.paymentId, { relations: ["captures", "refunds"] })
      const data = payment.data as unknown as AltaPayPaymentData
      const minor = (a: unknown) => toMinorUnits(a as never, p.currency)
      return [
        ...(payment.captures ?? []).map((c) => ({
          kind: "capture",
          id: c.id,
          amountMinor: minor(c.raw_amount ?? c.amount),
          identifier: data.captures.find((x) => x.capture_id === c.id)?.reconciliation_identifier,
        })),
        ...(payment.refunds ?? []).map((r) => ({
          kind: "refund",
          id: r.id,
          amountMinor: minor(r.raw_amount ?? r.amount),
          identifier: data.refunds?.find((x) => x.refund_id === r.id)?.reconciliation_identifier,
        })),
      ]
    }

    /** The sandbox pays out every capture and refund it holds (its clock two days on for the settlement only). */
    function settle() {
      const sandbox = store.sandbox()
      sandbox.setClock(() => Date.now() + 2 * DAY)
      const files = sandbox.fundings.settle()
      sandbox.setClock(() => Date.now())
      return files
    }

    const importNow = () => ok("import", api.post("/admin/altapay/payouts/import", {}, as()))
    const listed = async (): Promise<FundingFileSummary[]> => (await get("/admin/altapay/payouts?limit=200")).files
    const linesOf = async (fileId: string): Promise<FundingLineView[]> => (await get(`/admin/altapay/payouts/${fileId}/lines?limit=200`)).lines
    async function exceptions(query = ""): Promise<PayoutException[]> {
      const all: PayoutException[] = []
      for (let offset = 0; ; offset += 200) {
        const page = await get(`/admin/altapay/payout-exceptions?unfunded_after_days=0&limit=200&offset=${offset}${query}`)
        all.push(...page.exceptions)
        if (all.length >= page.count || page.exceptions.length === 0) return all
      }
    }

    /** A line the acquirer writes itself (no conversion): fees negative, as AltaPay's files have them. */
    function line(type: string, currency: string, amountMinor: number, ids: { identifier?: string; payment?: string }, fees?: SandboxFundingLine["fees"]): SandboxFundingLine {
      return {
        date: new Date().toISOString().slice(0, 10),
        type,
        id: `ACQ-${Math.random().toString(36).slice(2, 10)}`,
        transaction: {
          reconciliationIdentifier: ids.identifier ?? "",
          paymentId: ids.payment ?? "",
          shopOrderId: "",
          terminal: "AltaPay Sandbox Test Terminal",
          shop: "AltaPay Sandbox Shop",
          currency,
          amountMinor,
          exchangeRate: "100",
        },
        settlementCurrency: currency,
        settlementAmountMinor: amountMinor,
        ...(fees ? { fees } : {}),
      }
    }
    const addFile = (filename: string, currency: string, lines: SandboxFundingLine[], extra: { fundingDate?: string; amountMinor?: number } = {}) =>
      store.sandbox().fundings.add({ csv: fundingCsv(lines), currency, amountMinor: extra.amountMinor ?? lines.reduce((s, l) => s + netOf(l), 0), filename, ...extra })

    /** Every total of every listed payout is its served file's, to the minor unit, and in the payouts CSV the same. */
    async function expectTotalsOfServedFiles(files: FundingFileSummary[]) {
      const served = store.sandbox().fundings.list()
      const csvRows = String((await api.get("/admin/altapay/payouts/export", as())).data)
        .trimEnd()
        .split("\r\n")
      const header = csvRows[0].split(",")
      const csvById = new Map(
        csvRows
          .slice(1)
          .map((r) => r.split(","))
          .map((cells) => [cells[header.indexOf("id")], cells])
      )
      for (const f of files) {
        const file = served.find((s) => s.filename === f.filename)!
        const w = witness(file.csv!)
        expect({ file: f.filename, gross: f.grossMinor, fees: f.feesMinor, net: f.netMinor, amount: f.amountMinor, lines: f.lineCount }).toEqual({
          file: f.filename,
          gross: w.gross,
          fees: w.fees,
          net: w.net,
          amount: file.amountMinor,
          lines: w.lines.length,
        })
        const cells = csvById.get(f.id)!
        const cell = (name: string) => cells[header.indexOf(name)]
        expect([cell("currency"), minorOf(cell("gross"), f.currency), minorOf(cell("net"), f.currency), minorOf(cell("amount"), f.currency)]).toEqual([
          f.currency,
          w.gross,
          w.net,
          file.amountMinor,
        ])
        if (f.currency === "JPY") expect(cell("gross")).toMatch(/^-?\d+$/)
      }
    }

    it("DKK and JPY payments paid out in EUR, a JPY and a DKK payout of the acquirer: totals to the minor unit, every line tied to its capture, refund and order", async () => {
      const dkkA = await paid(dkk)
      const jpyA = await paid(jpy)
      await capture(dkkA)
      await capture(jpyA)
      await refund(dkkA, 10)
      const [eurFile, ...more] = settle()
      expect(more).toEqual([])
      expect(eurFile.currency).toBe("EUR")

      // The acquirer's own payouts in the payments' currencies: yen have no decimals.
      const jpyB = await paid(jpy)
      const dkkB = await paid(dkk)
      await capture(jpyB)
      await capture(dkkB)
      const [jpyCapture] = await movements(getContainer(), jpyB)
      const [dkkCapture] = await movements(getContainer(), dkkB)
      addFile("Cases_Acquirer_JPY_0001", "JPY", [
        line("payment", "JPY", jpyCapture.amountMinor, { identifier: jpyCapture.identifier, payment: jpyB.transactionId }, [-25, -6, -33, -8]),
        { date: new Date().toISOString().slice(0, 10), type: "fee", id: "ACQ-FEE-JPY", settlementCurrency: "JPY", settlementAmountMinor: -150 },
      ])
      addFile("Cases_Acquirer_DKK_0001", "DKK", [
        line("payment", "DKK", dkkCapture.amountMinor, { identifier: dkkCapture.identifier, payment: dkkB.transactionId }, [-25, -6, -513, -128]),
      ])

      const run = await importNow()
      expect(run.accounts[0].problems).toEqual([])
      const files = (await listed()).filter((f) => [eurFile.filename, "Cases_Acquirer_JPY_0001", "Cases_Acquirer_DKK_0001"].includes(f.filename))
      expect(files.map((f) => [f.filename, f.currency, f.totalsAgree]).sort()).toEqual(
        [
          [eurFile.filename, "EUR", true],
          ["Cases_Acquirer_DKK_0001", "DKK", true],
          ["Cases_Acquirer_JPY_0001", "JPY", true],
        ].sort()
      )
      await expectTotalsOfServedFiles(files)

      // Each capture and refund on exactly one line, the right one, of the right order, with its amount.
      const allLines = (await Promise.all(files.map(async (f) => (await linesOf(f.id)).map((l) => ({ ...l, filename: f.filename }))))).flat()
      for (const [p, filename] of [
        [dkkA, eurFile.filename],
        [jpyA, eurFile.filename],
        [jpyB, "Cases_Acquirer_JPY_0001"],
        [dkkB, "Cases_Acquirer_DKK_0001"],
      ] as const) {
        for (const m of await movements(getContainer(), p)) {
          const tied = allLines.filter((l) => l.match?.medusaId === m.id)
          expect(tied.map((l) => [l.filename, l.type, l.match!.orderId, l.match!.kind, Math.abs(l.transactionAmountMinor!), l.transactionCurrency])).toEqual([
            [filename, m.kind === "capture" ? "payment" : "refund", p.orderId, m.kind, m.amountMinor, p.currency],
          ])
        }
      }
      // The yen line's fees and net are yen, whole: in the line CSV as the file wrote them.
      const jpyFile = files.find((f) => f.currency === "JPY")!
      expect(jpyFile).toMatchObject({ grossMinor: jpyCapture.amountMinor - 150, feesMinor: -72, netMinor: jpyCapture.amountMinor - 222, matchedCount: 1, unmatchedCount: 0 })
      const jpyRows = String((await api.get(`/admin/altapay/payouts/${jpyFile.id}/export`, as())).data)
        .trimEnd()
        .split("\r\n")
      const header = jpyRows[0].split(",")
      const paymentRow = jpyRows[1].split(",")
      expect(["transaction_amount", "settlement_amount", "fees", "net", "medusa_amount"].map((c) => paymentRow[header.indexOf(c)])).toEqual([
        String(jpyCapture.amountMinor),
        String(jpyCapture.amountMinor),
        "-72",
        String(jpyCapture.amountMinor - 72),
        String(jpyCapture.amountMinor),
      ])

      // Nothing about these payments is an exception.
      const mine = new Set([dkkA, jpyA, jpyB, dkkB].map((p) => p.orderId))
      expect((await exceptions()).filter((e) => e.orderId && mine.has(e.orderId)).map((e) => e.message)).toEqual([])
      // The order page: JPY capture paid out in the yen payout, with the yen net.
      const view = (await get(`/admin/altapay/payments/${jpyB.paymentId}`)).altapay_payment
      expect(view.payouts.map((p: MovementPayout) => [p.kind, p.status, p.lines.map((l) => [l.filename, l.netMinor])])).toEqual([
        ["capture", "funded", [["Cases_Acquirer_JPY_0001", jpyCapture.amountMinor - 72]]],
      ])
    })

    it("a payout listed twice, a capture paid out again, a chargeback, a payment with no order: imported once, each repeat an exception, nothing tied twice, at once or again", async () => {
      const x = await paid(dkk)
      await capture(x)
      const [settled] = settle()
      const [xCapture] = await movements(getContainer(), x)
      const later = new Date(Date.now() + 5 * DAY).toISOString().slice(0, 10)
      // AltaPay lists the same payout again under another id.
      store
        .sandbox()
        .fundings.add({ csv: settled.csv!, currency: settled.currency, amountMinor: settled.amountMinor, filename: settled.filename, fundingDate: settled.fundingDate })
      // A later payout pays the capture again, once with its identifier and once without; a chargeback takes it back.
      addFile("Repeat_DKK_0001", "DKK", [line("payment", "DKK", xCapture.amountMinor, { identifier: xCapture.identifier, payment: x.transactionId })], { fundingDate: later })
      addFile("Repeat_DKK_0002", "DKK", [line("payment", "DKK", xCapture.amountMinor, { payment: x.transactionId })], { fundingDate: later })
      addFile("Chargeback_DKK_0001", "DKK", [line("chargeback", "DKK", -xCapture.amountMinor, { payment: x.transactionId }, [-2_500, 0, 0, 0])], { fundingDate: later })
      // Paid at AltaPay, but the cart was never completed: Medusa has no payment, no order.
      const cart = await createCart(api, dkk)
      const session = await startSession(api, dkk, cart.id)
      const orphanPayment = await payWithAltaPay(session, { sandbox: store.sandbox(), callback: false })
      const orphan = store.sandbox().payment(orphanPayment.paymentId)!.transactionId as string
      addFile("Orphan_DKK_0001", "DKK", [line("payment", "DKK", 31_500, { identifier: "altapay-backoffice-1", payment: orphan })], { fundingDate: later })

      // Three imports at once (the job and two admins), then one more.
      const runs = await Promise.all([importNow(), importNow(), importNow()])
      expect(runs.flatMap((r) => r.accounts[0].problems)).toEqual([])
      const mine = [settled.filename, "Repeat_DKK_0001", "Repeat_DKK_0002", "Chargeback_DKK_0001", "Orphan_DKK_0001"]
      const files = (await listed()).filter((f) => mine.includes(f.filename))
      expect(files.map((f) => f.filename).sort()).toEqual([...mine].sort())
      await expectTotalsOfServedFiles(files)
      const before = { files: await listed(), exceptions: await exceptions() }
      await importNow()
      expect({ files: await listed(), exceptions: await exceptions() }).toEqual(before)

      const byName = Object.fromEntries(await Promise.all(files.map(async (f) => [f.filename, await linesOf(f.id)] as const)))
      const settledLine = byName[settled.filename].find((l) => l.reconciliationIdentifier === xCapture.identifier)!
      expect(settledLine.match).toMatchObject({ medusaId: xCapture.id, orderId: x.orderId })
      const [repeat1] = byName["Repeat_DKK_0001"]
      const [repeat2] = byName["Repeat_DKK_0002"]
      const [chargeback] = byName["Chargeback_DKK_0001"]
      const [orphanLine] = byName["Orphan_DKK_0001"]
      const all = before.exceptions
      const about = (l: FundingLineView) => all.filter((e) => e.lineId === l.id).map((e) => e.kind)
      // The repeat with the identifier is tied to the capture and said to pay it twice; the one
      // without is tied to nothing and listed; the chargeback is listed on the order; the orphan is listed.
      expect({ repeat1: about(repeat1), repeat2: about(repeat2), chargeback: about(chargeback), orphan: about(orphanLine), settled: about(settledLine) }).toEqual({
        repeat1: ["paid_twice"],
        repeat2: ["unmatched_line"],
        chargeback: ["unexplained_line"],
        orphan: ["unmatched_line"],
        settled: [],
      })
      expect(all.find((e) => e.lineId === chargeback.id)).toMatchObject({ orderId: x.orderId, altapayAmountMinor: -xCapture.amountMinor })
      // The payout total finance books for the chargeback file includes its fee.
      expect(files.find((f) => f.filename === "Chargeback_DKK_0001")).toMatchObject({ netMinor: -xCapture.amountMinor - 2_500, totalsAgree: true })
      // No line of these payouts is dropped: each payment and refund line is tied, or an exception.
      for (const l of Object.values(byName).flat()) {
        if (!["payment", "refund"].includes(l.type!)) continue
        expect({ line: l.id, tied: !!l.match, listed: about(l).includes("unmatched_line") }).toEqual({ line: l.id, tied: !!l.match, listed: !l.match })
      }
    })

    it("a second funding AltaPay lists under a filename already stored (another date, amount and lines) is named in every run's problems, never silently skipped; a payout of more refunds than payments nets negative", async () => {
      const a = await paid(dkk)
      const b = await paid(dkk)
      await capture(a)
      await capture(b, 100)
      await refund(a, 50)
      const [ma] = (await movements(getContainer(), a)).filter((m) => m.kind === "capture")
      const [mb] = await movements(getContainer(), b)
      const refundA = (await movements(getContainer(), a)).find((m) => m.kind === "refund")!
      const today = new Date().toISOString().slice(0, 10)
      const tomorrow = new Date(Date.now() + DAY).toISOString().slice(0, 10)
      // The acquirer names its daily file the same way every day: two bank transfers, one filename.
      addFile("Daily_DKK.csv", "DKK", [line("payment", "DKK", ma.amountMinor, { identifier: ma.identifier, payment: a.transactionId }, [-25, -6, 0, 0])], { fundingDate: today })
      addFile("Daily_DKK.csv", "DKK", [line("payment", "DKK", mb.amountMinor, { identifier: mb.identifier, payment: b.transactionId }, [-25, -6, 0, 0])], { fundingDate: tomorrow })
      // A payout of a refund alone: the merchant pays AltaPay.
      addFile("Refunds_DKK_0001", "DKK", [line("refund", "DKK", -refundA.amountMinor, { identifier: refundA.identifier, payment: a.transactionId }, [-25, -6, 0, 0])], {
        fundingDate: tomorrow,
      })

      const run = await importNow()
      const files = (await listed()).filter((f) => ["Daily_DKK.csv", "Refunds_DKK_0001"].includes(f.filename))
      const negative = files.find((f) => f.filename === "Refunds_DKK_0001")!
      expect(negative).toMatchObject({
        currency: "DKK",
        grossMinor: -refundA.amountMinor,
        netMinor: -refundA.amountMinor - 31,
        amountMinor: -refundA.amountMinor - 31,
        totalsAgree: true,
        matchedCount: 1,
      })

      // AltaPay documents a funding's Filename as its unique ID: the one listed first is stored, and
      // every run names the other (its date and amount beside the stored one's) instead of skipping it.
      const paidIn = files.filter((f) => f.filename === "Daily_DKK.csv")
      expect(paidIn).toHaveLength(1)
      const transfers = [
        [today, ma.amountMinor - 31],
        [tomorrow, mb.amountMinor - 31],
      ]
      const stored = transfers.find(([date]) => date === paidIn[0].fundingDate)!
      const other = transfers.find(([date]) => date !== paidIn[0].fundingDate)!
      expect(paidIn[0].amountMinor).toBe(stored[1])
      const text = ([date, minor]: (string | number)[]) => `${date}, ${(Number(minor) / 100).toFixed(2)} DKK`
      const told = `AltaPay lists funding file Daily_DKK.csv of ${run.accounts[0].account} as ${text(other)}, but the file stored under that name is ${text(stored)}.`
      expect(run.accounts[0].problems).toEqual([expect.stringContaining(told)])
      expect((await importNow()).accounts[0].problems).toEqual([expect.stringContaining(told)])
    })
  },
})
