import { readFileSync } from "node:fs"
import { join } from "node:path"
import { AltaPayBadResponseError } from "../../src/altapay/errors"
import { AUTHORIZED_STATUSES, CAPTURED_STATUSES, DECLINED_STATUSES, TRANSACTION_STATUS, type GatewayTransaction } from "../../src/altapay/gateway-types"
import { isFailedResult, isOpenResult, isSuccessResult, latestTransaction, parseGatewayResponse, resultOf, statusIn } from "../../src/altapay/xml"

const fixture = (name: string): string => readFileSync(join(__dirname, "../fixtures/gateway", name), "utf8")

/** A minimal valid response around the given Body content. */
const envelope = (body: string, header = "<ErrorCode>0</ErrorCode><ErrorMessage/>"): string =>
  `<?xml version="1.0"?><APIResponse version="20170228"><Header>${header}</Header><Body>${body}</Body></APIResponse>`

const oneTransaction = (fields: string): string =>
  envelope(`<Result>Success</Result><Transactions><Transaction><TransactionId>1</TransactionId>${fields}</Transaction></Transactions>`)

function badResponse(body: string): AltaPayBadResponseError {
  try {
    parseGatewayResponse(body)
  } catch (error) {
    expect(error).toBeInstanceOf(AltaPayBadResponseError)
    return error as AltaPayBadResponseError
  }
  throw new Error("expected AltaPayBadResponseError, but the body parsed")
}

