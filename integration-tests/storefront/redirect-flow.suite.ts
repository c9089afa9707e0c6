/**
 * An unchanged Medusa storefront (the Next.js starter's calls through @medusajs/js-sdk) pays with
 * AltaPay in the redirect flow: initiate the session, send the customer to `redirect_url`. AltaPay
 * (the sandbox, in its documented mode) posts the customer's return to the plugin's endpoint on
 * Medusa, which completes the cart and sends the customer on to the storefront's landing page.
 * The provider loads the cart's lines itself through `query`.
 */
import Medusa from "@medusajs/js-sdk"
import { storeSuite } from "../../tools/test-store/store-app/runner"
import { ContainerRegistrationKeys } from "@medusajs/framework/utils"
import type { MedusaContainer } from "@medusajs/framework/types"
import { toCheckoutOrderLines } from "../../src/altapay"
import { CART_FIELDS_FOR_LINES, cartOrderLines, type CartForLines } from "../../src/lib/medusa-mapping/cart-lines"
import { PROVIDER_ID } from "../../tools/test-store/altapay-sandbox"
import { initiateRedirectSession, starterCartAtPayment } from "../setup/starter-checkout"
import { orderForCart, orderPayments, returnsAfterCallback, seedStore, submitPaymentPage, type SeededStore } from "../../tools/test-store/store"
import { altapayStore } from "../../tools/test-store/store-app/altapay-store"
import { eventsSettled } from "../../tools/test-store/store-app/events-settled"
import { shopOrderIdFor } from "../../src/lib/medusa-mapping/shop-order-id"

const store = altapayStore()

const ADDRESS = { first_name: "Karen", last_name: "Blixen", address_1: "Strandvejen 111", city: "Rungsted", postal_code: "2960", country_code: "dk" }

function storefrontSdk(seed: SeededStore): Medusa {
  return new Medusa({ baseUrl: store.medusaUrl(), publishableKey: seed.publishableKey })
}

const checkoutCart = (sdk: Medusa, seed: SeededStore) => starterCartAtPayment(sdk, seed, ADDRESS)
const initiate = (sdk: Medusa, cartId: string) => initiateRedirectSession(sdk, cartId, PROVIDER_ID)

/**
 * The customer on AltaPay's page: it loads, they pay or decline, AltaPay posts the return to the
 * plugin and relays its 303: the landing page the browser is sent to, with what it says.
 */
async function payOnHostedPage(redirectUrl: string, outcome: "authorize" | "decline" = "authorize") {
  const page = await fetch(redirectUrl)
  expect(await page.text()).toContain('id="authorize"')
  const back = await fetch(redirectUrl, {
    method: "POST",
    headers: { "content-type": "application/x-www-form-urlencoded" },
    body: `outcome=${outcome}`,
    redirect: "manual",
  })
  await back.text()
  expect(back.status).toBe(303)
  const landing = new URL(back.headers.get("location")!)
  expect(`${landing.origin}${landing.pathname}`).toBe("http://shop.test/api/altapay/landing")
  return { outcome: landing.searchParams.get("outcome"), orderId: landing.searchParams.get("order_id"), cartId: landing.searchParams.get("cart_id") }
}

const returnsPosted = () =>
  store
    .sandbox()
    .ledger()
    .filter((e) => e.operation === "callback.success" || e.operation === "callback.failure")

async function linesFor(container: MedusaContainer, cartId: string) {
  const query = container.resolve(ContainerRegistrationKeys.QUERY)
  const { data } = await query.graph({ entity: "cart", fields: CART_FIELDS_FOR_LINES, filters: { id: cartId } })
  return toCheckoutOrderLines(cartOrderLines(data[0] as CartForLines), "DKK")
}

const sessionCreatedFor = (paymentSessionId: string) =>
  store
    .sandbox()
    .ledger()
    .find((e) => e.operation === "session.create" && (e.params as { order?: { orderId?: string } }).order?.orderId === shopOrderIdFor(paymentSessionId))

