/**
 * AltaPay's last look at the cart before the money moves (option `verifyOrder`): the provider names
 * the plugin's verify endpoint in each session; AltaPay (the sandbox, as AltaPay documents
 * callback_verify_order) posts its signed form there just before it charges, and charges only on
 * OKAY. A cart whose item sold out or whose discount ended while the customer was on AltaPay's page
 * is refused before the card is charged: nothing reserved, no order, the customer told why.
 * Through Medusa's real routes: the starter's calls, the hosted page, the plugin's endpoints.
 * First in its group (`verified-redirect-store`): its first test reads every verify post AltaPay made.
 */
import Medusa from "@medusajs/js-sdk"
import { storeSuite } from "../../tools/test-store/store-app/runner"
import { Modules } from "@medusajs/framework/utils"
import { signCallbackBody } from "../../src/altapay"
import { shopOrderIdFor } from "../../src/lib/medusa-mapping/shop-order-id"
import { customerMessage } from "../../src/lib/languages/customer-messages"
import { REFUSALS } from "../../src/lib/verify-order/answers"
import { CALLBACK_SECRET, PROVIDER_ID } from "../../tools/test-store/altapay-sandbox"
import { createCart, orderForCart, seedStore, stockCoffee, submitPaymentPage, type Api, type SeededStore } from "../../tools/test-store/store"
import { altapayStore } from "../../tools/test-store/store-app/altapay-store"
import { eventsSettled } from "../../tools/test-store/store-app/events-settled"
import { initiateRedirectSession } from "../setup/starter-checkout"

const store = altapayStore() // the group `verified-redirect-store`: the redirect flow, verifyOrder on
const PROMOTION = { code: "SUMMER10", percent: 10 }
/** What AltaPay shows the customer: the refusal in the payment page's language, Danish for the seed's Danish cart. */
const shown = (why: keyof typeof REFUSALS, language: "da" | "en" = "da") => customerMessage(REFUSALS[why], {}, language)

/** The customer pays on AltaPay's page; AltaPay posts the return to the plugin and relays its 303 to the landing page. */
async function payOnHostedPage(redirectUrl: string) {
  const back = await submitPaymentPage(redirectUrl)
  expect(back.status).toBe(303)
  const landing = new URL(back.headers.get("location")!)
  return { outcome: landing.searchParams.get("outcome"), message: landing.searchParams.get("message") }
}

const verifyAsked = () =>
  store
    .sandbox()
    .ledger()
    .filter((e) => e.operation === "callback.verifyOrder")

/** The AltaPay transaction of the payment AltaPay last asked the shop about. */
function lastVerifiedTransaction() {
  const paymentId = String((verifyAsked().at(-1)!.params as { payment_id: string }).payment_id)
  const payment = store.sandbox().payment(paymentId) as { transactionId?: string }
  return store.sandbox().transaction(payment.transactionId!)
}

