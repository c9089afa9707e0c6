import { decodeJwt } from "jose"
import type { Sandbox } from "../../src/sandbox"
import { PAYMENT_METHODS } from "../../src/sandbox"
import { basicHeader, call, createSession, issueToken, sessionBody, start } from "./helpers"

describe("sandbox checkout tokens", () => {
  let sandbox: Sandbox
  let clock = Date.UTC(2025, 0, 1, 12)

  beforeAll(async () => {
    sandbox = await start({ now: () => clock })
  })
  afterAll(() => sandbox.close())

  test("wrong or missing Basic credentials get 401 JSON", async () => {
    const wrong = await call(sandbox, "POST", "/authenticate", { basic: basicHeader("shop-api@example.com", "nope") })
    expect(wrong.status).toBe(401)
    expect(wrong.body.error).toBe("unauthorized")
    const missing = await call(sandbox, "POST", "/authenticate")
    expect(missing.status).toBe(401)
  })

  test("an empty body issues a CUSTOMER token with the documented claims and a one-hour lifetime", async () => {
    const answer = await call(sandbox, "POST", "/authenticate", { basic: basicHeader() })
    expect(answer.status).toBe(200)
    const claims = decodeJwt(answer.body.token)
    expect(claims).toMatchObject({ iss: "altapay-sandbox", upn: "shop-api@example.com", role: "CUSTOMER" })
    expect(claims.groups).toEqual(expect.arrayContaining(["SessionUpdate", "ExecutePayment", "ListPaymentMethods"]))
    expect(claims.exp! - claims.iat!).toBe(3600)
    expect(claims.iat).toBe(Math.floor(clock / 1000))
    expect(typeof claims.jti).toBe("string")
  })

  test("MERCHANT tokens are issued; a sessionId sent with MERCHANT is ignored", async () => {
    const token = await issueToken(sandbox, { role: "MERCHANT", sessionId: "0b8e7c55-8f0e-4b39-9a41-1d2c3e4f5a6b" })
    expect(decodeJwt(token)).toMatchObject({ role: "MERCHANT" })
    expect(decodeJwt(token).sid).toBeUndefined()
  })

  test("an unknown role is a 400 and a CUSTOMER sessionId must name an existing session", async () => {
    const badRole = await call(sandbox, "POST", "/authenticate", { basic: basicHeader(), body: { role: "ADMIN" } })
    expect(badRole.status).toBe(400)
    expect(badRole.body.error).toBe("validation")
    const unknown = await call(sandbox, "POST", "/authenticate", { basic: basicHeader(), body: { role: "CUSTOMER", sessionId: "0b8e7c55-8f0e-4b39-9a41-1d2c3e4f5a6b" } })
    expect(unknown.status).toBe(404)
    const sessionId = await createSession(sandbox)
    const bound = await issueToken(sandbox, { sessionId })
    expect(decodeJwt(bound).sid).toBe(sessionId)
  })

  test("a CUSTOMER token for session A cannot reach session B", async () => {
    const a = await createSession(sandbox)
    const b = await createSession(sandbox)
    const token = await issueToken(sandbox, { role: "CUSTOMER", sessionId: a })
    expect((await call(sandbox, "GET", `/session/${a}`, { token })).status).toBe(200)
    const other = await call(sandbox, "GET", `/session/${b}`, { token })
    expect(other.status).toBe(403)
    expect((await call(sandbox, "GET", `/session/${b}/payment-methods`, { token })).status).toBe(403)
    expect((await call(sandbox, "POST", "/payment", { token, body: { sessionId: b, paymentMethodId: PAYMENT_METHODS[0].id } })).status).toBe(403)
  })

  test("a CUSTOMER token is spent once it has created a payment", async () => {
    const sessionId = await createSession(sandbox)
    const token = await issueToken(sandbox, { sessionId })
    const payment = await call(sandbox, "POST", "/payment", { token, body: { sessionId, paymentMethodId: PAYMENT_METHODS[0].id } })
    expect(payment.status).toBe(200)
    const again = await call(sandbox, "GET", `/session/${sessionId}`, { token })
    expect(again.status).toBe(401)
    expect(again.body.error).toBe("token_spent")
  })

  test("a default CUSTOMER token creates one session and is then bound to it", async () => {
    const token = await issueToken(sandbox)
    const created = await call(sandbox, "POST", "/session", { token, body: { order: { orderId: "o-1", amount: { value: 10, currency: "DKK" } } } })
    expect(created.status).toBe(200)
    expect((await call(sandbox, "GET", `/session/${created.body.sessionId}`, { token })).status).toBe(200)
    const second = await call(sandbox, "POST", "/session", { token, body: { order: { orderId: "o-2", amount: { value: 10, currency: "DKK" } } } })
    expect(second.status).toBe(403)
  })

  test("MERCHANT tokens cannot create payments; CUSTOMER tokens cannot create links", async () => {
    const sessionId = await createSession(sandbox)
    const merchant = await issueToken(sandbox, { role: "MERCHANT" })
    const payment = await call(sandbox, "POST", "/payment", { token: merchant, body: { sessionId, paymentMethodId: PAYMENT_METHODS[0].id } })
    expect(payment.status).toBe(403)
    expect(payment.body.message).toMatch(/CUSTOMER token/)
    const customer = await issueToken(sandbox, { sessionId })
    expect((await call(sandbox, "POST", `/session/${sessionId}/link`, { token: customer, body: {} })).status).toBe(403)
  })

  // AltaPay lets a CUSTOMER token write its session, orderId and autoCapture included (docs/altapay-wire-facts.md,
  // "Checkout API: tokens"); the sandbox must too, or the provider's checks at authorize go untested.
  test("a CUSTOMER token may change its session's orderId and autoCapture, and the payment follows them", async () => {
    const sessionId = await createSession(sandbox, sessionBody({ orderId: "order-by-merchant", autoCapture: false }))
    const token = await issueToken(sandbox, { sessionId })
    const changed = await call(sandbox, "PUT", `/session/${sessionId}`, { token, body: { order: { orderId: "order-by-browser" }, configuration: { autoCapture: true } } })
    expect(changed.status).toBe(200)
    expect(changed.body.order.orderId).toBe("order-by-browser")
    expect(changed.body.configuration.autoCapture).toBe(true)
    const paid = await sandbox.simulatePayment(sessionId, { callback: false })
    expect(sandbox.transaction(paid.transactionId!)).toMatchObject({ shopOrderId: "order-by-browser", status: "captured", authType: "paymentAndCapture" })
  })

  test("a default CUSTOMER token (AltaPay's frontend-only flow) creates a session with the orderId and autoCapture it chooses", async () => {
    const token = await issueToken(sandbox)
    const created = await call(sandbox, "POST", "/session", { token, body: sessionBody({ orderId: "chosen-in-the-app", autoCapture: true }) })
    expect(created.status).toBe(200)
    expect(created.body).toMatchObject({ order: { orderId: "chosen-in-the-app" }, configuration: { autoCapture: true } })
  })

  test("tokens expire after an hour of the injected clock", async () => {
    const token = await issueToken(sandbox, { role: "MERCHANT" })
    const sessionId = await createSession(sandbox)
    clock += 3599 * 1000
    expect((await call(sandbox, "GET", `/session/${sessionId}`, { token })).status).toBe(200)
    clock += 2 * 1000
    const expired = await call(sandbox, "GET", `/session/${sessionId}`, { token })
    expect(expired.status).toBe(401)
    expect(expired.body.error).toBe("token_expired")
  })

  test("a missing or forged bearer token gets 401", async () => {
    const sessionId = await createSession(sandbox)
    expect((await call(sandbox, "GET", `/session/${sessionId}`)).status).toBe(401)
    const token = await issueToken(sandbox, { role: "MERCHANT" })
    const forged = `${token.slice(0, -4)}AAAA`
    expect((await call(sandbox, "GET", `/session/${sessionId}`, { token: forged })).status).toBe(401)
  })
})
