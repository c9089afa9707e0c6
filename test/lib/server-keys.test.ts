/**
 * The seal's key: not derivable from the API credentials by a fast function (every customer sees
 * their own sealed data, so a fast key would be an offline password oracle), never shared by two
 * registrations or stores on one API user, and rotated without stranding what was sealed before.
 */
import { hkdfSync, scryptSync } from "node:crypto"
import { freshPaymentData, openPaymentData, sealPaymentData } from "../../src/lib/payment-data/data"
import { parseAltaPayOptions } from "../../src/lib/registrations/options"
import { serverKeys, type KeyOptions } from "../../src/lib/registrations/server-keys"

const base: KeyOptions = { username: "api-user", password: "api-password", providerId: "card", backendUrl: "https://shop.example" }
/** Secrets as `openssl rand -hex 16` makes them (32 characters). */
const SECRET = "3f9c0a1b2d4e5f60718293a4b5c6d7e8"
const NEXT_SECRET = "9e8d7c6b5a4f3e2d1c0b9a8f7e6d5c4b"
const data = freshPaymentData({
  altapay_session_id: "as_1",
  order_id: "payses_1",
  amount_minor: 10000,
  currency: "DKK",
  terminal: "Card DKK",
  auto_capture: false,
  order_lines: [],
  order_lines_source: "summary",
})
/** Provider options against AltaPay's test gateway (https://). */
const ALTAPAY = {
  checkoutUrl: "https://testgateway.altapaysecure.com",
  gatewayUrl: "https://testgateway.altapaysecure.com",
  username: "u",
  password: "api-password",
  backendUrl: "https://shop.example",
}
const verifies = (sealedWith: KeyOptions, checkedWith: KeyOptions) =>
  openPaymentData(JSON.parse(JSON.stringify(sealPaymentData(data, serverKeys(sealedWith, "payment-data-seal")))), serverKeys(checkedWith, "payment-data-seal")).sealed

describe("seal keys", () => {
  it("derives the credentials' key with scrypt (32 MiB per guess), never with the fast HKDF of version 1", () => {
    const salt = "medusa-payment-altapay:card:shop.example"
    const master = scryptSync("api-user\u0000api-password", salt, 32, { N: 2 ** 15, r: 8, p: 1, maxmem: 64 * 1024 * 1024 })
    const expected = Buffer.from(hkdfSync("sha256", master, "medusa-payment-altapay:card", "payment-data-seal v1", 32))
    const fast = Buffer.from(hkdfSync("sha256", "api-user\u0000api-password", "medusa-payment-altapay", "payment-data-seal v1", 32))
    const keys = serverKeys(base, "payment-data-seal")
    expect(keys.primary.equals(expected)).toBe(true)
    expect(keys.accepted.some((k) => k.equals(fast))).toBe(false)
  })

  it("gives registrations and stores sharing an API user different keys, and every server of one store the same", () => {
    expect(verifies(base, { ...base, providerId: "mobilepay" })).toBe(false)
    expect(verifies(base, { ...base, backendUrl: "https://other-shop.example" })).toBe(false)
    expect(verifies({ ...base, paymentDataSecret: SECRET }, { ...base, providerId: "mobilepay", paymentDataSecret: SECRET })).toBe(false)
    expect(verifies(base, { ...base, backendUrl: "https://shop.example/" })).toBe(true)
    expect(verifies({ ...base, backendUrl: "http://shop.example:9000" }, { ...base, backendUrl: "http://SHOP.example:9001" })).toBe(true)
  })

  it("keeps verifying credentials-derived seals once a secret is set, but seals only with the secret", () => {
    const withSecret = { ...base, paymentDataSecret: SECRET }
    // What was sealed before the secret (sessions in flight, payments) still opens...
    expect(verifies(base, withSecret)).toBe(true)
    expect(verifies(base, { ...withSecret, previousPaymentDataSecrets: [NEXT_SECRET] })).toBe(true)
    // ...but nothing new is sealed with the password-derived key: a new seal is no password oracle.
    expect(verifies(withSecret, base)).toBe(false)
    expect(serverKeys(withSecret, "payment-data-seal").primary.equals(serverKeys(base, "payment-data-seal").primary)).toBe(false)
    // The old key follows the current API password: changing it ends the old seals.
    expect(verifies(base, { ...withSecret, password: "rotated-api-password" })).toBe(false)
    // Arrival stamps the same way: a stamp made before the secret (a rolling restart) still verifies.
    const arrival = serverKeys(withSecret, "webhook-arrival")
    expect(arrival.accepted.some((key) => key.equals(serverKeys(base, "webhook-arrival").primary))).toBe(true)
    expect(arrival.primary.equals(serverKeys(base, "webhook-arrival").primary)).toBe(false)
  })

  it("keeps the seals of a previous secret verifying while it is listed, and seals with the new one", () => {
    const rotated = { ...base, paymentDataSecret: NEXT_SECRET, previousPaymentDataSecrets: [SECRET] }
    expect(verifies({ ...base, paymentDataSecret: SECRET }, rotated)).toBe(true)
    expect(verifies(rotated, { ...base, paymentDataSecret: NEXT_SECRET })).toBe(true)
    expect(verifies({ ...base, paymentDataSecret: SECRET }, { ...base, paymentDataSecret: NEXT_SECRET })).toBe(false)
  })

  it("refuses previous secrets without a current one, and short ones, naming the option but not the value", () => {
    const options = { ...ALTAPAY, checkoutUrl: "http://127.0.0.1:8787", gatewayUrl: "http://127.0.0.1:8787", allowInsecureUrls: true }
    const parsed = parseAltaPayOptions({ ...options, previousPaymentDataSecrets: [SECRET] })
    expect("problems" in parsed && parsed.problems).toEqual(["previousPaymentDataSecrets: needs paymentDataSecret (the current secret) as well"])
    const short = parseAltaPayOptions({ ...options, paymentDataSecret: SECRET, previousPaymentDataSecrets: ["too-short-secret"] })
    expect("problems" in short && short.problems.join()).toMatch(/previousPaymentDataSecrets.0: must be at least 32 characters/)
    expect(JSON.stringify(short)).not.toContain("too-short-secret")
  })
})

