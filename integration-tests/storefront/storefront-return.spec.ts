/**
 * The storefront kit's redirect round trip in a real browser (headless Chromium, playwright-core)
 * across two sites: a storefront at shop.test whose cart cookie is httpOnly + SameSite=Strict
 * (browser/mini-storefront.ts: the kit's landing page without the Next.js starter's install), and
 * the store (a Medusa app + the AltaPay sandbox at 127.0.0.1, in its documented mode: AltaPay posts
 * the customer's return to the plugin's endpoint on Medusa and relays its 303 to the browser). The provider is registered once per
 * terminal (two-terminals/medusa-config.ts): pp_altapay_card and pp_altapay_mobilepay, each with
 * `verifyOrder` (AltaPay asks the store to verify the cart just before it charges).
 *
 * The real starter with the kit applied is walked by storefronts/nextjs-starter/walk (not in CI).
 */
import { storeTestRunner } from "../../tools/test-store/store-app/runner"
import path from "node:path"
import type { Browser, BrowserContext, Page } from "playwright-core"
import { browserSpecCanRun, CHROMIUM, CHROMIUM_ARGS } from "../setup/chromium"
import { cartWithNewProduct, createCart, orderForCart, orderPayments, returnsAfterCallback, seedStore, stockCoffee, type Api, type SeededStore } from "../../tools/test-store/store"
import { customerMessage } from "../../src/lib/languages/customer-messages"
import { REFUSALS } from "../../src/lib/verify-order/answers"
import { prepareStoreAppDir, useAltaPayStore } from "../../tools/test-store/store-app/altapay-store"
import { eventsSettled } from "../../tools/test-store/store-app/events-settled"
import { CART_COOKIE, hostResolverRule, startMiniStorefront, type MiniStorefront } from "./browser/mini-storefront"
import { TERMINALS } from "./two-terminals/terminals"

jest.setTimeout(180_000)

const SHOP_HOST = "shop.test"
/** One provider registration as the storefront offers it, and the terminal its payments must use. */
interface Registration {
  providerId: string
  title: string
  terminal: string
}
const CARD: Registration = { providerId: "pp_altapay_card", title: "Card", terminal: TERMINALS.card }
const MOBILEPAY: Registration = { providerId: "pp_altapay_mobilepay", title: "MobilePay", terminal: TERMINALS.mobilepay }

