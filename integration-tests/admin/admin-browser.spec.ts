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
import { ContainerRegistrationKeys, Modules } from "@medusajs/framework/utils"
import { medusaIntegrationTestRunner } from "@medusajs/test-utils"
import { toMinorUnits } from "../../src/lib/medusa-mapping/amounts"
import { STORE_APP_DIR, useAltaPayStore } from "../../tools/test-store/store-app/altapay-store"
import { createAdminUser, createAltaPayOrder, seedStore, type Api } from "../../tools/test-store/store"
import { browserSpecCanRun } from "../setup/chromium"
import { signInToAdmin } from "./browser/admin-ui"
import { adminBrowser, openAdminPage, saveScreenshot, withFailureScreenshot } from "./browser/admin-browser"

if (browserSpecCanRun("the AltaPay panel in a real browser")) {
  const store = useAltaPayStore()
  const fileStart = Date.now()
  const timings: Record<string, number> = {}
  const useAdminBrowser = adminBrowser(() => store.medusaUrl(), timings)

  afterAll(() => {
    // eslint-disable-next-line no-console
    console.log(`[admin-browser] ${JSON.stringify({ ...timings, file_ms: Date.now() - fileStart })}`)
  })

  medusaIntegrationTestRunner({
    cwd: STORE_APP_DIR,
    testSuite: ({ api: rawApi, getContainer }) => {
      const api = rawApi as unknown as Api
      const admin = useAdminBrowser()

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

        const { page, errors } = await openAdminPage(admin.browser())
        await withFailureScreenshot(page, errors, "admin-refund", async () => {
          const browserStart = Date.now()
          await signInToAdmin(page, admin.ui().url, email, password)

          await page.goto(`${admin.ui().url}/app/orders/${order.orderId}`)
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

          await panel.scrollIntoViewIfNeeded()
          await saveScreenshot(page, "admin-refund")
          expect(errors).toEqual([])
        })
      })
    },
  })
}
