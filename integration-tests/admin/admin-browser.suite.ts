/**
 * The AltaPay panel in a real browser: headless Chromium (Debian's `chromium`) driven by
 * playwright-core logs into Medusa's admin, opens an order paid through AltaPay, checks the
 * panel's amounts, refunds one item through the panel's form and sees the refunded amount change;
 * on an order only authorized, captures one item through "Capture items" and sees the captured
 * amount change, then cancels the order and sees what stays reserved; lists a customer's saved card
 * on the customer page and deletes it there; reads the refunded order's request log (issue 43) and
 * the AltaPay health page after real events (a late callback, a forged one, a job's run, a capture
 * whose answer was lost); with Danish chosen on the profile page, sees the panel, its drawer, the
 * sidebar and the AltaPay page in Danish. Saves test-artifacts/admin-refund.png, admin-capture.png,
 * altapay-health.png and admin-danish.png; with ALTAPAY_SCREENSHOTS=1 the docs' docs/images/admin-*.png.
 *
 * The admin UI (dashboard + src/admin) is built once and cached (browser/admin-ui.ts); the
 * build runs while the app boots. Skipped, with the reason, without playwright-core or
 * /usr/bin/chromium, or with ALTAPAY_BROWSER_TESTS=0. Runs in the group `saved-cards-store`
 * (saved cards on, for the customer page's widget; the request log on, for the order panel's; a
 * notice period longer than the sandbox's seven-day authorisations, so the AltaPay page lists a
 * reservation), before any suite that posts callbacks: its AltaPay page counts the app's posts.
 */
import { ContainerRegistrationKeys, Modules } from "@medusajs/framework/utils"
import type { Page } from "playwright-core"
import { storeSuite } from "../../tools/test-store/store-app/runner"
import { toMinorUnits } from "../../src/lib/medusa-mapping/amounts"
import { altapayStore } from "../../tools/test-store/store-app/altapay-store"
import {
  createAdminUser,
  createAltaPayOrder,
  createCart,
  createCustomer,
  eventually,
  orderPayments,
  payWithAltaPay,
  seedStore,
  startSession,
  storeHeaders,
  type Api,
  type SeededStore,
} from "../../tools/test-store/store"
import paymentSessionsJob from "../../src/jobs/altapay-payment-sessions"
import uncertainMoneyJob from "../../src/jobs/altapay-uncertain-money"
import type { AdminAltaPayHealthResponse } from "../../src/lib/health/views"
import { browserSpecCanRun } from "../setup/chromium"
import { signInToAdmin } from "./browser/admin-ui"
import { ALTAPAY_SAVED_CARDS_MODULE } from "../../src/modules/altapay-saved-cards"
import type AltaPaySavedCardsService from "../../src/modules/altapay-saved-cards/service"
import { PROVIDER_ID } from "../../tools/test-store/altapay-sandbox"
import { useAdminBrowser, docScreenshot, openAdminPage, saveScreenshot, withFailureScreenshot } from "./browser/admin-browser"

const store = altapayStore()

