/**
 * Samples copied from AltaPay's public documentation and AltaPay's own clients: short excerpts,
 * each naming where it comes from. Where an excerpt was cut, its closing tags were added and
 * nothing else changed. These are the witness the unit suite holds our serializers and parsers
 * against; nothing here is made up by us (see docs/altapay-wire-facts.md for the facts).
 */

const DOCS = "https://documentation.altapay.com"

export interface Sample<T> {
  source: string
  value: T
}

// --- Checkout API (JSON) -----------------------------------------------------------------------

/** The session body's shape as AltaPay's Android SDK declares it (Kotlin data classes, here as JSON). */
export const androidCreateSessionRequest: Sample<{
  callbacks: { formStyling: string; success: { type: string; value: string }; failure: { type: string; value: string }; redirect: string; notification: string }
  configurationFields: string[]
  amountFields: string[]
}> = {
  source: "AltaPay/android-payment-app altapayCheckout/src/main/java/com/altapay/checkout/model/request/CreateSessionRequest.kt",
  value: {
    // data class Callbacks(formStyling: String?, success: CallbackTarget?, failure: CallbackTarget?,
    //   redirect: String?, notification: String?); data class CallbackTarget(type: String, value: String)
    callbacks: {
      formStyling: "https://shop.example/form",
      success: { type: "URL", value: "https://shop.example/ok" },
      failure: { type: "URL", value: "https://shop.example/fail" },
      redirect: "https://shop.example/redirect",
      notification: "https://shop.example/notify",
    },
    // data class Configuration(paymentType, bodyFormat, autoCapture, paymentDisplayType, country, language)
    configurationFields: ["paymentType", "bodyFormat", "autoCapture", "paymentDisplayType", "country", "language"],
    // data class Amount(value: Double, currency: String)
    amountFields: ["value", "currency"],
  },
}

/** Order and Customer Details page: the Amount example. */
export const orderDetailsAmount: Sample<{ value: number; currency: string }> = {
  source: `${DOCS}/v2/Checkout-API/OrderDetails/ (Amount: "Expects number with 2 decimal places", example 2049.99, DKK)`,
  value: { value: 2049.99, currency: "DKK" },
}

/** Create Payment Link page: the request body of its curl example (minutes) and the answer's fields. */
export const createPaymentLinkRequest: Sample<{ url: string; size: number; validityTime: number; activationTime: number }> = {
  source: `${DOCS}/v2/Checkout-API/CreatePaymentLink/ (curl example)`,
  value: { url: "https://www.example.com/link", size: 450, validityTime: 1440, activationTime: 10 },
}

export const createPaymentLinkResponse: Sample<Record<string, string>> = {
  source: `${DOCS}/v2/Checkout-API/CreatePaymentLink/ ("Response will contain id, paymentLink and qrCode fields")`,
  value: { id: "<payment_link_id>", paymentLink: "<URL_to_payment_page>", qrCode: "<base64_encoded_qr_code>" },
}

/** Authentication page: the answer of POST /checkout/v1/api/authenticate (token shortened to its claims part). */
export const authenticateResponse: Sample<{ token: string }> = {
  source: `${DOCS}/v2/Checkout-API/Authentication/`,
  value: {
    token:
      "eyJ0eXAiOiJKV1QiLCJhbGciOiJSUzI1NiJ9.eyJpc3MiOiJBbHRhUGF5IElzc3VlciIsInVwbiI6ImNoZWNrb3V0X2FwaSIsImdyb3VwcyI6WyJTZXNzaW9uVXBkYXRlIiwiRXhlY3V0ZVBheW1lbnQiLCJMaXN0UGF5bWVudE1ldGhvZHMiXSwiYXV0aElkIjoiZjE5YjkxZDctZDVmZS00NzFlLTkwM2EtM2JiYTk0Y2FhYzQ4IiwiaWF0IjoxNjcwOTQyMzk5LCJleHAiOjE2NzA5NDQxOTksImp0aSI6IjVhY2ZjNTgwLWQ2NjAtNDFmMS05NTJmLTBkY2ZjODRiZWM5OCJ9.XUq8AvEEEeURB-tUF2sIzUj7RdirjWJWC1NvGJsyucI0AteOxyWqnJ4zJzTe0BM61vm9Fuu6czsPhh2OqhMdolYmnDsMBDQgoIDhasr5-TukKkIWUJWIfZXsbjJHd8o8-cT70lciDO4pZhp3a16kG-mn6gtY_",
  },
}

