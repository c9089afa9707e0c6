/**
 * An unchanged Medusa storefront (the Next.js starter's calls through @medusajs/js-sdk) pays with
 * AltaPay in the redirect flow: initiate the session, send the customer to `redirect_url`, complete
 * the cart when they return. The provider loads the cart's lines itself through `query`.
 */
import Medusa from "@medusajs/js-sdk"
import { medusaIntegrationTestRunner } from "@medusajs/test-utils"
import { ContainerRegistrationKeys } from "@medusajs/framework/utils"
import type { MedusaContainer } from "@medusajs/framework/types"
import { toCheckoutOrderLines } from "../../src/altapay"
import { CART_FIELDS_FOR_LINES, cartOrderLines, type CartForLines } from "../../src/lib/medusa-mapping/cart-lines"
import { PROVIDER_ID } from "../setup/altapay-sandbox"
import { initiateRedirectSession, starterCartAtPayment } from "../setup/starter-checkout"
import { orderForCart, orderPayments, seedStore, waitForOrder, type SeededStore } from "../setup/store"
import { STORE_APP_DIR, useAltaPayStore, WEBHOOK_PROCESSING_DELAY_MS } from "../setup/store-app/altapay-store"

jest.setTimeout(180_000)

const store = useAltaPayStore({ flow: "redirect" })

const ADDRESS = { first_name: "Karen", last_name: "Blixen", address_1: "Strandvejen 111", city: "Rungsted", postal_code: "2960", country_code: "dk" }

function storefrontSdk(seed: SeededStore): Medusa {
  return new Medusa({ baseUrl: store.medusaUrl(), publishableKey: seed.publishableKey })
}

const checkoutCart = (sdk: Medusa, seed: SeededStore) => starterCartAtPayment(sdk, seed, ADDRESS)
const initiate = (sdk: Medusa, cartId: string) => initiateRedirectSession(sdk, cartId, PROVIDER_ID)

/** The customer on AltaPay's page: it loads, they pay, AltaPay sends them back. */
async function payOnHostedPage(redirectUrl: string): Promise<Response> {
  const page = await fetch(redirectUrl)
  expect(await page.text()).toContain('id="authorize"')
  return fetch(redirectUrl, {
    method: "POST",
    headers: { "content-type": "application/x-www-form-urlencoded" },
    body: "outcome=authorize",
    redirect: "manual",
  })
}

async function linesFor(container: MedusaContainer, cartId: string) {
  const query = container.resolve(ContainerRegistrationKeys.QUERY)
  const { data } = await query.graph({ entity: "cart", fields: CART_FIELDS_FOR_LINES, filters: { id: cartId } })
  return toCheckoutOrderLines(cartOrderLines(data[0] as CartForLines), "DKK")
}

const sessionCreatedFor = (paymentSessionId: string) =>
  store
    .sandbox()
    .ledger()
    .find((e) => e.operation === "session.create" && (e.params as { order?: { orderId?: string } }).order?.orderId === paymentSessionId)

medusaIntegrationTestRunner({
  cwd: STORE_APP_DIR,
  testSuite: ({ getContainer }) => {
    let seed: SeededStore
    beforeEach(async () => {
      seed = await seedStore(getContainer())
    })

    it("the customer returns first and completes the cart; the callback processed later changes nothing", async () => {
      const sdk = storefrontSdk(seed)
      const cart = await checkoutCart(sdk, seed)
      const { paymentSessionId, redirectUrl } = await initiate(sdk, cart.id)
      // The provider loaded the cart itself: AltaPay received exactly the lines our store route builds.
      const received = (sessionCreatedFor(paymentSessionId)!.params as { order: { orderLines: unknown[] } }).order.orderLines
      expect(received).toEqual(await linesFor(getContainer(), cart.id))
      expect(received.length).toBeGreaterThanOrEqual(3)

      const back = await payOnHostedPage(redirectUrl)
      expect(back.status).toBe(303)
      expect(back.headers.get("location")).toContain(`session=${paymentSessionId}`)

      const completed = await sdk.store.cart.complete(cart.id)
      expect(completed.type).toBe("order")
      const orderId = completed.type === "order" ? completed.order.id : ""
      const [payment] = await orderPayments(getContainer(), orderId)
      expect(payment.data).toMatchObject({ transaction_status: "preauth", order_lines_source: "query" })

      // The callback AltaPay sent while redirecting is processed now: still one order, no capture.
      await new Promise((r) => setTimeout(r, WEBHOOK_PROCESSING_DELAY_MS + 1_500))
      expect(await orderForCart(getContainer(), cart.id)).toEqual({ id: orderId })
      expect(await orderPayments(getContainer(), orderId)).toHaveLength(1)
      expect(
        store
          .sandbox()
          .ledger()
          .filter((e) => e.operation === "captureReservation")
      ).toHaveLength(0)
    })

    it("the callback arrives first and makes the order; the customer returning gets that same order", async () => {
      const sdk = storefrontSdk(seed)
      const cart = await checkoutCart(sdk, seed)
      const { redirectUrl } = await initiate(sdk, cart.id)
      await payOnHostedPage(redirectUrl)

      const order = await waitForOrder(getContainer(), cart.id, WEBHOOK_PROCESSING_DELAY_MS + 15_000)
      const completed = await sdk.store.cart.complete(cart.id)
      expect(completed.type).toBe("order")
      expect(completed.type === "order" && completed.order.id).toBe(order.id)
      const payments = await orderPayments(getContainer(), order.id)
      expect(payments).toHaveLength(1)
      expect(payments[0].captured_at ?? null).toBeNull()
    })

    it("a cart change replaces the session, and the old payment page can no longer be paid", async () => {
      const sdk = storefrontSdk(seed)
      const cart = await checkoutCart(sdk, seed)
      const first = await initiate(sdk, cart.id)

      await sdk.store.cart.createLineItem(cart.id, { variant_id: seed.products.tea.variantId, quantity: 1 })
      // Medusa replaced the session; the provider retired the old AltaPay session's payment page.
      expect((await fetch(first.redirectUrl)).status).toBe(410)
      const staleSubmit = await fetch(first.redirectUrl, {
        method: "POST",
        headers: { "content-type": "application/x-www-form-urlencoded" },
        body: "outcome=authorize",
        redirect: "manual",
      })
      expect(staleSubmit.status).toBe(410)

      const second = await initiate(sdk, cart.id)
      expect(second.paymentSessionId).not.toBe(first.paymentSessionId)
      await payOnHostedPage(second.redirectUrl)
      const completed = await sdk.store.cart.complete(cart.id)
      expect(completed.type).toBe("order")
      const orderId = completed.type === "order" ? completed.order.id : ""
      const [payment] = await orderPayments(getContainer(), orderId)
      const { cart: final } = await sdk.store.cart.retrieve(cart.id)
      expect(payment.data.amount_minor).toBe(Math.round(Number(final.total) * 100))
      expect(payment.payment_session_id).toBe(second.paymentSessionId)
      await new Promise((r) => setTimeout(r, WEBHOOK_PROCESSING_DELAY_MS + 1_500))
      expect(await orderPayments(getContainer(), orderId)).toHaveLength(1)
    })
  },
})