describe("a successful refund response", () => {
  const response = parseGatewayResponse(fixture("refund-success.xml"))
  const [transaction] = response.transactions as [GatewayTransaction]

  it("reads the header, the result and the refunded amount", () => {
    expect(response.version).toBe("20170228")
    expect(response.header).toEqual({
      date: new Date("2024-03-14T09:46:21Z"),
      path: "API/refundCapturedReservation",
      errorCode: 0,
      errorMessage: "",
    })
    expect(response.result).toBe("Success")
    expect(response.refundResult).toBe("Success")
    expect(response.refundAmount).toEqual({ decimal: "50.00", minor: 5000, currency: "DKK" })
    expect(response.refundCurrency).toBe("208")
    expect(response.refundedAmount).toBeUndefined()
    expect(resultOf(response)).toBe("Success")
    expect(response.transactions).toHaveLength(1)
  })

  it("reads the transaction's identity, status and card fields", () => {
    expect([transaction.creditCardToken?.reveal(), transaction.cardInformation?.token?.reveal()]).toEqual([
      "f7620f63d3a9eaa6c5f29c81d22e892177abc757",
      "f7620f63d3a9eaa6c5f29c81d22e892177abc757",
    ])
    expect(transaction).toMatchObject({
      transactionId: "7a3f9c21",
      paymentId: "55aaaf42-1d1d-4b9d-9a68-2c677e2e454f",
      shopOrderId: "payses_01J8Z3K4Q5R6S7T8V9W0XYZ123",
      shop: "Hansen & Søn ApS",
      terminal: "Hansen Test Terminal",
      authType: "payment",
      transactionStatus: "refunded",
      reasonCode: "NONE",
      cardStatus: "Valid",
      threeDSecureResult: "Successful",
      liableForChargeback: "Issuer",
      creditCardExpiry: { year: "2027", month: "09" },
      creditCardMaskedPan: "411111******1111",
      blacklistToken: "ee2171dfc8a013fd0d52230fb3cda95144ff7e80",
      cardInformation: {
        isTokenized: true,
        maskedPan: "411111******1111",
        expiry: { year: "2027", month: "09" },
        issuingCountry: "DK",
        lastFourDigits: "1111",
        scheme: "Visa",
      },
    })
  })

  it("reads an empty InvoiceOrderInfo as undefined", () => {
    expect(transaction.invoiceOrderInfo).toBeUndefined()
  })

  it("reads currencies as sent and amounts exactly in the merchant currency", () => {
    expect(transaction).toMatchObject({
      merchantCurrency: "208",
      merchantCurrencyAlpha: "DKK",
      cardHolderCurrency: "208",
      cardHolderCurrencyAlpha: "DKK",
      reservedAmount: { decimal: "125.50", minor: 12550, currency: "DKK" },
      capturedAmount: { decimal: "125.50", minor: 12550, currency: "DKK" },
      refundedAmount: { decimal: "50.00", minor: 5000, currency: "DKK" },
      recurringDefaultAmount: { decimal: "0.00", minor: 0, currency: "DKK" },
    })
  })

  it("reads CreatedDate and UpdatedDate as UTC", () => {
    expect(transaction.createdDate).toEqual(new Date("2024-03-12T08:15:02Z"))
    expect(transaction.updatedDate).toEqual(new Date("2024-03-14T10:46:21Z"))
  })

  it("hands every answer its own dates: changing one read earlier changes no later reading", () => {
    const [first] = parseGatewayResponse(fixture("refund-success.xml")).transactions as [GatewayTransaction]
    first.createdDate!.setUTCFullYear(1999)
    const [again] = parseGatewayResponse(fixture("refund-success.xml")).transactions as [GatewayTransaction]
    expect(again.createdDate).toEqual(new Date("2024-03-12T08:15:02Z"))
    expect(again.reconciliationIdentifiers.map((r) => r.date)).toEqual([new Date("2024-03-12T07:20:11Z"), new Date("2024-03-14T09:46:21Z")])
    // An unreadable date stays unreadable the second time too.
    const odd = oneTransaction("<CreatedDate>2024-02-30 10:00:00</CreatedDate>")
    expect([parseGatewayResponse(odd), parseGatewayResponse(odd)].map((r) => r.transactions[0]!.createdDate)).toEqual([undefined, undefined])
  })

  it("reads the payment nature service and its four flags", () => {
    expect(transaction.paymentNature).toBe("CreditCard")
    expect(transaction.paymentNatureService).toEqual({
      name: "SoapTestAcquirer",
      supportsRefunds: true,
      supportsRelease: true,
      supportsMultipleCaptures: true,
      supportsMultipleRefunds: false,
    })
  })

  it("keeps the fraud score as exact text", () => {
    expect(transaction.fraudRiskScore).toBe("13.5")
    expect(transaction.fraudExplanation).toMatch(/^For the test fraud service/)
  })

  it("reads every PaymentInfo, trimming CDATA and keeping empty ones", () => {
    expect(transaction.paymentInfos).toEqual([
      { name: "medusa_payment_session_id", value: "payses_01J8Z3K4Q5R6S7T8V9W0XYZ123" },
      { name: "AffiliateCode", value: "" },
      { name: "note", value: "Gift wrap & ribbon" },
    ])
  })

  it("reads the customer and their addresses, an empty address as undefined", () => {
    expect(transaction.customerInfo).toEqual({
      userAgent: expect.stringContaining("Mozilla/5.0"),
      ipAddress: "192.0.2.17",
      email: "mette@example.dk",
      username: undefined,
      customerPhone: "+4512345678",
      organisationNumber: undefined,
      countryOfOrigin: { country: "DK", source: "BillingAddress" },
      billingAddress: {
        firstname: "Mette",
        lastname: "Hansen",
        address: "Vesterbrogade 1",
        city: "København V",
        postalCode: "1620",
        country: "DK",
      },
      shippingAddress: {
        firstname: "Mette",
        lastname: "Hansen",
        address: "Nørregade 7",
        city: "Aarhus C",
        postalCode: "8000",
        country: "DK",
      },
      registeredAddress: undefined,
    })
  })

  it("reads the captured and the refunded reconciliation identifiers", () => {
    expect(transaction.reconciliationIdentifiers).toEqual([
      {
        id: "0b47d69c-5007-47d3-a5d6-c52e1f528968",
        amount: { decimal: "125.50", minor: 12550, currency: "DKK" },
        type: "captured",
        date: new Date("2024-03-12T07:20:11Z"),
      },
      {
        id: "refund_01J8Z9ABCDEF",
        amount: { decimal: "50.00", minor: 5000, currency: "DKK" },
        type: "refunded",
        date: new Date("2024-03-14T09:46:21Z"),
      },
    ])
  })

  it("keeps elements it does not model in extra, as parsed", () => {
    expect(transaction.extra).toMatchObject({
      CVVCheckResult: "Matched",
      CreditedAmount: "0.00",
      ChargebackEvents: "",
    })
    expect(transaction.extra).not.toHaveProperty("TransactionId")
    // FraudRecommendation is read into its own field (AltaPay's schema names it), not kept in extra.
    expect(transaction.fraudRecommendation).toBe("Accept")
    expect(transaction.extra).not.toHaveProperty("FraudRecommendation")
    // PaymentSchemeName is read into its own field (an agreement's card scheme), not kept in extra.
    expect(transaction.paymentSchemeName).toBe("Visa")
    expect(transaction.extra).not.toHaveProperty("PaymentSchemeName")
    // The surcharge, the authorisation's expiry and the AVS result (sdk-java APIResponse.xsd) each have their field.
    expect(transaction.surchargeAmount).toEqual({ decimal: "0.00", minor: 0, currency: "DKK" })
    expect(transaction.authorisationExpiryDate).toEqual(new Date("2024-03-19T08:15:02Z"))
    expect([transaction.addressVerification, transaction.addressVerificationDescription]).toEqual([
      "P",
      "Postal codes match for international transaction. Street address not verified due to incompatible formats",
    ])
    for (const name of ["SurchargeAmount", "AuthorisationExpiryDate", "AddressVerification", "AddressVerificationDescription"]) expect(transaction.extra).not.toHaveProperty(name)
    expect(response.body).toHaveProperty("RefundAmount", "50.00")
  })
})

