/**
 * The payment page speaks the shopper's language where AltaPay has it: the cart's locale, else its
 * country, else the registration's `language` option (AltaPay/api-php LanguageTypes). Read at the
 * session AltaPay received (the sandbox's ledger).
 */
import { AltaPayProviderService } from "../../src/providers/altapay"
import { altapayLanguageOf, paymentPageLanguage } from "../../src/lib/medusa-mapping/language"
import type { AltaPayPaymentData } from "../../src/lib/payment-data/data"
import { startSandbox, type Sandbox } from "../../src/sandbox"
import { sandboxProviderOptions } from "../helpers/provider"
import { shopOrderIdFor } from "../../src/lib/medusa-mapping/shop-order-id"

const USER = "language-user"
const PASSWORD = "language-password-42"

let sandbox: Sandbox
let counter = 0

beforeAll(async () => {
  sandbox = await startSandbox({ port: 0, username: USER, password: PASSWORD })
})
afterAll(() => sandbox.close())

interface FakeCart {
  locale?: string | null
  shipping?: string
  billing?: string
  /** A Medusa whose carts have no locale: asking for one fails. */
  noLocaleField?: boolean
}

/** A query that knows one cart for every payment session; the cart's lines are unknown (a summary line is sent). */
function fakeQuery(cart: FakeCart) {
  return {
    graph: async ({ entity, fields }: { entity: string; fields: string[] }) => {
      if (entity === "payment_session") return { data: [{ id: "payses", payment_collection: { cart: { id: "cart_1" } } }] }
      if (entity === "cart" && fields.includes("shipping_address.country_code")) {
        if (cart.noLocaleField && fields.includes("locale")) throw new Error("Entity 'Cart' does not have property 'locale'")
        return {
          data: [
            {
              id: "cart_1",
              ...(cart.noLocaleField ? {} : { locale: cart.locale ?? null }),
              shipping_address: cart.shipping ? { country_code: cart.shipping } : null,
              billing_address: cart.billing ? { country_code: cart.billing } : null,
            },
          ],
        }
      }
      return { data: [] }
    },
  }
}

const provider = (cradle: Record<string, unknown>, options: Record<string, unknown> = {}) =>
  new AltaPayProviderService(cradle, {
    ...(sandboxProviderOptions(sandbox, { username: USER, password: PASSWORD }, { flow: "storefront" }) as Record<string, unknown>),
    ...options,
  } as never)

async function sentLanguage(service: AltaPayProviderService): Promise<{ create: unknown; update: unknown }> {
  const id = `payses_lang${Date.now().toString(36)}${(counter++).toString(36)}`
  const out = await service.initiatePayment({ amount: 10, currency_code: "dkk", data: { session_id: id }, context: { idempotency_key: id } })
  const data = out.data as AltaPayPaymentData
  await service.updatePayment({ data: data as never, amount: 12, currency_code: "dkk" })
  const ledger = sandbox.ledger()
  const create = ledger.filter((e) => e.operation === "session.create" && (e.params as { order?: { orderId?: string } }).order?.orderId === shopOrderIdFor(id)).at(-1)
  const update = ledger.filter((e) => e.operation === "session.update" && e.path.endsWith(data.altapay_session_id)).at(-1)
  const language = (entry: typeof create) => (entry?.params as { configuration?: { language?: unknown } } | undefined)?.configuration?.language
  return { create: language(create), update: language(update) }
}

describe("the payment page's language", () => {
  it("is the cart's locale when AltaPay has it, on create and on update", async () => {
    expect(await sentLanguage(provider({ query: fakeQuery({ locale: "da-DK", shipping: "de" }) }))).toEqual({ create: "da", update: "da" })
  })

  it("Norwegian Bokmål and Nynorsk go as AltaPay's no", async () => {
    expect((await sentLanguage(provider({ query: fakeQuery({ locale: "nb-NO" }) }))).create).toBe("no")
  })

  it("without a usable locale, the shipping country's language; then the billing country's", async () => {
    expect((await sentLanguage(provider({ query: fakeQuery({ locale: "xx-YY", shipping: "se", billing: "dk" }) }))).create).toBe("sv")
    expect((await sentLanguage(provider({ query: fakeQuery({ shipping: "zz", billing: "dk" }) }))).create).toBe("da")
  })

  it("on a Medusa whose carts have no locale, the country decides", async () => {
    expect((await sentLanguage(provider({ query: fakeQuery({ noLocaleField: true, shipping: "fi" }) }))).create).toBe("fi")
  })

  it("falls back to the language option: a language AltaPay lacks, no cart, no query", async () => {
    expect((await sentLanguage(provider({ query: fakeQuery({ locale: "ko-KR", shipping: "kr" }) }, { language: "da" }))).create).toBe("da")
    expect((await sentLanguage(provider({}, { language: "sv" }))).create).toBe("sv")
    expect((await sentLanguage(provider({}))).create).toBe("en")
  })

  it("reads BCP 47 tags and AltaPay's aliases", () => {
    expect(altapayLanguageOf("de_AT")).toBe("de")
    expect(altapayLanguageOf("nn")).toBe("no")
    expect(altapayLanguageOf("ee")).toBe("et")
    expect(altapayLanguageOf("EN-gb")).toBe("en")
    expect(altapayLanguageOf("ko")).toBeUndefined()
    expect(altapayLanguageOf("")).toBeUndefined()
    expect(altapayLanguageOf(null)).toBeUndefined()
    expect(paymentPageLanguage({ locale: "fr-CA", countryCodes: ["dk"] }, "en")).toBe("fr")
  })
})
