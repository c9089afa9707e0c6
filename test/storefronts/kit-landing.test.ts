/**
 * The kit's landing page (storefronts/nextjs-starter/src/app/api/altapay/landing/route.ts) as it
 * ships, run with the starter's `sdk` answered here (issue 41): a paid customer goes on to the
 * order (or, with an unsigned return that names none, is thanked and never sent back to pay), a
 * payment under review is said to be checked, and only declined or unconfirmed payments go back to
 * the payment step.
 */
import { readFileSync } from "node:fs"
import path from "node:path"
import { runTs } from "../helpers/run-ts"

const KIT = path.resolve(__dirname, "../../storefronts/nextjs-starter/src")
const read = (file: string) => readFileSync(path.join(KIT, file), "utf8")

/** The cart the starter's `sdk` answers with: a Danish customer's cart, English unless a test gives it a locale. */
let cartLocale: string | undefined
/** The starter's `sdk` (src/lib/config.ts), answering the one call the landing page makes. */
const sdk = {
  store: { cart: { retrieve: async (id: string) => ({ cart: { id, locale: cartLocale, shipping_address: { country_code: "DK" } } }) } },
}
const util = runTs(read("lib/util/altapay-landing.ts"), { "server-only": {} })
const i18n = runTs(read("lib/util/altapay-i18n.ts"))
const { GET } = runTs(read("app/api/altapay/landing/route.ts"), { "@lib/config": { sdk }, "@lib/util/altapay-landing": util, "@lib/util/altapay-i18n": i18n }) as {
  GET: (request: Request) => Promise<Response>
}

async function land(query: string) {
  const html = await (await GET(new Request(`https://shop.example/api/altapay/landing?${query}`))).text()
  return { html, next: /<a href="([^"]*)">/.exec(html)?.[1]?.replace(/&amp;/g, "&"), says: /id="altapay-landing"[^>]*>([^<]*)</.exec(html)?.[1] }
}

beforeEach(() => (cartLocale = "en-DK"))

test("a paid return AltaPay signed goes on to the order's confirmation", async () => {
  const { next, says } = await land("outcome=paid&cart_id=cart_01A&order_id=order_01B&message=")
  expect(next).toBe("/api/altapay/done?order_id=order_01B")
  expect(says).toContain("your order is placed")
})

test("a paid return without an order id (unsigned) thanks the customer and never goes back to the checkout", async () => {
  const { next, says, html } = await land("outcome=paid&cart_id=&order_id=&message=")
  expect(next).toBe("/api/altapay/done")
  expect(says).toContain("your payment was received")
  expect(html).not.toMatch(/checkout|altapay=failed/)
})

test("a payment under review is being reviewed, not failed, and goes to the shop's front page", async () => {
  const { next, says, html } = await land("outcome=review&cart_id=cart_01A&order_id=&message=")
  expect(next).toBe("/dk/")
  expect(says).toContain("your payment is being reviewed")
  expect(html).not.toMatch(/checkout|altapay=failed/)
})

test.each([
  ["declined", "/dk/checkout?step=payment&altapay=failed"],
  ["unconfirmed", "/dk/checkout?step=payment&altapay=unconfirmed"],
])("a %s payment goes back to the payment step with its message", async (outcome, expected) => {
  expect((await land(`outcome=${outcome}&cart_id=cart_01A&order_id=&message=`)).next).toBe(expected)
})

test("AltaPay's message is shown as text, on one line", async () => {
  const { html } = await land(`outcome=declined&message=${encodeURIComponent("<b>Card\nexpired</b>\u0007")}`)
  expect(html).toContain('role="alert">&lt;b&gt;Card expired&lt;/b&gt;</p>')
})

test("speaks the cart's language (issue 43): its locale, else its country", async () => {
  cartLocale = "sv-SE"
  const paid = await land("outcome=paid&cart_id=cart_01A&order_id=order_01B&message=")
  expect(paid.says).toBe("Tack: din betalning har tagits emot och din beställning är lagd.")
  expect(paid.html).toContain('<html lang="sv">')
  expect(paid.html).toContain(">Se din beställning</a>")
  cartLocale = undefined
  const declined = await land(`outcome=declined&cart_id=cart_01A&order_id=&message=${encodeURIComponent("Kortet er udløbet.")}`)
  expect(declined.says).toBe("Din betaling blev ikke gennemført, og der blev ikke afgivet nogen ordre.")
  expect(declined.html).toContain('role="alert">Kortet er udløbet.</p>')
  expect(declined.html).toContain(">Tilbage til kassen</a>")
})
