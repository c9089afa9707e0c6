/**
 * The AltaPay panel in a real browser: headless Chromium (Debian's `chromium`) driven by
 * playwright-core logs into Medusa's admin, opens an order paid through AltaPay, checks the
 * panel's amounts, refunds one item through the panel's form and sees the refunded amount change;
 * on an order only authorized, captures one item through "Capture items" and sees the captured
 * amount change, then cancels the order and sees what stays reserved; lists a customer's saved card
 * on the customer page and deletes it there; with Danish chosen on the profile page, sees the
 * panel, its drawer and the sidebar in Danish. Saves test-artifacts/admin-refund.png,
 * admin-capture.png and admin-danish.png; with ALTAPAY_SCREENSHOTS=1 the merchant guide's docs/images/admin-*.png.
 *
 * The admin UI (dashboard + src/admin) is built once and cached (browser/admin-ui.ts); the
 * build runs while the app boots. Skipped, with the reason, without playwright-core or
 * /usr/bin/chromium, or with ALTAPAY_BROWSER_TESTS=0.
 */
import { ContainerRegistrationKeys, Modules } from "@medusajs/framework/utils"
import type { Page } from "playwright-core"
import { storeTestRunner } from "../../tools/test-store/store-app/runner"
import { toMinorUnits } from "../../src/lib/medusa-mapping/amounts"
import { STORE_APP_DIR, useAltaPayStore } from "../../tools/test-store/store-app/altapay-store"
import { createAdminUser, createAltaPayOrder, createCustomer, seedStore, type Api } from "../../tools/test-store/store"
import { browserSpecCanRun } from "../setup/chromium"
import { signInToAdmin } from "./browser/admin-ui"
import { ALTAPAY_SAVED_CARDS_MODULE } from "../../src/modules/altapay-saved-cards"
import type AltaPaySavedCardsService from "../../src/modules/altapay-saved-cards/service"
import { PROVIDER_ID } from "../../tools/test-store/altapay-sandbox"
import { adminBrowser, docScreenshot, openAdminPage, saveScreenshot, withFailureScreenshot } from "./browser/admin-browser"

if (browserSpecCanRun("the AltaPay panel in a real browser")) {
  // Saved cards on, for the customer page's widget.
  const store = useAltaPayStore({ savedCards: { enabled: true } })
  const fileStart = Date.now()
  const timings: Record<string, number> = {}
  const useAdminBrowser = adminBrowser(() => store.medusaUrl(), timings)

  afterAll(() => {
    // eslint-disable-next-line no-console
    console.log(`[admin-browser] ${JSON.stringify({ ...timings, file_ms: Date.now() - fileStart })}`)
  })

  storeTestRunner({
    cwd: STORE_APP_DIR,
    testSuite: ({ api: rawApi, getContainer }) => {
      const api = rawApi as unknown as Api
      const admin = useAdminBrowser()

      const email = "merchant@shop.example"
      const password = "merchant-password-123"

      /** An admin, a seeded store and an AltaPay order (authorized, not captured) with its coffee item and an admin token. */
      async function authorizedOrder() {
        const container = getContainer()
        await createAdminUser(api, container, email, password)
        const seed = await seedStore(container, { promotion: { code: "TEN", percent: 10 } })
        const order = await createAltaPayOrder(api, seed, container, store.sandbox())
        const { token } = (await api.post("/auth/user/emailpass", { email, password })).data as { token: string }
        const { data: orders } = await container
          .resolve(ContainerRegistrationKeys.QUERY)
          .graph({ entity: "order", fields: ["items.id", "items.variant_sku"], filters: { id: order.orderId } })
        const coffee = (orders[0] as { items: Array<{ id: string; variant_sku: string }> }).items.find((i) => i.variant_sku === seed.products.coffee.sku)!
        return { container, order, coffee, headers: { authorization: `Bearer ${token}` } }
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

      it("logs into the admin, sees the AltaPay panel, refunds one item and sees the refunded amount change", async () => {
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
        await createAdminUser(api, container, email, password)
        const seed = await seedStore(container)
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

      it("speaks Danish once the admin user chooses Danish on the profile page (issue 43), and still after a reload", async () => {
        const { order } = await authorizedOrder()

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
          expect(errors).toEqual([])
        })
      })
    },
  })
}
