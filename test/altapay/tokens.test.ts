import { AltaPayAuthError, jwtExpiryMs } from "../../src/altapay"
import { SANDBOX_PASSWORD, SANDBOX_USER, startSandboxAndClient, type SandboxPair } from "../helpers/sandbox"

const authenticateCalls = (pair: SandboxPair) => pair.sandbox.ledger().filter((e) => e.operation === "authenticate")

describe("tokens", () => {
  let pair: SandboxPair
  beforeEach(async () => {
    pair = await startSandboxAndClient()
  })
  afterEach(() => pair.close())

  it("500 concurrent cold callers share exactly one authenticate", async () => {
    const tokens = await Promise.all(Array.from({ length: 500 }, () => pair.client.tokens.merchantToken()))
    expect(new Set(tokens).size).toBe(1)
    expect(authenticateCalls(pair)).toHaveLength(1)
  })

  it("authenticates with Basic auth and a MERCHANT role body at the reference's path", async () => {
    await pair.client.tokens.merchantToken()
    const [call] = authenticateCalls(pair)
    expect(call.method).toBe("POST")
    expect(call.path).toBe("/checkout/v1/api/authenticate")
    expect(call.auth).toBe("basic")
    expect(call.params).toEqual({ role: "MERCHANT" })
  })

  it("sends the token as Bearer on checkout calls and reuses the cached one", async () => {
    await pair.client.checkout.createSession({ orderId: "o-1", amountMinor: 1000, currency: "DKK" })
    await pair.client.checkout.createSession({ orderId: "o-2", amountMinor: 1000, currency: "DKK" })
    const creates = pair.sandbox.ledger().filter((e) => e.operation === "session.create")
    expect(creates.map((e) => e.auth)).toEqual(["bearer:MERCHANT", "bearer:MERCHANT"])
    expect(authenticateCalls(pair)).toHaveLength(1)
  })

  it("refreshes the MERCHANT token before the exp in its JWT", async () => {
    let now = Date.now()
    pair.sandbox.setClock(() => now)
    const client = pair.clientWith({ now: () => now, tokenRefreshMarginMs: 60_000 })
    const first = await client.tokens.merchantToken()
    const exp = jwtExpiryMs(first)!
    now = exp - 120_000
    expect(await client.tokens.merchantToken()).toBe(first)
    now = exp - 30_000
    const second = await client.tokens.merchantToken()
    expect(second).not.toBe(first)
    expect(authenticateCalls(pair)).toHaveLength(2)
  })

  it("drops a token AltaPay answers 401 to and re-issues it once", async () => {
    await pair.client.tokens.merchantToken()
    pair.sandbox.faults.add({ route: /\/session$/, kind: "expire-token" })
    const session = await pair.client.checkout.createSession({ orderId: "o-401", amountMinor: 500, currency: "DKK" })
    expect(session.sessionId).toBeTruthy()
    expect(authenticateCalls(pair)).toHaveLength(2)
  })

  it("gives up with an auth error when the fresh token is refused too", async () => {
    pair.sandbox.faults.add({ route: /\/session$/, kind: "expire-token", times: 2 })
    await expect(pair.client.checkout.createSession({ orderId: "o-401b", amountMinor: 500, currency: "DKK" })).rejects.toBeInstanceOf(AltaPayAuthError)
    expect(authenticateCalls(pair)).toHaveLength(2)
  })

  it("issues a new CUSTOMER token on every call, bound to the session, never cached", async () => {
    const session = await pair.client.checkout.createSession({ orderId: "o-c", amountMinor: 500, currency: "DKK" })
    const a = await pair.client.tokens.customerToken(session.sessionId)
    const b = await pair.client.tokens.customerToken(session.sessionId)
    expect(a.token).not.toBe(b.token)
    expect(a.expiresAt.getTime()).toBe(jwtExpiryMs(a.token))
    const customerCalls = authenticateCalls(pair).filter((e) => (e.params as { role?: string }).role === "CUSTOMER")
    expect(customerCalls).toHaveLength(2)
    expect(customerCalls[0].params).toEqual({ role: "CUSTOMER", sessionId: session.sessionId })
  })

  it("wrong credentials give an auth error that names neither password nor header", async () => {
    const client = pair.clientWith({ password: "wrong-password-123" })
    const error = await client.tokens.merchantToken().catch((e: unknown) => e)
    expect(error).toBeInstanceOf(AltaPayAuthError)
    const text = `${(error as Error).message} ${JSON.stringify(error)}`
    expect(text).not.toContain("wrong-password-123")
    expect(text).not.toContain(Buffer.from(`${SANDBOX_USER}:wrong-password-123`).toString("base64"))
    expect(text).not.toContain(SANDBOX_PASSWORD)
  })
})
