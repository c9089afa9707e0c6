/**
 * AltaPay's own gateway answers and callback bodies (files/, sources in files/SOURCES.md) through
 * our gateway parser and callback parser: each must read as AltaPay's own client reads it. Each
 * case asserts what AltaPay's own test for that file asserts (api-php `tests/Api/*Test.php`,
 * sdk-csharp `AltaPayApi.Tests/Unit/MerchantApi_ParsePostBackXmlResponseTests.cs`, plugin-magento2-community
 * `Test/Unit/Model/GeneratorTest.php`), and what our
 * client needs from it (result, transaction, status, amounts with their currency).
 */
import { readFileSync } from "node:fs"
import path from "node:path"
import { parseCallback, parseGatewayResponse, resultOf, type GatewayResponse } from "../../../src/altapay"

const fixture = (name: string): string => readFileSync(path.join(__dirname, "files", name), "utf8")
const read = (name: string): GatewayResponse => parseGatewayResponse(fixture(name))
const money = (decimal: string, minor: number, currency: string) => ({ decimal, minor, currency })

/** The first Transaction as api-php's tests check it (capture, refund: TransactionId, MerchantCurrency, FraudRiskScore, ReservedAmount). */
const apiPhpTransaction = { transactionId: "1", merchantCurrency: "978", merchantCurrencyAlpha: "EUR", fraudRiskScore: "13.37", reservedAmount: money("1.00", 100, "EUR") }

