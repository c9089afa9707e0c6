/**
 * What AltaPay answers, as its documentation and its own clients show it, read by our parsers:
 * XML APIResponse samples and the Checkout API's JSON answers. Samples in samples.ts.
 */
import { isFailedResult, isSuccessResult, jwtExpiryMs, parseGatewayResponse } from "../../../src/altapay"
import { createdPaymentSchema, paymentLinkSchema, paymentMethodSchema } from "../../../src/altapay/checkout-schemas"
import { sessionStatusFor } from "../../../src/lib/medusa-mapping/status"
import {
  androidCreatePaymentResponseFields,
  androidPaymentMethodFields,
  authenticateResponse,
  checkoutSessionXmlHeader,
  createPaymentLinkResponse,
  releaseReservationXml,
  sdkPhpCapturedCallbackXml,
  sdkPhpErrorXml,
  updateOrderXml,
} from "./samples"

describe("Merchant API XML samples", () => {
  it("releaseReservation's example: a successful release with its transaction", () => {
    const response = parseGatewayResponse(releaseReservationXml.value)
    expect(response).toMatchObject({ version: "20170228", header: { errorCode: 0, errorMessage: "", path: "API/releaseReservation" }, result: "Success", releaseResult: "Success" })
    expect(isSuccessResult(response.result)).toBe(true)
    expect(response.transactions).toHaveLength(1)
    expect(response.transactions[0]).toMatchObject({ transactionId: "1", paymentId: "ccc1479c-37f9-4962-8d2c-662d75117e9d", authType: "payment", cardStatus: "Valid" })
    expect(response.header.date?.toISOString()).toBe("2020-09-29T10:34:56.000Z")
  })

  it("updateOrder's example: a Result without transactions", () => {
    const response = parseGatewayResponse(updateOrderXml.value)
    expect(response).toMatchObject({ result: "Success", transactions: [] })
  })

  it("a newer API version's header (checkoutSession, version 20251231) still parses", () => {
    expect(parseGatewayResponse(checkoutSessionXmlHeader.value)).toMatchObject({ version: "20251231", header: { errorCode: 0, path: "API/checkoutSession" } })
  })

  it("the PHP SDK's captured callback XML: amounts to minor units, numeric currency to DKK, captured status", () => {
    const [transaction] = parseGatewayResponse(sdkPhpCapturedCallbackXml.value).transactions
    expect(transaction).toMatchObject({ transactionId: "299", shopOrderId: "000000081", authType: "paymentAndCapture", transactionStatus: "captured", merchantCurrency: "208" })
    expect(transaction.reservedAmount).toMatchObject({ decimal: "139.00", minor: 13900, currency: "DKK" })
    expect(transaction.capturedAmount).toMatchObject({ minor: 13900 })
    expect(transaction.paymentNatureService).toMatchObject({ name: "SoapTestAcquirer", supportsRefunds: true, supportsMultipleCaptures: true })
    expect(sessionStatusFor(transaction, { amountMinor: 13900, currency: "DKK" }).status).toBe("captured")
  })

  it("the PHP SDK's error XML: Result Error with both messages, a failure", () => {
    const response = parseGatewayResponse(sdkPhpErrorXml.value)
    expect(response).toMatchObject({
      result: "Error",
      merchantErrorMessage: "Unable to register MobilePay payment",
      cardHolderErrorMessage: "Unable to register MobilePay payment",
    })
    expect(isFailedResult(response.result)).toBe(true)
  })
})

describe("Checkout API JSON samples", () => {
  it("the Create Payment Link answer has exactly what we read", () => {
    expect(paymentLinkSchema.parse(createPaymentLinkResponse.value)).toEqual(createPaymentLinkResponse.value)
  })

  it("the Authentication page's token: its expiry is read from exp (30 minutes after iat in the sample)", () => {
    expect(jwtExpiryMs(authenticateResponse.value.token)).toBe(1670944199 * 1000)
  })

  it("a create-payment answer with the Android SDK's fields parses", () => {
    const answer = Object.fromEntries(androidCreatePaymentResponseFields.value.map((field) => [field, `${field}-value`]))
    expect(createdPaymentSchema.parse(answer)).toEqual(answer)
  })

  it("a payment method with the Android SDK's fields parses, keeping the ones we do not model", () => {
    const method = {
      id: "m1",
      type: "CARD",
      description: "Cards",
      logoUrl: "https://x/logo.svg",
      display: "Card",
      onInitiatePayment: { type: "REDIRECT" },
      metadata: { terminalName: "T" },
      name: "Card",
    }
    expect(Object.keys(method).sort()).toEqual([...androidPaymentMethodFields.value].sort())
    expect(paymentMethodSchema.parse(method)).toEqual(method)
  })
})