/** The create-payment answer's fields as AltaPay's Android SDK declares them. */
export const androidCreatePaymentResponseFields: Sample<string[]> = {
  source: "AltaPay/android-payment-app altapayCheckout/src/main/java/com/altapay/checkout/model/response/CreatePaymentResponse.kt",
  value: ["paymentId", "shopOrderId", "status", "type", "url"],
}

/** A payment method as AltaPay's Android SDK declares it. */
export const androidPaymentMethodFields: Sample<string[]> = {
  source: "AltaPay/android-payment-app altapayCheckout/src/main/java/com/altapay/checkout/model/response/PaymentMethod.kt",
  value: ["id", "type", "description", "logoUrl", "display", "onInitiatePayment", "metadata", "name"],
}

// --- Merchant API (forms and XML) ---------------------------------------------------------------

/** The form fields AltaPay's PHP SDK sends (AltapayMerchantAPI::captureReservation / ::refundCapturedReservation). */
export const sdkPhpGatewayFields: Sample<{ captureReservation: string[]; refundCapturedReservation: string[]; releaseReservation: string[] }> = {
  source: "AltaPay/sdk-php lib/AltapayMerchantAPI.class.php (captureReservation, refundCapturedReservation, releaseReservation)",
  value: {
    captureReservation: ["transaction_id", "amount", "orderLines", "sales_tax", "reconciliation_identifier", "invoice_number"],
    refundCapturedReservation: ["transaction_id", "amount", "orderLines", "reconciliation_identifier", "allow_over_refund", "invoice_number"],
    releaseReservation: ["transaction_id"],
  },
}

/** releaseReservation page: "Example XML response" (excerpt: the first transaction fields). */
export const releaseReservationXml: Sample<string> = {
  source: `${DOCS}/Content/Ecom/API/API%20Methods/releaseReservation.htm`,
  value: `<?xml version="1.0" encoding="utf-8" ?> <APIResponse version="20170228"> <Header> <Date>2020-09-29T12:34:56+02:00</Date> <Path>API/releaseReservation</Path> <ErrorCode>0</ErrorCode> <ErrorMessage></ErrorMessage> </Header> <Body> <Result>Success</Result> <CancelResult>Success</CancelResult> <!-- deprecated --> <Transactions> <Transaction> <TransactionId>1</TransactionId> <PaymentId>ccc1479c-37f9-4962-8d2c-662d75117e9d</PaymentId> <AuthType>payment</AuthType> <CardStatus>Valid</CardStatus> </Transaction> </Transactions> </Body> </APIResponse>`,
}

/** updateOrder/{id}/reconciliationIdentifier page: the whole XML response. */
export const updateOrderXml: Sample<string> = {
  source: `${DOCS}/Content/Ecom/API/API%20Methods/updateOrder/reconciliationIdentifier.htm`,
  value: `<?xml version="1.0" encoding="utf-8" ?> <APIResponse version="20170228"> <Header> <Date>2024-04-17T14:25:16+00:00</Date> <Path>API/updateOrder/4187a57a-5377-47b3-bcff-9ac21e551910/reconciliationIdentifier</Path> <ErrorCode>0</ErrorCode> <ErrorMessage/> </Header> <Body> <Result>Success</Result> </Body> </APIResponse>`,
}

/** checkoutSession page: the response's header, from a newer API version (excerpt, Body cut). */
export const checkoutSessionXmlHeader: Sample<string> = {
  source: `${DOCS}/Content/Ecom/API/API%20Methods/checkoutSession.htm`,
  value: `<?xml version="1.0"?>
<APIResponse version="20251231">
<Header>
<Date>2026-01-05T09:25:19+00:00</Date>
<Path>API/checkoutSession</Path>
<ErrorCode>0</ErrorCode>
<ErrorMessage/>
</Header>
<Body>
</Body>
</APIResponse>`,
}