describe("AltaPay's gateway answers (api-php tests/Api/Results), as api-php's tests read them", () => {
  it("capture.xml (CaptureReservationTest): Success, CaptureResult Success, 0.20 EUR captured, one captured transaction", () => {
    const response = read("api-php-capture.xml")
    expect([response.result, response.captureResult, resultOf(response), response.captureCurrency]).toEqual(["Success", "Success", "Success", "978"])
    expect(response.captureAmount).toMatchObject(money("0.20", 20, "EUR"))
    expect(response.transactions).toHaveLength(1)
    expect(response.transactions[0]).toMatchObject({ ...apiPhpTransaction, transactionStatus: "captured", capturedAmount: money("1.00", 100, "EUR") })
    // The token is split over two lines in the fixture; api-php keeps the text as written, we trim it.
    expect(response.transactions[0].creditCardToken?.reveal()).toBe("93f534a2f5d66d6ab3f16c8a7bb7e852656d4bb2")
  })

  it("refundcapture.xml (RefundCapturedReservationTest): Success, RefundResult Success, 0.12 EUR refunded", () => {
    const response = read("api-php-refundcapture.xml")
    expect([response.result, response.refundResult, resultOf(response), response.refundCurrency]).toEqual(["Success", "Success", "Success", "978"])
    expect(response.refundAmount).toMatchObject(money("0.12", 12, "EUR"))
    expect(response.transactions).toHaveLength(1)
    expect(response.transactions[0]).toMatchObject({ ...apiPhpTransaction, transactionStatus: "refunded", refundedAmount: money("0.12", 12, "EUR") })
  })

  it("release.xml (ReleaseReservationTest): Success, the deprecated CancelResult Success, one released transaction", () => {
    const response = read("api-php-release.xml")
    expect([response.result, response.releaseResult, resultOf(response)]).toEqual(["Success", "Success", "Success"])
    expect(response.transactions).toHaveLength(1)
    expect(response.transactions[0]).toMatchObject({ transactionId: "1", transactionStatus: "released", capturedAmount: money("0.00", 0, "EUR") })
  })

  it("payments.xml (PaymentsTest): two transactions, the first read field for field", () => {
    const response = read("api-php-payments.xml")
    expect(response.header).toMatchObject({ path: "API/payments", errorCode: 0, errorMessage: "" })
    expect(response.transactions).toHaveLength(2)
    const [first] = response.transactions
    // The card token is a SecretToken: it never prints, reveal() reads it.
    expect(first.creditCardToken?.reveal()).toBe("93f534a2f5d66d6ab3f16c8a7bb7e852656d4bb2")
    expect(first).toMatchObject({
      transactionId: "1",
      paymentId: "ccc1479c-37f9-4962-8d2c-662d75117e9d",
      cardStatus: "Valid",
      creditCardMaskedPan: "411111******1111",
      threeDSecureResult: "Not_Applicable",
      liableForChargeback: "Merchant",
      blacklistToken: "4f244dec4907eba0f6432e53b17a60ebcf51365e",
      shopOrderId: "myorderid",
      shop: "AltaPay Shop",
      terminal: "AltaPay Test Terminal",
      transactionStatus: "captured",
      reasonCode: "NONE",
      merchantCurrency: "978",
      merchantCurrencyAlpha: "EUR",
      cardHolderCurrency: "978",
      cardHolderCurrencyAlpha: "EUR",
      reservedAmount: money("1.00", 100, "EUR"),
      capturedAmount: money("1.00", 100, "EUR"),
      refundedAmount: money("0.00", 0, "EUR"),
      recurringDefaultAmount: money("0.00", 0, "EUR"),
      paymentNature: "CreditCard",
      fraudRiskScore: "13.37",
      fraudExplanation: "Fraud detection explanation",
      paymentNatureService: { name: "TestAcquirer", supportsRefunds: true, supportsRelease: true, supportsMultipleCaptures: true, supportsMultipleRefunds: false },
      paymentInfos: [
        { name: "Form_Created_At", value: "2010-09-28 12:34:56" },
        { name: "Form_Provider", value: "AltaPay Test Form" },
        { name: "Merchant_Provided_Info", value: "Some info by merchant" },
      ],
    })
    // Elements we do not model are kept, as api-php reads them (IsTokenized false, PaymentSource eCommerce).
    expect(first.extra).toMatchObject({ IsTokenized: "false", PaymentSource: "eCommerce" })
    expect([first.createdDate, first.updatedDate].map((d) => d?.toISOString().slice(0, 10))).toEqual(["2010-09-28", "2010-09-28"])
    expect(first.reconciliationIdentifiers).toHaveLength(1)
    expect(first.customerInfo).toMatchObject({
      ipAddress: "127.127.127.127",
      email: "support@altapay.com",
      username: "support",
      customerPhone: "+45 7020 0056",
      organisationNumber: "12345678",
      countryOfOrigin: { country: "DK", source: "BillingAddress" },
      billingAddress: { firstname: "Palle", lastname: "Simonsen", address: "Rosenkæret 13", city: "Søborg", postalCode: "2860", country: "DK" },
    })
    expect(first.customerInfo?.userAgent).toMatch(/^Mozilla\/5\.0/)
    expect(first.customerInfo?.shippingAddress?.firstname).toBeUndefined()
  })

  it("payment.xml (PaymentsTest): one transaction", () => {
    expect(read("api-php-payment.xml").transactions.map((t) => [t.transactionId, t.transactionStatus])).toEqual([["1", "captured"]])
  })

  it("payment.xml and payments.xml: PaymentNature CreditCard, as PaymentsTest asserts", () => {
    expect(read("api-php-payment.xml").transactions[0].paymentNature).toBe("CreditCard")
    expect(read("api-php-payments.xml").transactions.map((t) => t.paymentNature)).toEqual(["CreditCard", "CreditCard"])
  })

  it("invoicereservation.xml (createInvoiceReservation): an invoice_initialized invoice payment; of its two PaymentNature the last, Invoice, as api-php's deserializer keeps it", () => {
    const response = read("api-php-invoicereservation.xml")
    expect(response.result).toBe("Success")
    expect(response.transactions[0]).toMatchObject({ transactionId: "416", transactionStatus: "invoice_initialized", cardStatus: "NoCreditCard", paymentNature: "Invoice" })
    expect(response.transactions[0].reservedAmount).toMatchObject(money("20.00", 2000, "EUR"))
  })

  it("header_error.xml (HeaderTest): ErrorCode 200 with its message, no Body", () => {
    const response = read("api-php-header_error.xml")
    expect(response.header).toMatchObject({ errorCode: 200, errorMessage: "This request has error" })
    expect([response.result, response.transactions]).toEqual([undefined, []])
  })

  it("reservation.xml and reservationoffixedamount_2.xml (ReservationOfFixedAmountTest sends, asserts no answer field): preauth reservations", () => {
    const first = read("api-php-reservation.xml")
    expect(first.result).toBe("Success")
    expect(first.transactions[0]).toMatchObject({ transactionId: "3", shopOrderId: "myorder123", transactionStatus: "preauth", reservedAmount: money("2499.95", 249995, "EUR") })
    const second = read("api-php-reservationoffixedamount_2.xml")
    expect(second.result).toBe("Success")
    expect(second.transactions[0]).toMatchObject({
      transactionId: "10183701",
      authType: "payment",
      transactionStatus: "preauth",
      reservedAmount: money("6.55", 655, "DKK"),
      creditCardExpiry: { year: "2017", month: "05" },
    })
  })

  it("paymentrequest.xml (PaymentRequestTest): Success, the padded Url trimmed", () => {
    const response = read("api-php-paymentrequest.xml")
    expect(response.result).toBe("Success")
    expect(response.body).toMatchObject({
      PaymentRequestId: "2349494a-6adf-49f7-8096-2125a969e104",
      Url: "https://gateway.altapaysecure.com/merchant.php/API/requestForm?pid=2349494a-6adf-49f7-8096-2125a969e104",
    })
  })

  it("updatereconciliationidentifier.xml (UpdateReconciliationIdentifierTest): Success, no transactions", () => {
    const response = read("api-php-updatereconciliationidentifier.xml")
    expect([response.version, response.result, response.transactions]).toEqual(["20170228", "Success", []])
  })
})