export default storeSuite({
  testSuite: ({ api, getContainer }) => {
    let seed: SeededStore
    let sdk: Medusa
    // Seeded once: the runner snapshots the database after the suite's beforeAll and restores that before each test.
    beforeAll(async () => {
      seed = await seedStore(getContainer(), { promotion: PROMOTION })
      sdk = new Medusa({ baseUrl: store.medusaUrl(), publishableKey: seed.publishableKey })
    })
    // A callback AltaPay sent to Medusa's webhook route must be processed in this test's database
    // (Medusa handles it 5 s after it arrived). A test AltaPay posted nothing to waits for nothing.
    afterEach(() => eventsSettled(getContainer()))

    it("a cart that still stands is paid: AltaPay's verify post is answered OKAY before it reserves, and the order is placed", async () => {
      const cart = await createCart(api as unknown as Api, seed)
      const { redirectUrl } = await initiateRedirectSession(sdk, cart.id, PROVIDER_ID)
      expect(await payOnHostedPage(redirectUrl)).toMatchObject({ outcome: "paid" })
      expect(verifyAsked()).toMatchObject([{ url: `${store.medusaUrl()}/altapay/verify-order/altapay`, status: 200, params: { answer: "OKAY" } }])
      expect(await orderForCart(getContainer(), cart.id)).toBeDefined()
    })

    it("an item sold out while the customer paid: refused before the card is charged, nothing reserved, no order, the customer told", async () => {
      const restock = await stockCoffee(getContainer(), seed, 5)
      const cart = await createCart(api as unknown as Api, seed, { promotion: false })
      const { redirectUrl } = await initiateRedirectSession(sdk, cart.id, PROVIDER_ID)
      await restock(1) // another customer bought the rest
      const landing = await payOnHostedPage(redirectUrl)
      expect(landing).toEqual({ outcome: "declined", message: shown("stock") })
      expect(verifyAsked().at(-1)).toMatchObject({ status: 200, params: { answer: "refused" } })
      expect(lastVerifiedTransaction()).toMatchObject({ reservedMinor: 0, capturedMinor: 0 })
      expect(await orderForCart(getContainer(), cart.id)).toBeUndefined()
    })

    it("a discount whose campaign ended while the customer paid: refused before the card is charged", async () => {
      const promotions = getContainer().resolve(Modules.PROMOTION)
      const [promotion] = await promotions.listPromotions({ code: PROMOTION.code })
      const [campaign] = await promotions.createCampaigns([
        { name: "Summer", campaign_identifier: `summer-${Date.now()}`, starts_at: new Date(Date.now() - 86_400_000), ends_at: new Date(Date.now() + 86_400_000) },
      ])
      await promotions.updatePromotions([{ id: promotion.id, campaign_id: campaign.id }])
      const cart = await createCart(api as unknown as Api, seed)
      expect(cart.promotions?.map((p: { code?: string }) => p.code)).toEqual([PROMOTION.code])
      const { redirectUrl } = await initiateRedirectSession(sdk, cart.id, PROVIDER_ID)
      await promotions.updateCampaigns([{ id: campaign.id, ends_at: new Date(Date.now() - 1_000) }])
      const landing = await payOnHostedPage(redirectUrl)
      expect(landing).toEqual({ outcome: "declined", message: shown("promotion") })
      expect(lastVerifiedTransaction()).toMatchObject({ reservedMinor: 0 })
      expect(await orderForCart(getContainer(), cart.id)).toBeUndefined()
    })

    it("fails closed: a post not signed with the webhook secret, or signed long ago, is refused; AltaPay's own is answered OKAY", async () => {
      const cart = await createCart(api as unknown as Api, seed)
      const { paymentSessionId } = await initiateRedirectSession(sdk, cart.id, PROVIDER_ID)
      // What AltaPay would charge: the amount of the session the plugin made.
      const made = store
        .sandbox()
        .ledger()
        .filter((e) => e.operation === "session.create")
        .map((e) => e.params as { order: { orderId: string; amount: { value: number } } })
        .find((p) => p.order.orderId === shopOrderIdFor(paymentSessionId))!
      const body = new URLSearchParams({ shop_orderid: shopOrderIdFor(paymentSessionId), amount: made.order.amount.value.toFixed(2), currency: "208", type: "payment" }).toString()
      const ask = async (signature?: string) => {
        const res = await fetch(`${store.medusaUrl()}/altapay/verify-order/altapay`, {
          method: "POST",
          headers: { "content-type": "application/x-www-form-urlencoded", ...(signature ? { "altapay-signature": signature } : {}) },
          body,
        })
        return { status: res.status, text: await res.text() }
      }
      const now = Math.floor(Date.now() / 1000)
      expect(await ask()).toEqual({ status: 200, text: shown("unverified", "en") })
      expect(await ask(signCallbackBody(body, "not-the-webhook-secret-0123", now))).toEqual({ status: 200, text: shown("unverified", "en") })
      expect(await ask(signCallbackBody(body, CALLBACK_SECRET, now - 3_600))).toEqual({ status: 200, text: shown("unverified", "en") })
      // Signed as it is sent: the group's callbackToleranceSeconds is 2.
      expect(await ask(signCallbackBody(body, CALLBACK_SECRET, Math.floor(Date.now() / 1000)))).toEqual({ status: 200, text: "OKAY" })
    })
  },
})