/** A reservation captured in one go, as AltaPay posts it in the callback's `xml` field (excerpt). */
export const sdkPhpCapturedCallbackXml: Sample<string> = {
  source: "AltaPay/sdk-php example/xml/CallbackXML_reservationAndCapture.xml",
  value: `<?xml version="1.0"?>
<APIResponse version="20170228">
    <Header>
        <Date>2017-10-02T10:46:21+02:00</Date>
        <Path>API/reservationOfFixedAmount</Path>
        <ErrorCode>0</ErrorCode>
        <ErrorMessage/>
    </Header>
    <Body>
        <Result>Success</Result>
        <Transactions>
            <Transaction>
                <TransactionId>299</TransactionId>
                <PaymentId>55aaaf42-1d1d-4b9d-9a68-2c677e2e454f</PaymentId>
                <AuthType>paymentAndCapture</AuthType>
                <ShopOrderId>000000081</ShopOrderId>
                <Shop>AltaPay Shop Integration</Shop>
                <Terminal>AltaPay Soap Test Terminal</Terminal>
                <TransactionStatus>captured</TransactionStatus>
                <ReasonCode>NONE</ReasonCode>
                <MerchantCurrency>208</MerchantCurrency>
                <MerchantCurrencyAlpha>DKK</MerchantCurrencyAlpha>
                <CardHolderCurrency>208</CardHolderCurrency>
                <CardHolderCurrencyAlpha>DKK</CardHolderCurrencyAlpha>
                <ReservedAmount>139.00</ReservedAmount>
                <CapturedAmount>139.00</CapturedAmount>
                <RefundedAmount>0.00</RefundedAmount>
                <CreditedAmount>0.00</CreditedAmount>
                <RecurringDefaultAmount>0.00</RecurringDefaultAmount>
                <SurchargeAmount>0.00</SurchargeAmount>
                <CreatedDate>2017-10-02 10:46:21</CreatedDate>
                <UpdatedDate>2017-10-02 10:46:21</UpdatedDate>
                <PaymentNature>CreditCard</PaymentNature>
                <PaymentNatureService name="SoapTestAcquirer">
                    <SupportsRefunds>true</SupportsRefunds>
                    <SupportsRelease>true</SupportsRelease>
                    <SupportsMultipleCaptures>true</SupportsMultipleCaptures>
                    <SupportsMultipleRefunds>true</SupportsMultipleRefunds>
                </PaymentNatureService>
                <FraudRiskScore>38</FraudRiskScore>
                <ChargebackEvents/>
                <PaymentInfos/>
            </Transaction>
        </Transactions>
    </Body>
</APIResponse>`,
}

/** An error result with both messages, as AltaPay's PHP SDK ships it (the whole file). */
export const sdkPhpErrorXml: Sample<string> = {
  source: "AltaPay/sdk-php example/xml/CallbackXML_MobilePayError.xml",
  value: `<?xml version="1.0"?>
<APIResponse version="20170228">
    <Header>
        <Date>2018-02-20T14:00:03+01:00</Date>
        <Path>API/creditCardWalletInitialize</Path>
        <ErrorCode>0</ErrorCode>
        <ErrorMessage/>
    </Header>
    <Body>
        <Result>Error</Result>
        <MerchantErrorMessage>Unable to register MobilePay payment</MerchantErrorMessage>
        <CardHolderErrorMessage>Unable to register MobilePay payment</CardHolderErrorMessage>
    </Body>
</APIResponse>`,
}

// --- Callbacks ----------------------------------------------------------------------------------

