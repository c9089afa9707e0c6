import { AltaPayAuthError, AltaPayBadResponseError, AltaPayValidationError, type OrderLine } from "../../src/altapay"
import { startSandboxAndClient, type SandboxPair } from "../helpers/sandbox"

const lines: OrderLine[] = [
  { itemId: "sku-1", description: "Coffee beans", quantity: 2, unitPriceMinor: 8000, taxAmountMinor: 4000, taxPercent: 25, goodsType: "item" },
  { itemId: "ship", description: "Shipping", quantity: 1, unitPriceMinor: 4000, taxAmountMinor: 1000, taxPercent: 25, goodsType: "shipment" },
]

describe("checkout API", () => {
  let pair: SandboxPair
  beforeAll(async () => {
    pair = await startSandboxAndClient()
  })
  afterAll(() => pair.close())
  const lastCall = (operation: string) =>
    pair.sandbox
      .ledger()
      .filter((e) => e.operation === operation)
      .at(-1)

  it("creates a session with the exact amount, currency, lines and callback URLs", async () => {
    const session = await pair.client.checkout.createSession({
      orderId: "payses-01",
      amountMinor: 25000,
      currency: "dkk",
      orderLines: lines,
      customer: { email: "a@b.dk", firstName: "Ane" },
      callbacks: { success: "https://shop.test/ok", failure: "https://shop.test/fail", notification: "https://shop.test/hook" },
      configuration: { autoCapture: false, language: "da", country: "DK" },
    })
    expect(session.sessionId).toMatch(/^[0-9a-f-]{36}$/)
    const call = lastCall("session.create")!
    expect(call.method).toBe("POST")
    expect(call.path).toBe("/checkout/v1/api/session")
    const body = call.params as any
    expect(body.order.orderId).toBe("payses-01")
    expect(body.order.amount).toEqual({ value: 250, currency: "DKK" })
    expect(body.order.orderLines[0]).toMatchObject({ itemId: "sku-1", quantity: 2, unitPrice: 80, taxAmount: 40, taxPercent: 25, goodsType: "item" })
    // As AltaPay's Android SDK sends them (CreateSessionRequest.kt): targets for success and
    // failure, a plain URL for the notification.
    expect(body.callbacks).toEqual({
      success: { type: "URL", value: "https://shop.test/ok" },
      failure: { type: "URL", value: "https://shop.test/fail" },
      notification: "https://shop.test/hook",
    })
    expect(body.configuration).toMatchObject({ paymentType: "PAYMENT", autoCapture: false, language: "da" })
  })

  it("sends the verify-order URL as a plain URL string, as the notification (Merchant API callback_verify_order)", async () => {
    await pair.client.checkout.createSession({
      orderId: "payses-verify",
      amountMinor: 1000,
      currency: "DKK",
      callbacks: { notification: "https://shop.test/hook", verifyOrder: "https://shop.test/verify" },
    })
    expect((lastCall("session.create")!.params as { callbacks: unknown }).callbacks).toEqual({ notification: "https://shop.test/hook", verifyOrder: "https://shop.test/verify" })
  })

  it("reads and updates a session", async () => {
    const created = await pair.client.checkout.createSession({ orderId: "payses-02", amountMinor: 1000, currency: "EUR" })
    const read = await pair.client.checkout.getSession(created.sessionId)
    expect(read.sessionId).toBe(created.sessionId)
    expect(lastCall("session.read")!.path).toBe(`/checkout/v1/api/session/${created.sessionId}`)
    const updated = await pair.client.checkout.updateSession(created.sessionId, { orderId: "payses-02", amountMinor: 1250, currency: "EUR" })
    expect(updated.order?.amount).toEqual({ value: 12.5, currency: "EUR" })
    expect(lastCall("session.update")!.method).toBe("PUT")
  })

  it("lists payment methods and pays with a CUSTOMER token for that session", async () => {
    const { sessionId } = await pair.client.checkout.createSession({ orderId: "payses-03", amountMinor: 1000, currency: "DKK" })
    const methods = await pair.client.checkout.listPaymentMethods(sessionId)
    expect(methods.length).toBeGreaterThanOrEqual(2)
    expect(methods[0]).toEqual(expect.objectContaining({ id: expect.any(String), name: expect.any(String) }))
    const { token } = await pair.client.tokens.customerToken(sessionId)
    const payment = await pair.client.checkout.createPayment({ sessionId, paymentMethodId: methods[0].id }, { customerToken: token })
    expect(payment.url).toContain(payment.paymentId)
    expect(lastCall("payment.create")!.auth).toBe("bearer:CUSTOMER")
    const read = await pair.client.checkout.getPayment(payment.paymentId)
    expect(read).toMatchObject({ paymentId: payment.paymentId, sessionId, status: "CREATED" })
    // The token was spent on the payment: AltaPay refuses it afterwards.
    await expect(pair.client.checkout.getSession(sessionId, { customerToken: token })).rejects.toBeInstanceOf(AltaPayAuthError)
  })

  it("a CUSTOMER token reaches only its own session", async () => {
    const a = await pair.client.checkout.createSession({ orderId: "payses-a", amountMinor: 1000, currency: "DKK" })
    const b = await pair.client.checkout.createSession({ orderId: "payses-b", amountMinor: 1000, currency: "DKK" })
    const { token } = await pair.client.tokens.customerToken(a.sessionId)
    await expect(pair.client.checkout.getSession(b.sessionId, { customerToken: token })).rejects.toMatchObject({ code: "auth", status: 403 })
    expect((await pair.client.checkout.getSession(a.sessionId, { customerToken: token })).sessionId).toBe(a.sessionId)
  })

  it("creates a payment link with the MERCHANT token, its times in minutes", async () => {
    const { sessionId } = await pair.client.checkout.createSession({ orderId: "payses-link", amountMinor: 1000, currency: "DKK" })
    const link = await pair.client.checkout.createPaymentLink(sessionId, { validityMinutes: 1440, activationMinutes: 10 })
    expect(link.paymentLink).toMatch(/^http:\/\/127\.0\.0\.1:\d+\//)
    expect(lastCall("link.create")!.auth).toBe("bearer:MERCHANT")
    expect(lastCall("link.create")!.params).toEqual({ validityTime: 1440, activationTime: 10 })
  })

  it("refuses a payment link time that is not whole minutes before sending", async () => {
    const before = pair.sandbox.ledger().length
    await expect(pair.client.checkout.createPaymentLink("8d1c2f4e-0000-4000-8000-000000000000", { validityMinutes: 0.5 })).rejects.toThrow(
      /validityMinutes must be a positive whole number of minutes/
    )
    expect(pair.sandbox.ledger().length).toBe(before)
  })

  it("refuses an invalid session before sending anything, naming each field", async () => {
    const before = pair.sandbox.ledger().length
    const error = await pair.client.checkout
      .createSession({
        orderId: "",
        amountMinor: 10.5,
        currency: "XYZ",
        callbacks: { notification: "ftp://nope" },
      })
      .catch((e: unknown) => e)
    expect(error).toBeInstanceOf(AltaPayValidationError)
    expect((error as AltaPayValidationError).issues.map((i) => i.field).sort()).toEqual(["amountMinor", "callbacks.notification", "currency", "orderId"])
    expect(pair.sandbox.ledger().length).toBe(before)
  })

  it("refuses lines that do not add up to the amount before sending", async () => {
    const before = pair.sandbox.ledger().length
    await expect(pair.client.checkout.createSession({ orderId: "x", amountMinor: 24999, currency: "DKK", orderLines: lines })).rejects.toBeInstanceOf(AltaPayValidationError)
    expect(pair.sandbox.ledger().length).toBe(before)
  })

  it("malformed JSON is a bad-response error, and a session creation may have happened", async () => {
    pair.sandbox.faults.add({ route: /\/session$/, kind: "malformed-json" })
    const error = await pair.client.checkout.createSession({ orderId: "payses-mj", amountMinor: 100, currency: "DKK" }).catch((e: unknown) => e)
    expect(error).toBeInstanceOf(AltaPayBadResponseError)
    expect((error as AltaPayBadResponseError).mayHaveReachedAltaPay).toBe(true)
  })

  it("reads are retried on 503 and 429 and then succeed", async () => {
    const { sessionId } = await pair.client.checkout.createSession({ orderId: "payses-r", amountMinor: 100, currency: "DKK" })
    pair.sandbox.faults.add({ route: /payment-methods/, kind: "503" })
    pair.sandbox.faults.add({ route: /payment-methods/, kind: "429" })
    const methods = await pair.client.checkout.listPaymentMethods(sessionId)
    expect(methods.length).toBeGreaterThan(0)
    expect(pair.sandbox.ledger().filter((e) => e.operation === "session.paymentMethods" && e.path.includes(sessionId))).toHaveLength(3)
  })

  it("session creation is never retried on a 500", async () => {
    pair.sandbox.faults.add({ route: /\/session$/, kind: "500" })
    const before = pair.sandbox.ledger().filter((e) => e.operation === "session.create").length
    await expect(pair.client.checkout.createSession({ orderId: "payses-500", amountMinor: 100, currency: "DKK" })).rejects.toMatchObject({
      code: "http",
      status: 500,
      mayHaveReachedAltaPay: true,
    })
    expect(pair.sandbox.ledger().filter((e) => e.operation === "session.create").length).toBe(before + 1)
  })
})
