/**
 * The shop's languages, through Medusa's real store routes (POST /store/carts with a `locale`,
 * POST /store/carts/:id, POST /store/carts/:id/altapay-session, Place order) and AltaPay's hosted page
 * (the sandbox), with the sandbox's ledger as the witness of what AltaPay was asked. What a merchant
 * relies on (docs/merchant.md "Languages", docs/storefront.md#languages):
 *
 * - AltaPay's payment page is asked for the cart's language: its locale when AltaPay has it (nb and
 *   nn as no), else its shipping then billing country's, else the `language` option (here "da");
 * - whatever a browser puts in a cart's locale (Medusa takes any string), AltaPay gets one of its
 *   language codes and never the raw text, and no route answers 5xx;
 * - the verify refusal AltaPay shows is in the payment page's language where the plugin has it; the
 *   storefront helper speaks the language the page was asked for; a customer who switches language
 *   gets a page in the new one, and the refusal stays in the page's.
 *
 * On the default store's options. AltaPay's verify post is signed here as AltaPay signs it (the route
 * takes it whether or not the registration asks AltaPay for it). The region (Denmark, DKK) is opened
 * to SE, NO, DE, US, KR and FR, so carts can ship there.
 */
import { storeSuite } from "../../tools/test-store/store-app/runner"
import { altapayStore } from "../../tools/test-store/store-app/altapay-store"
import { eventsSettled } from "../../tools/test-store/store-app/events-settled"
import { adminOfSeededStore, expectOk, startSession, stockCoffee, storeHeaders, type Api, type ApiResponse } from "../../tools/test-store/store"
import { storefrontLanguage } from "../../src/storefront"
import { signCallbackBody } from "../../src/altapay"
import { CALLBACK_SECRET } from "../../tools/test-store/altapay-sandbox"
import { customerMessage } from "../../src/lib/languages/customer-messages"
import { shopOrderIdFor } from "../../src/lib/medusa-mapping/shop-order-id"
import { ALTAPAY_LANGUAGES } from "../../src/lib/medusa-mapping/language"
import { parseAltaPayOptions } from "../../src/lib/registrations/options"
import type { LedgerEntry } from "../../src/sandbox"

const store = altapayStore() // the group `probe-languages`: storefront flow, no failureUrl

const ADDRESS = { first_name: "Karen", last_name: "Blixen", address_1: "Strandvejen 111", city: "Rungsted", postal_code: "2960" }
const COUNTRIES = ["dk", "se", "no", "de", "us", "kr", "fr"]
const anyStatus = { validateStatus: () => true }

/** What the sandbox recorded of AltaPay sessions (created or updated) for one Medusa payment session, oldest first. */
function sessionRequests(paymentSessionId: string, altapaySessionId?: string): LedgerEntry[] {
  return store
    .sandbox()
    .ledger()
    .filter(
      (e) =>
        (e.operation === "session.create" && (e.params as { order?: { orderId?: string } }).order?.orderId === shopOrderIdFor(paymentSessionId)) ||
        (e.operation === "session.update" && !!altapaySessionId && e.path.endsWith(altapaySessionId))
    )
}
const languageOf = (entry: LedgerEntry | undefined) => (entry?.params as { configuration?: { language?: unknown } } | undefined)?.configuration?.language