/** How AltaPay's own headless integration checks a callback (parseSignatureHeader / validateSignature). */
export const webhookSignature: Sample<{ headerFormat: string; signedPayload: (rawBody: string, t: string) => string; separator: string }> = {
  source: "AltaPay/salesforce-headless-commerce-pwa packages/marketpay-salesforce-pwa/lib/api/middleware/webhook.js",
  value: {
    // "Expected format: `t=<timestamp>;s0=<hexHmac>;s1=<hexHmac>...`"
    headerFormat: "t=<timestamp>;s0=<hexHmac>;s1=<hexHmac>",
    // const payload = `${req.rawBody}.${timestamp}`; createHmac('sha256', secret).update(payload, 'utf8').digest('hex')
    signedPayload: (rawBody, t) => `${rawBody}.${t}`,
    separator: ";",
  },
}

/** Callback status values and what AltaPay's Magento plugin does with them (handleNotification). */
export const magentoNotificationStatuses: Sample<{ cancelled: string[]; failed: string[]; succeeded: string[] }> = {
  source: "AltaPay/plugin-magento2-community Controller/Index/Notification.php",
  value: {
    cancelled: ["cancelled"],
    failed: ["error", "failed", "incomplete", "declined"],
    succeeded: ["succeeded", "success"],
  },
}

/** The callback form's documented fields (callback_form / callback_ok pages), with their types. */
export const callbackFormFields: Sample<{ shop_orderid: string; amount: string; currencyNumeric: string; currencyAlpha: string }> = {
  source: `values from AltaPay/sdk-php example/xml/CallbackXML_reservationAndCapture.xml; types from ${DOCS}/Content/Ecom/Payment%20Pages/ (shop_orderid [a-zA-Z0-9-]{1,100}; amount: dot decimal separator, max 2 decimals; currency: ISO-4217, 3-digit numeric or 3-letter code)`,
  value: { shop_orderid: "000000081", amount: "139.00", currencyNumeric: "208", currencyAlpha: "DKK" },
}

// --- Chargebacks (issue 30) ---------------------------------------------------------------------

/**
 * The Chargebacks page's `ChargebackEvents` example (the callback's status is ChargebackEvent).
 * AltaPay's page shows the element on its own; AltaPay/api-php reads it inside each
 * `Transactions/Transaction` (src/Response/Embeds/Transaction.php: 'ChargebackEvents' => array of
 * 'ChargebackEvent'), and every one of its fixtures (tests/Api/Results/*.xml) has an empty
 * `<ChargebackEvents/>` there. No filled example of the whole notification is published.
 */
export const chargebackEventsXml: Sample<string> = {
  source: `${DOCS}/Content/Ecom/Scenarios/Chargebacks.htm ("Callback notification"); placement: AltaPay/api-php src/Response/Embeds/Transaction.php`,
  value: `<ChargebackEvents>
  <ChargebackEvent>
    <Date>2020-12-06T00:00:00+01:00</Date>
    <Type>Copy Request</Type>
    <ReasonCode>4821</ReasonCode>
    <Reason>Cardholder Inquiry - Does Not Recognize Transaction (Merchant Name, City, State or Date)</Reason>
    <Amount>50.84</Amount>
    <Currency>EUR</Currency>
    <AcquirerTransactionId>f9a528a8-a9e5-45a2-be5c-8c420d05846a</AcquirerTransactionId>
  </ChargebackEvent>
</ChargebackEvents>`,
}

/** The notification page: a chargeback notification's `status`. */
export const chargebackStatus: Sample<string> = {
  source: `${DOCS}/Content/Ecom/Payment%20Pages/ Payment Notification (callback_notification): "A chargeback occurs. These will have a status of \\"ChargebackEvent\\""`,
  value: "ChargebackEvent",
}

// --- Agreements (issue 40) ----------------------------------------------------------------------

