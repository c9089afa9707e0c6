/**
 * Issue 41: set-ups that start and then fail only in production. The provider's own option parsing
 * (validateOptions, which `medusa start` runs) refuses, when NODE_ENV is production and the options
 * name AltaPay's own gateway, a backendUrl AltaPay cannot post to (localhost, a private address, a
 * port other than 443 and 80) and a successUrl / failureUrl on localhost; the provider's loader warns
 * of what runs but should not go live (http://, AltaPay's test gateway with such URLs) and of a
 * registration named for a payment method without a terminal. A developer's laptop (NODE_ENV
 * development, or the local sandbox at http://localhost even in production) still starts. Everywhere:
 * a `language` AltaPay does not have is refused (with the language a country code meant), and a
 * missing required option names the environment variable the examples read it from.
 */
import validateAltaPayOptions from "../../../src/providers/altapay/options-loader"
import { AltaPayProviderService } from "../../../src/providers/altapay"
import { parseAltaPayOptions } from "../../../src/lib/registrations/options"
import { MINIMAL_OPTIONS } from "../../helpers/options"

const LIVE = { ...MINIMAL_OPTIONS, checkoutUrl: "https://shop.altapaysecure.com", gatewayUrl: "https://shop.altapaysecure.com", backendUrl: "https://medusa.shop.example" }
const SANDBOX = { ...MINIMAL_OPTIONS, checkoutUrl: "http://127.0.0.1:8787", gatewayUrl: "http://127.0.0.1:8787", allowInsecureUrls: true, backendUrl: "http://localhost:9000" }
const LANDING = "http://localhost:8000/api/altapay/landing?outcome={outcome}"

/** Runs `fn` with NODE_ENV set as `medusa start` (production) or `medusa develop` (development) sets it. */
function withNodeEnv<T>(value: string, fn: () => T): T {
  const saved = process.env.NODE_ENV
  process.env.NODE_ENV = value
  try {
    return fn()
  } finally {
    process.env.NODE_ENV = saved
  }
}

const refusal = (options: Record<string, unknown>): string => {
  try {
    AltaPayProviderService.validateOptions(options)
    return ""
  } catch (error) {
    return (error as Error).message
  }
}

describe("in production, against AltaPay's own gateway, the provider refuses to start", () => {
  it.each([
    ["http://localhost:9000", /backendUrl: in production, http:\/\/localhost:9000 is localhost/],
    ["https://127.0.0.1", /is a loopback address/],
    ["https://10.1.2.3", /is a private network address/],
    ["https://medusa", /a name without a domain/],
    ["https://medusa.internal", /a \.internal name/],
    ["http://medusa.shop.example:9000", /is on port 9000: AltaPay calls callback URLs on ports 443 \(https\) and 80 \(http\) only/],
    ["https://medusa.shop.example:8443", /is on port 8443/],
  ])("with backendUrl %s, naming MEDUSA_BACKEND_URL", (backendUrl, reason) => {
    const message = withNodeEnv("production", () => refusal({ ...LIVE, backendUrl }))
    expect(message).toMatch(reason)
    expect(message).toMatch(/AltaPay posts|AltaPay calls/)
    expect(message).toContain("MEDUSA_BACKEND_URL")
  })

  it("with a successUrl or failureUrl on localhost (the example configs' STORE_URL default), naming STORE_URL", () => {
    const message = withNodeEnv("production", () => refusal({ ...LIVE, successUrl: LANDING, failureUrl: LANDING }))
    expect(message).toMatch(/successUrl: in production, http:\/\/localhost:8000 is localhost: a customer who paid would be sent to their own computer/)
    expect(message).toMatch(/failureUrl: in production/)
    expect(message).toContain("STORE_URL")
  })
})

describe("what still starts", () => {
  it("the same options outside production (medusa develop on a laptop)", () => {
    expect(withNodeEnv("development", () => refusal({ ...LIVE, backendUrl: "http://localhost:9000", successUrl: LANDING }))).toBe("")
  })

  it("the local sandbox at http://localhost, even under `medusa start` (NODE_ENV production)", () => {
    expect(withNodeEnv("production", () => refusal({ ...SANDBOX, successUrl: LANDING, failureUrl: LANDING }))).toBe("")
  })

  it("a public https:// backendUrl on 443, and plain http on port 80 (AltaPay calls port 80 too)", () => {
    expect(withNodeEnv("production", () => refusal(LIVE))).toBe("")
    expect(withNodeEnv("production", () => refusal({ ...LIVE, backendUrl: "http://medusa.shop.example" }))).toBe("")
  })
})