describe("AltaPay's callback XML (sdk-csharp Unit/txt, api-php CallbackTest), as AltaPay's clients read it", () => {
  it("ReasonCode.xml (ParsePostBackXmlResponse_ReadReasonCode, _ReadPaymentId): ReasonCode NONE, the PaymentId; a BOM-prefixed Failed result", () => {
    const response = read("sdk-csharp-ReasonCode.xml")
    expect(response.result).toBe("Failed")
    expect(response.transactions[0]).toMatchObject({ reasonCode: "NONE", paymentId: "17794956-9bb6-4854-9712-bce5931e6e3a" })
    expect([response.merchantErrorMessage, response.cardHolderErrorMessage]).toEqual(["TestAcquirer[pan=0466 or amount=4660]", "Card Declined"])
  })

  it("CardHolderMessageMustBeShown{False,True}.xml (ParsePostBackXmlResponse_ReadCardHolderMessageMustBeShown)", () => {
    expect(read("sdk-csharp-CardHolderMessageMustBeShownFalse.xml").body.CardHolderMessageMustBeShown).toBe("false")
    expect(read("sdk-csharp-CardHolderMessageMustBeShownTrue.xml").body.CardHolderMessageMustBeShown).toBe("true")
  })

  it("posted as a callback's xml, CardHolderMessageMustBeShown decides whether the customer sees CardHolderErrorMessage, as in the C# SDK", () => {
    const post = (name: string, extra: Record<string, string> = {}) =>
      parseCallback(new URLSearchParams({ shop_orderid: "1bf7ddd2-d335-42c6-b5ab-0a6f4faff22d", status: "failed", xml: fixture(name), ...extra }))
    expect(post("sdk-csharp-CardHolderMessageMustBeShownTrue.xml")).toMatchObject({ cardholderMessage: "Card Declined", paymentStatus: "3dsecure_failed" })
    expect(post("sdk-csharp-CardHolderMessageMustBeShownFalse.xml").cardholderMessage).toBeUndefined()
    // The form's own fields, when sent, come first.
    expect(post("sdk-csharp-CardHolderMessageMustBeShownTrue.xml", { cardholder_message_must_be_shown: "false" }).cardholderMessage).toBeUndefined()
    expect(post("sdk-csharp-CardHolderMessageMustBeShownFalse.xml", { cardholder_message_must_be_shown: "true", error_message: "Declined" }).cardholderMessage).toBe("Declined")
  })

  it("ChargebackEvent.xml (ParsePostBackXmlResponse_ChargebackEvent): Result ChargebackEvent; posted with status ChargebackEvent its event is read", () => {
    const xml = fixture("sdk-csharp-ChargebackEvent.xml")
    expect(parseGatewayResponse(xml).result).toBe("ChargebackEvent")
    const callback = parseCallback(new URLSearchParams({ shop_orderid: "23105009", status: "ChargebackEvent", xml }))
    expect(callback.paymentStatus).toBe("captured")
    expect(callback.chargebacks).toEqual([
      expect.objectContaining({
        date: "2016-06-14T00:00:00+02:00",
        type: "Chargeback",
        reasonCode: "4837",
        reason: "No Cardholder Authorization",
        amountMinor: 1042000,
        currency: "SEK",
        acquirerTransactionId: "613408247246",
        transactionId: "1735461",
      }),
    ])
  })

  it("api-php CallbackTest's post: payment id, order id, status incomplete; its xml a Failed result with transaction 1682", () => {
    const xml = fixture("api-php-CallbackTest-xml.xml")
    // The form fields of CallbackTest::setUp, as written there; its xml is the file.
    const callback = parseCallback({
      shop_orderid: "000000022",
      currency: "840",
      type: "payment",
      embedded_window: "0",
      amount: "0",
      transaction_id: "10975531",
      payment_id: "d28df6b4-122d-49e2-add0-19c8271260b0",
      nature: "CreditCard",
      require_capture: "false",
      payment_status: "created",
      masked_credit_card: "457168*********0000",
      blacklist_token: "1ba7bdb2752394286d511de4e9cc18d9f75f2946",
      credit_card_token: "3fd3d781cc2faf1e8bb6d50e5ae2220554acbb14",
      status: "incomplete",
      xml,
    })
    expect(callback).toMatchObject({
      paymentId: "d28df6b4-122d-49e2-add0-19c8271260b0",
      shopOrderId: "000000022",
      status: "incomplete",
      paymentStatus: "created",
      transactionId: "10975531",
      amountMinor: 0,
      currency: "USD",
      type: "payment",
      requireCapture: false,
    })
    const response = parseGatewayResponse(xml)
    expect(response.result).toBe("Failed")
    expect(response.transactions.map((t) => t.transactionId)).toEqual(["1682"])
    // Its AVS result and (no) surcharge, as AltaPay wrote them.
    expect(response.transactions[0]).toMatchObject({
      addressVerification: "G",
      addressVerificationDescription: "Address information is unavailable; international transaction; non-AVS participant",
      surchargeAmount: money("0.00", 0, "DKK"),
    })
  })

  it("plugin-magento2-community GeneratorTest's post: a succeeded preauth of 23.18 DKK with Magento's transaction_info; its xml a Success with transaction 33329721", () => {
    const xml = fixture("plugin-magento2-community-GeneratorTest-xml.xml")
    // The form fields of GeneratorTest::setUp ($this->order), as written there; its xml is the file.
    const callback = parseCallback({
      shop_orderid: "000000289",
      currency: "208",
      transaction_info: {
        ecomPlatform: "Magento",
        ecomVersion: "2.3.2",
        ecomPluginName: "SDM_Altapay",
        ecomPluginVersion: "1.3.4",
        otherInfo: "websiteName - Main Website, storeName - Danish Store View",
      },
      type: "payment",
      embedded_window: "0",
      amount: "23.18",
      transaction_id: "33329721",
      payment_id: "fe68da2c-a7ca-493a-b01c-ebafd80cd93b",
      nature: "CreditCard",
      require_capture: "true",
      payment_status: "preauth",
      masked_credit_card: "411111******1111",
      blacklist_token: "57c4f859a6b4e005bb1e7a42bd4cc7e8e4b58f1b",
      credit_card_token: "AQ+DuN1BmWe8g9PnsfU2jNC4ZsG7r5TuSAxFvt3uO/A5UPuGq1FarLiphj2WJA+AYBu/fbP6zdPezEJA3Q49ZA==+1",
      status: "succeeded",
      avs_code: "S",
      avs_text: "AVS not supported",
      xml,
    })
    // testRequestCallback: paymentId, shopOrderId, status, one transaction 33329721, Result Success.
    expect(callback).toMatchObject({
      paymentId: "fe68da2c-a7ca-493a-b01c-ebafd80cd93b",
      shopOrderId: "000000289",
      status: "succeeded",
      paymentStatus: "preauth",
      transactionId: "33329721",
      amountMinor: 2318,
      currency: "DKK",
      requireCapture: true,
      transactionInfo: { ecomPlatform: "Magento", ecomPluginName: "SDM_Altapay", ecomPluginVersion: "1.3.4" },
    })
    const response = parseGatewayResponse(xml)
    expect(response.result).toBe("Success")
    expect(response.transactions.map((t) => [t.transactionId, t.transactionStatus, t.reservedAmount?.minor])).toEqual([["33329721", "preauth", 2318]])
  })
})