describe("paymentDataSecret: required against AltaPay, optional against a local sandbox", () => {
  const altapay = ALTAPAY
  const problems = (raw: Record<string, unknown>) => {
    const parsed = parseAltaPayOptions(raw)
    return "problems" in parsed ? parsed.problems : []
  }

  it("refuses a registration against AltaPay without a secret, saying why and how to make one", () => {
    expect(problems(altapay)).toEqual([expect.stringMatching(/^paymentDataSecret: is required outside a local sandbox: .*API password.*guess offline.*openssl rand -hex 32/)])
    expect(problems({ ...altapay, checkoutUrl: "https://shop.altapaysecure.com", gatewayUrl: "https://shop.altapaysecure.com" })).toHaveLength(1)
    // One URL on the sandbox is not enough: the other one still carries the API credentials to AltaPay.
    expect(problems({ ...altapay, checkoutUrl: "http://127.0.0.1:8787", allowInsecureUrls: true })).toHaveLength(1)
    expect(problems({ ...altapay, paymentDataSecret: SECRET })).toEqual([])
  })

  it("lets a local sandbox (http://, which needs allowInsecureUrls, or a loopback host) run without one", () => {
    for (const url of ["http://127.0.0.1:8787", "http://localhost:8787", "http://altapay-sandbox:8787", "https://localhost:8443", "https://[::1]:8443", "https://127.0.0.2"]) {
      expect(problems({ ...altapay, checkoutUrl: url, gatewayUrl: url, allowInsecureUrls: true })).toEqual([])
    }
    expect(problems({ ...altapay, checkoutUrl: "https://127.0.0.1.example", gatewayUrl: "https://localhost.example" })).toHaveLength(1)
  })

  it("refuses a secret that is short, not random, or another secret of the registration, never echoing it", () => {
    const refused = (paymentDataSecret: string, extra: Record<string, unknown> = {}) => {
      const found = problems({ ...altapay, ...extra, paymentDataSecret })
      expect(JSON.stringify(found)).not.toContain(paymentDataSecret)
      return found.join("\n")
    }
    expect(refused("too-short-secret")).toMatch(/^paymentDataSecret: must be at least 32 characters; generate one with `openssl rand -hex 32`/)
    expect(refused("x".repeat(40))).toMatch(/^paymentDataSecret: is not random \(fewer than 8 different characters\)/)
    expect(refused("abcabcabcabcabcabcabcabcabcabcabcabc")).toMatch(/is not random/)
    const long = "an-api-password-of-at-least-32-characters"
    expect(refused(long, { password: long })).toMatch(/^paymentDataSecret: must be a secret of its own, not the password/)
    expect(refused(long, { callbackSecret: long })).toMatch(/^paymentDataSecret: must be a secret of its own, not the callbackSecret/)
  })

  it("with a secret, opens what the password-derived key sealed, and seals what that key does not open", () => {
    const parsed = parseAltaPayOptions({ ...altapay, paymentDataSecret: SECRET })
    if (!("options" in parsed)) throw new Error(parsed.problems.join())
    const before = { ...altapay, providerId: "altapay" }
    expect(verifies(before, parsed.options)).toBe(true)
    expect(verifies(parsed.options, before)).toBe(false)
  })
})
