/**
 * The Payouts pages in a real browser (headless Chromium through playwright-core, as
 * admin-browser.suite.ts): an order paid through AltaPay and captured, the sandbox's payout of it
 * imported through the admin API, then in the admin: the file in the Payouts list with its counts,
 * Import now bringing in an acquirer's file with a line for nothing in Medusa, the file's page
 * with the line linked to its order and its fee VAT, the exception for the stray line, the three
 * CSV downloads (the list, the file, the exceptions), and the order page's panel saying which
 * payout the capture went into. Saves test-artifacts/payouts.png
 * (and payouts-file.png, payouts-exceptions.png, payouts-order.png); with ALTAPAY_SCREENSHOTS=1
 * docs/images/admin-payouts.png for the merchant guide. First in its group (`saved-cards-store`): the
 * sandbox pays out every capture it holds, and the other suites capture too.
 */
import { storeSuite } from "../../tools/test-store/store-app/runner"
import type { Page } from "playwright-core"
import { minorToDecimal } from "../../src/altapay/money"
import type { FundingFileSummary, PayoutException } from "../../src/modules/altapay-payouts/types"
import { fundingCsv, netOf, type SandboxFundingLine } from "../../src/sandbox/fundings/funding-file"
import { altapayStore } from "../../tools/test-store/store-app/altapay-store"
import { createAdminUser, createAltaPayOrder, seedStore, type Api } from "../../tools/test-store/store"
import { browserSpecCanRun } from "../setup/chromium"
import { signInToAdmin } from "./browser/admin-ui"
import { useAdminBrowser, docScreenshot, openAdminPage, saveScreenshot, withFailureScreenshot } from "./browser/admin-browser"

const DAY = 24 * 60 * 60 * 1000
const money = (minor: number, currency: string) => `${minorToDecimal(minor, currency)} ${currency}`

/** An acquirer's line for a payment Medusa never saw. */
const strayLine: SandboxFundingLine = {
  date: new Date().toISOString().slice(0, 10),
  type: "payment",
  id: "ACQ1",
  transaction: {
    reconciliationIdentifier: "acquirer-only-1",
    paymentId: "not-in-medusa",
    shopOrderId: "not-in-medusa",
    terminal: "AltaPay Sandbox Test Terminal",
    shop: "AltaPay Sandbox Shop",
    currency: "DKK",
    amountMinor: 5_000,
    exchangeRate: "100",
  },
  settlementCurrency: "DKK",
  settlementAmountMinor: 5_000,
}

/** What a link's URL answers, fetched with the signed-in page's cookies (what a click downloads). */
async function download(page: Page, selector: string): Promise<{ status: number; type: string; body: string }> {
  const href = await page.locator(selector).getAttribute("href")
  expect(href).toBeTruthy()
  const response = await page.request.get(new URL(href!, page.url()).toString())
  return { status: response.status(), type: response.headers()["content-type"] ?? "", body: await response.text() }
}

const store = altapayStore()

