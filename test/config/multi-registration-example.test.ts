/**
 * medusa-config.multi.example.ts, the store that registers AltaPay once per terminal (card and
 * MobilePay), loaded as Medusa loads a medusa-config (the file reads process.env when it is
 * evaluated) and each registration's options parsed with the provider's own parser for that
 * registration's id, as the provider's loader does. Issue 33: the example this replaces (a
 * snippet in docs/merchant.md) had no gatewayUrl fallback and no allowInsecureUrls, so it failed
 * against the local sandbox, and read ALTAPAY_CARD_TERMINAL, which no other file did.
 */
import { altapayEntries, loadExampleConfig, SANDBOX_ENV, type ExampleConfig } from "../helpers/example-config"
import { notificationUrl, parseAltaPayOptions, type AltaPayOptions } from "../../src/lib/registrations/options"
import { returnUrlsFor } from "../../src/providers/altapay/return-urls"

const loadExample = (env: Record<string, string>) => loadExampleConfig("medusa-config.multi.example.ts", env)

/** Each registration's options as its provider has them, or the provider's refusal. */
function parsedRegistrations(config: ExampleConfig): Record<string, AltaPayOptions | string[]> {
  return Object.fromEntries(
    altapayEntries(config).map((entry) => {
      const parsed = parseAltaPayOptions(entry.options, { id: entry.id })
      return [entry.id ?? "(no id)", "options" in parsed ? parsed.options : parsed.problems]
    })
  )
}

// The first load evaluates Medusa's utils (seconds on a busy machine); the later ones reuse them.
jest.setTimeout(30_000)

describe("medusa-config.multi.example.ts", () => {
  it("against the local sandbox: two valid registrations, each on its terminal with its own callback and return URLs", () => {
    const config = loadExample(SANDBOX_ENV)
    expect(config.plugins).toContainEqual({ resolve: "medusa-payment-altapay", options: {} })
    const registrations = parsedRegistrations(config)
    expect(Object.keys(registrations)).toEqual(["card", "mobilepay"])
    const card = registrations.card as AltaPayOptions
    const mobilepay = registrations.mobilepay as AltaPayOptions
    expect(card).toMatchObject({ gatewayUrl: "http://127.0.0.1:8787", allowInsecureUrls: true, terminal: "AltaPay Sandbox Test Terminal", providerId: "card" })
    expect(mobilepay).toMatchObject({ gatewayUrl: "http://127.0.0.1:8787", terminal: "MobilePay Sandbox Terminal", providerId: "mobilepay" })
    expect(notificationUrl(card)).toBe("http://localhost:9000/hooks/payment/altapay_card")
    expect(notificationUrl(mobilepay)).toBe("http://localhost:9000/hooks/payment/altapay_mobilepay")
    expect(returnUrlsFor(mobilepay).success).toBe("http://localhost:9000/altapay/return/mobilepay/success")
  })

  it("against AltaPay (https://, no insecure flag): valid with ALTAPAY_PAYMENT_DATA_SECRET, refused with the reason without it", () => {
    const altapay = { ...SANDBOX_ENV, ALTAPAY_CHECKOUT_URL: "https://testgateway.altapaysecure.com", ALTAPAY_ALLOW_INSECURE_URLS: "" }
    const valid = parsedRegistrations(loadExample({ ...altapay, ALTAPAY_PAYMENT_DATA_SECRET: "0d6f3c2b9a8e7d6c5b4a39281706f5e4d3c2b1a0" }))
    expect(valid.card).toMatchObject({ checkoutUrl: "https://testgateway.altapaysecure.com", gatewayUrl: "https://testgateway.altapaysecure.com", allowInsecureUrls: false })
    expect(valid.mobilepay).toMatchObject({ allowInsecureUrls: false, providerId: "mobilepay" })
    const refused = parsedRegistrations(loadExample(altapay))
    for (const id of ["card", "mobilepay"]) expect((refused[id] as string[]).join("\n")).toMatch(/paymentDataSecret: is required outside a local sandbox/)
  })

  it("the sandbox's http:// URLs without ALTAPAY_ALLOW_INSECURE_URLS are refused with the reason", () => {
    const { ALTAPAY_ALLOW_INSECURE_URLS: _allow, ...env } = SANDBOX_ENV
    const refused = parsedRegistrations(loadExample(env))
    expect((refused.card as string[]).join("\n")).toMatch(/checkoutUrl: must use https:\/\//)
  })

  it("language and country: Danish and DK unless ALTAPAY_LANGUAGE / ALTAPAY_COUNTRY say otherwise", () => {
    expect(parsedRegistrations(loadExample(SANDBOX_ENV)).card).toMatchObject({ language: "da", country: "DK" })
    expect(parsedRegistrations(loadExample({ ...SANDBOX_ENV, ALTAPAY_LANGUAGE: "sv", ALTAPAY_COUNTRY: "SE" })).card).toMatchObject({ language: "sv", country: "SE" })
  })

  it("reads ALTAPAY_TERMINAL for the card terminal, not ALTAPAY_CARD_TERMINAL", () => {
    const { ALTAPAY_TERMINAL: _card, ...env } = SANDBOX_ENV
    const registrations = parsedRegistrations(loadExample({ ...env, ALTAPAY_CARD_TERMINAL: "Shop Card" }))
    expect((registrations.card as AltaPayOptions).terminal).toBeUndefined()
  })
})
