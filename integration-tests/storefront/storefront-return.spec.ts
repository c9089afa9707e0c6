/**
 * The storefront kit's redirect round trip in a real browser (headless Chromium, playwright-core)
 * across two sites: a storefront at shop.test whose cart cookie is httpOnly + SameSite=Strict
 * (browser/mini-storefront.ts: the kit's return path without the Next.js starter's install), and
 * the store (a Medusa app + the AltaPay sandbox at 127.0.0.1). The provider is registered once per
 * terminal (two-terminals/medusa-config.ts): pp_altapay_card and pp_altapay_mobilepay.
 *
 * The real starter with the kit applied is walked by storefronts/nextjs-starter/walk (not in CI).
 */
import { medusaIntegrationTestRunner } from "@medusajs/test-utils"
import path from "node:path"
import type { Browser, BrowserContext, Page } from "playwright-core"
import { browserSpecCanRun, CHROMIUM, CHROMIUM_ARGS } from "../setup/chromium"
import { createCart, orderForCart, orderPayments, seedStore, waitForOrder, type Api, type SeededStore } from "../setup/store"
import { useAltaPayStore, WEBHOOK_PROCESSING_DELAY_MS } from "../setup/store-app/altapay-store"
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
  const store = useAltaPayStore({ flow: "redirect" })
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
    // The kit's convention; read by two-terminals/medusa-config.ts when the app boots.
    store.altapay.options.successUrl = `${shop.url}/api/altapay/success/{cart_id}`
    store.altapay.options.failureUrl = `${shop.url}/api/altapay/failure/{cart_id}`
    const { chromium } = require("playwright-core") as typeof import("playwright-core")
    browser = await chromium.launch({ executablePath: CHROMIUM, args: [...CHROMIUM_ARGS, hostResolverRule(SHOP_HOST)], headless: true })
  })
  afterAll(async () => {
    await browser?.close()
    await shop?.close()
    // eslint-disable-next-line no-console
    console.log(`[storefront-return] ${JSON.stringify({ file_ms: Date.now() - fileStart })}`)
  })

  medusaIntegrationTestRunner({
    cwd: path.join(__dirname, "two-terminals"),
    testSuite: ({ api: rawApi, getContainer }) => {
      const api = rawApi as unknown as Api
      let context: BrowserContext
      let page: Page

      beforeEach(async () => {
        seed = await seedStore(getContainer(), { paymentProviders: [CARD.providerId, MOBILEPAY.providerId] })
        shop.returns.length = 0
        context = await browser.newContext()
        page = await context.newPage()
      })
      afterEach(() => context.close())

      /** A cart ready to pay, and this browser holding it in the storefront's Strict cookie. */
      async function shopperWithCart(): Promise<string> {
        const cart = await createCart(api, seed!)
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

      it("the customer back first: the return route completes the cart named in the URL, although the Strict cart cookie stays behind; one order", async () => {
        const cartId = await shopperWithCart()
        await placeOrder(CARD)

        await page.click("#authorize")
        const orderId = await confirmedOrderId()

        expect(shop.returns).toEqual([{ path: `/api/altapay/success/${cartId}`, cartCookie: false }])
        expect(await orderForCart(getContainer(), cartId)).toEqual({ id: orderId })
        // The storefront let go of the completed cart.
        expect((await context.cookies(shop.url)).find((c) => c.name === CART_COOKIE)).toBeUndefined()

        // AltaPay's callback, processed now, and opening the return URL again add nothing.
        await new Promise((r) => setTimeout(r, WEBHOOK_PROCESSING_DELAY_MS + 1_500))
        await page.goto(`${shop.url}/api/altapay/success/${cartId}`)
        expect(await confirmedOrderId()).toBe(orderId)
        const payments = await orderPayments(getContainer(), orderId)
        expect(payments).toHaveLength(1)
        expect(payments[0].data).toMatchObject({ terminal: CARD.terminal, transaction_status: "preauth" })
      })

      it("AltaPay's callback first, on the MobilePay registration's own terminal: the customer coming back gets that order", async () => {
        const cartId = await shopperWithCart()
        const paymentPage = await placeOrder(MOBILEPAY)
        let orderBeforeReturn: { id: string } | undefined
        // AltaPay's answer to "Authorize" (its redirect back to the store) reaches the browser only
        // once the callback, sent before it, has completed the cart.
        await page.route(paymentPage, async (route) => {
          if (route.request().method() !== "POST") return route.continue()
          const answer = await route.fetch({ maxRedirects: 0 })
          orderBeforeReturn = await waitForOrder(getContainer(), cartId, WEBHOOK_PROCESSING_DELAY_MS + 15_000)
          await route.fulfill({ response: answer })
        })

        await page.click("#authorize")
        const orderId = await confirmedOrderId()

        expect(orderBeforeReturn).toEqual({ id: orderId })
        expect(shop.returns).toEqual([{ path: `/api/altapay/success/${cartId}`, cartCookie: false }])
        const payments = await orderPayments(getContainer(), orderId)
        expect(payments).toHaveLength(1)
        expect(payments[0]).toMatchObject({ data: { terminal: MOBILEPAY.terminal } })
        const transaction = store.sandbox().transaction(payments[0].data.transaction_id)
        expect(transaction).toMatchObject({ terminal: MOBILEPAY.terminal })
        const callbacks = store
          .sandbox()
          .ledger()
          .filter((e) => e.operation === "callback.notification")
        expect(callbacks.at(-1)).toMatchObject({ url: `${store.medusaUrl()}/hooks/payment/altapay_mobilepay`, status: 200 })
      })

      it("a decline brings the customer back to the payment step with a message; the next attempt pays on a fresh page; one order", async () => {
        const cartId = await shopperWithCart()
        const declinedPage = await placeOrder(CARD)

        await page.click("#decline")
        await page.waitForURL(/\/checkout\?step=payment&altapay=failed$/)
        expect(await page.locator("#altapay-notice").innerText()).toContain("declined or cancelled")
        // AltaPay's redirect came without the cart cookie; the page's own navigation carried it.
        expect(shop.returns).toEqual([{ path: `/api/altapay/failure/${cartId}`, cartCookie: false }])

        const freshPage = await placeOrder(CARD)
        expect(freshPage).not.toBe(declinedPage)
        expect(await (await fetch(declinedPage)).text()).toContain("already <strong>DECLINED</strong>")

        await page.click("#authorize")
        const orderId = await confirmedOrderId()
        expect(await orderForCart(getContainer(), cartId)).toEqual({ id: orderId })
        const payments = await orderPayments(getContainer(), orderId)
        expect(payments).toHaveLength(1)
        expect(payments[0].data.redirect_url).toBe(freshPage)
      })
    },
  })
}
