/**
 * The README's medusa-config is medusa-config.example.ts, not a second copy: the block under the
 * README's "Install into a store" is the file verbatim, and the provider options the file produces
 * pass the provider's own check, against the local sandbox (http://, so `allowInsecureUrls`) and
 * against AltaPay (https://, so `paymentDataSecret`). The scratch-store install (integration-tests/install) runs the same
 * file as a store's config.
 */
import fs from "node:fs"
import path from "node:path"
import { AltaPayProviderService } from "../../src/providers/altapay"
import { altapayEntries, loadExampleConfig, REPO, SANDBOX_ENV } from "../helpers/example-config"

const EXAMPLE = path.join(REPO, "medusa-config.example.ts")

/** The AltaPay provider entry's options of medusa-config.example.ts, evaluated with `env`. */
function exampleProviderOptions(env: Record<string, string>): Record<string, unknown> {
  const [provider] = altapayEntries(loadExampleConfig("medusa-config.example.ts", env))
  if (!provider) throw new Error("medusa-config.example.ts registers no AltaPay provider in the Payment module")
  return provider.options
}

// The first load evaluates Medusa's utils (seconds on a busy machine); the later ones reuse them.
jest.setTimeout(30_000)

describe("the README's medusa-config", () => {
  it("is medusa-config.example.ts, verbatim", () => {
    const readme = fs.readFileSync(path.join(REPO, "README.md"), "utf8")
    const intro = readme.indexOf("`medusa-config.ts`: this is [`medusa-config.example.ts`](medusa-config.example.ts)")
    expect(intro).toBeGreaterThan(-1)
    const block = /```ts\n([\s\S]*?)\n```/.exec(readme.slice(intro))?.[1]
    expect(block).toBe(fs.readFileSync(EXAMPLE, "utf8").replace(/\n$/, ""))
  })

  it("gives the provider valid options against the local sandbox, whose http:// URLs need allowInsecureUrls", () => {
    const options = exampleProviderOptions(SANDBOX_ENV)
    expect(options).toMatchObject({ checkoutUrl: "http://127.0.0.1:8787", gatewayUrl: "http://127.0.0.1:8787", allowInsecureUrls: true })
    expect(() => AltaPayProviderService.validateOptions(options)).not.toThrow()
  })

  it("without ALTAPAY_ALLOW_INSECURE_URLS, the sandbox's http:// URLs are refused with the reason", () => {
    const { ALTAPAY_ALLOW_INSECURE_URLS: _allow, ...env } = SANDBOX_ENV
    const options = exampleProviderOptions(env)
    expect(options.allowInsecureUrls).toBe(false)
    expect(() => AltaPayProviderService.validateOptions(options)).toThrow(/AltaPay provider options are invalid:[\s\S]*checkoutUrl: must use https:\/\//)
  })

  it("gives the provider valid options against AltaPay (https://) with the flag unset and ALTAPAY_PAYMENT_DATA_SECRET set", () => {
    const altapay = { ...SANDBOX_ENV, ALTAPAY_CHECKOUT_URL: "https://testgateway.altapaysecure.com", ALTAPAY_ALLOW_INSECURE_URLS: "" }
    const options = exampleProviderOptions({ ...altapay, ALTAPAY_PAYMENT_DATA_SECRET: "0d6f3c2b9a8e7d6c5b4a39281706f5e4d3c2b1a0" })
    expect(options.allowInsecureUrls).toBe(false)
    expect(() => AltaPayProviderService.validateOptions(options)).not.toThrow()
    // Without the secret the store does not start against AltaPay, and the message says how to make one.
    expect(() => AltaPayProviderService.validateOptions(exampleProviderOptions(altapay))).toThrow(
      /AltaPay provider options are invalid:[\s\S]*paymentDataSecret: is required outside a local sandbox[\s\S]*openssl rand -hex 32/
    )
  })
})
