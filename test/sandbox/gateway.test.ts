import { parseGatewayResponse } from "../../src/altapay"
import type { Sandbox } from "../../src/sandbox"
import { GatewayErrorCode, PAYMENT_METHODS } from "../../src/sandbox"
import { authorizedTransaction, basicHeader, createSession, gateway, sessionBody, start } from "./helpers"

const lineFields = (index: number, line: Record<string, string>): Record<string, string> =>
  Object.fromEntries(Object.entries(line).map(([k, v]) => [`orderLines[${index}][${k}]`, v]))

describe("sandbox gateway merchant API", () => {
  let sandbox: Sandbox

  beforeAll(async () => {
    sandbox = await start()
  })
  afterAll(() => sandbox.close())

  test("requests without the API user's Basic credentials get 401", async () => {
    const answer = await gateway(sandbox, "payments", { transaction_id: "1" }, { auth: basicHeader("shop-api@example.com", "wrong") })
    expect(answer.status).toBe(401)
  })

  test("the envelope carries version, date, path and ErrorCode 0", async () => {
    const transactionId = await authorizedTransaction(sandbox, { amount: 100 })
    const answer = await gateway(sandbox, "payments", { transaction_id: transactionId })
    expect(answer.text).toMatch(/^<\?xml version="1.0" encoding="UTF-8"\?>\n<APIResponse version="20170228">/)
    expect(answer.header.ErrorCode).toBe("0")
    expect(answer.header.Path).toBe("API/payments")
    expect(answer.header.Date).toMatch(/^\d{4}-\d\d-\d\dT\d\d:\d\d:\d\d\+00:00$/)
    const [t] = answer.body.Transactions.Transaction
    expect(t).toMatchObject({
      TransactionId: transactionId,
      AuthType: "payment",
      TransactionStatus: "preauth",
      MerchantCurrency: "208",
      MerchantCurrencyAlpha: "DKK",
      ReservedAmount: "100.00",
      CapturedAmount: "0.00",
      RefundedAmount: "0.00",
      CreditCardMaskedPan: "411111******1111",
      PaymentNature: "CreditCard",
      // AltaPay's test fraud service: the amount mod 101.
      FraudRiskScore: "100",
      AddressVerification: "P",
      SurchargeAmount: "0.00",
      PaymentNatureService: { "@_name": "SoapTestAcquirer", SupportsRefunds: "true", SupportsMultipleRefunds: "true" },
      CardInformation: { LastFourDigits: "1111", Scheme: "Visa", IssuingCountry: "DK" },
    })
    expect(t.CreatedDate).toMatch(/^\d{4}-\d\d-\d\d \d\d:\d\d:\d\d$/)
    expect(t.CustomerInfo.BillingAddress).toMatchObject({ Firstname: "Ada", City: "Copenhagen", PostalCode: "2100", Country: "DK" })
  })

  test("captures: partial, then the rest, then refused once fully captured", async () => {
    const transactionId = await authorizedTransaction(sandbox, { amount: 100 })
    const partial = await gateway(sandbox, "captureReservation", { transaction_id: transactionId, amount: "30.00", reconciliation_identifier: "cap-1" })
    expect(partial.body).toMatchObject({ CaptureAmount: "30.00", CaptureCurrency: "208", Result: "Success", CaptureResult: "Success" })
    const too = await gateway(sandbox, "captureReservation", { transaction_id: transactionId, amount: "70.01" })
    expect(too.header.ErrorCode).toBe("0")
    expect(too.body.Result).toBe("Failed")
    expect(too.body.MerchantErrorMessage).toMatch(/70.00/)
    const rest = await gateway(sandbox, "captureReservation", { transaction_id: transactionId })
    expect(rest.body).toMatchObject({ CaptureAmount: "70.00", Result: "Success" })
    const [t] = rest.body.Transactions.Transaction
    expect(t).toMatchObject({ TransactionStatus: "captured", CapturedAmount: "100.00" })
    expect(t.ReconciliationIdentifiers.ReconciliationIdentifier.map((r: { Id: string; Type: string }) => [r.Id === "cap-1", r.Type])).toEqual([
      [true, "captured"],
      [false, "captured"],
    ])
    const again = await gateway(sandbox, "captureReservation", { transaction_id: transactionId })
    expect(again.body.Result).toBe("Failed")
    expect(again.body.MerchantErrorMessage).toMatch(/already fully captured/)
    expect(sandbox.payment(sandbox.transaction(transactionId)!.paymentId)?.status).toBe("CAPTURED")
  })

  test("capture order lines must total the amount", async () => {
    const transactionId = await authorizedTransaction(sandbox, { amount: 100 })
    const line = { description: "Shirt", itemId: "sku-1", quantity: "2", unitPrice: "20.00", taxAmount: "10.00" }
    const mismatch = await gateway(sandbox, "captureReservation", { transaction_id: transactionId, amount: "60.00", ...lineFields(0, line) })
    expect(mismatch.body.Result).toBe("Failed")
    const ok = await gateway(sandbox, "captureReservation", { transaction_id: transactionId, amount: "50.00", ...lineFields(0, line) })
    expect(ok.body.Result).toBe("Success")
    const badLine = await gateway(sandbox, "captureReservation", { transaction_id: transactionId, amount: "10.00", ...lineFields(0, { ...line, itemId: "x".repeat(101) }) })
    expect(badLine.header.ErrorCode).toBe(String(GatewayErrorCode.INVALID_PARAMETER))
  })

  test("structural problems answer with a non-zero ErrorCode", async () => {
    expect((await gateway(sandbox, "refundCapturedReservation", {})).header.ErrorCode).toBe(String(GatewayErrorCode.MISSING_PARAMETER))
    expect((await gateway(sandbox, "refundCapturedReservation", { transaction_id: "XYZ" })).header.ErrorCode).toBe(String(GatewayErrorCode.INVALID_PARAMETER))
    const unknown = await gateway(sandbox, "refundCapturedReservation", { transaction_id: "abc123" })
    expect(unknown.header.ErrorCode).toBe(String(GatewayErrorCode.UNKNOWN_TRANSACTION))
    expect(unknown.header.ErrorMessage).toMatch(/abc123/)
    const transactionId = await authorizedTransaction(sandbox)
    for (const amount of ["1,00", "-5", "0", "1.001", "abc"]) {
      expect((await gateway(sandbox, "captureReservation", { transaction_id: transactionId, amount })).header.ErrorCode).toBe(String(GatewayErrorCode.INVALID_PARAMETER))
    }
    expect((await gateway(sandbox, "payments", {})).header.ErrorCode).toBe(String(GatewayErrorCode.MISSING_PARAMETER))
    expect(sandbox.transaction(transactionId)?.capturedMinor).toBe(0)
  })

  test("refunds: partial, over-refund refused, allow_over_refund=1, the rest", async () => {
    const transactionId = await authorizedTransaction(sandbox, { amount: 100 })
    await gateway(sandbox, "captureReservation", { transaction_id: transactionId })
    const partial = await gateway(sandbox, "refundCapturedReservation", { transaction_id: transactionId, amount: "40.00", reconciliation_identifier: "refund-1" })
    expect(partial.body).toMatchObject({ RefundAmount: "40.00", RefundCurrency: "208", Result: "Success", RefundResult: "Success" })
    expect(partial.body.Transactions.Transaction[0]).toMatchObject({ TransactionStatus: "refunded", RefundedAmount: "40.00" })
    const over = await gateway(sandbox, "refundCapturedReservation", { transaction_id: transactionId, amount: "60.01" })
    expect(over.header.ErrorCode).toBe("0")
    expect(over.body).toMatchObject({ Result: "Fail", RefundResult: "Fail" })
    expect(over.body.MerchantErrorMessage).toMatch(/60.00/)
    const allowed = await gateway(sandbox, "refundCapturedReservation", { transaction_id: transactionId, amount: "70.00", allow_over_refund: "1" })
    expect(allowed.body.Result).toBe("Success")
    expect(sandbox.transaction(transactionId)).toMatchObject({ refundedMinor: 11000, capturedMinor: 10000 })
    const ids = sandbox.transaction(transactionId)!.reconciliationIdentifiers
    expect(ids.filter((r) => r.type === "refunded").map((r) => r.id)).toContain("refund-1")
    const rest = await gateway(sandbox, "refundCapturedReservation", { transaction_id: transactionId })
    expect(rest.body.Result).toBe("Fail")
    const tooLong = await gateway(sandbox, "refundCapturedReservation", { transaction_id: transactionId, reconciliation_identifier: "r".repeat(101) })
    expect(tooLong.header.ErrorCode).toBe(String(GatewayErrorCode.INVALID_PARAMETER))
  })

  test("an omitted refund amount refunds what is left; partial refund lines must total the amount", async () => {
    const transactionId = await authorizedTransaction(sandbox, { amount: 80 })
    await gateway(sandbox, "captureReservation", { transaction_id: transactionId })
    const line = { description: "Mug", itemId: "mug", quantity: "1", unitPrice: "8.00", taxAmount: "2.00" }
    const mismatch = await gateway(sandbox, "refundCapturedReservation", { transaction_id: transactionId, amount: "20.00", ...lineFields(0, line) })
    expect(mismatch.body.Result).toBe("Fail")
    const partial = await gateway(sandbox, "refundCapturedReservation", { transaction_id: transactionId, amount: "10.00", ...lineFields(0, line) })
    expect(partial.body.Result).toBe("Success")
    const rest = await gateway(sandbox, "refundCapturedReservation", { transaction_id: transactionId })
    expect(rest.body).toMatchObject({ Result: "Success", RefundAmount: "70.00" })
  })

  test("refunds of an uncaptured reservation fail", async () => {
    const transactionId = await authorizedTransaction(sandbox, { amount: 50 })
    const answer = await gateway(sandbox, "refundCapturedReservation", { transaction_id: transactionId, amount: "10.00" })
    expect(answer.body.Result).toBe("Fail")
  })

  test("payments of 9.66 fail every refund with Fail and 9.67 with Error", async () => {
    const failing = await authorizedTransaction(sandbox, { amount: 9.66 })
    await gateway(sandbox, "captureReservation", { transaction_id: failing })
    const fail = await gateway(sandbox, "refundCapturedReservation", { transaction_id: failing, amount: "1.00" })
    expect(fail.body).toMatchObject({ Result: "Fail", RefundResult: "Fail" })
    expect(fail.body.MerchantErrorMessage).toBeTruthy()
    const erroring = await authorizedTransaction(sandbox, { amount: 9.67 })
    await gateway(sandbox, "captureReservation", { transaction_id: erroring })
    const error = await gateway(sandbox, "refundCapturedReservation", { transaction_id: erroring })
    expect(error.body).toMatchObject({ Result: "Error", RefundResult: "Error" })
    expect(error.body.MerchantErrorMessage).toBeTruthy()
    expect(sandbox.transaction(failing)?.refundedMinor).toBe(0)
    expect(sandbox.transaction(erroring)?.refundedMinor).toBe(0)
  })

  test("release only applies to an uncaptured reservation, once", async () => {
    const transactionId = await authorizedTransaction(sandbox)
    const released = await gateway(sandbox, "releaseReservation", { transaction_id: transactionId })
    expect(released.body).toMatchObject({ Result: "Success", CancelResult: "Success" })
    expect(released.body.Transactions.Transaction[0].TransactionStatus).toBe("released")
    expect((await gateway(sandbox, "releaseReservation", { transaction_id: transactionId })).body.Result).toBe("Failed")
    expect((await gateway(sandbox, "captureReservation", { transaction_id: transactionId })).body.Result).toBe("Failed")
    const captured = await authorizedTransaction(sandbox)
    await gateway(sandbox, "captureReservation", { transaction_id: captured, amount: "1.00" })
    const refused = await gateway(sandbox, "releaseReservation", { transaction_id: captured })
    expect(refused.body.Result).toBe("Failed")
    expect(refused.body.MerchantErrorMessage).toMatch(/captured/)
  })

  test("payments finds transactions by transaction_id, payment_id or shop_orderid, GET or POST", async () => {
    const sessionId = await createSession(sandbox, sessionBody({ orderId: "order-lookup" }))
    const declined = await sandbox.simulatePayment(sessionId, { outcome: "decline", callback: false })
    const authorized = await sandbox.simulatePayment(sessionId, { callback: false })
    const byOrder = await gateway(sandbox, "payments", { shop_orderid: "order-lookup" }, { get: true })
    expect(byOrder.body.Result).toBe("Success")
    expect(byOrder.body.Transactions.Transaction.map((t: { TransactionStatus: string }) => t.TransactionStatus)).toEqual(["epayment_declined", "preauth"])
    const byPayment = await gateway(sandbox, "payments", { payment_id: authorized.paymentId })
    expect(byPayment.body.Transactions.Transaction.map((t: { TransactionId: string }) => t.TransactionId)).toEqual([authorized.transactionId])
    const byId = await gateway(sandbox, "payments", { transaction_id: declined.transactionId! }, { get: true })
    expect(byId.body.Transactions.Transaction).toHaveLength(1)
    const none = await gateway(sandbox, "payments", { shop_orderid: "no-such-order" })
    expect(none.body.Result).toBe("Success")
    expect(none.body.Transactions?.Transaction ?? []).toHaveLength(0)
  })
  test("refund lines must total any refund that is not of exactly the captured amount", async () => {
    const transactionId = await authorizedTransaction(sandbox, { amount: 80 })
    await gateway(sandbox, "captureReservation", { transaction_id: transactionId })
    const mug = { description: "Mug", itemId: "mug", quantity: "1", unitPrice: "8.00", taxAmount: "2.00" }
    expect((await gateway(sandbox, "refundCapturedReservation", { transaction_id: transactionId, amount: "10.00", ...lineFields(0, mug) })).body.Result).toBe("Success")
    // The rest (70.00) is what is refundable, but not the captured amount: still a partial refund.
    const rest = await gateway(sandbox, "refundCapturedReservation", { transaction_id: transactionId, ...lineFields(0, mug) })
    expect(rest.body.Result).toBe("Fail")
    expect(rest.body.MerchantErrorMessage).toMatch(/orderLines total 10.00 but the refund amount is 70.00/)
    // An over-refund is not of the captured amount either.
    const over = await gateway(sandbox, "refundCapturedReservation", { transaction_id: transactionId, amount: "90.00", allow_over_refund: "1", ...lineFields(0, mug) })
    expect(over.body.Result).toBe("Fail")
    expect(sandbox.transaction(transactionId)?.refundedMinor).toBe(1000)
    // A full refund of the captured amount is not partial: the rule does not apply.
    const full = await authorizedTransaction(sandbox, { amount: 80 })
    await gateway(sandbox, "captureReservation", { transaction_id: full })
    expect((await gateway(sandbox, "refundCapturedReservation", { transaction_id: full, amount: "80.00", ...lineFields(0, mug) })).body.Result).toBe("Success")
  })

  test("capture lines must total the amount, for a full capture too", async () => {
    const transactionId = await authorizedTransaction(sandbox, { amount: 80 })
    const mug = { description: "Mug", itemId: "mug", quantity: "1", unitPrice: "8.00", taxAmount: "2.00" }
    const full = await gateway(sandbox, "captureReservation", { transaction_id: transactionId, ...lineFields(0, mug) })
    expect(full.body.Result).toBe("Failed")
    expect(sandbox.transaction(transactionId)?.capturedMinor).toBe(0)
  })

  test("a negative unitPrice is allowed on handling lines only, not on discount lines", async () => {
    const transactionId = await authorizedTransaction(sandbox, { amount: 100 })
    const item = { description: "Shirt", itemId: "sku-1", quantity: "1", unitPrice: "100.00", taxAmount: "0" }
    const discount = { description: "Discount", itemId: "disc", quantity: "1", unitPrice: "-10.00", taxAmount: "0", goodsType: "discount" }
    const refused = await gateway(sandbox, "captureReservation", { transaction_id: transactionId, amount: "90.00", ...lineFields(0, item), ...lineFields(1, discount) })
    expect(refused.header.ErrorCode).toBe(String(GatewayErrorCode.INVALID_PARAMETER))
    expect(refused.header.ErrorMessage).toMatch(/orderLines\.1\.unitPrice/)
    const handling = { ...discount, goodsType: "handling" }
    const ok = await gateway(sandbox, "captureReservation", { transaction_id: transactionId, amount: "90.00", ...lineFields(0, item), ...lineFields(1, handling) })
    expect(ok.body.Result).toBe("Success")
  })

  test("a POST takes its parameters from the form body only, not the query string", async () => {
    const transactionId = await authorizedTransaction(sandbox, { amount: 100 })
    const post = (query: string, body: string): Promise<Response> =>
      fetch(`${sandbox.gatewayUrl}/merchant/API/captureReservation?${query}`, {
        method: "POST",
        headers: { authorization: basicHeader(), "content-type": "application/x-www-form-urlencoded" },
        body,
      })
    const queryOnly = await (await post(`transaction_id=${transactionId}`, "")).text()
    expect(queryOnly).toContain(`<ErrorCode>${GatewayErrorCode.MISSING_PARAMETER}</ErrorCode>`)
    // amount in the query is ignored: the body's transaction_id alone captures everything.
    const mixed = await (await post("amount=10.00", `transaction_id=${transactionId}`)).text()
    expect(mixed).toContain("<CaptureAmount>100.00</CaptureAmount>")
    expect(sandbox.transaction(transactionId)?.capturedMinor).toBe(10000)
    // GET still reads the query string.
    expect((await gateway(sandbox, "payments", { transaction_id: transactionId }, { get: true })).body.Transactions.Transaction).toHaveLength(1)
  })

  test("orderLines keys that are not orderLines[<index>][<field>] are rejected, not dropped", async () => {
    const transactionId = await authorizedTransaction(sandbox, { amount: 100 })
    const line = { description: "Shirt", itemId: "sku-1", quantity: "1", unitPrice: "10.00", taxAmount: "0" }
    for (const key of ["orderLines", "orderLines[0]", "orderLines[x][itemId]", "orderLines[0][item-id]", "orderLines[0][itemId][0]", "orderLinesX"]) {
      const answer = await gateway(sandbox, "captureReservation", { transaction_id: transactionId, amount: "10.00", ...lineFields(0, line), [key]: "1" })
      expect(answer.header.ErrorCode).toBe(String(GatewayErrorCode.INVALID_PARAMETER))
      expect(answer.header.ErrorMessage).toContain(key)
    }
    expect(sandbox.transaction(transactionId)?.capturedMinor).toBe(0)
  })

  test("ReconciliationIdentifier amounts carry the numeric currency, which the client reads", async () => {
    for (const [currency, numeric, amount, decimal, minor] of [
      ["DKK", "208", 100, "100.00", 10000],
      ["JPY", "392", 1500, "1500", 1500],
    ] as const) {
      const transactionId = await authorizedTransaction(sandbox, { amount, currency })
      const answer = await gateway(sandbox, "captureReservation", { transaction_id: transactionId })
      const [identifier] = answer.body.Transactions.Transaction[0].ReconciliationIdentifiers.ReconciliationIdentifier
      expect(identifier.Amount).toEqual({ "#text": decimal, "@_currency": numeric })
      const parsed = parseGatewayResponse(answer.text)
      expect(parsed.transactions[0].reconciliationIdentifiers[0].amount).toEqual({ decimal, minor, currency })
    }
  })

  test("the payment method's nature becomes PaymentNature", async () => {
    for (const [method, nature] of [
      [PAYMENT_METHODS[0], "CreditCard"],
      [PAYMENT_METHODS[1], "Wallet"],
    ] as const) {
      const sessionId = await createSession(sandbox, sessionBody())
      const paid = await sandbox.simulatePayment(sessionId, { paymentMethodId: method.id, callback: false })
      const answer = await gateway(sandbox, "payments", { transaction_id: paid.transactionId! })
      expect(answer.body.Transactions.Transaction[0].PaymentNature).toBe(nature)
    }
  })
})