/** What the provider's loader logs for one registration, as Medusa runs it when it loads the provider. */
async function startUpWarnings(options: Record<string, unknown>, id = "altapay", nodeEnv = "production"): Promise<string[]> {
  const warnings: string[] = []
  const logger = { warn: (message: string) => void warnings.push(message), debug: () => undefined }
  const saved = process.env.NODE_ENV
  process.env.NODE_ENV = nodeEnv
  try {
    await validateAltaPayOptions({ options, moduleOptions: { providers: [{ id, options }] }, logger } as never)
  } finally {
    process.env.NODE_ENV = saved
  }
  return warnings
}

describe("the provider's loader warns", () => {
  it("in production, of an http:// backendUrl and storefront (they work, unencrypted)", async () => {
    const warnings = await startUpWarnings({ ...LIVE, backendUrl: "http://medusa.shop.example", successUrl: "http://shop.example/landing" })
    expect(warnings).toEqual([
      expect.stringMatching(/^AltaPay: backendUrl: http:\/\/medusa\.shop\.example is http:\/\//),
      expect.stringMatching(/^AltaPay: successUrl: http:\/\/shop\.example is http:\/\//),
    ])
  })

  it("in production against AltaPay's test gateway (a staging store), of what the live gateway refuses", async () => {
    const warnings = await startUpWarnings({ ...MINIMAL_OPTIONS, backendUrl: "http://localhost:9000" })
    expect(warnings.join("\n")).toMatch(/backendUrl: in production, http:\/\/localhost:9000 is localhost/)
  })

  it("of nothing on a laptop: not in development, not against the local sandbox", async () => {
    expect(await startUpWarnings({ ...LIVE, backendUrl: "http://localhost:9000" }, "altapay", "development")).toEqual([])
    expect(await startUpWarnings({ ...SANDBOX, terminal: "AltaPay Sandbox Test Terminal" })).toEqual([])
  })

  it("anywhere, of a registration named for MobilePay with no terminal: AltaPay would open a card method", async () => {
    const warnings = await startUpWarnings({ ...SANDBOX }, "mobilepay", "development")
    expect(warnings).toEqual([
      expect.stringContaining(
        "pp_altapay_mobilepay is named for MobilePay but has no terminal: AltaPay then opens its first card method, not MobilePay; set terminal to the API user's MobilePay terminal (ALTAPAY_MOBILEPAY_TERMINAL in medusa-config.multi.example.ts)"
      ),
    ])
    expect(await startUpWarnings({ ...SANDBOX, terminal: "MobilePay Sandbox Terminal" }, "mobilepay", "development")).toEqual([])
    expect(await startUpWarnings({ ...SANDBOX }, "card", "development")).toEqual([])
  })
})

describe("everywhere", () => {
  it('refuses a language AltaPay does not have; "dk" is told that Danish is "da"', () => {
    const parsed = parseAltaPayOptions({ ...MINIMAL_OPTIONS, language: "dk" })
    expect(parsed).toEqual({
      problems: [
        expect.stringMatching(
          /^language: "dk" is not one of AltaPay's payment page languages \(ca, cs, da, .*\); "dk" is a country code, and its language is "da": use language: "da"$/
        ),
      ],
    })
    expect((parseAltaPayOptions({ ...MINIMAL_OPTIONS, language: "xx" }) as { problems: string[] }).problems[0]).not.toContain("country code")
  })

  it("takes AltaPay's languages, sending nb and nn as no and ee as et", () => {
    const language = (value: string) => (parseAltaPayOptions({ ...MINIMAL_OPTIONS, language: value }) as { options: { language: string } }).options.language
    expect(["da", "sv", "en", "nb", "nn", "ee"].map(language)).toEqual(["da", "sv", "en", "no", "no", "et"])
  })

  it("names the environment variable of a missing backendUrl and credentials", () => {
    const { backendUrl: _b, username: _u, password: _p, ...rest } = MINIMAL_OPTIONS
    const { problems } = parseAltaPayOptions(rest) as { problems: string[] }
    expect(problems).toEqual(
      expect.arrayContaining([
        "backendUrl: is not set: give this Medusa server's public URL, where AltaPay posts its callbacks (MEDUSA_BACKEND_URL in medusa-config.example.ts)",
        "username: is not set: give the AltaPay API user (ALTAPAY_USERNAME in medusa-config.example.ts)",
        "password: is not set: give the AltaPay API user's password (ALTAPAY_PASSWORD in medusa-config.example.ts)",
      ])
    )
  })
})
