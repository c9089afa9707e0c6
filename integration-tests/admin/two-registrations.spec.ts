/**
 * A store that registers AltaPay once per terminal (two-registrations/medusa-config.ts:
 * pp_altapay_card and pp_altapay_mobilepay, the MobilePay one with its own paymentDataSecret)
 * with the plugin's routes: the store route and payment links pay on the registration they are
 * asked for; the admin routes act on each payment through its own registration. Real admin user,
 * Medusa's store API, the sandbox over HTTP; the order page in Chromium when it is installed.
 */
import fs from "node:fs"
import path from "node:path"
import type { MedusaContainer } from "@medusajs/framework/types"
import { ContainerRegistrationKeys, Modules } from "@medusajs/framework/utils"
import { storeTestRunner } from "../../tools/test-store/store-app/runner"
import { decimalToMinor } from "../../src/altapay"
import { toMinorUnits } from "../../src/lib/medusa-mapping/amounts"
import { PAYMENT_METHODS } from "../../src/sandbox/state"
import { listPaymentMethods } from "../../src/storefront"
import { REPO_ROOT } from "../../tools/test-store/app/config"
import { browserUnavailable, CHROMIUM, CHROMIUM_ARGS } from "../setup/chromium"
import { prepareStoreAppDir, useAltaPayStore, WEBHOOK_PROCESSING_DELAY_MS } from "../../tools/test-store/store-app/altapay-store"
import {
  createAdminUser,
  createAltaPayOrder,
  createCart,
  eventually,
  orderPayments,
  seedStore,
  startSession,
  storeHeaders,
  type Api,
  type SeededStore,
} from "../../tools/test-store/store"
import { TERMINALS } from "../storefront/two-terminals/terminals"
import { buildAdminUi, serveAdminUi, signInToAdmin, type BuiltAdminUi } from "./browser/admin-ui"
import { shopOrderIdFor } from "../../src/lib/medusa-mapping/shop-order-id"

const CARD = "pp_altapay_card"
const MOBILEPAY = "pp_altapay_mobilepay"
const APP_DIR = prepareStoreAppDir("altapay-two-registrations-app", path.join(__dirname, "two-registrations/medusa-config.ts"))
const ARTIFACTS = path.join(REPO_ROOT, "test-artifacts")

const store = useAltaPayStore()
const noBrowser = browserUnavailable()
// The admin UI builds (or comes from its cache) while the app boots.
const building: Promise<BuiltAdminUi> | undefined = noBrowser ? undefined : buildAdminUi()
building?.catch(() => undefined)

const fileStart = Date.now()
afterAll(() => {
  // eslint-disable-next-line no-console
  console.log(`[admin] two-registrations.spec.ts: ${Date.now() - fileStart} ms`)
})

const anyStatus = { validateStatus: () => true }
const ledger = (operation: string) =>
  store
    .sandbox()
    .ledger()
    .filter((e) => e.operation === operation)
const dkk = (amount: unknown) => toMinorUnits(amount as number, "DKK")
const mobilePayMethod = PAYMENT_METHODS.find((m) => m.terminalName === TERMINALS.mobilepay)!

async function paymentSession(container: MedusaContainer, id: string) {
  const { data } = await container.resolve(ContainerRegistrationKeys.QUERY).graph({ entity: "payment_session", fields: ["id", "provider_id", "status", "data"], filters: { id } })
  return data[0] as { id: string; provider_id: string; status: string; data: Record<string, any> }
}

