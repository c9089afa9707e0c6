import { createServer, type Server } from "node:http"
import type { AddressInfo } from "node:net"
import {
  AltaPayAuthError,
  AltaPayBadResponseError,
  AltaPayHttpError,
  AltaPayValidationError,
  createAltaPayClient,
  parseGatewayResponse,
  type AltaPayError,
} from "../../src/altapay"
import { authorizedPayment, SANDBOX_PASSWORD, SANDBOX_USER, startSandboxAndClient, type SandboxPair } from "../helpers/sandbox"

/** Whatever goes wrong, no message, log line or serialized error carries a credential or token. */
describe("secrets stay out of errors and logs", () => {
  let pair: SandboxPair
  beforeAll(async () => {
    pair = await startSandboxAndClient()
  })
  afterAll(() => pair.close())

  it("across auth failures, faults and declines", async () => {
    const errors: unknown[] = []
    const capture = (p: Promise<unknown>) => p.catch((e: unknown) => errors.push(e))
    const token = await pair.client.tokens.merchantToken()
    const customer = await pair.client.tokens.customerToken()
    const { transactionId } = await authorizedPayment(pair, 966)
    await pair.client.gateway.captureReservation({ transactionId })

    await capture(pair.clientWith({ password: "bad" }).tokens.merchantToken())
    await capture(pair.clientWith({ password: "bad" }).gateway.payments({ transactionId }))
    await capture(pair.client.gateway.refundCapturedReservation({ transactionId, amountMinor: 966, currency: "DKK" }))
    for (const kind of ["500", "html", "truncate", "reset", "error-code"] as const) {
      pair.sandbox.faults.add({ route: "captureReservation", kind })
      await capture(pair.client.gateway.captureReservation({ transactionId }))
    }
    pair.sandbox.faults.add({ route: /\/session$/, kind: "expire-token", times: 2 })
    await capture(pair.client.checkout.createSession({ orderId: "s", amountMinor: 100, currency: "DKK" }))
    await capture(pair.client.checkout.getSession("00000000-0000-0000-0000-000000000000", { customerToken: customer.token }))
    expect(errors.length).toBeGreaterThanOrEqual(9)

    const basic = Buffer.from(`${SANDBOX_USER}:${SANDBOX_PASSWORD}`).toString("base64")
    const text = [
      ...errors.map((e) => {
        const err = e as AltaPayError
        return `${err.message} ${JSON.stringify(err)} ${String((err as { bodySnippet?: string }).bodySnippet)} ${String(err.stack)}`
      }),
      ...pair.logLines,
    ].join("\n")
    for (const secret of [SANDBOX_PASSWORD, basic, token, customer.token]) {
      expect(text).not.toContain(secret)
    }
    // Nothing that looks like a credential header either, whoever's it is.
    expect(text).not.toMatch(/Basic [A-Za-z0-9+/]{8,}={0,2}/)
    expect(text).not.toMatch(/Bearer [\w-]+\.[\w-]+/)
    const ledgerText = JSON.stringify(pair.sandbox.ledger())
    for (const secret of [SANDBOX_PASSWORD, basic, token, customer.token]) expect(ledgerText).not.toContain(secret)
  })
})

/**
 * Answers the sandbox never gives: authenticate bodies in other shapes and error bodies quoting
 * tokens or credentials. A tiny server plays AltaPay and answers whatever the test sets.
 */
describe("bodies holding tokens or credentials stay out of errors", () => {
  const jwt = "eyJhbGciOiJIUzI1NiJ9.eyJyb2xlIjoiTUVSQ0hBTlQiLCJleHAiOjQxMDI0NDQ4MDB9.c2lnbmF0dXJlLXNpZ25hdHVyZQ"
  const basic = Buffer.from("api-user@shop.test:s3cret-Password!").toString("base64")
  let server: Server
  let url: string
  let answer = { status: 200, body: "" }

  beforeAll(async () => {
    server = createServer((req, res) => {
      req.resume()
      req.on("end", () => res.writeHead(answer.status, { "content-type": "application/json" }).end(answer.body))
    })
    await new Promise<void>((r) => server.listen(0, "127.0.0.1", r))
    url = `http://127.0.0.1:${(server.address() as AddressInfo).port}`
  })
  afterAll(() => new Promise((r) => server.close(r)))

  async function authenticateError(status: number, body: string): Promise<AltaPayError> {
    answer = { status, body }
    const client = createAltaPayClient({ checkoutUrl: url, gatewayUrl: url, username: "api-user@shop.test", password: "s3cret-Password!", maxRetries: 0 })
    try {
      return (await client.tokens.merchantToken().then(
        () => undefined,
        (e: unknown) => e
      )) as AltaPayError
    } finally {
      await client.close()
    }
  }

  function expectClean(error: AltaPayError): void {
    const text = [error.message, (error as { bodySnippet?: string }).bodySnippet, String(error), JSON.stringify(error)].join("\n")
    expect(text).not.toContain("eyJ")
    expect(text).not.toContain(basic)
    expect(text).not.toContain("s3cret-Password!")
    expect(text).not.toMatch(/(Basic|Bearer) (?!\[redacted\])/i)
  }

  it.each([
    ["accessToken", JSON.stringify({ accessToken: jwt }), /no "token" string.*fields: accessToken/],
    ["jwt", JSON.stringify({ jwt }), /fields: jwt/],
    ["a bare JWT", jwt, /not JSON/],
    ["a JSON string", JSON.stringify(jwt), /not an object/],
    ["a short token", JSON.stringify({ token: "eyJx.y.z" }), /no "token" string/],
  ])("a 200 authenticate answer with %s says what is wrong without the body", async (_name, body, reason) => {
    const error = await authenticateError(200, body)
    expect(error).toBeInstanceOf(AltaPayBadResponseError)
    expect(error.message).toMatch(reason)
    expect((error as AltaPayBadResponseError).bodySnippet).toBeUndefined()
    expectClean(error)
  })

  it.each([
    [401, { message: `token ${jwt} expired` }, AltaPayAuthError],
    [400, { error: `Authorization: Basic ${basic} is malformed` }, AltaPayValidationError],
    [404, { error_description: `no route for Bearer ${jwt}` }, AltaPayHttpError],
    [409, { detail: `Authorization: Basic ${basic}, token ${jwt}` }, AltaPayHttpError],
  ])("an HTTP %s body quoting a token or credential is redacted", async (status, body, type) => {
    const error = await authenticateError(status, JSON.stringify(body))
    expect(error).toBeInstanceOf(type)
    expect(`${error.message} ${String((error as AltaPayHttpError).bodySnippet)}`).toMatch(/\[redacted( token)?\]/)
    expectClean(error)
  })

  it("a gateway HTML page quoting a token is redacted in the bad-response snippet", () => {
    const error = (() => {
      try {
        parseGatewayResponse(`<html><body>Session ${jwt} rejected; Authorization: Basic ${basic}</body></html>`)
      } catch (e) {
        return e as AltaPayBadResponseError
      }
    })()
    expect(error).toBeInstanceOf(AltaPayBadResponseError)
    expect(error?.bodySnippet).toContain("Session [redacted token] rejected; Authorization: Basic [redacted]")
    expectClean(error!)
  })
})