/** VerifyCard as unscheduled Charges: "Redirect response example" of a reserveSubscriptionCharge (the whole XML). */
export const verifyCardRedirectXml: Sample<string> = {
  source: `${DOCS}/Content/Ecom/Scenarios/VerifyCard%20as%20Unscheduled%20Charges.htm`,
  value: `<?xml version="1.0" encoding="utf-8" ?>
<APIResponse version="20170228">
    <Header>
        <Date>2021-11-16T08:19:10+00:00</Date>
        <Path>API/reserveSubscriptionCharge</Path>
        <ErrorCode>0</ErrorCode>
        <ErrorMessage/>
    </Header>
    <Body>
        <Result>Redirect</Result>
        <RedirectResponse>
          <Url>https://testgateway.altapaysecure.com/eCommerce/API/3ds/737f04f7-2eeb-46c6-b003-a1a623cd2443/input?callback=https%3A%2F%2Ftestgateway.altapaysecure.com%2FeCommerce%2FAPI%2FValidatePaymentAuthenticationCollect3DSDataCallback%2Fdf176859-e715-4104-b101-6841ce14a042</Url>
          <Method>GET</Method>
          <Data/>
        </RedirectResponse>
    </Body>
</APIResponse>`,
}

/**
 * A RedirectResponse whose Data is filled, as AltaPay's schema writes it. The one sample here we
 * composed, because AltaPay publishes no filled example: the example above with its Data given the shape of sdk-java's
 * `src/main/resources/xsd/APIResponse.xsd` (RedirectResponseData: `Item` elements,
 * RedirectResponseDataItem: text with a `key` attribute; sdk-csharp `Generated/APIResponse.cs`
 * RedirectResponseDataItem and api-php `src/Response/Embeds/Item.php` read the same), POST, and
 * the PaReq value and testbank `/ThreeDSecure` Url that sdk-java's
 * `src/integrationTest/java/com/pensio/api/PensioProcessorAPITest.java` asserts
 * (`getRedirectResponseDataItem(result, "PaReq")` is "WorkingPaReq"). A second Item, MD (3-D Secure
 * 1's merchant data beside PaReq; its value a PaymentId of api-php's fixtures), shows a list.
 */
export const redirectWithItemsXml: Sample<string> = {
  source: "sdk-java src/main/resources/xsd/APIResponse.xsd (RedirectResponse, RedirectResponseData, RedirectResponseDataItem); values from sdk-java PensioProcessorAPITest.java",
  value: verifyCardRedirectXml.value
    .replace(/<Url>[^<]*<\/Url>/, "<Url>https://testbank.altapaysecure.com/ThreeDSecure</Url>")
    .replace("<Method>GET</Method>", "<Method>POST</Method>")
    .replace("<Data/>", '<Data><Item key="PaReq">WorkingPaReq</Item><Item key="MD">5387ebc9-f5d9-49f1-8b4d-44746369977a</Item></Data>'),
}

/** Set up an agreement: the setupSubscription example's agreement fields (an unscheduled agreement without unscheduled_type). */
export const setupAgreementExample: Sample<Record<string, string>> = {
  source: `${DOCS}/Content/Ecom/Scenarios/Setup%20Agreement.htm (setupSubscription curl example)`,
  value: { type: "subscription", "agreement[type]": "unscheduled", terminal: "Pensio Terminal", shop_orderid: "abc123", amount: "50", currency: "EUR" },
}

/**
 * Refund a Klarna payment: "Return with refund fee specified example". It refunds 4.60: the item,
 * 10 + 10 % tax = 11.00, less the return fee, a handling line of 5.12 + 25 % tax = 6.40 ("Return fee
 * is deducted from rest of the order lines").
 */
export const klarnaReturnFeeRefund: Sample<Record<string, string>> = {
  source: `${DOCS}/Content/Ecom/Scenarios/Refund%20a%20Klarna%20payment.htm`,
  value: {
    transaction_id: "13",
    amount: "4.60",
    "orderLines[0][goodsType]": "physical",
    "orderLines[0][description]": "test",
    "orderLines[0][quantity]": "1",
    "orderLines[0][taxPercent]": "10",
    "orderLines[0][unitPrice]": "10",
    "orderLines[0][itemId]": "123981231",
    "orderLines[1][goodsType]": "handling",
    "orderLines[1][description]": "cost of return",
    "orderLines[1][quantity]": "1",
    "orderLines[1][itemId]": "901209381",
    "orderLines[1][unitPrice]": "5.12",
    "orderLines[1][taxPercent]": "25",
  },
}