describe("payments lookups", () => {
  it("picks the transaction created last, wherever it is in the document", () => {
    const response = parseGatewayResponse(fixture("payments-three-transactions.xml"))
    expect(response.transactions.map((t) => t.transactionId)).toEqual(["1001", "1003", "1002"])
    const latest = latestTransaction(response.transactions)
    expect(latest?.transactionId).toBe("1003")
    expect(latest?.capturedAmount).toEqual({ decimal: "49.95", minor: 4995, currency: "EUR" })
    expect(latest?.paymentInfos).toEqual([{ name: "medusa_payment_session_id", value: "payses_42" }])
    expect(latest?.reconciliationIdentifiers).toHaveLength(1)
  })

  it("reads a single Transaction node as a list of one", () => {
    const response = parseGatewayResponse(fixture("payments-single-transaction.xml"))
    expect(response.transactions).toHaveLength(1)
    const [transaction] = response.transactions as [GatewayTransaction]
    expect(transaction.transactionId).toBe("2001")
    expect(transaction.reservedAmount).toEqual({ decimal: "399.00", minor: 39900, currency: "SEK" })
    expect(transaction.capturedAmount).toEqual({ decimal: "0.00", minor: 0, currency: "SEK" })
    expect(transaction.paymentInfos).toEqual([{ name: "medusa_payment_session_id", value: "payses_43" }])
    expect(transaction.reconciliationIdentifiers).toEqual([])
    expect(response.header.date).toEqual(new Date("2024-03-14T12:00:00Z"))
    expect(response.header.errorMessage).toBe("")
  })

  it("reads booleans written as TRUE, 1, 0 and False", () => {
    const [transaction] = parseGatewayResponse(fixture("payments-single-transaction.xml")).transactions
    expect(transaction?.paymentNatureService).toEqual({
      name: "TestAcquirer",
      supportsRefunds: true,
      supportsRelease: true,
      supportsMultipleCaptures: false,
      supportsMultipleRefunds: false,
    })
  })

  it("on equal CreatedDate takes the later node, and a dated node over an undated one", () => {
    const at = (id: string, created?: string): GatewayTransaction => ({
      transactionId: id,
      createdDate: created === undefined ? undefined : new Date(created),
      paymentInfos: [],
      reconciliationIdentifiers: [],
      extra: {},
    })
    expect(latestTransaction([at("a", "2024-01-01T00:00:00Z"), at("b", "2024-01-01T00:00:00Z")])?.transactionId).toBe("b")
    expect(latestTransaction([at("a", "2024-01-01T00:00:00Z"), at("b")])?.transactionId).toBe("a")
    expect(latestTransaction([at("a"), at("b")])?.transactionId).toBe("b")
    expect(latestTransaction([])).toBeUndefined()
  })
})

