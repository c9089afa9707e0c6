/**
 * The AltaPay panel in a real browser: headless Chromium (Debian's `chromium`) driven by
 * playwright-core logs into Medusa's admin, opens an order paid through AltaPay, checks the
 * panel's amounts, refunds one item through the panel's form and sees the refunded amount change.
 * Saves test-artifacts/admin-refund.png.
 *
 * The admin UI (dashboard + src/admin) is built once and cached (browser/admin-ui.ts); the
 * build runs while the app boots. Skipped, with the reason, without playwright-core or
 * /usr/bin/chromium, or with ALTAPAY_BROWSER_TESTS=0.
 */
import fs from "node:fs"
import path from "node:path"
import { ContainerRegistrationKeys, Modules } from "@medusajs/framework/utils"
import { medusaIntegrationTestRunner } from "@medusajs/test-utils"
import { toMinorUnits } from "../../src/lib/medusa-mapping/amounts"
import { REPO_ROOT } from "../../tools/test-store/app/config"
import { STORE_APP_DIR, useAltaPayStore } from "../../tools/test-store/store-app/altapay-store"
import { createAdminUser, createAltaPayOrder, seedStore, type Api } from "../../tools/test-store/store"
import { browserSpecCanRun, CHROMIUM, CHROMIUM_ARGS } from "../setup/chromium"
import { buildAdminUi, serveAdminUi, signInToAdmin, type BuiltAdminUi, type ServedAdminUi } from "./browser/admin-ui"

const ARTIFACTS = path.join(REPO_ROOT, "test-artifacts")

/** The slice of playwright-core this test uses (its types are not installed with it as a dependency). */
interface Locator {
  click(): Promise<void>
  fill(value: string): Promise<void>
  textContent(): Promise<string | null>
  waitFor(options?: { state?: "visible" | "attached"; timeout?: number }): Promise<void>
  getByTestId(id: string): Locator
  first(): Locator
  locator(selector: string): Locator
  scrollIntoViewIfNeeded(): Promise<void>
}
interface Page {
  goto(url: string): Promise<unknown>
  waitForURL(url: RegExp, options?: { timeout?: number }): Promise<void>
  waitForFunction<A>(fn: (arg: A) => boolean, arg: A, options?: { timeout?: number }): Promise<unknown>
  getByTestId(id: string): Locator
  getByText(text: string, options?: { exact?: boolean }): Locator
  locator(selector: string): Locator
  screenshot(options: { path: string; fullPage?: boolean }): Promise<unknown>
  on(event: "console" | "pageerror", listener: (arg: { text?: () => string; message?: string }) => void): void
}
interface Browser {
  newPage(options?: { viewport?: { width: number; height: number } }): Promise<Page>
  close(): Promise<void>
}
interface Playwright {
  chromium: { launch(options: { executablePath: string; args: string[]; headless: boolean }): Promise<Browser> }
}