export default storeSuite({
  testSuite: ({ api: rawApi, getContainer }) => {
    const api = rawApi as unknown as Api
    const shop = adminOfSeededStore(api, getContainer)
    const headers = () => ({ headers: storeHeaders(shop.seed), ...anyStatus })
    let seqBefore = 0

    beforeAll(async () => {
      // A merchant selling to several countries from one region: Medusa accepts only its countries in a shipping address.
      expectOk("region countries", await api.post(`/admin/regions/${shop.seed.region.id}`, { countries: COUNTRIES }, shop.as()))
    })
    beforeEach(() => {
      seqBefore = store.sandbox().ledger().at(-1)?.seq ?? 0
    })
    afterEach(async () => {
      store.sandbox().faults.clear()
      // A notification AltaPay posted is processed by Medusa 5 s later: in this test's database, not the next one's.
      await eventsSettled(getContainer())
    })

    interface CartSpec {
      locale?: unknown
      shipping?: string
      billing?: string
      /** The seeded shipping option (Denmark only): needed to place the order. */
      shipped?: boolean
    }
    /** POST /store/carts as a storefront sends it: a tea and a coffee, the addresses, the locale when given. */
    async function newCart(spec: CartSpec): Promise<ApiResponse> {
      const shipping = spec.shipping ?? "dk"
      const created = await api.post(
        "/store/carts",
        {
          region_id: shop.seed.region.id,
          sales_channel_id: shop.seed.salesChannel.id,
          email: "karen@example.com",
          items: [
            { variant_id: shop.seed.products.coffee.variantId, quantity: 1 },
            { variant_id: shop.seed.products.tea.variantId, quantity: 1 },
          ],
          shipping_address: { ...ADDRESS, country_code: shipping },
          billing_address: { ...ADDRESS, country_code: spec.billing ?? shipping },
          ...(spec.locale === undefined ? {} : { locale: spec.locale }),
        },
        headers()
      )
      if (created.status !== 200 || !spec.shipped) return created
      return api.post(`/store/carts/${created.data.cart.id}/shipping-methods`, { option_id: shop.seed.shippingOption.id }, headers())
    }
    async function cartId(spec: CartSpec): Promise<string> {
      return expectOk("cart", await newCart(spec)).cart.id
    }
    /** POST /store/carts/:id/altapay-session, answered whatever the status. */
    const sessionRoute = (id: string) => api.post(`/store/carts/${id}/altapay-session`, {}, headers())
    /** The language AltaPay's page was last asked for, for the session the plugin's store route made for the cart. */
    async function pageLanguageFor(id: string): Promise<unknown> {
      const session = expectOk("altapay-session", await sessionRoute(id))
      return languageOf(sessionRequests(session.payment_session_id, session.altapay.session_id).at(-1))
    }

    describe("the language AltaPay's payment page is asked for", () => {
      it("is the cart's locale where AltaPay has it (nb and nn as no), else the shipping then billing country's, else the language option", async () => {
        const cases: Array<[CartSpec, string]> = [
          [{ locale: "da-DK", shipping: "se" }, "da"],
          [{ locale: "nb", shipping: "dk" }, "no"],
          [{ locale: "nn-NO", shipping: "dk" }, "no"],
          [{ locale: "zh-Hant-TW", shipping: "dk" }, "zh"],
          [{ locale: "pt-BR", shipping: "dk" }, "pt"],
          [{ locale: "en-US", shipping: "dk" }, "en"],
          [{ locale: "fr-FR", shipping: "se" }, "fr"],
          [{ locale: "DA", shipping: "se" }, "da"],
          // A locale AltaPay has no page for: the country decides.
          [{ locale: "xx", shipping: "se" }, "sv"],
          [{ locale: "ko-KR", shipping: "us" }, "en"],
          [{ locale: "", shipping: "no" }, "no"],
          [{ shipping: "de" }, "de"],
          // A shipping country of no AltaPay language: the billing country's, else the registration's `language` ("da").
          [{ shipping: "kr", billing: "de" }, "de"],
          [{ shipping: "kr", billing: "kr" }, "da"],
          [{ locale: "ko-KR", shipping: "kr" }, "da"],
        ]
        const asked: Array<[CartSpec, unknown]> = []
        for (const [spec] of cases) asked.push([spec, await pageLanguageFor(await cartId(spec))])
        expect(asked).toEqual(cases)
      })

      it("follows the customer who switches language after the payment page was made: the page AltaPay shows next speaks the new one", async () => {
        const id = await cartId({ locale: "da-DK", shipping: "dk", shipped: true })
        expect(await pageLanguageFor(id)).toBe("da")
        // The storefront's language menu writes the cart's locale (the starter's does); the cart's total is unchanged.
        const switched = expectOk("locale", await api.post(`/store/carts/${id}`, { locale: "sv-SE" }, headers()))
        expect(switched.cart.locale).toBe("sv-SE")
        expect(await pageLanguageFor(id)).toBe("sv")
      })
    })

    describe("a hostile locale", () => {
      /** Each with the language AltaPay should get: the primary subtag's where it is AltaPay's, else the Swedish shipping country's. */
      const HOSTILE: Array<[string, string]> = [
        ["../../../etc/passwd", "sv"],
        ["<script>alert(1)</script>", "sv"],
        ["da-<script>alert(1)</script>", "da"],
        ["x".repeat(300), "sv"],
        [`da-${"x".repeat(300)}`, "da"],
        ["'; DROP TABLE cart; --", "sv"],
        ["da\r\nX-Injected: 1", "sv"],
        ["{{altapay}}", "sv"],
        ["__proto__", "sv"],
      ]

      it("never reaches AltaPay raw and never answers 5xx: AltaPay gets one of its languages, the primary subtag's or the country's", async () => {
        const seen: Array<{ locale: string; cart: number; session: number; language: unknown; raw: boolean }> = []
        for (const [locale] of HOSTILE) {
          const created = await newCart({ locale, shipping: "se" })
          const session = created.status === 200 ? await sessionRoute(created.data.cart.id) : undefined
          const entries = session?.status === 200 ? sessionRequests(session.data.payment_session_id) : []
          // Everything AltaPay received since the test began, as sent and as JSON escapes it.
          const wire = JSON.stringify(
            store
              .sandbox()
              .ledger()
              .filter((e) => e.seq > seqBefore)
          )
          const raw = wire.includes(locale) || wire.includes(JSON.stringify(locale).slice(1, -1))
          seen.push({ locale, cart: created.status, session: session?.status ?? 0, language: languageOf(entries.at(-1)), raw })
        }
        expect(seen).toEqual(HOSTILE.map(([locale, language]) => ({ locale, cart: 200, session: 200, language, raw: false })))
        for (const { language } of seen) expect(ALTAPAY_LANGUAGES.has(String(language))).toBe(true)
      })
    })

    describe("the texts the server writes in the customer's language", () => {
      /** AltaPay's verify post for the session, for the amount AltaPay was asked to charge, signed as AltaPay signs it: the text AltaPay shows. */
      async function verifyAnswer(paymentSessionId: string): Promise<{ status: number; text: string }> {
        const made = sessionRequests(paymentSessionId)
          .map((e) => e.params as { order: { orderId: string; amount: { value: number } } })
          .at(-1)!
        const body = new URLSearchParams({ shop_orderid: made.order.orderId, amount: made.order.amount.value.toFixed(2), currency: "208", type: "payment" }).toString()
        const res = await fetch(`${store.medusaUrl()}/altapay/verify-order/altapay`, {
          method: "POST",
          headers: { "content-type": "application/x-www-form-urlencoded", "altapay-signature": signCallbackBody(body, CALLBACK_SECRET, Math.floor(Date.now() / 1000)) },
          body,
        })
        return { status: res.status, text: await res.text() }
      }

      it("the verify refusal speaks the language AltaPay's page was made in, also after the customer switched the cart's locale", async () => {
        const restock = await stockCoffee(getContainer(), shop.seed, 5)
        const id = await cartId({ locale: "da-DK", shipping: "dk", shipped: true })
        await startSession(api, shop.seed, id)
        expectOk("locale", await api.post(`/store/carts/${id}`, { locale: "de-DE" }, headers()))
        const again = await startSession(api, shop.seed, id)
        const pageLanguage = languageOf(sessionRequests(again.paymentSessionId, again.sessionId).at(-1))
        await restock(0)
        const answer = await verifyAnswer(again.paymentSessionId)
        // One language on AltaPay's page: its own words and the plugin's sentence in it agree.
        expect({ pageLanguage, text: answer.text }).toEqual({ pageLanguage, text: customerMessage("verify_stock", {}, pageLanguage === "de" ? "de" : "da") })
      })
    })

    describe("one language from checkout to AltaPay's page", () => {
      it("the storefront helper speaks the language AltaPay's page was asked for, whenever the plugin has that language", async () => {
        const cases: CartSpec[] = [
          { locale: "da-DK", shipping: "se" },
          { locale: "nn-NO", shipping: "dk" },
          { locale: "xx", shipping: "se" },
          { locale: "ko-KR", shipping: "dk" },
          { locale: "", shipping: "de" },
          { shipping: "no" },
        ]
        const pairs = []
        for (const spec of cases) {
          const page = await pageLanguageFor(await cartId(spec))
          const helper = storefrontLanguage({ locale: spec.locale as string | undefined, countryCode: spec.shipping })
          pairs.push({ locale: spec.locale, shipping: spec.shipping, page, helper: helper === "nb" ? "no" : helper })
        }
        expect(pairs).toEqual(pairs.map((p) => ({ ...p, helper: p.page })))
      })
    })

    describe("the `language` option, checked when the store boots", () => {
      const base = {
        checkoutUrl: "https://testgateway.altapaysecure.com",
        gatewayUrl: "https://testgateway.altapaysecure.com",
        username: "api-user",
        password: "api-password",
        backendUrl: "https://shop.example",
        paymentDataSecret: "languages-probe-payment-data-secret-0123456789",
      }
      const problemOf = (language: unknown) => {
        const parsed = parseAltaPayOptions({ ...base, language })
        return "problems" in parsed ? parsed.problems.filter((p) => p.startsWith("language")).join(" | ") : `ok ${parsed.options.language}`
      }

      it("takes AltaPay's codes (nb and nn as no, ee as et) and refuses locales, country codes, upper case and hostile text with a clear reason", () => {
        expect(["da", "no", "nb", "nn", "ee", "zh", "en"].map(problemOf)).toEqual(["ok da", "ok no", "ok no", "ok no", "ok et", "ok zh", "ok en"])
        expect(problemOf("dk")).toMatch(/"dk" is a country code, and its language is "da": use language: "da"$/)
        expect(problemOf("se")).toMatch(/use language: "sv"$/)
        for (const bad of ["DA", "da-DK", " da", "", "../", "<script>", "x".repeat(300), "xx", 5, null]) {
          expect({ bad, problem: problemOf(bad) }).toEqual({ bad, problem: expect.stringMatching(/^language: /) })
        }
        // A hostile value is not echoed back in the reason unless it is a two-letter code.
        expect(problemOf("<script>")).not.toContain("<script>")
      })
    })
  },
})
