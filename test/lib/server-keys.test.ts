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
const SECRET = "s".repeat(32)
const NEXT_SECRET = "n".repeat(32)
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
    const options = { checkoutUrl: "https://gw.example", gatewayUrl: "https://gw.example", username: "u", password: "p", backendUrl: "https://shop.example" }
    const parsed = parseAltaPayOptions({ ...options, previousPaymentDataSecrets: [SECRET] })
    expect("problems" in parsed && parsed.problems).toEqual(["previousPaymentDataSecrets: needs paymentDataSecret (the current secret) as well"])
    const short = parseAltaPayOptions({ ...options, paymentDataSecret: SECRET, previousPaymentDataSecrets: ["too-short-secret"] })
    expect("problems" in short && short.problems.join()).toMatch(/previousPaymentDataSecrets.0: must be at least 32 characters/)
    expect(JSON.stringify(short)).not.toContain("too-short-secret")
  })
})