if (browserSpecCanRun("the AltaPay panel in a real browser")) {
  const store = useAltaPayStore()
  const fileStart = Date.now()
  const timings: Record<string, number> = {}
  // Start building now: the build (a child process) overlaps the app's boot.
  const building: Promise<BuiltAdminUi> = buildAdminUi()
  building.catch(() => undefined) // awaited (and reported) in beforeAll

  afterAll(() => {
    // eslint-disable-next-line no-console
    console.log(`[admin-browser] ${JSON.stringify({ ...timings, file_ms: Date.now() - fileStart })}`)
  })

  medusaIntegrationTestRunner({
    cwd: STORE_APP_DIR,
    testSuite: ({ api: rawApi, getContainer }) => {
      const api = rawApi as unknown as Api
      let ui: ServedAdminUi
      let browser: Browser | undefined

      beforeAll(async () => {
        timings.boot_ms = Date.now() - fileStart
        const built = await building
        timings[built.cached ? "admin_ui_cached_ms" : "admin_ui_build_ms"] = built.ms
        ui = await serveAdminUi(built.dir, store.medusaUrl())
        const playwright = require("playwright-core") as Playwright
        browser = await playwright.chromium.launch({ executablePath: CHROMIUM, args: CHROMIUM_ARGS, headless: true })
      }, 600_000)

      afterAll(async () => {
        await browser?.close()
        await ui?.close()
      })

      it("logs into the admin, sees the AltaPay panel, refunds one item and sees the refunded amount change", async () => {
        const started = Date.now()
        const container = getContainer()
        const email = "merchant@shop.example"
        const password = "merchant-password-123"
        await createAdminUser(api, container, email, password)
        const seed = await seedStore(container, { promotion: { code: "TEN", percent: 10 } })
        const order = await createAltaPayOrder(api, seed, container, store.sandbox())
        const { token } = (await api.post("/auth/user/emailpass", { email, password })).data as { token: string }
        await api.post(`/admin/payments/${order.paymentId}/capture`, {}, { headers: { authorization: `Bearer ${token}` } })
        const total = `${(toMinorUnits(order.cart.total, "DKK") / 100).toFixed(2)} DKK`
        const { data: orders } = await container
          .resolve(ContainerRegistrationKeys.QUERY)
          .graph({ entity: "order", fields: ["items.id", "items.variant_sku"], filters: { id: order.orderId } })
        const coffee = (orders[0] as { items: Array<{ id: string; variant_sku: string }> }).items.find((i) => i.variant_sku === seed.products.coffee.sku)!
        timings.order_ms = Date.now() - started

        const page = await browser!.newPage({ viewport: { width: 1440, height: 1400 } })
        const errors: string[] = []
        page.on("pageerror", (e) => errors.push(e.message ?? String(e)))
        // React error boundaries log what they caught; the page itself shows only "An error occurred".
        page.on("console", (m) => {
          const text = m.text?.() ?? ""
          // Product thumbnails point at a made-up host.
          if ((m as { type?: () => string }).type?.() === "error" && !text.includes("ERR_NAME_NOT_RESOLVED")) errors.push(text)
        })
        try {
          const browserStart = Date.now()
          await signInToAdmin(page, ui.url, email, password)

          await page.goto(`${ui.url}/app/orders/${order.orderId}`)
          const panel = page.getByTestId("altapay-payment")
          await panel.getByTestId("altapay-captured").waitFor({ timeout: 30_000 })
          expect(await panel.getByTestId("altapay-status").textContent()).toBe("Captured")
          expect(await panel.getByTestId("altapay-reserved").textContent()).toBe(total)
          expect(await panel.getByTestId("altapay-captured").textContent()).toBe(total)
          expect(await panel.getByTestId("altapay-refunded").textContent()).toBe("0.00 DKK")
          expect(await panel.getByTestId("altapay-card").textContent()).toContain("1111")

          await panel.getByTestId("altapay-refund-items").click()
          const drawer = page.getByTestId("altapay-refund-drawer")
          await drawer.waitFor()
          await drawer.getByTestId(`altapay-qty-${coffee.id}`).fill("1")
          await drawer.getByTestId("altapay-refund-note").fill("Broken bag")
          await drawer.getByTestId("altapay-refund-submit").click()

          await page.waitForFunction(
            (before) => {
              const text = document.querySelector('[data-testid="altapay-refunded"]')?.textContent
              return !!text && text !== before
            },
            "0.00 DKK",
            { timeout: 30_000 }
          )
          await page.getByText("Refunded", { exact: true }).first().waitFor({ timeout: 10_000 }) // the toast
          const refundedText = await panel.getByTestId("altapay-refunded").textContent()
          expect(await panel.getByTestId("altapay-status").textContent()).toBe("Partially refunded")
          timings.browser_ms = Date.now() - browserStart

          // What the panel shows is what Medusa and AltaPay recorded.
          const payment = await container.resolve(Modules.PAYMENT).retrievePayment(order.paymentId, { relations: ["refunds"] })
          expect(payment.refunds).toHaveLength(1)
          const refundedMinor = toMinorUnits(payment.refunds![0].amount, "DKK")
          expect(refundedText).toBe(`${(refundedMinor / 100).toFixed(2)} DKK`)
          expect(store.sandbox().transaction(payment.data!.transaction_id as string)!.refundedMinor).toBe(refundedMinor)
          expect(payment.refunds![0].note).toBe("Broken bag")
          expect(payment.data!.refunds).toEqual([expect.objectContaining({ items: [{ line_item_id: coffee.id, quantity: 1 }] })])

          fs.mkdirSync(ARTIFACTS, { recursive: true })
          await panel.scrollIntoViewIfNeeded()
          await page.screenshot({ path: path.join(ARTIFACTS, "admin-refund.png"), fullPage: true })
          expect(errors).toEqual([])
        } catch (error) {
          fs.mkdirSync(ARTIFACTS, { recursive: true })
          await page.screenshot({ path: path.join(ARTIFACTS, "admin-refund-failure.png"), fullPage: true }).catch(() => undefined)
          throw new Error(`${error instanceof Error ? error.message : String(error)}\npage errors: ${errors.join(" | ") || "none"}`)
        }
      })
    },
  })
}