export default storeSuite({
  testSuite: ({ getContainer }) => {
    let seed: SeededStore
    // Seeded once: the group keeps the database after this as the template every test starts from.
    beforeAll(async () => {
      seed = await seedStore(getContainer())
    })

    it("the customer back before the callback: AltaPay's return post completes the cart at once; the callback processed later changes nothing", async () => {
      const sdk = storefrontSdk(seed)
      const cart = await checkoutCart(sdk, seed)
      const { paymentSessionId, redirectUrl } = await initiate(sdk, cart.id)
      // The provider loaded the cart itself: AltaPay received exactly the lines our store route builds.
      const received = (sessionCreatedFor(paymentSessionId)!.params as { order: { orderLines: unknown[] } }).order.orderLines
      expect(received).toEqual(await linesFor(getContainer(), cart.id))
      expect(received.length).toBeGreaterThanOrEqual(3)

      const landing = await payOnHostedPage(redirectUrl)
      const order = await orderForCart(getContainer(), cart.id)
      expect(landing).toEqual({ outcome: "paid", orderId: order!.id, cartId: cart.id })
      expect(returnsPosted()).toMatchObject([{ url: `${store.medusaUrl()}/altapay/return/altapay/success`, status: 303 }])
      const [payment] = await orderPayments(getContainer(), order!.id)
      expect(payment.data).toMatchObject({ transaction_status: "preauth", order_lines_source: "query", reconciled: { by: "return" } })

      // The callback AltaPay sent as well is processed now; the storefront completing the cart gets the same order.
      await eventsSettled(getContainer())
      const completed = await sdk.store.cart.complete(cart.id)
      expect(completed.type === "order" && completed.order.id).toBe(order!.id)
      expect(await orderForCart(getContainer(), cart.id)).toEqual(order)
      expect(await orderPayments(getContainer(), order!.id)).toHaveLength(1)
      expect(
        store
          .sandbox()
          .ledger()
          .filter((e) => e.operation === "captureReservation")
      ).toHaveLength(0)
    })

    it("the callback before the customer: the callback makes the order; the return post then finds it and lands the customer on it", async () => {
      const sdk = storefrontSdk(seed)
      const cart = await checkoutCart(sdk, seed)
      const { redirectUrl } = await initiate(sdk, cart.id)
      const release = returnsAfterCallback(store.sandbox(), getContainer(), cart.id)
      const landing = await payOnHostedPage(redirectUrl).finally(release)

      const order = await orderForCart(getContainer(), cart.id)
      expect(landing).toEqual({ outcome: "paid", orderId: order!.id, cartId: cart.id })
      const payments = await orderPayments(getContainer(), order!.id)
      expect(payments).toHaveLength(1)
      expect(payments[0].data).toMatchObject({ reconciled: { by: "callback" } })
      expect(payments[0].captured_at ?? null).toBeNull()
    })

    it("decline, then pay again: the decline lands on the failure page with nothing ordered; the new session pays; one order", async () => {
      const sdk = storefrontSdk(seed)
      const cart = await checkoutCart(sdk, seed)
      const first = await initiate(sdk, cart.id)
      const declined = await payOnHostedPage(first.redirectUrl, "decline")
      expect(declined).toEqual({ outcome: "declined", orderId: "", cartId: cart.id })
      expect(returnsPosted().at(-1)).toMatchObject({ url: `${store.medusaUrl()}/altapay/return/altapay/failure`, status: 303 })
      expect(await orderForCart(getContainer(), cart.id)).toBeUndefined()

      // "Place order" again: the storefront starts a new session (the kit does), with a fresh page.
      const second = await initiate(sdk, cart.id)
      expect(second.paymentSessionId).not.toBe(first.paymentSessionId)
      const paid = await payOnHostedPage(second.redirectUrl)
      const order = await orderForCart(getContainer(), cart.id)
      expect(paid).toEqual({ outcome: "paid", orderId: order!.id, cartId: cart.id })
      const payments = await orderPayments(getContainer(), order!.id)
      expect(payments).toHaveLength(1)
      expect(payments[0].payment_session_id).toBe(second.paymentSessionId)
      await eventsSettled(getContainer())
      expect(await orderPayments(getContainer(), order!.id)).toHaveLength(1)
    })

    it("a cart change replaces the session, and the old payment page can no longer be paid", async () => {
      const sdk = storefrontSdk(seed)
      const cart = await checkoutCart(sdk, seed)
      const first = await initiate(sdk, cart.id)

      await sdk.store.cart.createLineItem(cart.id, { variant_id: seed.products.tea.variantId, quantity: 1 })
      // Medusa replaced the session; the provider retired the old AltaPay session's payment page.
      expect((await fetch(first.redirectUrl)).status).toBe(410)
      const staleSubmit = await submitPaymentPage(first.redirectUrl)
      expect(staleSubmit.status).toBe(410)

      const second = await initiate(sdk, cart.id)
      expect(second.paymentSessionId).not.toBe(first.paymentSessionId)
      const landing = await payOnHostedPage(second.redirectUrl)
      expect(landing.outcome).toBe("paid")
      const orderId = landing.orderId!
      const [payment] = await orderPayments(getContainer(), orderId)
      const { cart: final } = await sdk.store.cart.retrieve(cart.id)
      expect(payment.data.amount_minor).toBe(Math.round(Number(final.total) * 100))
      expect(payment.payment_session_id).toBe(second.paymentSessionId)
      await eventsSettled(getContainer())
      expect(await orderPayments(getContainer(), orderId)).toHaveLength(1)
    })
  },
})
