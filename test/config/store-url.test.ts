/**
 * Issue 41: with STORE_URL unset, both example configs silently made it http://localhost:8000, the
 * base of the success and failure landing pages and the storefront's CORS origin, so a live store's
 * paid customers were sent to their own computer. In production (NODE_ENV production, as `medusa
 * start` sets it) the examples now stop with the variable to set; outside production the local
 * storefront stays the default, so a laptop starts as before.
 */
import { altapayEntries, loadExampleConfig, SANDBOX_ENV, type ExampleConfig } from "../helpers/example-config"

const EXAMPLES = ["medusa-config.example.ts", "medusa-config.multi.example.ts"]
const { STORE_URL: _storeUrl, ...WITHOUT_STORE_URL } = SANDBOX_ENV

// The first load evaluates Medusa's utils (seconds on a busy machine); the later ones reuse them.
jest.setTimeout(30_000)

describe.each(EXAMPLES)("%s", (file) => {
  it("in production without STORE_URL: stops with what to set, instead of a localhost landing page", () => {
    expect(() => loadExampleConfig(file, { ...WITHOUT_STORE_URL, NODE_ENV: "production" })).toThrow(
      "STORE_URL is not set: set it to the storefront's public https:// address (customers who paid are sent there)."
    )
  })

  it("in production with STORE_URL: the landing pages and CORS are the storefront's", () => {
    const config: ExampleConfig & { projectConfig?: { http?: { storeCors?: string } } } = loadExampleConfig(file, {
      ...WITHOUT_STORE_URL,
      NODE_ENV: "production",
      STORE_URL: "https://shop.example",
    })
    expect(config.projectConfig?.http?.storeCors).toBe("https://shop.example")
    for (const entry of altapayEntries(config)) expect(entry.options.successUrl).toMatch(/^https:\/\/shop\.example\/api\/altapay\/landing\?/)
  })

  it("outside production without STORE_URL: the local storefront, as before", () => {
    const [entry] = altapayEntries(loadExampleConfig(file, { ...WITHOUT_STORE_URL, NODE_ENV: "development" }))
    expect(entry.options.successUrl).toMatch(/^http:\/\/localhost:8000\/api\/altapay\/landing\?/)
  })
})