storeTestRunner({
  cwd: APP_DIR,
  testSuite: ({ api: rawApi, getContainer }) => {
    const api = rawApi as unknown as Api
    let admin: { id: string; headers: Record<string, string> }
    let seed: SeededStore
    const as = () => ({ headers: admin.headers, ...anyStatus })

    // Seeded once: the runner restores this database before every test.
    beforeAll(async () => {
      admin = await createAdminUser(api, getContainer())
      seed = await seedStore(getContainer(), { paymentProviders: [CARD, MOBILEPAY] })
    })
    beforeEach(() => store.sandbox().clearLedger())

    /** An order paid on `providerId`'s terminal and captured from the admin. */
    async function capturedOrder(providerId: string) {
      const order = await createAltaPayOrder(api, seed, getContainer(), store.sandbox(), { providerId })
      expect((await api.post(`/admin/payments/${order.paymentId}/capture`, {}, as())).status).toBe(200)
      const [payment] = await orderPayments(getContainer(), order.orderId)
      return { ...order, transactionId: payment.data.transaction_id as string }
    }

    /** An order edit adds a tea: the order then has an amount due, to be paid by link. */
    async function addTeaByPhone(orderId: string): Promise<number> {
      await api.post("/admin/order-edits", { order_id: orderId }, as())
      await api.post(`/admin/order-edits/${orderId}/items`, { items: [{ variant_id: seed.products.tea.variantId, quantity: 1 }] }, as())
      await api.post(`/admin/order-edits/${orderId}/request`, {}, as())
      expect((await api.post(`/admin/order-edits/${orderId}/confirm`, {}, as())).status).toBe(200)
      const { data } = await getContainer()
        .resolve(ContainerRegistrationKeys.QUERY)
        .graph({ entity: "order", fields: ["summary"], filters: { id: orderId } })
      return dkk((data[0] as { summary: { pending_difference: number } }).summary.pending_difference)
    }

    it("lists both registrations with their terminals for the admin", async () => {
      const { status, data } = await api.get("/admin/altapay/providers", as())
      expect(status).toBe(200)
      expect(data.providers).toEqual([
        { id: CARD, terminal: TERMINALS.card, terminals: null },
        { id: MOBILEPAY, terminal: TERMINALS.mobilepay, terminals: null },
      ])
      expect((await api.get("/admin/altapay/providers", anyStatus)).status).toBe(401)
    })

    it("the store route pays on the registration it names; without provider_id, or with one that is not AltaPay's, a 400 names the choices", async () => {
      const cart = await createCart(api, seed)
      const route = `/store/carts/${cart.id}/altapay-session`
      const headers = { headers: storeHeaders(seed), ...anyStatus }
      for (const body of [{}, { provider_id: "pp_altapay_altapay" }, { provider_id: "pp_system_default" }]) {
        const refused = await api.post(route, body, headers)
        expect([refused.status, refused.data.type]).toEqual([400, "invalid_data"])
        expect(refused.data.message).toContain(`${CARD}, ${MOBILEPAY}`)
      }
      expect(ledger("session.create")).toHaveLength(0)

      const session = await startSession(api, seed, cart.id, undefined, MOBILEPAY)
      expect(session).toMatchObject({ providerId: MOBILEPAY, terminal: TERMINALS.mobilepay })
      const row = await paymentSession(getContainer(), session.paymentSessionId)
      expect(row).toMatchObject({ provider_id: MOBILEPAY, data: { terminal: TERMINALS.mobilepay, altapay_session_id: session.sessionId } })
      // AltaPay calls back the MobilePay registration's own URL.
      const created = ledger("session.create").at(-1)!.params as { callbacks: { notification: string } }
      expect(created.callbacks.notification).toBe(`${store.medusaUrl()}/hooks/payment/altapay_mobilepay`)

      // Asked again for the unchanged cart: the same session (recognised with the MobilePay
      // registration's own seal key), a new token.
      const again = await startSession(api, seed, cart.id, undefined, MOBILEPAY)
      expect([again.paymentSessionId, again.sessionId]).toEqual([session.paymentSessionId, session.sessionId])
      expect(again.token).not.toBe(session.token)
      expect(ledger("session.create")).toHaveLength(1)

      // The token pays with the MobilePay terminal's method: the reservation is on that terminal.
      const method = (await listPaymentMethods(again)).find((m) => m.metadata?.terminalName === again.terminal)!
      expect(method.id).toBe(mobilePayMethod.id)
      await store.sandbox().simulatePayment(again.sessionId, { paymentMethodId: method.id, callback: false })

      // Paid on MobilePay, the cart not completed yet: no session for the card registration, which
      // would make Medusa delete the paid one.
      await getContainer().resolve(Modules.PAYMENT).authorizePaymentSession(again.paymentSessionId, {})
      const card = await api.post(route, { provider_id: CARD }, headers)
      expect([card.status, card.data.message]).toEqual([400, expect.stringMatching(/is already paid .*complete the cart/)])
      expect(await paymentSession(getContainer(), again.paymentSessionId)).toMatchObject({ status: "authorized" })
      expect(ledger("session.create")).toHaveLength(1)

      const completed = await api.post(`/store/carts/${cart.id}/complete`, {}, { headers: storeHeaders(seed) })
      expect(completed.data.type).toBe("order")
      const [payment] = await orderPayments(getContainer(), completed.data.order.id)
      expect(payment).toMatchObject({ provider_id: MOBILEPAY, data: { terminal: TERMINALS.mobilepay } })
      expect(store.sandbox().transaction(payment.data.transaction_id)).toMatchObject({ terminal: TERMINALS.mobilepay })
    })

    it("an order paid through pp_altapay_mobilepay: the admin sees it live and refunds an item on the MobilePay transaction", async () => {
      const order = await capturedOrder(MOBILEPAY)

      const { status, data } = await api.get(`/admin/altapay/payments/${order.paymentId}`, as())
      expect(status).toBe(200)
      expect(data.altapay_payment).toMatchObject({
        provider_id: MOBILEPAY,
        altapay: { live: true, error: null, status: "captured", terminal: TERMINALS.mobilepay, transaction_id: order.transactionId },
        refundable: { amount: { minor: dkk(order.cart.total) } },
      })

      const coffee = data.altapay_payment.refundable.items.find((i: { sku: string }) => i.sku === seed.products.coffee.sku)
      const refunded = await api.post(
        `/admin/altapay/payments/${order.paymentId}/refunds`,
        { items: [{ line_item_id: coffee.line_item_id, quantity: 1 }], note: "Broken bag" },
        as()
      )
      expect([refunded.status, refunded.data.message]).toEqual([200, undefined])
      const requestedMinor = refunded.data.refund.amount.minor
      expect(requestedMinor).toBeGreaterThan(0)
      expect(refunded.data.refund).toMatchObject({ status: "succeeded", items: [{ line_item_id: coffee.line_item_id, quantity: 1 }] })

      // AltaPay refunded exactly that, on the MobilePay terminal's transaction, with the coffee's lines.
      const [sent] = ledger("refundCapturedReservation").map((e) => e.params as { transaction_id: string; amount: string; orderLines: Array<Record<string, string>> })
      expect(sent.transaction_id).toBe(order.transactionId)
      expect(decimalToMinor(sent.amount, "DKK")).toBe(requestedMinor)
      expect(sent.orderLines[0]).toMatchObject({ itemId: seed.products.coffee.sku, quantity: "1" })
      expect(store.sandbox().transaction(order.transactionId)).toMatchObject({ terminal: TERMINALS.mobilepay, refundedMinor: requestedMinor })
      expect(refunded.data.altapay_payment).toMatchObject({ provider_id: MOBILEPAY, altapay: { refunded: { minor: requestedMinor } } })
      const [payment] = await orderPayments(getContainer(), order.orderId)
      expect(payment.data).toMatchObject({
        refunded_minor: requestedMinor,
        pending_refund: null,
        refunds: [expect.objectContaining({ amount_minor: requestedMinor, items: [{ line_item_id: coffee.line_item_id, quantity: 1 }] })],
      })
    })

    it("a payment link on the registration the admin picks: an order paid by card gets a MobilePay link, and then shows both payments", async () => {
      const order = await capturedOrder(CARD)
      const dueMinor = await addTeaByPhone(order.orderId)
      expect(dueMinor).toBeGreaterThan(0)

      const unnamed = await api.post("/admin/altapay/payment-links", { order_id: order.orderId }, as())
      expect(unnamed.status).toBe(400)
      expect(unnamed.data.message).toContain(`give provider_id, one of ${CARD}, ${MOBILEPAY}`)
      const unknown = await api.post("/admin/altapay/payment-links", { order_id: order.orderId, provider_id: "pp_altapay_vipps" }, as())
      expect([unknown.status, unknown.data.message]).toEqual([400, expect.stringContaining(`use one of ${CARD}, ${MOBILEPAY}`)])
      expect(ledger("link.create")).toHaveLength(0)

      const { status, data: link } = await api.post("/admin/altapay/payment-links", { order_id: order.orderId, provider_id: MOBILEPAY }, as())
      expect(status).toBe(200)
      expect(link).toMatchObject({ provider_id: MOBILEPAY, terminal: TERMINALS.mobilepay, order_id: order.orderId, amount: { minor: dueMinor } })
      expect(await paymentSession(getContainer(), link.payment_session_id)).toMatchObject({ provider_id: MOBILEPAY, data: { terminal: TERMINALS.mobilepay } })
      const created = ledger("session.create").find((e) => (e.params as { order: { orderId: string } }).order.orderId === shopOrderIdFor(link.payment_session_id))!
      expect((created.params as { callbacks: { notification: string } }).callbacks.notification).toBe(`${store.medusaUrl()}/hooks/payment/altapay_mobilepay`)

      // The customer pays the link with MobilePay; AltaPay's callback reaches the MobilePay
      // registration's webhook, and Medusa attaches the payment to the order.
      await store.sandbox().simulatePayment(link.altapay_session_id, { paymentMethodId: mobilePayMethod.id })
      const payments = await eventually(
        () => orderPayments(getContainer(), order.orderId),
        (found) => found.length === 2,
        WEBHOOK_PROCESSING_DELAY_MS + 20_000
      )
      const byLink = payments.find((p) => p.payment_session_id === link.payment_session_id)!
      expect(byLink).toMatchObject({ provider_id: MOBILEPAY, data: { terminal: TERMINALS.mobilepay, transaction_status: "preauth", amount_minor: dueMinor } })
      expect(store.sandbox().transaction(byLink.data.transaction_id)).toMatchObject({ terminal: TERMINALS.mobilepay })

      // The admin shows each payment through its own registration.
      const views = await Promise.all(payments.map((p) => api.get(`/admin/altapay/payments/${p.id}`, as())))
      expect(views.map((v) => [v.status, v.data.altapay_payment.provider_id, v.data.altapay_payment.altapay.terminal, v.data.altapay_payment.altapay.live]).sort()).toEqual([
        [200, CARD, TERMINALS.card, true],
        [200, MOBILEPAY, TERMINALS.mobilepay, true],
      ])
      // This store does not register the payouts module: the panel shows no payouts, and no error.
      expect(views.map((v) => [v.data.altapay_payment.payouts, v.data.altapay_payment.payouts_error])).toEqual([
        [[], null],
        [[], null],
      ])
    })

    const browserIt = noBrowser ? it.skip : it
    browserIt(
      `the order page in a real browser: the merchant picks MobilePay for the payment link, and both payments get their panel${noBrowser ? ` (skipped: ${noBrowser})` : ""}`,
      async () => {
        const container = getContainer()
        const email = "merchant@shop.example"
        const password = "merchant-password-123"
        await createAdminUser(api, container, email, password)
        const order = await capturedOrder(CARD)
        const dueMinor = await addTeaByPhone(order.orderId)

        const ui = await serveAdminUi((await building!).dir, store.medusaUrl())
        const { chromium } = require("playwright-core") as typeof import("playwright-core")
        const browser = await chromium.launch({ executablePath: CHROMIUM, args: CHROMIUM_ARGS, headless: true })
        const page = await browser.newPage({ viewport: { width: 1440, height: 1400 } })
        try {
          await signInToAdmin(page, ui.url, email, password)
          await page.goto(`${ui.url}/app/orders/${order.orderId}`)

          // One panel (the card payment) and the link section, preset to the registration the order paid with.
          await page.getByTestId("altapay-provider").first().waitFor({ timeout: 30_000 })
          expect(await page.getByTestId("altapay-provider").allTextContents()).toEqual([CARD])
          const picker = page.getByTestId("altapay-link-provider")
          await picker.waitFor({ timeout: 30_000 })
          expect(await picker.locator("button").textContent()).toBe(`card (${TERMINALS.card})`)
          await picker.locator("button").click()
          await page.getByRole("option", { name: `mobilepay (${TERMINALS.mobilepay})` }).click()
          await page.getByTestId("altapay-create-link").click()
          await page.getByTestId("altapay-link-result").waitFor({ timeout: 30_000 })
          expect(await page.getByTestId("altapay-link-result").textContent()).toContain("mobilepay")

          const [sent] = ledger("link.create")
          const sessionId = (sent.path as string).split("/").at(-2)!
          const paid = await store.sandbox().simulatePayment(sessionId, { paymentMethodId: mobilePayMethod.id })
          expect(store.sandbox().transaction(paid.transactionId!)).toMatchObject({ terminal: TERMINALS.mobilepay, reservedMinor: dueMinor })
          await eventually(
            () => orderPayments(container, order.orderId),
            (found) => found.length === 2,
            WEBHOOK_PROCESSING_DELAY_MS + 20_000
          )

          await page.reload()
          await page.getByTestId("altapay-provider").nth(1).waitFor({ timeout: 30_000 })
          expect((await page.getByTestId("altapay-provider").allTextContents()).sort()).toEqual([CARD, MOBILEPAY])
          expect((await page.getByTestId("altapay-terminal").allTextContents()).sort()).toEqual([TERMINALS.card, TERMINALS.mobilepay].sort())
          fs.mkdirSync(ARTIFACTS, { recursive: true })
          await page.screenshot({ path: path.join(ARTIFACTS, "admin-two-registrations.png"), fullPage: true })
        } catch (error) {
          fs.mkdirSync(ARTIFACTS, { recursive: true })
          await page.screenshot({ path: path.join(ARTIFACTS, "admin-two-registrations-failure.png"), fullPage: true }).catch(() => undefined)
          throw error
        } finally {
          await browser.close()
          await ui.close()
        }
      },
      // It waits for the admin's Vite build started with the file: 87 s, then past the project's 120 s,
      // beside the other lane on a machine losing half its CPU to its host (2026-12-01). A bound on a
      // hung build or browser, not a speed asserted.
      300_000
    )
  },
})
