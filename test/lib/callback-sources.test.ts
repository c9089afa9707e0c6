/**
 * callbackSources: AltaPay's published addresses and a merchant's own list, IPv4 and IPv6,
 * matched by the middleware on the notification webhook and the return posts, for every spelling
 * of their paths Express routes (issue 39, item 9), on the caller's own address unless a proxy the
 * merchant lists forwarded it.
 */
import { once } from "node:events"
import http, { type Server } from "node:http"
import type { AddressInfo } from "node:net"
import express from "express"
import { refuseUnknownCallbackSources } from "../../src/api/middlewares"
import { ALTAPAY_CALLBACK_SOURCES, callerAddress, parseSource, sourceCheck } from "../../src/lib/callbacks/source-addresses"
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

describe("the callbackProxies option", () => {
  it("takes addresses and ranges, and only beside callbackSources", () => {
    expect(parseAltaPayOptions({ ...base, callbackSources: "altapay", callbackProxies: ["10.0.0.0/8", "::1"] })).toHaveProperty("options.callbackProxies", ["10.0.0.0/8", "::1"])
    expect(parseAltaPayOptions({ ...base, callbackSources: "altapay", callbackProxies: ["lb.internal"] })).toHaveProperty("problems")
    expect(parseAltaPayOptions({ ...base, callbackProxies: ["10.0.0.0/8"] })).toEqual({
      problems: ["callbackProxies: is read only by the callbackSources check: set callbackSources too, or remove callbackProxies"],
    })
  })
})

