import {
  AltaPayBadResponseError,
  AltaPayDeclinedError,
  AltaPayGatewayError,
  AltaPayNetworkError,
  AltaPayTimeoutError,
  AltaPayValidationError,
  createAltaPayClient,
  type OrderLine,
} from "../../src/altapay"
import { authorizedPayment, SANDBOX_PASSWORD, SANDBOX_USER, startSandboxAndClient, type SandboxPair } from "../helpers/sandbox"

const refundLines: OrderLine[] = [{ itemId: "sku-1", description: "Coffee beans", quantity: 1, unitPriceMinor: 8000, taxAmountMinor: 2000, taxPercent: 25, goodsType: "item" }]

describe("gateway API", () => {
  let pair: SandboxPair
  beforeAll(async () => {
    pair = await startSandboxAndClient()
  })
  afterAll(() => pair.close())
  afterEach(() => pair.sandbox.faults.clear())
  const calls = (operation: string) => pair.sandbox.ledger().filter((e) => e.operation === operation)

  it("captures with Basic auth, form fields and order lines, and parses the updated transaction", async () => {
    const { transactionId } = await authorizedPayment(pair, 10000)
    const result = await pair.client.gateway.captureReservation({
      transactionId,
      amountMinor: 10000,
      currency: "DKK",
      reconciliationIdentifier: "cap-1",
      orderLines: refundLines,
    })
    expect(result.result).toBe("Success")
    expect(result.transaction).toMatchObject({ transactionId, transactionStatus: "captured" })
    expect(result.transaction?.capturedAmount).toMatchObject({ decimal: "100.00", minor: 10000, currency: "DKK" })
    const call = calls("captureReservation").at(-1)!
    expect(call.path).toBe("/merchant/API/captureReservation")
    expect(call.auth).toBe("basic")
    expect(call.params).toMatchObject({
      transaction_id: transactionId,
      amount: "100.00",
      reconciliation_identifier: "cap-1",
      orderLines: [{ itemId: "sku-1", description: "Coffee beans", unitPrice: "80.00", taxAmount: "20.00", taxPercent: "25", quantity: "1", goodsType: "item" }],
    })
  })

  it("refunds with every reference parameter and records the reconciliation identifier", async () => {
    const { transactionId } = await authorizedPayment(pair, 10000)
    await pair.client.gateway.captureReservation({ transactionId })
    const result = await pair.client.gateway.refundCapturedReservation({
      transactionId,
      amountMinor: 10000,
      currency: "DKK",
      reconciliationIdentifier: "refund-abc",
      allowOverRefund: false,
      invoiceNumber: "INV-7",
      orderLines: refundLines,
    })
    expect(result.result).toBe("Success")
    expect(result.response.refundAmount).toMatchObject({ minor: 10000 })
    expect(result.transaction?.transactionStatus).toBe("refunded")
    expect(result.transaction?.refundedAmount?.minor).toBe(10000)
    expect(result.transaction?.reconciliationIdentifiers).toEqual(expect.arrayContaining([expect.objectContaining({ id: "refund-abc", type: "refunded" })]))
    expect(calls("refundCapturedReservation").at(-1)!.params).toMatchObject({
      transaction_id: transactionId,
      amount: "100.00",
      reconciliation_identifier: "refund-abc",
      allow_over_refund: "0",
      invoice_number: "INV-7",
      orderLines: [expect.objectContaining({ description: "Coffee beans" })],
    })
  })

  it("an omitted amount refunds the rest", async () => {
    const { transactionId } = await authorizedPayment(pair, 4321)
    await pair.client.gateway.captureReservation({ transactionId })
    await pair.client.gateway.refundCapturedReservation({ transactionId, amountMinor: 1000, currency: "DKK" })
    const rest = await pair.client.gateway.refundCapturedReservation({ transactionId })
    expect(rest.transaction?.refundedAmount?.minor).toBe(4321)
  })

  it("over-refund is refused by AltaPay unless allowed", async () => {
    const { transactionId } = await authorizedPayment(pair, 1000)
    await pair.client.gateway.captureReservation({ transactionId })
    await expect(pair.client.gateway.refundCapturedReservation({ transactionId, amountMinor: 1001, currency: "DKK" })).rejects.toBeInstanceOf(AltaPayDeclinedError)
    const over = await pair.client.gateway.refundCapturedReservation({ transactionId, amountMinor: 1001, currency: "DKK", allowOverRefund: true })
    expect(over.transaction?.refundedAmount?.minor).toBe(1001)
  })

  it("9.66 fails with Result Fail and 9.67 with Result Error, carrying the merchant message", async () => {
    for (const [amount, result] of [
      [966, "Fail"],
      [967, "Error"],
    ] as const) {
      const { transactionId } = await authorizedPayment(pair, amount)
      await pair.client.gateway.captureReservation({ transactionId })
      const error = await pair.client.gateway.refundCapturedReservation({ transactionId, amountMinor: amount, currency: "DKK" }).catch((e: unknown) => e)
      expect(error).toBeInstanceOf(AltaPayDeclinedError)
      expect((error as AltaPayDeclinedError).result).toBe(result)
      expect((error as AltaPayDeclinedError).merchantMessage).toBeTruthy()
      expect((error as Error).message).toContain((error as AltaPayDeclinedError).merchantMessage)
    }
  })

  it("releases a reservation; a second release is declined", async () => {
    const { transactionId } = await authorizedPayment(pair, 500)
    const released = await pair.client.gateway.releaseReservation({ transactionId })
    expect(released.transaction?.transactionStatus).toBe("released")
    await expect(pair.client.gateway.releaseReservation({ transactionId })).rejects.toBeInstanceOf(AltaPayDeclinedError)
  })

  it("looks payments up by transaction_id, payment_id and shop_orderid", async () => {
    const { transactionId, paymentId, orderId } = await authorizedPayment(pair, 777)
    for (const filter of [{ transactionId }, { paymentId }, { shopOrderId: orderId }]) {
      const found = await pair.client.gateway.payments(filter)
      expect(found).toHaveLength(1)
      expect(found[0]).toMatchObject({ transactionId, paymentId, shopOrderId: orderId, transactionStatus: "preauth" })
      expect(found[0].reservedAmount?.minor).toBe(777)
    }
    expect(calls("payments").at(-1)).toMatchObject({ method: "GET", auth: "basic", params: { shop_orderid: orderId } })
    expect(await pair.client.gateway.payments({ shopOrderId: "no-such-order" })).toEqual([])
  })

  it.each([
    ["transaction_id", { transactionId: "XYZ!" }],
    ["amount", { transactionId: "abc", amountMinor: 0, currency: "DKK" }],
    ["reconciliation_identifier", { transactionId: "abc", reconciliationIdentifier: "r".repeat(101) }],
    ["currency", { transactionId: "abc", amountMinor: 100 }],
    [
      "orderLines.0.itemId",
      { transactionId: "abc", amountMinor: 100, currency: "DKK", orderLines: [{ ...refundLines[0], itemId: "i".repeat(101), unitPriceMinor: 80, taxAmountMinor: 20 }] },
    ],
  ])("a bad %s is refused before anything is sent", async (field, input) => {
    const before = pair.sandbox.ledger().length
    const error = await pair.client.gateway.refundCapturedReservation(input as never).catch((e: unknown) => e)
    expect(error).toBeInstanceOf(AltaPayValidationError)
    expect((error as AltaPayValidationError).issues.map((i) => i.field)).toContain(field)
    expect((error as Error).message).toContain(field)
    expect(pair.sandbox.ledger().length).toBe(before)
  })

  it.each(["XYZ!", "A".repeat(4), "0".repeat(33), ""])("a payments look-up by the bad transaction_id %j is refused before anything is sent", async (transactionId) => {
    const before = pair.sandbox.ledger().length
    const error = await pair.client.gateway.payments({ transactionId }).catch((e: unknown) => e)
    expect(error).toBeInstanceOf(AltaPayValidationError)
    expect((error as AltaPayValidationError).issues).toEqual([{ field: "transaction_id", message: "must match [0-9a-f]{1,32}" }])
    expect((error as Error).message).toBe("The payments look-up was not sent: transaction_id must match [0-9a-f]{1,32}.")
    expect(pair.sandbox.ledger().length).toBe(before)
  })

  it("partial refund lines must total the amount", async () => {
    await expect(pair.client.gateway.refundCapturedReservation({ transactionId: "abc", amountMinor: 9999, currency: "DKK", orderLines: refundLines })).rejects.toBeInstanceOf(
      AltaPayValidationError
    )
  })

  it("a non-zero ErrorCode is a gateway error", async () => {
    const { transactionId } = await authorizedPayment(pair, 500)
    pair.sandbox.faults.add({ route: "captureReservation", kind: "error-code" })
    const error = await pair.client.gateway.captureReservation({ transactionId }).catch((e: unknown) => e)
    expect(error).toBeInstanceOf(AltaPayGatewayError)
    expect((error as AltaPayGatewayError).errorCode).not.toBe(0)
  })

  it("Result Open is returned, not thrown", async () => {
    const { transactionId } = await authorizedPayment(pair, 800)
    await pair.client.gateway.captureReservation({ transactionId })
    pair.sandbox.faults.add({ route: "refundCapturedReservation", kind: "open" })
    const result = await pair.client.gateway.refundCapturedReservation({ transactionId, amountMinor: 800, currency: "DKK" })
    expect(result.result).toBe("Open")
  })

  it("a refund whose answer is lost is not retried, and says it may have happened", async () => {
    const { transactionId } = await authorizedPayment(pair, 2000)
    await pair.client.gateway.captureReservation({ transactionId })
    pair.sandbox.faults.add({ route: "refundCapturedReservation", kind: "lost-answer" })
    const error = await pair.client.gateway
      .refundCapturedReservation({ transactionId, amountMinor: 500, currency: "DKK", reconciliationIdentifier: "lost-1" })
      .catch((e: unknown) => e)
    expect(error).toBeInstanceOf(AltaPayNetworkError)
    expect((error as AltaPayNetworkError).mayHaveReachedAltaPay).toBe(true)
    expect(calls("refundCapturedReservation").filter((c) => c.params && (c.params as any).reconciliation_identifier === "lost-1")).toHaveLength(1)
    // The money moved: a look-up finds the identifier, so a caller knows not to resend.
    const [tx] = await pair.client.gateway.payments({ transactionId })
    expect(tx.reconciliationIdentifiers.map((r) => r.id)).toContain("lost-1")
    expect(tx.refundedAmount?.minor).toBe(500)
  })

  it("a refund is not retried on 500 either", async () => {
    const { transactionId } = await authorizedPayment(pair, 2000)
    await pair.client.gateway.captureReservation({ transactionId })
    const before = calls("refundCapturedReservation").length
    pair.sandbox.faults.add({ route: "refundCapturedReservation", kind: "500" })
    await expect(pair.client.gateway.refundCapturedReservation({ transactionId, amountMinor: 100, currency: "DKK" })).rejects.toMatchObject({
      code: "http",
      mayHaveReachedAltaPay: true,
    })
    expect(calls("refundCapturedReservation").length).toBe(before + 1)
  })

  it("look-ups are retried after a connection reset", async () => {
    const { transactionId } = await authorizedPayment(pair, 300)
    pair.sandbox.faults.add({ route: "payments", kind: "reset" })
    const found = await pair.client.gateway.payments({ transactionId })
    expect(found[0].transactionId).toBe(transactionId)
  })

  it("an HTML error page and truncated XML are bad responses", async () => {
    const { transactionId } = await authorizedPayment(pair, 300)
    pair.sandbox.faults.add({ route: "captureReservation", kind: "truncate" })
    const truncated = await pair.client.gateway.captureReservation({ transactionId }).catch((e: unknown) => e)
    expect(truncated).toBeInstanceOf(AltaPayBadResponseError)
    expect((truncated as AltaPayBadResponseError).mayHaveReachedAltaPay).toBe(true)
    pair.sandbox.faults.add({ route: "payments", kind: "html", times: Infinity })
    const html = await pair.client.gateway.payments({ transactionId }).catch((e: unknown) => e)
    expect(html).toMatchObject({ code: "http", status: 502 })
    pair.sandbox.faults.clear()
  })

  it("a slow answer is a timeout that says the request may have been processed", async () => {
    const { transactionId } = await authorizedPayment(pair, 300)
    const impatient = pair.clientWith({ headersTimeoutMs: 200, maxRetries: 0 })
    pair.sandbox.faults.add({ route: "captureReservation", kind: "latency", ms: 1000 })
    const error = await impatient.gateway.captureReservation({ transactionId }).catch((e: unknown) => e)
    expect(error).toBeInstanceOf(AltaPayTimeoutError)
    expect((error as AltaPayTimeoutError).mayHaveReachedAltaPay).toBe(true)
  })

  it("an unreachable gateway is a network error that says nothing was sent", async () => {
    const client = createAltaPayClient({
      checkoutUrl: "http://127.0.0.1:9",
      gatewayUrl: "http://127.0.0.1:9",
      username: SANDBOX_USER,
      password: SANDBOX_PASSWORD,
      maxRetries: 0,
    })
    const error = await client.gateway.releaseReservation({ transactionId: "abc" }).catch((e: unknown) => e)
    await client.close()
    expect(error).toBeInstanceOf(AltaPayNetworkError)
    expect((error as AltaPayNetworkError).mayHaveReachedAltaPay).toBe(false)
  })

  it("wrong gateway credentials are an auth error", async () => {
    const client = pair.clientWith({ password: "nope-nope" })
    await expect(client.gateway.payments({ transactionId: "abc" })).rejects.toMatchObject({ code: "auth", status: 401 })
  })
})
