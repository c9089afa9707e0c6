/**
 * What decides a customer's return: a post signed with the callback secret that says "paid", else
 * AltaPay's own record (a live look-up), never the posted fields. Real HTTP against the sandbox.
 */
import { PaymentActions } from "@medusajs/framework/utils"
import { signCallbackBody } from "../../../src/altapay"
import { confirmReturn } from "../../../src/lib/customer-return/confirm"
import { authorizedPayment, CALLBACK_SECRET, startSandboxAndClient, type SandboxPair } from "../../helpers/sandbox"

let pair: SandboxPair
const options = { callbackSecret: CALLBACK_SECRET, callbackToleranceSeconds: 300 }

beforeAll(async () => {
  pair = await startSandboxAndClient()
})
afterAll(() => pair.close())

const lookUps = () => pair.sandbox.ledger().filter((e) => e.operation === "payments").length

describe("confirmReturn", () => {
  it("a signed 'succeeded' post for its own session decides by its signature, without asking AltaPay", async () => {
    const paid = await authorizedPayment(pair, 12_500)
    const { rawBody, headers } = pair.sandbox.callbackFor(paid.paymentId)
    const before = lookUps()
    const confirmed = await confirmReturn({ sessionId: paid.orderId, rawBody: Buffer.from(rawBody), signatureHeader: headers["altapay-signature"] }, options, pair.client)
    expect(confirmed.by).toBe("signature")
    expect(confirmed.result).toMatchObject({ action: PaymentActions.AUTHORIZED, data: { session_id: paid.orderId } })
    expect(lookUps()).toBe(before)
  })

  it("unsigned, forged, for another session, or without a callback secret: AltaPay's record decides", async () => {
    const paid = await authorizedPayment(pair, 12_500)
    const { rawBody, headers } = pair.sandbox.callbackFor(paid.paymentId)
    const now = Math.floor(Date.now() / 1000)
    const cases = [
      { sessionId: paid.orderId, rawBody: Buffer.from(rawBody) },
      { sessionId: paid.orderId, rawBody: Buffer.from(rawBody), signatureHeader: signCallbackBody(rawBody, "not-the-secret-at-all", now) },
      { sessionId: paid.orderId, rawBody: Buffer.from(rawBody), signatureHeader: headers["altapay-signature"], noSecret: true },
    ]
    for (const { noSecret, ...post } of cases) {
      const confirmed = await confirmReturn(post, noSecret ? { callbackToleranceSeconds: 300 } : options, pair.client)
      expect(confirmed).toMatchObject({ by: "look-up", result: { action: PaymentActions.AUTHORIZED, data: { session_id: paid.orderId } } })
    }
    // A genuine post names its own session only: for another one, AltaPay has nothing paid.
    const other = await confirmReturn({ sessionId: "payses_other", rawBody: Buffer.from(rawBody), signatureHeader: headers["altapay-signature"] }, options, pair.client)
    expect(other).toMatchObject({ by: "look-up", result: { action: PaymentActions.NOT_SUPPORTED } })
  })

  it("a posted 'succeeded' for an unpaid session is not believed; a signed decline is checked too", async () => {
    const session = await pair.client.checkout.createSession({ orderId: "order-unpaid-1", amountMinor: 5_000, currency: "DKK" })
    const forged = new URLSearchParams({ shop_orderid: "order-unpaid-1", status: "succeeded", amount: "50.00", currency: "208" }).toString()
    expect(await confirmReturn({ sessionId: "order-unpaid-1", rawBody: Buffer.from(forged) }, options, pair.client)).toMatchObject({
      by: "look-up",
      result: { action: PaymentActions.NOT_SUPPORTED },
    })

    const declined = await pair.sandbox.simulatePayment(session.sessionId, { outcome: "decline", callback: false })
    const { rawBody, headers } = pair.sandbox.callbackFor(declined.paymentId)
    const before = lookUps()
    const confirmed = await confirmReturn({ sessionId: "order-unpaid-1", rawBody: Buffer.from(rawBody), signatureHeader: headers["altapay-signature"] }, options, pair.client)
    expect(confirmed).toMatchObject({ by: "look-up", result: { action: PaymentActions.FAILED } })
    expect(lookUps()).toBe(before + 1)
  })
})
