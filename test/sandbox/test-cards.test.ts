/**
 * The sandbox's test cards and amounts (issue 40, src/sandbox/test-cards.ts), as AltaPay's test
 * gateway has them where AltaPay publishes them: on the payment page (decline, error, 3-D Secure,
 * fraud), on an agreement's set-up page (declined and erroring cards, a card verification of 16.66,
 * 3-D Secure) and on charges (13.64 stays open). Over HTTP, as a browser and our client meet them.
 */
import { parseAgreementCallback } from "../../src/altapay"
import { TEST_CARDS } from "../../src/sandbox"
import { startSandboxAndClient, type SandboxPair } from "../helpers/sandbox"
import { startShop, type Shop } from "../helpers/shop"

describe("test cards and amounts", () => {
  let pair: SandboxPair
  let shop: Shop
  let shopUrl: string
  /** The notifications the shop has received, in order. */
  const notified = () => shop.posts.filter((p) => p.path === "/notify")
  beforeAll(async () => {
    pair = await startSandboxAndClient()
    shop = await startShop((path) => (path === "/ok" || path === "/fail" ? `https://shop.test${path}` : undefined))
    shopUrl = shop.url
  })
  afterAll(async () => {
    await shop.close()
    await pair.close()
  })

  /** AltaPay's payment page for a new session of `amountMinor` DKK (opened through a payment link). */
  const paymentPage = async (amountMinor: number): Promise<{ url: string; paymentId: string }> => {
    const session = await pair.client.checkout.createSession({
      orderId: `cards-${Math.random().toString(16).slice(2, 10)}`,
      amountMinor,
      currency: "DKK",
      callbacks: { success: `${shopUrl}/ok`, failure: `${shopUrl}/fail`, notification: `${shopUrl}/notify` },
    })
    const link = await pair.client.checkout.createPaymentLink(session.sessionId)
    const opened = await fetch(link.paymentLink, { redirect: "manual" })
    const url = opened.headers.get("location")!
    return { url, paymentId: url.split("/").at(-1)! }
  }
  const pay = (url: string, fields: Record<string, string>) => fetch(url, { method: "POST", body: new URLSearchParams({ outcome: "authorize", ...fields }), redirect: "manual" })
  const statusOf = async (paymentId: string) => {
    const payment = pair.sandbox.payment(paymentId)!
    return payment.transactionId ? (await pair.client.gateway.payments({ transactionId: String(payment.transactionId) }))[0] : undefined
  }

  it("the payment page: a card ending 0566 or an amount of 5.66 is declined, 0567 or 5.67 errs, any other card is reserved", async () => {
    const cases: Array<[number, string, string]> = [
      [10_000, TEST_CARDS.declined, "epayment_declined"],
      [566, TEST_CARDS.visa, "epayment_declined"],
      [10_000, TEST_CARDS.error, "preauth_error"],
      [567, TEST_CARDS.visa, "preauth_error"],
      [10_000, TEST_CARDS.visa, "preauth"],
      [10_000, TEST_CARDS.mastercard, "preauth"],
    ]
    for (const [amountMinor, card, status] of cases) {
      const { url, paymentId } = await paymentPage(amountMinor)
      const answer = await pay(url, { card_number: card })
      expect(answer.headers.get("location")).toBe(status === "preauth" ? "https://shop.test/ok" : "https://shop.test/fail")
      expect((await statusOf(paymentId))?.transactionStatus).toBe(status)
    }
  })

  it("the payment page asks for 3-D Secure (the 3-D Secure card, or 5.68): nothing is reserved until the customer passes it", async () => {
    for (const [amountMinor, card] of [
      [10_000, TEST_CARDS.visaThreeDSecure],
      [568, TEST_CARDS.visa],
    ] as const) {
      const { url, paymentId } = await paymentPage(amountMinor)
      const before = notified().length
      const submitted = await pay(url, { card_number: card })
      expect(submitted.status).toBe(303)
      const challenge = submitted.headers.get("location")!
      expect(challenge).toMatch(/\/sandbox\/3ds\//)
      expect(await (await fetch(challenge)).text()).toContain('id="authenticate"')
      expect(pair.sandbox.payment(paymentId)).toMatchObject({ status: "CREATED" })
      expect(notified()).toHaveLength(before)
      expect(await pair.sandbox.challenge(challenge)).toEqual({ status: 303, location: "https://shop.test/ok" })
      expect(await statusOf(paymentId)).toMatchObject({ transactionStatus: "preauth", threeDSecureResult: "Successful" })
      expect(notified()).toHaveLength(before + 1)
      // The page is answered once.
      expect((await pair.sandbox.challenge(challenge)).status).toBe(409)
    }
  })

  it("a failed challenge declines the payment as AltaPay's samples show it: 3dsecure_failed", async () => {
    const { url, paymentId } = await paymentPage(10_000)
    const submitted = await pay(url, { card_number: TEST_CARDS.visaThreeDSecure })
    expect(await pair.sandbox.challenge(submitted.headers.get("location")!, "failed")).toEqual({ status: 303, location: "https://shop.test/fail" })
    expect(await statusOf(paymentId)).toMatchObject({ transactionStatus: "3dsecure_failed", threeDSecureResult: "Declined" })
  })

  it("AltaPay's fraud amounts 101, 102 and 110 reserve the payment with the recommendation the shop acts on", async () => {
    for (const [amountMinor, recommendation] of [
      [10_100, "Accept"],
      [10_200, "Challenge"],
      [11_000, "Deny"],
    ] as const) {
      const { url, paymentId } = await paymentPage(amountMinor)
      await pay(url, {})
      expect(await statusOf(paymentId)).toMatchObject({ transactionStatus: "preauth", fraudRecommendation: recommendation })
    }
    const { url, paymentId } = await paymentPage(10_000)
    await pay(url, {})
    expect((await statusOf(paymentId))?.fraudRecommendation).toBeUndefined()
  })

  /** An agreement set-up page of `amountMinor` DKK. */
  const setUpPage = async (amountMinor: number, type: "subscription" | "verifyCard" = "subscription") =>
    pair.client.agreements.setupAgreement({
      terminal: "AltaPay Sandbox Test Terminal",
      shopOrderId: `setup-${Math.random().toString(16).slice(2, 10)}`,
      amountMinor,
      currency: "DKK",
      type,
      agreement: { type: "unscheduled" },
      callbacks: { success: `${shopUrl}/ok`, failure: `${shopUrl}/fail`, notification: `${shopUrl}/notify` },
    })
  const lastCallback = () => parseAgreementCallback(notified().at(-1)!.body)

  it("the set-up page: a card ending 1466 or 1467 (AltaPay's SDK tests), or a card verification of 16.66, is not set up", async () => {
    for (const [amountMinor, card, type] of [
      [1000, TEST_CARDS.setupDeclined, "subscription"],
      [1466, TEST_CARDS.visa, "subscription"],
      [1000, TEST_CARDS.setupError, "subscription"],
      [1666, TEST_CARDS.visa, "verifyCard"],
      [1667, TEST_CARDS.visa, "verifyCard"],
    ] as const) {
      const request = await setUpPage(amountMinor, type)
      const submitted = await pair.sandbox.agreements.submit(request.paymentRequestId, { cardNumber: card })
      expect(submitted).toMatchObject({ status: 303, location: "https://shop.test/fail", agreementId: undefined })
      expect(lastCallback()).toMatchObject({ status: "failed", card: { transactionStatus: "recurring_failed" } })
    }
    const fine = await pair.sandbox.agreements.submit((await setUpPage(1666)).paymentRequestId, { cardNumber: TEST_CARDS.visa })
    expect(fine).toMatchObject({ location: "https://shop.test/ok", agreementId: expect.any(String) })
  })

  it("the set-up page asks for 3-D Secure too: the agreement is made once the customer passes it, and not when they fail", async () => {
    const request = await setUpPage(1000)
    const submitted = await pair.sandbox.agreements.submit(request.paymentRequestId, { cardNumber: TEST_CARDS.visaThreeDSecure })
    expect(submitted).toMatchObject({ status: 303, agreementId: undefined, challengeUrl: expect.stringMatching(/\/sandbox\/3ds\//) })
    expect(submitted.location).toBe(submitted.challengeUrl)
    expect(await pair.sandbox.challenge(submitted.challengeUrl!)).toEqual({ status: 303, location: "https://shop.test/ok" })
    const { card } = lastCallback()
    expect(card).toMatchObject({ transactionStatus: "recurring_confirmed", maskedPan: "400000******3220" })
    expect(pair.sandbox.agreements.get(card!.agreementId)).toMatchObject({ status: "active" })

    const refused = await pair.sandbox.agreements.submit((await setUpPage(1000)).paymentRequestId, { cardNumber: TEST_CARDS.visaThreeDSecure })
    expect(await pair.sandbox.challenge(refused.challengeUrl!, "failed")).toEqual({ status: 303, location: "https://shop.test/fail" })
    expect(lastCallback().card).toMatchObject({ transactionStatus: "recurring_failed" })
  })

  it("a charge of 13.64 stays open (AltaPay's wallet agreement test amount) until the sandbox settles it", async () => {
    const agreementId = (await pair.sandbox.agreements.submit((await setUpPage(1000)).paymentRequestId)).agreementId!
    const result = await pair.client.agreements.chargeSubscription({ agreementId, amountMinor: 1364, currency: "DKK", unscheduledType: "incremental" })
    if (result.outcome !== "open") throw new Error(`expected open, got ${result.outcome}`)
    expect(result.transaction).toMatchObject({ transactionStatus: "pending", capturedAmount: { minor: 0 } })
    pair.sandbox.agreements.settle(result.transaction.transactionId, "success")
    expect((await pair.client.gateway.payments({ transactionId: result.transaction.transactionId }))[0]).toMatchObject({
      transactionStatus: "captured",
      capturedAmount: { minor: 1364 },
    })
  })
})
