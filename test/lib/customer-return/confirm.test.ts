/**
 * What decides a customer's return: a post signed with the callback secret that says "paid", else
 * AltaPay's own record (a live look-up), never the posted fields. Anonymous look-ups are capped and
 * use a client of their own (issue 29). Real HTTP against the sandbox.
 */
import { PaymentActions } from "@medusajs/framework/utils"
import { signCallbackBody } from "../../../src/altapay"
import { anonymousLookUps, confirmReturn } from "../../../src/lib/customer-return/confirm"
import { sharedAltaPayClient } from "../../../src/lib/registrations/shared-client"
import { authorizedPayment } from "../../helpers/sandbox"
import { useReturnTestBed } from "../../helpers/return-registration"

const bed = useReturnTestBed("pp_altapay_confirm_test")
const { options } = bed
const anonymous = bed.anonymous

afterEach(() => bed.pair.sandbox.faults.clear())

const lookUps = () => bed.pair.sandbox.ledger().filter((e) => e.operation === "payments").length
const lookUpsFor = (sessionId: string) => bed.pair.sandbox.ledger().filter((e) => e.operation === "payments" && e.params.shop_orderid === sessionId).length

describe("confirmReturn", () => {
  it("a signed 'succeeded' post for its own session decides by its signature, without asking AltaPay", async () => {
    const paid = await authorizedPayment(bed.pair, 12_500)
    const { rawBody, headers } = bed.pair.sandbox.callbackFor(paid.paymentId)
    const before = lookUps()
    const confirmed = await confirmReturn(
      { shopOrderId: paid.orderId, rawBody: Buffer.from(rawBody), signatureHeader: headers["altapay-signature"] },
      options,
      bed.pair.client,
      anonymous()
    )
    expect(confirmed.by).toBe("signature")
    expect(confirmed.result).toMatchObject({ action: PaymentActions.AUTHORIZED, data: { session_id: paid.orderId } })
    expect(lookUps()).toBe(before)
  })

  it("unsigned, forged, for another session, or without a callback secret: AltaPay's record decides", async () => {
    const paid = await authorizedPayment(bed.pair, 12_500)
    const { rawBody, headers } = bed.pair.sandbox.callbackFor(paid.paymentId)
    const now = Math.floor(Date.now() / 1000)
    const cases = [
      { shopOrderId: paid.orderId, rawBody: Buffer.from(rawBody) },
      { shopOrderId: paid.orderId, rawBody: Buffer.from(rawBody), signatureHeader: signCallbackBody(rawBody, "not-the-secret-at-all", now) },
      { shopOrderId: paid.orderId, rawBody: Buffer.from(rawBody), signatureHeader: headers["altapay-signature"], noSecret: true },
    ]
    for (const { noSecret, ...post } of cases) {
      const confirmed = await confirmReturn(post, noSecret ? { callbackToleranceSeconds: 300 } : options, bed.pair.client, anonymous())
      expect(confirmed).toMatchObject({ by: "look-up", result: { action: PaymentActions.AUTHORIZED, data: { session_id: paid.orderId } } })
    }
    // A genuine post names its own session only: for another one, AltaPay has nothing paid.
    const other = await confirmReturn(
      { shopOrderId: "payses_other", rawBody: Buffer.from(rawBody), signatureHeader: headers["altapay-signature"] },
      options,
      bed.pair.client,
      anonymous()
    )
    expect(other).toMatchObject({ by: "look-up", result: { action: PaymentActions.NOT_SUPPORTED } })
  })

  it("a posted 'succeeded' for an unpaid session is not believed; a signed decline is checked too", async () => {
    const session = await bed.pair.client.checkout.createSession({ orderId: "order-unpaid-1", amountMinor: 5_000, currency: "DKK" })
    const forged = new URLSearchParams({ shop_orderid: "order-unpaid-1", status: "succeeded", amount: "50.00", currency: "208" }).toString()
    expect(await confirmReturn({ shopOrderId: "order-unpaid-1", rawBody: Buffer.from(forged) }, options, bed.pair.client, anonymous())).toMatchObject({
      by: "look-up",
      result: { action: PaymentActions.NOT_SUPPORTED },
    })

    const declined = await bed.pair.sandbox.simulatePayment(session.sessionId, { outcome: "decline", callback: false })
    const { rawBody, headers } = bed.pair.sandbox.callbackFor(declined.paymentId)
    const before = lookUps()
    const confirmed = await confirmReturn(
      { shopOrderId: "order-unpaid-1", rawBody: Buffer.from(rawBody), signatureHeader: headers["altapay-signature"] },
      options,
      bed.pair.client,
      anonymous()
    )
    expect(confirmed).toMatchObject({ by: "look-up", result: { action: PaymentActions.FAILED } })
    expect(lookUps()).toBe(before + 1)
  })
})