describe("declined and failed answers are returned, not thrown", () => {
  it("reads a Fail refund with the merchant and card holder messages", () => {
    const response = parseGatewayResponse(fixture("refund-fail.xml"))
    expect(response.result).toBe("Fail")
    expect(response.refundResult).toBe("Fail")
    expect(isFailedResult(response.result)).toBe(true)
    expect(response.merchantErrorMessage).toBe("TestAcquirer[pan=1111 or amount=966]")
    expect(response.cardHolderErrorMessage).toBe("Card Declined")
    expect(response.refundAmount).toEqual({ decimal: "9.66", minor: 966, currency: "DKK" })
    expect(response.body).toHaveProperty("CardHolderMessageMustBeShown", "false")
    expect(response.transactions[0]?.refundedAmount?.minor).toBe(0)
  })

  it("reads an Error result", () => {
    const response = parseGatewayResponse(fixture("refund-error.xml"))
    expect(response.result).toBe("Error")
    expect(isFailedResult(response.result)).toBe(true)
    expect(response.merchantErrorMessage).toMatch(/Communication error/)
    expect(response.refundAmount?.minor).toBe(967)
    expect(response.transactions[0]?.paymentInfos).toEqual([])
  })

  it("reads a non-zero ErrorCode and its message, with an empty Body", () => {
    const response = parseGatewayResponse(fixture("header-error.xml"))
    expect(response.header.errorCode).toBe(5)
    expect(response.header.errorMessage).toBe("Could not find transaction with id: ffff0000")
    expect(response.result).toBeUndefined()
    expect(response.transactions).toEqual([])
    expect(response.body).toEqual({})
  })
})