describe("the middleware on the notification webhook and the return posts, behind Express's own routing", () => {
  const warnings: string[] = []
  const reached: string[] = []
  const registration = (id: string, extra: Record<string, unknown>) => ({ resolve: "medusa-payment-altapay/providers/altapay", id, options: { ...base, providerId: id, ...extra } })
  const providers = [
    // The test's client connects from 127.0.0.1: a refused address for "altapay".
    registration("altapay", { callbackSources: "altapay" }),
    registration("proxied", { callbackSources: "altapay", callbackProxies: ["127.0.0.1", "::1"] }),
    registration("open", {}),
  ]
  const configModule = { modules: { payment: { resolve: "@medusajs/medusa/payment", options: { providers } } } }
  const scope = { resolve: (name: string) => (name === "logger" ? { warn: (m: string) => warnings.push(m) } : configModule) }
  let server: Server
  let port = 0

  beforeAll(async () => {
    // As Medusa 2.21 sets it up: trust proxy 1 (express-loader.js) and the plugin's matchers.
    const app = express()
    app.set("trust proxy", 1)
    app.use((req, _res, next) => {
      ;(req as unknown as { scope: unknown }).scope = scope
      next()
    })
    const handler = (req: express.Request, res: express.Response) => {
      reached.push(req.path)
      res.status(200).send("reached")
    }
    for (const matcher of ["/altapay/return/*", "/altapay/saved-card-return/*", "/altapay/verify-order/:id", "/hooks/payment/:provider"])
      app.post(matcher, refuseUnknownCallbackSources as never, handler)
    server = app.listen(0, "127.0.0.1")
    await once(server, "listening")
    port = (server.address() as AddressInfo).port
  })
  afterAll(() => new Promise<void>((resolve) => server.close(() => resolve())))
  beforeEach(() => {
    warnings.length = 0
    reached.length = 0
  })

  /** A raw POST with the request line exactly as given (Node's fetch would normalise the path). */
  function post(target: string, headers: Record<string, string> = {}): Promise<number> {
    return new Promise((resolve, reject) => {
      const request = http.request({ host: "127.0.0.1", port, method: "POST", path: target, headers: { "content-length": "0", ...headers } }, (answer) => {
        answer.resume()
        resolve(answer.statusCode ?? 0)
      })
      request.on("error", reject)
      request.end()
    })
  }

  const spellings = (id: string) => [
    `/hooks/payment/altapay_${id}`,
    `/HOOKS/payment/altapay_${id}`,
    `/hooks/Payment/altapay_${id}/`,
    `/hooks/payment/altapay%5F${id}`,
    `http://shop.example/Hooks/payment/altapay_${id}`,
    // Medusa's Payment module adds pp_ only to a name without it: this reaches the same provider.
    `/hooks/payment/pp_altapay_${id}`,
    `/Hooks/payment/pp_altapay%5F${id}`,
    `/altapay/return/${id}/success`,
    `/AltaPay/return/${id}/success`,
    `/ALTAPAY/RETURN/${id}/failure?x=1`,
    `/altapay/Saved-Card-Return/${id}/notification`,
    // AltaPay's last look before it charges: a forged OKAY would wave a payment through.
    `/altapay/verify-order/${id}`,
    `/AltaPay/Verify-Order/${id}`,
  ]

  it("every spelling Express routes to the webhook or a return reaches it (a registration without callbackSources)", async () => {
    for (const target of spellings("open")) expect([target, await post(target)]).toEqual([target, 200])
    expect(reached).toHaveLength(spellings("open").length)
  })

  it("refuses every such spelling from an address callbackSources does not name, with 403 and a warning", async () => {
    for (const target of spellings("altapay")) expect([target, await post(target)]).toEqual([target, 403])
    expect(reached).toEqual([])
    expect(warnings).toHaveLength(spellings("altapay").length)
    expect(warnings[0]).toMatch(
      /^AltaPay: refused POST \/hooks\/payment\/altapay_altapay from (::ffff:)?127\.0\.0\.1: not an address callbackSources of pp_altapay_altapay allows \(403\)\.$/
    )
  })

  it("ignores a forged X-Forwarded-For when no proxy of the merchant's is listed, and says so", async () => {
    expect(await post("/hooks/payment/altapay_altapay", { "x-forwarded-for": "185.206.120.7" })).toBe(403)
    expect(await post("/altapay/return/altapay/success", { "x-forwarded-for": "203.0.113.1, 185.206.120.7" })).toBe(403)
    expect(reached).toEqual([])
    expect(warnings[0]).toContain("list your proxy in front of Medusa in callbackProxies")
  })

  it("behind a listed proxy, takes the address the proxy forwarded: AltaPay's passes, any other is refused", async () => {
    expect(await post("/hooks/payment/altapay_proxied", { "x-forwarded-for": "185.206.120.7" })).toBe(200)
    // A sender's own entry on the left does not help: the proxy appended the address it saw.
    expect(await post("/AltaPay/return/proxied/success", { "x-forwarded-for": "185.206.120.7, 203.0.113.9" })).toBe(403)
    // No X-Forwarded-For: the proxy's own address, which is no AltaPay address.
    expect(await post("/hooks/payment/altapay_proxied")).toBe(403)
    expect(reached).toEqual(["/hooks/payment/altapay_proxied"])
    expect(warnings[0]).toContain("from 203.0.113.9:")
  })
})

describe("callerAddress", () => {
  const proxies = sourceCheck(["10.0.0.0/8"])
  it("is the peer unless the peer is a listed proxy; then the right-most address no listed proxy added", () => {
    expect(callerAddress("203.0.113.9", "185.206.120.7", undefined)).toBe("203.0.113.9")
    expect(callerAddress("203.0.113.9", "185.206.120.7", proxies)).toBe("203.0.113.9")
    expect(callerAddress("10.0.0.2", "185.206.120.7", proxies)).toBe("185.206.120.7")
    expect(callerAddress("::ffff:10.0.0.2", ["1.2.3.4, 185.206.120.7", "10.1.1.1"], proxies)).toBe("185.206.120.7")
    expect(callerAddress("10.0.0.2", undefined, proxies)).toBe("10.0.0.2")
    expect(callerAddress(undefined, "185.206.120.7", proxies)).toBeUndefined()
  })
})