export default storeSuite({
  testSuite: ({ api: rawApi, getContainer }) => {
    if (!browserSpecCanRun("the Payouts pages in a real browser")) return
    const admin = useAdminBrowser(() => store.medusaUrl(), "payouts-browser")
    const timings = admin.timings
    const api = rawApi as unknown as Api

    it("lists the imported payout with its counts, links its line to the order, shows the stray line as an exception, and the three CSVs download", async () => {
      const container = getContainer()
      const email = "finance@shop.example"
      const password = "finance-password-123"
      const { headers } = await createAdminUser(api, container, email, password)
      const seed = await seedStore(container)
      const order = await createAltaPayOrder(api, seed, container, store.sandbox())
      expect((await api.post(`/admin/payments/${order.paymentId}/capture`, {}, { headers })).status).toBe(200)

      // The sandbox pays out a day after the capture: its clock goes forward for the settlement only.
      const sandbox = store.sandbox()
      sandbox.setClock(() => Date.now() + 2 * DAY)
      const [settled] = sandbox.fundings.settle()
      sandbox.setClock(() => Date.now())
      expect(settled).toBeDefined()
      const imported = await api.post("/admin/altapay/payouts/import", {}, { headers })
      expect(imported.data.accounts).toEqual([expect.objectContaining({ filesImported: 1, problems: [] })])
      const { data: listed } = await api.get("/admin/altapay/payouts", { headers })
      const file = (listed.files as FundingFileSummary[]).find((f) => f.filename === settled.filename)!
      expect(file).toMatchObject({ matchedCount: 1, unmatchedCount: 0 })

      // The acquirer's own file arrives after: Import now in the admin brings it in.
      sandbox.fundings.add({ csv: fundingCsv([strayLine]), currency: "DKK", amountMinor: netOf(strayLine), filename: "Acquirer_DKK_0001" })

      const { page, errors } = await openAdminPage(admin.browser())
      await withFailureScreenshot(page, errors, "payouts", async () => {
        const started = Date.now()
        const app = `${admin.ui().url}/app`
        await signInToAdmin(page, admin.ui().url, email, password)

        await page.goto(`${app}/payouts`)
        const row = page.getByTestId("payout-file-row").filter({ hasText: settled.filename })
        await row.waitFor({ timeout: 30_000 })
        expect(await row.getByTestId("payout-file-net").textContent()).toBe(money(file.netMinor, file.currency))
        expect(await row.getByTestId("payout-file-matched").textContent()).toBe("1")
        expect(await row.getByTestId("payout-file-unmatched").textContent()).toBe("0")
        await docScreenshot(page, "admin-payouts", { height: 480 })

        await page.getByTestId("payouts-import-now").click()
        await page.getByTestId("payouts-import-summary").waitFor({ timeout: 30_000 })
        expect(await page.getByTestId("payouts-import-account").textContent()).toContain("1 new file (1 already imported)")
        const stray = page.getByTestId("payout-file-row").filter({ hasText: "Acquirer_DKK_0001" })
        await stray.waitFor({ timeout: 30_000 })
        expect(await stray.getByTestId("payout-file-unmatched").textContent()).toBe("1")
        await saveScreenshot(page, "payouts")
        // The list as CSV: a row per funding.
        const listCsv = await download(page, '[data-testid="payouts-csv"]')
        expect(listCsv).toMatchObject({ status: 200, type: expect.stringContaining("text/csv") })
        const [header, ...fundings] = listCsv.body.trimEnd().split("\r\n")
        expect(header).toMatch(/^funding_date,filename,/)
        expect(fundings.map((r) => r.split(",")[1]).sort()).toEqual(["Acquirer_DKK_0001", settled.filename].sort())

        // The file's page: its line tied to the order, and the file as CSV.
        await row.getByTestId("payout-file-link").click()
        await page.getByTestId("payout-file-summary").waitFor({ timeout: 30_000 })
        expect(await page.getByTestId("payout-file-name").textContent()).toBe(settled.filename)
        expect(await page.getByTestId("payout-file-fee-vat").textContent()).toBe(`(${money(file.feeVatMinor, file.currency)})`)
        expect(await page.getByTestId("payouts-back-link").getAttribute("href")).toBe("/app/payouts")
        const line = page.getByTestId("payout-line").filter({ has: page.getByTestId("payout-line-order-link") })
        await line.waitFor({ timeout: 30_000 })
        expect(await line.getByTestId("payout-line-order-link").textContent()).toBe(order.orderId)
        expect(await line.getByTestId("payout-line-order-link").getAttribute("href")).toBe(`/app/orders/${order.orderId}`)
        expect(await line.getByTestId("payout-line-match").textContent()).toBe("by reconciliation identifier")
        expect(await line.getByTestId("payout-line-reconciliation").textContent()).toMatch(/^medusa-capture-capt_/)
        const fileCsv = await download(page, '[data-testid="payout-file-csv"]')
        expect(fileCsv).toMatchObject({ status: 200, type: expect.stringContaining("text/csv") })
        expect(fileCsv.body).toContain(order.orderId)
        await saveScreenshot(page, "payouts-file")

        // The exceptions: the stray line, filtered by its kind, and as CSV.
        await page.goto(`${app}/payouts`)
        await page.getByTestId("payouts-exceptions-link").click()
        await page.getByTestId("payout-exceptions-cutoff").waitFor({ timeout: 30_000 })
        await page.getByTestId("payout-exception-kind-unmatched_line").click()
        const exception = page.locator('[data-testid="payout-exception"][data-kind="unmatched_line"]')
        await exception.waitFor({ timeout: 30_000 })
        const { data: exceptions } = await api.get("/admin/altapay/payout-exceptions?kind=unmatched_line", { headers })
        expect((exceptions.exceptions as PayoutException[]).map((e) => e.message)).toEqual([await exception.getByTestId("payout-exception-message").textContent()])
        expect(await page.getByTestId("payout-exceptions-csv").getAttribute("href")).toContain("kind=unmatched_line")
        const exceptionsCsv = await download(page, '[data-testid="payout-exceptions-csv"]')
        expect(exceptionsCsv).toMatchObject({ status: 200, type: expect.stringContaining("text/csv") })
        expect(exceptionsCsv.body.trim().split("\n").slice(1)).toEqual([expect.stringMatching(/^unmatched_line,.*Acquirer_DKK_0001/)])
        await saveScreenshot(page, "payouts-exceptions")

        // The order page: which payout the capture went into.
        await page.goto(`${app}/orders/${order.orderId}`)
        const payout = page.getByTestId("altapay-payout")
        await payout.waitFor({ timeout: 30_000 })
        expect(await payout.getAttribute("data-status")).toBe("funded")
        expect(await payout.getByTestId("altapay-payout-text").textContent()).toContain(`Paid out in ${settled.filename} on ${file.fundingDate}`)
        expect(await payout.getByTestId("altapay-payout-link").getAttribute("href")).toBe(`/app/payouts/${file.id}`)
        await payout.scrollIntoViewIfNeeded()
        await saveScreenshot(page, "payouts-order")
        timings.browser_ms = Date.now() - started
        expect(errors).toEqual([])
      })
    })
  },
})