describe("what real gateway XML looks like", () => {
  it("trims CDATA padded with newlines and reads <Transactions/> as no transactions", () => {
    const response = parseGatewayResponse(fixture("refund-open-cdata.xml"))
    expect(response.header).toEqual({
      date: new Date("2024-03-14T09:53:00Z"),
      path: "API/refundCapturedReservation",
      errorCode: 0,
      errorMessage: "",
    })
    expect(response.result).toBe("Open")
    expect(isOpenResult(response.result)).toBe(true)
    expect(response.merchantErrorMessage).toBe("The refund is being processed by the acquirer")
    expect(response.cardHolderErrorMessage).toBeUndefined()
    expect(response.transactions).toEqual([])
    // No transaction to name the currency: RefundCurrency does.
    expect(response.refundAmount).toEqual({ decimal: "20.00", minor: 2000, currency: "DKK" })
  })

  it('reads "10", "10.5" and "9.66" exactly', () => {
    const [transaction] = parseGatewayResponse(fixture("payments-amount-formats.xml")).transactions
    expect(transaction?.reservedAmount).toEqual({ decimal: "10.00", minor: 1000, currency: "DKK" })
    expect(transaction?.capturedAmount).toEqual({ decimal: "10.50", minor: 1050, currency: "DKK" })
    expect(transaction?.refundedAmount).toEqual({ decimal: "9.66", minor: 966, currency: "DKK" })
    expect(transaction?.recurringDefaultAmount).toEqual({ decimal: "0.00", minor: 0, currency: "DKK" })
  })

  it("reads JPY amounts (numeric code 392 only) with no minor digits", () => {
    const [transaction] = parseGatewayResponse(fixture("payments-jpy.xml")).transactions
    expect(transaction?.merchantCurrency).toBe("392")
    expect(transaction?.merchantCurrencyAlpha).toBeUndefined()
    expect(transaction?.reservedAmount).toEqual({ decimal: "1500", minor: 1500, currency: "JPY" })
    expect(transaction?.capturedAmount).toEqual({ decimal: "1500", minor: 1500, currency: "JPY" })
    expect(transaction?.reconciliationIdentifiers[0]?.amount).toEqual({ decimal: "1500", minor: 1500, currency: "JPY" })
  })

  it("reads KWD amounts with three minor digits", () => {
    const [transaction] = parseGatewayResponse(fixture("payments-kwd.xml")).transactions
    expect(transaction?.reservedAmount).toEqual({ decimal: "12.345", minor: 12345, currency: "KWD" })
    expect(transaction?.capturedAmount).toEqual({ decimal: "0.000", minor: 0, currency: "KWD" })
    expect(transaction?.refundedAmount).toEqual({ decimal: "0.500", minor: 500, currency: "KWD" })
  })

  it("accepts another version, keeps unknown elements, and reads RefundedAmount", () => {
    const response = parseGatewayResponse(fixture("refund-new-version-unknown-elements.xml"))
    expect(response.version).toBe("20230601")
    expect(response.refundAmount).toBeUndefined()
    expect(response.refundedAmount).toEqual({ decimal: "12.50", minor: 1250, currency: "EUR" })
    expect(response.body).toMatchObject({
      ProcessingTimeMs: "182",
      Settlement: { "@_batch": "B-7", Expected: "2024-03-16" },
    })
    const [transaction] = response.transactions
    expect(transaction?.extra).toEqual({
      WalletProvider: "ApplePay",
      Surcharge: { "#text": "0.00", "@_currency": "978" },
      "ext:RiskFlags": { Flag: ["velocity", "geo"] },
    })
  })

  it("reads a capture's amount and result", () => {
    const response = parseGatewayResponse(fixture("capture-success.xml"))
    expect(response.captureResult).toBe("Success")
    expect(response.captureCurrency).toBe("208")
    expect(response.captureAmount).toEqual({ decimal: "125.50", minor: 12550, currency: "DKK" })
    expect(isSuccessResult(response.result)).toBe(true)
  })

  it("tolerates a byte order mark and a missing XML declaration", () => {
    const text = fixture("payments-single-transaction.xml")
    expect(text.startsWith("<APIResponse")).toBe(true)
    expect(parseGatewayResponse(`\uFEFF${text}`).transactions[0]?.transactionId).toBe("2001")
    expect(parseGatewayResponse(`\uFEFF${fixture("refund-success.xml")}`).result).toBe("Success")
  })

  it("decodes entities and numeric character references", () => {
    const response = parseGatewayResponse(envelope("<Result>Fail</Result><MerchantErrorMessage>amount &gt; captured &amp; &#248;re &#x2013; &quot;x&quot;</MerchantErrorMessage>"))
    expect(response.merchantErrorMessage).toBe('amount > captured & øre – "x"')
  })

  it("keeps leading zeros in identifiers and currencies (no number parsing)", () => {
    const [transaction] = parseGatewayResponse(
      oneTransaction("<ShopOrderId>000000081</ShopOrderId><MerchantCurrency>036</MerchantCurrency><CapturedAmount>1.10</CapturedAmount>")
    ).transactions
    expect(transaction?.shopOrderId).toBe("000000081")
    expect(transaction?.merchantCurrency).toBe("036")
    expect(transaction?.capturedAmount).toEqual({ decimal: "1.10", minor: 110, currency: "AUD" })
  })

  it('falls back to two decimals and currency "" when the currency is missing or unknown', () => {
    const [missing] = parseGatewayResponse(oneTransaction("<CapturedAmount>10.5</CapturedAmount>")).transactions
    expect(missing?.capturedAmount).toEqual({ decimal: "10.50", minor: 1050, currency: "" })
    const [unknown] = parseGatewayResponse(oneTransaction("<MerchantCurrency>999</MerchantCurrency><CapturedAmount>7</CapturedAmount>")).transactions
    expect(unknown?.capturedAmount).toEqual({ decimal: "7.00", minor: 700, currency: "" })
    const [alphaOnly] = parseGatewayResponse(
      oneTransaction("<MerchantCurrency>nonsense</MerchantCurrency><MerchantCurrencyAlpha>NOK</MerchantCurrencyAlpha><CapturedAmount>7</CapturedAmount>")
    ).transactions
    expect(alphaOnly?.capturedAmount).toEqual({ decimal: "7.00", minor: 700, currency: "NOK" })
  })

  it("reads an unparseable date as undefined instead of failing", () => {
    const [transaction] = parseGatewayResponse(oneTransaction("<CreatedDate>yesterday</CreatedDate><UpdatedDate>2024-02-30 10:00:00</UpdatedDate>")).transactions
    expect(transaction?.createdDate).toBeUndefined()
    expect(transaction?.updatedDate).toBeUndefined()
    const response = parseGatewayResponse(envelope("", "<Date>2024-13-01T00:00:00+01:00</Date><ErrorCode>0</ErrorCode>"))
    expect(response.header.date).toBeUndefined()
    expect(response.header.errorMessage).toBe("")
  })

  it("reads a negative offset and fractional seconds in ISO dates", () => {
    const response = parseGatewayResponse(envelope("", "<Date>2024-03-14T05:46:21.250-05:00</Date><ErrorCode>0</ErrorCode>"))
    expect(response.header.date).toEqual(new Date("2024-03-14T10:46:21.250Z"))
  })

  it("reads a boolean it does not recognise as undefined", () => {
    const [transaction] = parseGatewayResponse(
      oneTransaction('<PaymentNatureService name="X"><SupportsRefunds>maybe</SupportsRefunds><SupportsRelease/></PaymentNatureService>')
    ).transactions
    expect(transaction?.paymentNatureService).toEqual({
      name: "X",
      supportsRefunds: undefined,
      supportsRelease: undefined,
      supportsMultipleCaptures: undefined,
      supportsMultipleRefunds: undefined,
    })
  })

  it("reads a single ReconciliationIdentifier as a list of one", () => {
    const [transaction] = parseGatewayResponse(fixture("refund-fail.xml")).transactions
    expect(transaction?.reconciliationIdentifiers).toEqual([
      {
        id: "capt_44",
        amount: { decimal: "9.66", minor: 966, currency: "DKK" },
        type: "captured",
        date: new Date("2024-03-14T09:45:00Z"),
      },
    ])
  })
})