describe("anonymous look-ups are capped (issue 29)", () => {
  const unsigned = (shopOrderId: string) => ({ shopOrderId })

  it("over the budget nothing is asked; AltaPay's signed posts are never capped, a signed decline is still looked up", async () => {
    const paid = await authorizedPayment(bed.pair, 7_500)
    const session = await bed.pair.client.checkout.createSession({ orderId: "order-declined-capped", amountMinor: 5_000, currency: "DKK" })
    const declined = await bed.pair.sandbox.simulatePayment(session.sessionId, { outcome: "decline", callback: false })
    const budget = anonymous({ perSessionPerMinute: 1, perSecond: 2 })

    expect(await confirmReturn(unsigned(paid.orderId), options, bed.pair.client, budget)).toMatchObject({ by: "look-up", result: { action: PaymentActions.AUTHORIZED } })
    for (let i = 0; i < 10; i++) {
      expect(await confirmReturn(unsigned(paid.orderId), options, bed.pair.client, budget)).toEqual({
        by: "look-up cap: session",
        result: { action: PaymentActions.NOT_SUPPORTED },
      })
    }
    expect(lookUpsFor(paid.orderId)).toBe(1)
    await confirmReturn(unsigned("order-declined-capped"), options, bed.pair.client, budget)
    expect(await confirmReturn(unsigned("order-someone-else"), options, bed.pair.client, budget)).toMatchObject({ by: "look-up cap: overall" })
    expect(lookUpsFor("order-someone-else")).toBe(0)

    // Both budgets are spent; AltaPay's own posts still decide.
    const success = bed.pair.sandbox.callbackFor(paid.paymentId)
    const signedSuccess = { shopOrderId: paid.orderId, rawBody: Buffer.from(success.rawBody), signatureHeader: success.headers["altapay-signature"] }
    expect(await confirmReturn(signedSuccess, options, bed.pair.client, budget)).toMatchObject({ by: "signature", result: { action: PaymentActions.AUTHORIZED } })
    const decline = bed.pair.sandbox.callbackFor(declined.paymentId)
    const signedDecline = { shopOrderId: "order-declined-capped", rawBody: Buffer.from(decline.rawBody), signatureHeader: decline.headers["altapay-signature"] }
    expect(await confirmReturn(signedDecline, options, bed.pair.client, budget)).toMatchObject({ by: "look-up", result: { action: PaymentActions.FAILED } })
    expect(lookUpsFor("order-declined-capped")).toBe(2)
    expect(lookUpsFor(paid.orderId)).toBe(1)
  })

  it("an anonymous look-up is sent once: a 503 is not retried, as the provider's own look-ups are", async () => {
    bed.pair.sandbox.faults.add({ route: "payments", kind: "503", times: 3 })
    await expect(confirmReturn(unsigned("order-503"), options, bed.pair.client, anonymous())).rejects.toThrow()
    expect(lookUpsFor("order-503")).toBe(1)
    // The provider's client (maxRetries 2) tries again through the two 503s left.
    await bed.pair.client.gateway.payments({ shopOrderId: "order-503" })
    expect(lookUpsFor("order-503")).toBe(4)
  })

  it("a flood of anonymous returns on a slow AltaPay reaches AltaPay `concurrent` times; the provider's look-up goes through", async () => {
    const paid = await authorizedPayment(bed.pair, 9_900)
    // AltaPay answers every look-up slowly: without a cap, each return holds a connection that long.
    bed.pair.sandbox.faults.add({ route: "payments", kind: "latency", ms: 300, times: Infinity })
    const budget = anonymous({ concurrent: 4, perSecond: 20 })
    const flood = Array.from({ length: 100 }, (_, i) => confirmReturn(unsigned(`order-flood-${i}`), options, bed.pair.client, budget))
    const own = bed.pair.client.gateway.payments({ shopOrderId: paid.orderId })

    const answers = await Promise.all(flood)
    expect(answers.filter((a) => a.by === "look-up")).toHaveLength(4)
    expect(answers.filter((a) => a.by === "look-up cap: concurrent")).toHaveLength(96)
    expect((await own).map((t) => t.transactionId)).toEqual([paid.transactionId])

    const ledger = bed.pair.sandbox.ledger().filter((e) => e.operation === "payments")
    const flooded = ledger.filter((e) => String(e.params.shop_orderid).startsWith("order-flood-"))
    const provider = ledger.filter((e) => e.params.shop_orderid === paid.orderId)
    expect(flooded).toHaveLength(4)
    expect(provider).toHaveLength(1)
    // Nothing queued the provider's look-up behind the flood: at most the 4 admitted ones reached AltaPay before it.
    expect(flooded.filter((e) => e.at < provider[0].at).length).toBeLessThanOrEqual(4)
    // The anonymous client is not the provider's: its own connections, no retries.
    expect(anonymousLookUps(bed.registration).client).not.toBe(sharedAltaPayClient(bed.registration.options))
  })
})
