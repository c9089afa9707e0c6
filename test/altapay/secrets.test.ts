import { type AltaPayError } from "../../src/altapay"
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