describe("bodies that are not a gateway response", () => {
  it("rejects an HTML error page, with a whitespace-collapsed snippet of it", () => {
    const html = `<!DOCTYPE html>\n<html>\n  <head><title>502 Bad Gateway</title></head>\n  <body><center><h1>502 Bad Gateway</h1></center><hr><center>nginx</center></body>\n</html>\n`
    const error = badResponse(html)
    expect(error.code).toBe("bad_response")
    expect(error.message).toMatch(/HTML page/)
    expect(error.bodySnippet).toBe(html.replace(/\s+/g, " ").trim().slice(0, 200))
    expect(error.bodySnippet).not.toMatch(/\n/)
  })

  it("rejects a well-formed HTML page that is not an APIResponse", () => {
    expect(badResponse("<html><body><p>Service Unavailable</p></body></html>").message).toMatch(/HTML page/)
  })

  it("limits the snippet to 200 characters", () => {
    const error = badResponse(`<html><body>${"x ".repeat(500)}</body>`)
    expect(error.bodySnippet).toHaveLength(200)
  })

  it.each([
    ["an empty body", ""],
    ["whitespace", " \n\t "],
    ["JSON", '{"error":"Unauthorized","status":401}'],
    ["plain text", "Service Unavailable"],
    ["another XML root", "<Error><Message>nope</Message></Error>"],
    ["a response without Header", '<APIResponse version="20170228"><Body><Result>Success</Result></Body></APIResponse>'],
    ["an empty Header", "<APIResponse><Header/><Body/></APIResponse>"],
    ["a Header without ErrorCode", "<APIResponse><Header><ErrorMessage/></Header><Body/></APIResponse>"],
    ["a non-integer ErrorCode", envelope("", "<ErrorCode>zero</ErrorCode>")],
    ["a decimal ErrorCode", envelope("", "<ErrorCode>1.5</ErrorCode>")],
    ["two Headers", "<APIResponse><Header><ErrorCode>0</ErrorCode></Header><Header><ErrorCode>0</ErrorCode></Header></APIResponse>"],
    ["a Transaction without TransactionId", envelope("<Transactions><Transaction><PaymentId>x</PaymentId></Transaction></Transactions>")],
    ["an empty Transaction", envelope("<Transactions><Transaction/></Transactions>")],
    ["an empty TransactionId", envelope("<Transactions><Transaction><TransactionId> </TransactionId></Transaction></Transactions>")],
    ["an amount that is not a number", oneTransaction("<CapturedAmount>12,50</CapturedAmount>")],
    ["an amount in exponent notation", oneTransaction("<MerchantCurrency>208</MerchantCurrency><CapturedAmount>1e3</CapturedAmount>")],
    ["more decimals than the currency has", oneTransaction("<MerchantCurrency>208</MerchantCurrency><CapturedAmount>9.665</CapturedAmount>")],
    ["decimals on a JPY amount", oneTransaction("<MerchantCurrency>392</MerchantCurrency><CapturedAmount>1500.5</CapturedAmount>")],
    ["an absurdly large amount", oneTransaction("<CapturedAmount>99999999999999999999.00</CapturedAmount>")],
    ["a bad RefundAmount", envelope("<RefundAmount>ten</RefundAmount><RefundCurrency>208</RefundCurrency>")],
    ["a dangerous element name", envelope("<__proto__><x>1</x></__proto__>")],
  ])("rejects %s", (_case, body) => {
    expect(badResponse(body).code).toBe("bad_response")
  })

  it("names the offending field", () => {
    expect(badResponse(envelope("", "<ErrorCode>zero</ErrorCode>")).message).toMatch(/ErrorCode is not an integer/)
    expect(badResponse(envelope("<Transactions><Transaction><TransactionId>1</TransactionId></Transaction><Transaction/></Transactions>")).message).toMatch(/Transaction 2/)
    expect(badResponse(oneTransaction("<CapturedAmount>12,50</CapturedAmount>")).message).toMatch(/Transaction 1\.CapturedAmount "12,50"/)
  })

  it("carries the caller's operation and mayHaveReachedAltaPay", () => {
    try {
      parseGatewayResponse("<html>", { operation: "POST /merchant/API/refundCapturedReservation", mayHaveReachedAltaPay: true, status: 200 })
      throw new Error("expected a bad response")
    } catch (error) {
      expect(error).toBeInstanceOf(AltaPayBadResponseError)
      expect(error).toMatchObject({
        operation: "POST /merchant/API/refundCapturedReservation",
        mayHaveReachedAltaPay: true,
        status: 200,
      })
    }
  })

  it("rejects a non-string body (a caller handing over an object) as a bad response", () => {
    expect(badResponse(undefined as unknown as string).code).toBe("bad_response")
  })

  it.each(["refund-success.xml", "payments-three-transactions.xml", "refund-open-cdata.xml"])("rejects %s cut anywhere before its closing tag", (name) => {
    const text = fixture(name)
    const end = text.lastIndexOf(">")
    for (let cut = 0; cut < end; cut += 1) {
      try {
        parseGatewayResponse(text.slice(0, cut))
      } catch (error) {
        if (error instanceof AltaPayBadResponseError) continue
        throw new Error(`cut at ${cut} threw ${String(error)}`)
      }
      throw new Error(`cut at ${cut} parsed`)
    }
  })
})