if (browserSpecCanRun("the storefront kit's return path in a real browser")) {
  const store = useAltaPayStore({ flow: "redirect", verifyOrder: true })
  const fileStart = Date.now()
  let seed: SeededStore | undefined
  let shop: MiniStorefront
  let browser: Browser

  beforeAll(async () => {
    shop = await startMiniStorefront({
      host: SHOP_HOST,
      options: [CARD, MOBILEPAY],
      medusa: () => ({ baseUrl: store.medusaUrl(), publishableKey: seed!.publishableKey }),
    })
    // The kit's landing page; read by two-terminals/medusa-config.ts when the app boots.
    store.altapay.options.successUrl = `${shop.url}/api/altapay/landing?outcome={outcome}&cart_id={cart_id}&order_id={order_id}&message={message}`
    store.altapay.options.failureUrl = store.altapay.options.successUrl
    const { chromium } = require("playwright-core") as typeof import("playwright-core")
    browser = await chromium.launch({ executablePath: CHROMIUM, args: [...CHROMIUM_ARGS, hostResolverRule(SHOP_HOST)], headless: true })
  })
  afterAll(async () => {
    await browser?.close()
    await shop?.close()
    // eslint-disable-next-line no-console
    console.log(`[storefront-return] ${JSON.stringify({ file_ms: Date.now() - fileStart })}`)
  })

  storeTestRunner({
    // The app folder has our src (routes: the return endpoint AltaPay posts to) and two-terminals' config.
    cwd: prepareStoreAppDir("altapay-two-terminals-app", path.join(__dirname, "two-terminals/medusa-config.ts")),
    testSuite: ({ api: rawApi, getContainer }) => {
      const api = rawApi as unknown as Api
      let context: BrowserContext
      let page: Page

      // Seeded once: the runner keeps the database after this as the template every test starts from.
      beforeAll(async () => {
        seed = await seedStore(getContainer(), { paymentProviders: [CARD.providerId, MOBILEPAY.providerId] })
      })
      beforeEach(async () => {
        shop.returns.length = 0
        context = await browser.newContext()
        page = await context.newPage()
      })
      afterEach(() => context.close())

      /** A cart ready to pay (a new one unless given), and this browser holding it in the storefront's Strict cookie. */
      async function shopperWithCart(cartId?: string): Promise<string> {
        const cart = cartId ? { id: cartId } : await createCart(api, seed!)
        await page.goto(`${shop.url}/test/cart/${cart.id}`)
        await page.waitForURL(/\/checkout\?step=payment$/)
        const cookie = (await context.cookies(shop.url)).find((c) => c.name === CART_COOKIE)
        expect(cookie).toMatchObject({ value: cart.id, httpOnly: true, sameSite: "Strict" })
        return cart.id
      }

      /** "Place order" with one registration: the browser lands on that terminal's AltaPay page. */
      async function placeOrder(option: Registration): Promise<string> {
        await page.click(`#pay-${option.providerId}`)
        await page.waitForURL((url) => url.host !== new URL(shop.url).host)
        await page.locator("#authorize").waitFor()
        expect(await page.locator("body").innerText()).toContain(option.terminal)
        return page.url()
      }

      async function confirmedOrderId(): Promise<string> {
        await page.waitForURL(/\/order\/[^/]+\/confirmed$/)
        return (await page.locator("#order-id").innerText()).trim()
      }

      const LANDING = { path: "/api/altapay/landing", cartCookie: false }
      const DONE = { path: "/api/altapay/done", cartCookie: true }

      it("the customer back before the callback: AltaPay's return post made the order; the landing page (no cookie) moves on same-site and lets go of the cart; one order", async () => {
        const cartId = await shopperWithCart()
        await placeOrder(CARD)

        await page.click("#authorize")
        const orderId = await confirmedOrderId()

        // AltaPay's redirect to the landing page came without the Strict cookie; the page's own navigation carried it.
        expect(shop.returns).toEqual([LANDING, DONE])
        expect(await orderForCart(getContainer(), cartId)).toEqual({ id: orderId })
        expect((await context.cookies(shop.url)).find((c) => c.name === CART_COOKIE)).toBeUndefined()
        const returned = store
          .sandbox()
          .ledger()
          .filter((e) => e.operation === "callback.success")
        expect(returned).toMatchObject([{ url: `${store.medusaUrl()}/altapay/return/card/success`, status: 303 }])

        // AltaPay's callback, processed now, and opening the landing page again add nothing.
        await eventsSettled(getContainer())
        await page.goto(`${shop.url}/api/altapay/landing?outcome=paid&cart_id=${cartId}&order_id=${orderId}`)
        expect(await confirmedOrderId()).toBe(orderId)
        const payments = await orderPayments(getContainer(), orderId)
        expect(payments).toHaveLength(1)
        expect(payments[0].data).toMatchObject({ terminal: CARD.terminal, transaction_status: "preauth", reconciled: { by: "return" } })
      })

      it("the callback before the customer, on the MobilePay registration's own terminal: the return finds the callback's order", async () => {
        const cartId = await shopperWithCart()
        await placeOrder(MOBILEPAY)
        // AltaPay posts the return only once its notification callback has completed the cart.
        const release = returnsAfterCallback(store.sandbox(), getContainer(), cartId)

        await page.click("#authorize")
        const orderId = await confirmedOrderId().finally(release)

        expect(shop.returns).toEqual([LANDING, DONE])
        const payments = await orderPayments(getContainer(), orderId)
        expect(payments).toHaveLength(1)
        expect(payments[0]).toMatchObject({ data: { terminal: MOBILEPAY.terminal, reconciled: { by: "callback" } } })
        const transaction = store.sandbox().transaction(payments[0].data.transaction_id)
        expect(transaction).toMatchObject({ terminal: MOBILEPAY.terminal })
        const ledger = store.sandbox().ledger()
        expect(ledger.filter((e) => e.operation === "callback.notification").at(-1)).toMatchObject({ url: `${store.medusaUrl()}/hooks/payment/altapay_mobilepay`, status: 200 })
        expect(ledger.filter((e) => e.operation === "callback.success").at(-1)).toMatchObject({ url: `${store.medusaUrl()}/altapay/return/mobilepay/success`, status: 303 })
      })

      it("AltaPay's fraud check says Deny (110.00): the customer is back at the payment step with the declined message; the reservation released, no order", async () => {
        // 39.00 and the 49.00 shipping, with Denmark's 25 % VAT on top: 110.00, AltaPay's test amount for Deny.
        const cart = await cartWithNewProduct(api, getContainer(), seed!, 39)
        expect(cart.total).toBe(110)
        const cartId = await shopperWithCart(cart.id)
        store.sandbox().clearLedger()
        await placeOrder(CARD)

        await page.click("#authorize")
        await page.waitForURL(/\/checkout\?step=payment&altapay=failed$/)
        expect(await page.locator("#altapay-notice").innerText()).toContain("declined or cancelled")
        expect(await orderForCart(getContainer(), cartId)).toBeUndefined()
        expect(
          store
            .sandbox()
            .ledger()
            .filter((e) => e.operation === "releaseReservation")
        ).toMatchObject([{ status: 200 }])
      })

      it("AltaPay's last look at the cart (verifyOrder): coffee sold out while the customer was on AltaPay's page; refused before the card is charged, back at the payment step, told why; no order", async () => {
        const restock = await stockCoffee(getContainer(), seed!, 5)
        const cartId = await shopperWithCart()
        store.sandbox().clearLedger()
        await placeOrder(CARD)
        await restock(1) // another customer bought the rest
        const landings: URL[] = []
        page.on("request", (request) => {
          if (request.url().includes("/api/altapay/landing")) landings.push(new URL(request.url()))
        })

        await page.click("#authorize")
        await page.waitForURL(/\/checkout\?step=payment&altapay=failed$/)
        expect(await page.locator("#altapay-notice").innerText()).toContain("declined or cancelled")
        // AltaPay's page said why in its language (the seed's Danish cart); the landing URL carries it.
        expect(landings.map((landing) => [landing.searchParams.get("outcome"), landing.searchParams.get("message")])).toEqual([
          ["declined", customerMessage(REFUSALS.stock, {}, "da")],
        ])
        const ledger = store.sandbox().ledger()
        expect(ledger.filter((e) => e.operation === "callback.verifyOrder")).toMatchObject([{ status: 200, params: { answer: "refused" } }])
        expect(ledger.filter((e) => e.operation === "releaseReservation")).toEqual([])
        expect(await orderForCart(getContainer(), cartId)).toBeUndefined()
      })

      it("decline, then pay again: back at the payment step with a message (the cart cookie came along); the next attempt pays on a fresh page; one order", async () => {
        const cartId = await shopperWithCart()
        const declinedPage = await placeOrder(CARD)

        await page.click("#decline")
        await page.waitForURL(/\/checkout\?step=payment&altapay=failed$/)
        expect(await page.locator("#altapay-notice").innerText()).toContain("declined or cancelled")
        expect(shop.returns).toEqual([LANDING])
        expect(await orderForCart(getContainer(), cartId)).toBeUndefined()

        const freshPage = await placeOrder(CARD)
        expect(freshPage).not.toBe(declinedPage)
        expect(await (await fetch(declinedPage)).text()).toContain("already <strong>DECLINED</strong>")

        await page.click("#authorize")
        const orderId = await confirmedOrderId()
        expect(await orderForCart(getContainer(), cartId)).toEqual({ id: orderId })
        const payments = await orderPayments(getContainer(), orderId)
        expect(payments).toHaveLength(1)
        expect(payments[0].data.redirect_url).toBe(freshPage)
        await eventsSettled(getContainer())
        expect(await orderPayments(getContainer(), orderId)).toHaveLength(1)
      })
    },
  })
}
