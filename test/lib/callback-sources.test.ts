/**
 * callbackSources: AltaPay's published addresses and a merchant's own list, IPv4 and IPv6,
 * matched by the middleware on the notification webhook and the return posts.
 */
import { refuseUnknownCallbackSources } from "../../src/api/middlewares"
import { ALTAPAY_CALLBACK_SOURCES, parseSource, sourceCheck } from "../../src/lib/callbacks/source-addresses"
import { parseAltaPayOptions } from "../../src/lib/registrations/options"

const base = {
  checkoutUrl: "http://127.0.0.1:1",
  gatewayUrl: "http://127.0.0.1:1",
  username: "u",
  password: "p",
  backendUrl: "http://127.0.0.1:9000",
  allowInsecureUrls: true,
}

describe("sourceCheck", () => {
  const altapay = sourceCheck("altapay")

  it("accepts AltaPay's published ranges and single addresses", () => {
    expect(ALTAPAY_CALLBACK_SOURCES).toEqual(["185.206.120.0/24", "2a10:a200::/29", "185.203.232.129", "185.203.233.129"])
    for (const ip of ["185.206.120.0", "185.206.120.255", "185.203.232.129", "185.203.233.129", "2a10:a200::1", "2a10:a207:ffff::1"]) expect(altapay(ip)).toBe(true)
  })

  it("accepts an IPv4 address written as IPv4-mapped IPv6 (a dual-stack socket)", () => {
    expect(altapay("::ffff:185.206.120.7")).toBe(true)
    expect(altapay("::ffff:127.0.0.1")).toBe(false)
  })

  it("refuses everything else, and no address at all", () => {
    for (const ip of ["185.206.121.1", "185.203.232.130", "2a10:a208::1", "127.0.0.1", "::1", "", "not-an-ip", undefined]) expect(altapay(ip)).toBe(false)
  })

  it("takes a list of its own instead", () => {
    const own = sourceCheck(["127.0.0.1", "10.0.0.0/8", "::1"])
    expect(own("127.0.0.1")).toBe(true)
    expect(own("::ffff:127.0.0.1")).toBe(true)
    expect(own("10.20.30.40")).toBe(true)
    expect(own("::1")).toBe(true)
    expect(own("185.206.120.1")).toBe(false)
  })
})

describe("the callbackSources option", () => {
  it("is off unless set", () => {
    const parsed = parseAltaPayOptions(base)
    expect("options" in parsed && parsed.options.callbackSources).toBeUndefined()
  })

  it('accepts "altapay" or addresses and ranges', () => {
    expect(parseAltaPayOptions({ ...base, callbackSources: "altapay" })).toHaveProperty("options.callbackSources", "altapay")
    expect(parseAltaPayOptions({ ...base, callbackSources: ["127.0.0.1", "2a10:a200::/29"] })).toHaveProperty("options.callbackSources", ["127.0.0.1", "2a10:a200::/29"])
  })

  it("refuses what is not an address or range, and an empty list", () => {
    for (const bad of [["185.206.120.0/33"], ["altapay.com"], ["1.2.3.4/8/9"], [], "everyone"]) {
      const parsed = parseAltaPayOptions({ ...base, callbackSources: bad })
      expect(parsed).toHaveProperty("problems")
    }
    expect(parseSource("::/0")).toEqual({ address: "::", prefix: 0, family: "ipv6" })
  })
})

describe("the middleware on the notification webhook and the return posts", () => {
  const warnings: string[] = []
  const providers = [
    { resolve: "medusa-payment-altapay/providers/altapay", id: "altapay", options: { ...base, providerId: "altapay", callbackSources: ["127.0.0.1"] } },
    { resolve: "medusa-payment-altapay/providers/altapay", id: "open", options: { ...base, providerId: "open" } },
  ]
  const configModule = { modules: { payment: { resolve: "@medusajs/medusa/payment", options: { providers } } } }
  const scope = { resolve: (name: string) => (name === "logger" ? { warn: (m: string) => warnings.push(m) } : configModule) }

  function run(url: string, ip: string | undefined) {
    const answer = { status: 0, text: "" }
    const res = {
      status(code: number) {
        answer.status = code
        return res
      },
      type: () => res,
      send(text: string) {
        answer.text = text
        return res
      },
    }
    let passed = false
    refuseUnknownCallbackSources({ originalUrl: url, url, path: url, method: "POST", ip, scope } as never, res as never, () => {
      passed = true
    })
    return { passed, ...answer }
  }

  beforeEach(() => (warnings.length = 0))

  it("lets an allowed address through to the webhook and the return endpoint", () => {
    expect(run("/hooks/payment/altapay_altapay", "127.0.0.1").passed).toBe(true)
    expect(run("/altapay/return/altapay/success", "::ffff:127.0.0.1").passed).toBe(true)
  })

  it("refuses any other address with 403 and logs it", () => {
    expect(run("/hooks/payment/altapay_altapay", "203.0.113.9")).toMatchObject({ passed: false, status: 403 })
    expect(run("/altapay/return/altapay/failure?x=1", "203.0.113.9")).toMatchObject({ passed: false, status: 403 })
    expect(warnings).toHaveLength(2)
    expect(warnings[0]).toContain("203.0.113.9")
    expect(warnings[0]).toContain("pp_altapay_altapay")
  })

  it("guards AltaPay's verify-order post the same way: refused from another address, so no payment is waved through", () => {
    expect(run("/altapay/verify-order/altapay", "127.0.0.1").passed).toBe(true)
    expect(run("/altapay/verify-order/altapay", "203.0.113.9")).toMatchObject({ passed: false, status: 403 })
  })

  it("leaves alone a registration without callbackSources, other providers and unknown registrations", () => {
    expect(run("/hooks/payment/altapay_open", "203.0.113.9").passed).toBe(true)
    expect(run("/hooks/payment/stripe_stripe", "203.0.113.9").passed).toBe(true)
    expect(run("/altapay/return/nobody/success", "203.0.113.9").passed).toBe(true)
  })
})