describe("result and status helpers", () => {
  it("classifies results case-insensitively", () => {
    expect(isSuccessResult("Success")).toBe(true)
    expect(isSuccessResult(" success ")).toBe(true)
    expect(isSuccessResult("PartialSuccess")).toBe(false)
    expect(isSuccessResult(undefined)).toBe(false)
    expect(isOpenResult("OPEN")).toBe(true)
    for (const failed of ["Fail", "Failed", "Error", "Cancelled", "Incomplete", "error"]) {
      expect(isFailedResult(failed)).toBe(true)
    }
    for (const other of ["Success", "Open", "PartialSuccess", "", undefined]) {
      expect(isFailedResult(other)).toBe(false)
    }
  })

  it("groups transaction statuses", () => {
    expect(AUTHORIZED_STATUSES).toEqual(["preauth", "invoice_initialized", "recurring_confirmed"])
    expect(CAPTURED_STATUSES).toEqual(["captured", "bank_payment_finalized"])
    expect(DECLINED_STATUSES).toContain("3dsecure_failed")
    expect(statusIn("Captured", TRANSACTION_STATUS.captured)).toBe(true)
    expect(statusIn("refunded", TRANSACTION_STATUS.refunded)).toBe(true)
    expect(statusIn("released", TRANSACTION_STATUS.captured)).toBe(false)
    expect(statusIn(undefined, TRANSACTION_STATUS.released)).toBe(false)
  })

  it("takes the result from RefundResult when Result is absent", () => {
    const response = parseGatewayResponse(envelope("<RefundResult>Open</RefundResult>"))
    expect(resultOf(response)).toBe("Open")
  })
})
