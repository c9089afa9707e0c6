/** Saved cards on AltaPay agreements: set-up through the hosted page, charges, 3-D Secure, declines, the token kept secret. */
import { inspect } from "node:util"
import {
  AltaPayDeclinedError,
  AltaPayNetworkError,
  AltaPayValidationError,
  parseAgreementCallback,
  SecretToken,
  verifyCallbackSignature,
  type AgreementCallback,
} from "../../src/altapay"
import { TEST_CARDS } from "../../src/sandbox"
import { CALLBACK_SECRET, startSandboxAndClient, type SandboxPair } from "../helpers/sandbox"
import { startShop, type Shop, type ShopPost } from "../helpers/shop"

describe("agreements (saved cards)", () => {
  let pair: SandboxPair
  let shop: Shop
  let shopUrl: string
  let posts: ShopPost[]
  beforeAll(async () => {
    pair = await startSandboxAndClient()
    shop = await startShop((path) => (path === "/ok" ? "https://shop.test/account/cards" : undefined))
    shopUrl = shop.url
    posts = shop.posts
  })
  afterAll(async () => {
    await shop.close()
    await pair.close()
  })
  afterEach(() => pair.sandbox.setClock(Date.now))

  const setUp = async (card: { cardNumber?: string; expiryMonth?: string; expiryYear?: string } = {}, shopOrderId = `agr-${Math.random().toString(16).slice(2, 10)}`) => {
    const request = await pair.client.agreements.setupAgreement({
      terminal: "AltaPay Sandbox Test Terminal",
      shopOrderId,
      amountMinor: 100,
      currency: "DKK",
      agreement: { type: "unscheduled", unscheduledType: "charge" },
      callbacks: { success: `${shopUrl}/ok`, failure: `${shopUrl}/fail`, notification: `${shopUrl}/notify` },
    })
    const page = await pair.sandbox.agreements.submit(request.paymentRequestId, card)
    // A 3-D Secure card is challenged on the set-up page; the customer passes it.
    const challenged = page.challengeUrl ? await pair.sandbox.challenge(page.challengeUrl) : undefined
    const notification = posts.filter((p) => p.path === "/notify").at(-1)!
    const callback = parseAgreementCallback(notification.body)
    const submitted = { ...page, ...challenged, agreementId: page.agreementId ?? callback.card?.agreementId }
    return { request, submitted, callback, notification }
  }

  it("sets an agreement up through the hosted page; the signed callback carries the token and the masked card", async () => {
    const { request, submitted, callback, notification } = await setUp({ cardNumber: TEST_CARDS.mastercard, expiryMonth: "03", expiryYear: "2031" })
    expect(request.url).toMatch(/\/sandbox\/agreement\//)
    expect(submitted).toMatchObject({ status: 303, location: "https://shop.test/account/cards" })
    expect(() => verifyCallbackSignature({ rawBody: notification.body, signatureHeader: notification.signature, secret: CALLBACK_SECRET })).not.toThrow()
    expect(callback).toMatchObject({ status: "succeeded", transactionId: submitted.agreementId, type: "subscription" })
    expect(callback.card).toMatchObject({
      agreementId: submitted.agreementId,
      maskedPan: "555555******4444",
      lastFourDigits: "4444",
      expiry: { month: "03", year: "2031" },
      scheme: "Mastercard",
      currency: "DKK",
      terminal: "AltaPay Sandbox Test Terminal",
    })
    expect(callback.card?.token).toBeInstanceOf(SecretToken)
    expect(callback.card?.token?.reveal()).toMatch(/^[0-9a-f]{40}$/)
    expect(await pair.client.agreements.agreement(submitted.agreementId!)).toMatchObject({ agreementId: submitted.agreementId, maskedPan: "555555******4444" })
  })

  it("a merchant-initiated charge is captured at once, never asks for 3-D Secure, and keeps its reconciliation identifier", async () => {
    const { submitted } = await setUp({ cardNumber: TEST_CARDS.visaThreeDSecure })
    const result = await pair.client.agreements.chargeSubscription({
      agreementId: submitted.agreementId!,
      amountMinor: 2500,
      currency: "DKK",
      unscheduledType: "noShow",
      reconciliationIdentifier: "edit-1",
    })
    expect(result.outcome).toBe("succeeded")
    if (result.outcome === "redirect") throw new Error("unexpected redirect")
    expect(result.transaction).toMatchObject({ authType: "subscription_payment", transactionStatus: "captured" })
    expect(result.transaction.capturedAmount?.minor).toBe(2500)
    expect(result.transaction.reconciliationIdentifiers.map((r) => r.id)).toEqual(["edit-1"])
    expect(result.card?.agreementId).toBe(submitted.agreementId)
    const call = pair.sandbox
      .ledger()
      .filter((e) => e.operation === "chargeSubscription")
      .at(-1)!
    expect(call.params).toMatchObject({ "agreement[id]": submitted.agreementId, "agreement[unscheduled_type]": "noShow", amount: "25.00", reconciliation_identifier: "edit-1" })
  })

  it("a reserved charge is a reservation the merchant then captures with captureReservation", async () => {
    const { submitted } = await setUp()
    const result = await pair.client.agreements.reserveSubscriptionCharge({
      agreementId: submitted.agreementId!,
      amountMinor: 4000,
      currency: "DKK",
      unscheduledType: "delayedCharges",
    })
    if (result.outcome === "redirect") throw new Error("unexpected redirect")
    expect(result.transaction.transactionStatus).toBe("preauth")
    const capture = await pair.client.gateway.captureReservation({ transactionId: result.transaction.transactionId })
    expect(capture.transaction?.transactionStatus).toBe("captured")
  })

  it("a customer-initiated charge on a 3-D Secure card answers Redirect; the charge is made once the challenge passes", async () => {
    const { submitted } = await setUp({ cardNumber: TEST_CARDS.visaThreeDSecure })
    const result = await pair.client.agreements.chargeSubscription({ agreementId: submitted.agreementId!, amountMinor: 1500, currency: "DKK", unscheduledType: "charge" })
    if (result.outcome !== "redirect") throw new Error("expected a redirect")
    expect(result.redirect).toMatchObject({ method: "GET", data: {} })
    expect(result.redirect.url).toMatch(/\/sandbox\/3ds\//)
    const done = pair.sandbox.agreements.completeChallenge(result.redirect.url)
    const [charged] = await pair.client.gateway.payments({ transactionId: done.transactionId! })
    expect(charged).toMatchObject({ authType: "subscription_payment", transactionStatus: "captured" })
  })

  it("subscriptionAndReserve sets the agreement up and reserves the order on one page, under the request's shop_orderid", async () => {
    const shopOrderId = `agr-${Math.random().toString(16).slice(2, 10)}`
    const request = await pair.client.agreements.setupAgreement({
      terminal: "AltaPay Sandbox Test Terminal",
      shopOrderId,
      amountMinor: 12_500,
      currency: "DKK",
      type: "subscriptionAndReserve",
      agreement: { type: "unscheduled", unscheduledType: "charge" },
      orderLines: [{ description: "Coffee", itemId: "coffee", quantity: 1, unitPriceMinor: 10_000, taxAmountMinor: 2_500, taxPercent: 25, goodsType: "item" }],
      transactionInfo: { medusa_payment_session_id: "payses_1" },
      callbacks: { success: `${shopUrl}/ok`, failure: `${shopUrl}/fail`, notification: `${shopUrl}/notify` },
    })
    const submitted = await pair.sandbox.agreements.submit(request.paymentRequestId)
    const transactions = await pair.client.gateway.payments({ shopOrderId })
    expect(transactions.map((t) => [t.authType, t.transactionStatus, t.reservedAmount?.minor ?? 0]).sort()).toEqual([
      ["subscriptionAndReserve", "recurring_confirmed", 0],
      ["subscription_payment", "preauth", 12_500],
    ])
    const charge = transactions.find((t) => t.authType === "subscription_payment")!
    expect(charge.paymentInfos).toContainEqual({ name: "medusa_payment_session_id", value: "payses_1" })
    // The callback names the set-up as the agreement, with its card.
    const callback = parseAgreementCallback(posts.filter((p) => p.path === "/notify").at(-1)!.body)
    expect(callback.card).toMatchObject({ agreementId: submitted.agreementId, maskedPan: "411111******1111" })
  })

  it("sends the verify-order URL as config[callback_verify_order], as AltaPay's clients do", async () => {
    await pair.client.agreements.setupAgreement({
      terminal: "AltaPay Sandbox Test Terminal",
      shopOrderId: `agr-verify-${Math.random().toString(16).slice(2, 8)}`,
      amountMinor: 100,
      currency: "DKK",
      agreement: { type: "unscheduled" },
      callbacks: { success: `${shopUrl}/ok`, verifyOrder: `${shopUrl}/verify` },
    })
    const sent = pair.sandbox
      .ledger()
      .filter((e) => e.operation === "createPaymentRequest")
      .at(-1)!.params
    expect(sent).toMatchObject({ "config[callback_ok]": `${shopUrl}/ok`, "config[callback_verify_order]": `${shopUrl}/verify` })
  })

  it("an expired card and an ended agreement decline with AltaPay's merchant and cardholder messages", async () => {
    const { submitted } = await setUp({ expiryMonth: "01", expiryYear: "2030" })
    pair.sandbox.setClock(() => Date.UTC(2030, 1, 1))
    const expired = await pair.client.agreements
      .chargeSubscription({ agreementId: submitted.agreementId!, amountMinor: 100, currency: "DKK", unscheduledType: "charge" })
      .catch((e: unknown) => e)
    expect(expired).toBeInstanceOf(AltaPayDeclinedError)
    expect(expired).toMatchObject({ result: "Failed", cardHolderMessage: "Your card has expired." })
    expect((expired as AltaPayDeclinedError).merchantMessage).toMatch(/Card expired \(01\/2030\)/)
    pair.sandbox.setClock(Date.now)
    pair.sandbox.agreements.end(submitted.agreementId!)
    const ended = await pair.client.agreements
      .reserveSubscriptionCharge({ agreementId: submitted.agreementId!, amountMinor: 100, currency: "DKK", unscheduledType: "noShow" })
      .catch((e: unknown) => e)
    expect((ended as AltaPayDeclinedError).merchantMessage).toMatch(/has been ended/)
  })

  it("refuses before sending: an unknown unscheduled type, ids that are not hex, a charge of nothing", async () => {
    const error = await pair.client.agreements
      .chargeSubscription({ agreementId: "not-hex", amountMinor: 0, currency: "DKK", unscheduledType: "weekly" as never })
      .catch((e: unknown) => e)
    expect(error).toBeInstanceOf(AltaPayValidationError)
    expect((error as AltaPayValidationError).issues.map((i) => i.field).sort()).toEqual(["agreement[id]", "agreement[unscheduled_type]", "amount"])
  })

  it("a charge whose answer is lost is not resent: it may have reached AltaPay", async () => {
    const { submitted } = await setUp()
    pair.sandbox.faults.add({ route: "chargeSubscription", kind: "lost-answer" })
    const error = await pair.client.agreements
      .chargeSubscription({ agreementId: submitted.agreementId!, amountMinor: 700, currency: "DKK", unscheduledType: "incremental", reconciliationIdentifier: "lost-1" })
      .catch((e: unknown) => e)
    pair.sandbox.faults.clear()
    expect(error).toBeInstanceOf(AltaPayNetworkError)
    expect((error as AltaPayNetworkError).mayHaveReachedAltaPay).toBe(true)
    expect(pair.sandbox.ledger().filter((e) => e.operation === "chargeSubscription" && e.params?.reconciliation_identifier === "lost-1")).toHaveLength(1)
  })

  it("the token never shows in the client's log lines, the parsed results' JSON, or their inspection", async () => {
    const { submitted, callback } = await setUp()
    const token = callback.card!.token!.reveal()
    const charge = await pair.client.agreements.chargeSubscription({ agreementId: submitted.agreementId!, amountMinor: 300, currency: "DKK", unscheduledType: "charge" })
    const card = await pair.client.agreements.agreement(submitted.agreementId!)
    const [lookedUp] = await pair.client.gateway.payments({ transactionId: submitted.agreementId! })
    const results: unknown[] = [callback, charge, card, lookedUp]
    for (const result of results) {
      expect(JSON.stringify(result)).not.toContain(token)
      expect(inspect(result, { depth: Infinity })).not.toContain(token)
      expect(`${String((result as { card?: { token?: unknown } }).card?.token ?? "")}`).not.toContain(token)
    }
    expect(pair.logLines.join("\n")).not.toContain(token)
    expect(JSON.stringify(pair.sandbox.ledger())).not.toContain(token)
    expect(callback.card!.token!.reveal()).toBe(token)
  })
})

describe("SecretToken", () => {
  it("prints as [redacted] everywhere and reveals only on request", () => {
    const token = new SecretToken("93f534a2f5d66d6ab3f16c8a7bb7e852656d4bb2")
    const asCallback: AgreementCallback = { shopOrderId: "o", status: "succeeded", transactionInfo: {}, card: { agreementId: "1", token } }
    expect(String(token)).toBe("[redacted]")
    expect(`${token}`).toBe("[redacted]")
    expect(JSON.stringify(asCallback)).not.toContain("93f534")
    expect(inspect(asCallback, { depth: 5 })).not.toContain("93f534")
    expect(token.reveal()).toBe("93f534a2f5d66d6ab3f16c8a7bb7e852656d4bb2")
    expect(token.equals(new SecretToken(token.reveal()))).toBe(true)
  })
})