export default storeSuite({
  testSuite: ({ api: rawApi, getContainer }) => {
    if (!browserSpecCanRun("the AltaPay panel in a real browser")) return
    const admin = useAdminBrowser(() => store.medusaUrl(), "admin-browser")
    const timings = admin.timings
    const api = rawApi as unknown as Api

    const email = "merchant@shop.example"
    const password = "merchant-password-123"
    /** DKK store with a 10 % promotion code. */
    let seed: SeededStore

    // The admin and the store, once: the runner snapshots the database after the suite's beforeAll and
    // restores that before each test, so every test starts with them (and nothing of another test).
    beforeAll(async () => {
      await createAdminUser(api, getContainer(), email, password)
      seed = await seedStore(getContainer(), { promotion: { code: "TEN", percent: 10 } })
    })

    /** The admin's headers for /admin calls. */
    async function adminHeaders() {
      const { token } = (await api.post("/auth/user/emailpass", { email, password })).data as { token: string }
      return { authorization: `Bearer ${token}` }
    }

    /** An AltaPay order (authorized, not captured) with its coffee item and the admin's headers. */
    async function authorizedOrder() {
      const container = getContainer()
      const order = await createAltaPayOrder(api, seed, container, store.sandbox())
      const { data: orders } = await container
        .resolve(ContainerRegistrationKeys.QUERY)
        .graph({ entity: "order", fields: ["items.id", "items.variant_sku"], filters: { id: order.orderId } })
      const coffee = (orders[0] as { items: Array<{ id: string; variant_sku: string }> }).items.find((i) => i.variant_sku === seed.products.coffee.sku)!
      return { container, order, coffee, headers: await adminHeaders() }
    }

    /** Signs in and opens the order's page; the AltaPay panel once its amounts show. */
    async function openOrderPanel(page: Page, orderId: string) {
      await signInToAdmin(page, admin.ui().url, email, password)
      await page.goto(`${admin.ui().url}/app/orders/${orderId}`)
      const panel = page.getByTestId("altapay-payment")
      await panel.getByTestId("altapay-captured").waitFor({ timeout: 30_000 })
      return panel
    }

    /** Waits until the panel's `testId` amount reads something other than `before`. */
    async function amountChanges(page: Page, testId: string, before: string) {
      await page.waitForFunction(
        ({ id, was }) => {
          const text = document.querySelector(`[data-testid="${id}"]`)?.textContent
          return !!text && text !== was
        },
        { id: testId, was: before },
        { timeout: 30_000 }
      )
    }

    it("logs into the admin, sees the AltaPay panel, refunds one item, sees the refunded amount change and the refund in the request log", async () => {
      const started = Date.now()
      const { container, order, coffee, headers } = await authorizedOrder()
      await api.post(`/admin/payments/${order.paymentId}/capture`, {}, { headers })
      const total = `${(toMinorUnits(order.cart.total, "DKK") / 100).toFixed(2)} DKK`
      timings.order_ms = Date.now() - started

      const { page, errors } = await openAdminPage(admin.browser())
      await withFailureScreenshot(page, errors, "admin-refund", async () => {
        const browserStart = Date.now()
        const panel = await openOrderPanel(page, order.orderId)
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
        await docScreenshot(drawer, "admin-refund-items", { height: 560 })
        await drawer.getByTestId("altapay-refund-submit").click()

        await amountChanges(page, "altapay-refunded", "0.00 DKK")
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

        await panel.scrollIntoViewIfNeeded()
        await docScreenshot(panel, "admin-order-panel")
        await saveScreenshot(page, "admin-refund")

        // requestLog on: the panel lists what the plugin said to AltaPay about this payment, newest first.
        const log = panel.getByTestId("altapay-request-log")
        expect(await log.textContent()).toContain("Kept for 2 days, the last 20 per payment.") // the group's requestLog
        await log.getByTestId("altapay-request-log-toggle").click()
        const entries = log.getByTestId("altapay-request-log-entry")
        await entries.first().waitFor()
        // Each entry: the operation, its outcome, then AltaPay's answer (HTTP status · result · …).
        const shown = (await entries.allInnerTexts()).map((text) => text.split("\n").filter(Boolean))
        expect(await log.getByTestId("altapay-request-log-toggle").textContent()).toBe(`Hide (${shown.length} requests)`)
        const [refund, capture] = shown.filter(([operation]) => /refundCapturedReservation|captureReservation/.test(operation))
        expect(refund.slice(0, 2)).toEqual(["POST /merchant/API/refundCapturedReservation", "Success"])
        expect(refund[2]).toMatch(/^HTTP 200 · Success · .* · Reconciliation ID medusa-refund-/)
        expect(capture.slice(0, 2)).toEqual(["POST /merchant/API/captureReservation", "Success"])
        expect(capture[2]).toMatch(/^HTTP 200 · Success · .* · Reconciliation ID medusa-capture-capt_/)
        expect(shown.at(-1)![0]).toBe("POST /checkout/v1/api/session") // the first call: the checkout session
        expect(shown.indexOf(refund)).toBeLessThan(shown.indexOf(capture))
        // Nothing of the customer or the card.
        const logText = (await log.textContent())!
        for (const personal of ["Karen", "Blixen", "Strandvejen", "4111111111111111", "karen@example.com"]) expect(logText).not.toContain(personal)
        await log.scrollIntoViewIfNeeded()
        await docScreenshot(log, "admin-request-log")
        expect(errors).toEqual([])
      })
    })

    it("captures one item of an authorized order through Capture items, sees the captured amount change, then what stays reserved once the order is canceled", async () => {
      const { container, order, coffee, headers } = await authorizedOrder()

      const { page, errors } = await openAdminPage(admin.browser())
      await withFailureScreenshot(page, errors, "admin-capture", async () => {
        const panel = await openOrderPanel(page, order.orderId)
        expect(await panel.getByTestId("altapay-status").textContent()).toBe("Authorized")
        expect(await panel.getByTestId("altapay-captured").textContent()).toBe("0.00 DKK")

        await panel.getByTestId("altapay-capture-items").click()
        const drawer = page.getByTestId("altapay-capture-drawer")
        await drawer.waitFor()
        await drawer.getByTestId(`altapay-capture-qty-${coffee.id}`).fill("1")
        // The server's preview: one coffee's reserved lines.
        const amount = drawer.locator('[data-testid="altapay-capture-amount"]:not([data-stale])')
        await amount.waitFor({ timeout: 30_000 })
        const previewed = (await amount.textContent())!
        expect(previewed).toMatch(/^\d+\.\d{2} DKK$/)
        expect(previewed).not.toBe("0.00 DKK")
        await docScreenshot(drawer, "admin-capture-items", { height: 560 })
        await drawer.getByTestId("altapay-capture-submit").click()

        await amountChanges(page, "altapay-captured", "0.00 DKK")
        await page.getByText("Captured", { exact: true }).first().waitFor({ timeout: 10_000 }) // the toast
        expect(await panel.getByTestId("altapay-captured").textContent()).toBe(previewed)
        // Part captured, the rest still reserved and capturable.
        expect(await panel.getByTestId("altapay-reservation-left").textContent()).toContain("is still reserved and can be captured")

        // Medusa and AltaPay recorded the same capture.
        const payment = await container.resolve(Modules.PAYMENT).retrievePayment(order.paymentId, { relations: ["captures"] })
        expect(payment.captures).toHaveLength(1)
        const capturedMinor = toMinorUnits(payment.captures![0].amount, "DKK")
        expect(previewed).toBe(`${(capturedMinor / 100).toFixed(2)} DKK`)
        expect(store.sandbox().transaction(payment.data!.transaction_id as string)!.capturedMinor).toBe(capturedMinor)

        // Medusa refunds what was captured and releases nothing: the rest waits to lapse.
        await api.post(`/admin/orders/${order.orderId}/cancel`, {}, { headers })
        await page.reload()
        const notice = panel.getByTestId("altapay-reservation-left")
        await notice.waitFor({ timeout: 30_000 })
        expect(await notice.textContent()).toMatch(/stays reserved on the customer's card: AltaPay cannot release part of a reservation, so it lapses by itself on about /)
        expect(await panel.getByTestId("altapay-capture-items").isDisabled()).toBe(true)

        await panel.scrollIntoViewIfNeeded()
        await saveScreenshot(page, "admin-capture")
        expect(errors).toEqual([])
      })
    })

    it("lists a customer's saved card on the customer page and deletes it there, leaving no card to charge", async () => {
      const container = getContainer()
      const customer = await createCustomer(api, seed)
      const savedCards = container.resolve<AltaPaySavedCardsService>(ALTAPAY_SAVED_CARDS_MODULE)
      await savedCards.createAltapaySavedCards([
        {
          customer_id: customer.id,
          provider_id: PROVIDER_ID,
          agreement_id: "agreement-of-the-browser-test",
          masked_pan: "411111******1111",
          expiry_month: 12,
          expiry_year: 2035,
          scheme: "Visa",
          terminal: "AltaPay Sandbox Test Terminal",
          currency: "DKK",
        },
      ])

      const { page, errors } = await openAdminPage(admin.browser())
      await withFailureScreenshot(page, errors, "admin-saved-cards", async () => {
        await signInToAdmin(page, admin.ui().url, email, password)
        await page.goto(`${admin.ui().url}/app/customers/${customer.id}`)
        const widget = page.getByTestId("altapay-saved-cards")
        const card = widget.getByTestId("altapay-saved-card")
        await card.waitFor({ timeout: 30_000 })
        expect(await card.textContent()).toContain("Visa 411111******1111")
        await widget.scrollIntoViewIfNeeded()
        await docScreenshot(widget, "admin-saved-cards")

        await card.getByRole("button", { name: "Delete" }).click()
        await page.getByRole("button", { name: "Delete" }).last().click() // the prompt's
        await widget.waitFor({ state: "detached", timeout: 30_000 }) // no card left: the widget shows nothing
        expect(await savedCards.listAltapaySavedCards({ customer_id: customer.id })).toEqual([])
        expect(errors).toEqual([])
      })
    })

    it("shows AltaPay's health on the AltaPay page: the live check, the last post and how late it came, a refused post, a job's run, an uncertain capture and a reservation about to expire, with their order", async () => {
      const container = getContainer()
      const headers = await adminHeaders()
      const cart = await createCart(api, seed, { promotion: false })
      const paid = await payWithAltaPay(await startSession(api, seed, cart.id), { sandbox: store.sandbox(), callback: false })
      const { data } = await api.post(`/store/carts/${cart.id}/complete`, {}, { headers: storeHeaders(seed) })
      const orderId = data.order.id as string
      const [payment] = await orderPayments(container, orderId)
      const total = `${(toMinorUnits(cart.total, "DKK") / 100).toFixed(2)} DKK`

      // AltaPay's callback signed two hours ago, and one whose signature is forged: Medusa handles both about 5 s later.
      expect((await store.sandbox().sendCallback(paid.paymentId, { timestamp: Math.floor(Date.now() / 1000) - 7200 })).status).toBe(200)
      expect((await store.sandbox().sendCallback(paid.paymentId, { signature: "forged" })).status).toBe(200)
      await paymentSessionsJob(container)
      const health = async () => (await api.get("/admin/altapay/health", { headers })).data as AdminAltaPayHealthResponse
      await eventually(health, (h) => !!h.registrations[0].posts.lastReceived && h.registrations[0].posts.refusedLastDay.signature > 0)
      // Then a capture whose answer is lost, with AltaPay unreachable to look it up: uncertain.
      store.sandbox().faults.add({ route: "captureReservation", kind: "lost-answer" })
      store.sandbox().faults.add({ route: "payments", kind: "503", times: 3 })
      expect((await api.post(`/admin/payments/${payment.id}/capture`, {}, { headers, validateStatus: () => true })).status).toBeGreaterThanOrEqual(400)
      store.sandbox().faults.clear()
      expect((await health()).uncertain).toHaveLength(1)

      const { page, errors } = await openAdminPage(admin.browser())
      await withFailureScreenshot(page, errors, "altapay-health", async () => {
        await signInToAdmin(page, admin.ui().url, email, password)
        await page.goto(`${admin.ui().url}/app/altapay`)
        const card = page.getByTestId(`health-registration-${PROVIDER_ID}`)
        await card.waitFor({ timeout: 30_000 })
        expect(await card.getByTestId(`health-gateway-${PROVIDER_ID}`).textContent()).toBe("Local sandbox")

        // AltaPay's answer, live: the API user accepted, its terminal and currency; asked again on "Check again".
        const credentials = card.getByTestId(`health-credentials-${PROVIDER_ID}`)
        await credentials.waitFor({ timeout: 30_000 })
        expect(await credentials.textContent()).toBe("AltaPay accepts the API user")
        const terminals = await card.getByTestId(`health-terminals-${PROVIDER_ID}`).locator("tbody tr").allInnerTexts()
        expect(terminals).toContainEqual(expect.stringMatching(/^AltaPay Sandbox Test Terminal\s+DKK\b/))
        const askedAgain = page.waitForResponse((r) => r.url().endsWith(`/admin/altapay/health/${PROVIDER_ID}/check`) && r.status() === 200)
        await card.getByTestId(`health-check-again-${PROVIDER_ID}`).click()
        await askedAgain
        expect(await credentials.textContent()).toBe("AltaPay accepts the API user")

        // The posts: the last one and how late it came; the forged one refused, with its runbook section.
        expect(await card.getByTestId(`health-last-post-${PROVIDER_ID}`).textContent()).toMatch(/^Notification callback at .+, 2 hours after AltaPay signed it$/)
        expect(await card.getByTestId(`health-refused-signature-${PROVIDER_ID}`).textContent()).toBe("Signature did not verify: 1Runbook: docs/operator.md#refused-signature")
        expect(await card.getByTestId(`health-refused-source-${PROVIDER_ID}`).textContent()).toBe("From an address callbackSources does not allow: 0")

        // The store: the job's run, the uncertain capture and the reservation not captured, each opening its order.
        expect(await page.getByTestId("health-job-paymentSessions").innerText()).toMatch(/^Payment sessions\s.+\sAltaPay follow-up of payment sessions: checked /)
        const attempt = page.getByTestId("health-uncertain-attempt")
        expect(await attempt.count()).toBe(1)
        expect(await attempt.textContent()).toMatch(new RegExp(`^Capture of ${total.replace(".", "\\.")}, sent .+Open the order #\\d+$`))
        expect(await attempt.getByTestId("health-uncertain-order").getAttribute("href")).toBe(`/app/orders/${orderId}`)
        const reservation = page.getByTestId("health-expiring-reservation")
        expect(await reservation.count()).toBe(1)
        expect(await reservation.textContent()).toMatch(new RegExp(`^${total.replace(".", "\\.")} not captured, expires .+Open the order #\\d+$`))
        expect(await reservation.getByTestId("health-expiring-order").getAttribute("href")).toBe(`/app/orders/${orderId}`)

        await saveScreenshot(page, "altapay-health")
        await docScreenshot(page, "admin-altapay-health", { height: 1620 })
        await attempt.getByTestId("health-uncertain-order").click()
        await page.waitForURL(`**/app/orders/${orderId}`)
        expect(errors).toEqual([])
      })
      // The follow-up job settles the capture: the next test's AltaPay page has no attempt whose order is gone.
      await uncertainMoneyJob(container)
    })

    it("speaks Danish once the admin user chooses Danish on the profile page (issue 43), and still after a reload, on the AltaPay page too", async () => {
      const { order } = await authorizedOrder()
      const total = `${(toMinorUnits(order.cart.total, "DKK") / 100).toFixed(2)} DKK`

      const { page, errors } = await openAdminPage(admin.browser())
      await withFailureScreenshot(page, errors, "admin-danish", async () => {
        await signInToAdmin(page, admin.ui().url, email, password)
        // Medusa's own language menu has no Danish: the plugin's widget on the profile page sets it.
        await page.goto(`${admin.ui().url}/app/settings/profile`)
        await page.getByTestId("altapay-language-da").click()
        await page.goto(`${admin.ui().url}/app/orders/${order.orderId}`)
        const panel = page.getByTestId("altapay-payment")
        await panel.getByTestId("altapay-captured").waitFor({ timeout: 30_000 })
        const danish = async () => {
          expect(await panel.getByTestId("altapay-status").textContent()).toBe("Godkendt")
          expect(await panel.getByText("Reserveret", { exact: true }).count()).toBe(1)
          expect(await panel.getByTestId("altapay-capture-items").textContent()).toBe("Hæv varer")
          expect(await panel.getByTestId("altapay-refund-items").textContent()).toBe("Refunder varer")
          // The sidebar's page label too (translationNs).
          expect(await page.getByText("AltaPay-udbetalinger", { exact: true }).count()).toBeGreaterThan(0)
        }
        await danish()

        await panel.getByTestId("altapay-capture-items").click()
        const drawer = page.getByTestId("altapay-capture-drawer")
        await drawer.getByText("Hæv varer gennem AltaPay", { exact: true }).waitFor({ timeout: 30_000 })
        await page.keyboard.press("Escape")

        // Medusa's i18next keeps the choice in the browser.
        await page.reload()
        await panel.getByTestId("altapay-captured").waitFor({ timeout: 30_000 })
        await danish()
        await panel.scrollIntoViewIfNeeded()
        await saveScreenshot(page, "admin-danish")

        // The AltaPay page in Danish too: its heading, AltaPay's live answer and the order's reservation.
        await page.goto(`${admin.ui().url}/app/altapay`)
        const credentials = page.getByTestId(`health-credentials-${PROVIDER_ID}`)
        await credentials.waitFor({ timeout: 30_000 })
        expect(await page.getByRole("heading", { name: "AltaPay-driftsstatus" }).count()).toBe(1)
        expect(await page.getByTestId(`health-gateway-${PROVIDER_ID}`).textContent()).toBe("Lokal sandkasse")
        expect(await credentials.textContent()).toBe("AltaPay godkender API-brugeren")
        expect(await page.getByTestId(`health-refused-signature-${PROVIDER_ID}`).textContent()).toMatch(/^Signaturen kunne ikke verificeres: \d+/)
        const reservation = page.getByTestId("health-expiring-reservation")
        expect(await reservation.textContent()).toMatch(new RegExp(`^${total.replace(".", "\\.")} ikke hævet, udløber .+Åbn ordren #\\d+$`))
        await docScreenshot(page, "admin-altapay-health-da", { height: 1620 })
        expect(errors).toEqual([])
      })
    })
  },
})
