/** The gateway's XML: the APIResponse envelope and the Transaction record, in AltaPay's element order. */
import { createHash } from "node:crypto"
import { minorToDecimal } from "../../altapay/money"
import { gatewayDate, isoWithOffset } from "../clock"
import type { StoredTransaction } from "../state"
import { cdata, cdataEl, el, textEl } from "./xml"
import { fraudRiskScore, TEST_FRAUD_EXPLANATION } from "../reservation-facts"

export const API_VERSION = "20170228"

export function apiResponse(method: string, nowMs: number, body: string[], error?: { code: number; message: string }): string {
  const header = el("Header", [
    textEl("Date", isoWithOffset(nowMs)),
    textEl("Path", `API/${method}`),
    textEl("ErrorCode", error?.code ?? 0),
    error ? cdataEl("ErrorMessage", error.message) : el("ErrorMessage"),
  ])
  return `<?xml version="1.0" encoding="UTF-8"?>\n${el("APIResponse", [header, el("Body", body)], { version: API_VERSION })}`
}

const amount = (t: StoredTransaction, minor: number): string => minorToDecimal(minor, t.currency.alpha)

// Card details are fixed test values; a token is derived from the transaction so it is stable per payment.
const cardToken = (t: StoredTransaction, salt: string): string => createHash("sha1").update(`${salt}:${t.transactionId}`).digest("hex")
const CARD = { maskedPan: "411111******1111", year: "2030", month: "12", country: "DK", lastFour: "1111", scheme: "Visa" }

const str = (value: unknown): string | undefined => (typeof value === "string" || typeof value === "number" ? String(value) : undefined)
const rec = (value: unknown): Record<string, unknown> => (value && typeof value === "object" && !Array.isArray(value) ? (value as Record<string, unknown>) : {})

function addressXml(name: string, customer: Record<string, unknown>, addressValue: unknown): string {
  const address = rec(addressValue)
  if (Object.keys(address).length === 0) return el(name)
  return el(name, [
    cdataEl("Firstname", str(address.firstName) ?? str(customer.firstName)),
    cdataEl("Lastname", str(address.lastName) ?? str(customer.lastName)),
    cdataEl("Address", str(address.street) ?? str(address.address)),
    cdataEl("City", str(address.city)),
    cdataEl("Region", str(address.region)),
    cdataEl("PostalCode", str(address.zipCode) ?? str(address.postalCode)),
    cdataEl("Country", str(address.country)),
  ])
}

function customerXml(customer: Record<string, unknown>): string {
  const billing = rec(customer.billingAddress)
  return el("CustomerInfo", [
    cdataEl("UserAgent", "AltaPay Sandbox Browser"),
    textEl("IpAddress", "127.0.0.1"),
    cdataEl("Email", str(customer.email)),
    cdataEl("Username", str(customer.username)),
    cdataEl("CustomerPhone", str(customer.phone) ?? str(customer.phoneNumber)),
    cdataEl("OrganisationNumber", str(customer.organisationNumber)),
    el("CountryOfOrigin", [textEl("Country", str(billing.country) ?? CARD.country), textEl("Source", "CardNumber")]),
    addressXml("BillingAddress", customer, customer.billingAddress),
    addressXml("ShippingAddress", customer, customer.shippingAddress),
    addressXml("RegisteredAddress", customer, customer.registeredAddress),
  ])
}

/** A card's elements; an invoice payment has no card (api-php's invoicereservation.xml: NoCreditCard, empty token and PAN). */
function cardXml(t: StoredTransaction): string[] {
  if (t.card) return agreementCardXml(t.card)
  if (t.nature === "Invoice") {
    return [textEl("CardStatus", "NoCreditCard"), el("CreditCardToken"), el("CreditCardMaskedPan"), el("BlacklistToken")]
  }
  return [
    textEl("CardStatus", t.status !== "preauth_error" ? "Valid" : "NoCreditCard"),
    el("CreditCardExpiry", [textEl("Year", CARD.year), textEl("Month", CARD.month)]),
    textEl("CreditCardToken", cardToken(t, "card")),
    textEl("CreditCardMaskedPan", CARD.maskedPan),
    textEl("BlacklistToken", cardToken(t, "blacklist")),
    el("CardInformation", [
      textEl("IsTokenized", "false"),
      textEl("Token", cardToken(t, "card")),
      textEl("MaskedPan", CARD.maskedPan),
      el("Expiry", [textEl("Year", CARD.year), textEl("Month", CARD.month)]),
      textEl("IssuingCountry", CARD.country),
      textEl("LastFourDigits", CARD.lastFour),
      textEl("Scheme", CARD.scheme),
    ]),
  ]
}

/** An agreement's card: its own PAN, expiry and token, and PaymentSchemeName (api-php setupsubscription_fail.xml). */
function agreementCardXml(card: NonNullable<StoredTransaction["card"]>): string[] {
  return [
    textEl("CardStatus", "Valid"),
    el("CreditCardExpiry", [textEl("Year", card.year), textEl("Month", card.month)]),
    textEl("CreditCardToken", card.token),
    textEl("CreditCardMaskedPan", card.maskedPan),
    textEl("BlacklistToken", createHash("sha1").update(`blacklist:${card.token}`).digest("hex")),
    textEl("PaymentSchemeName", card.scheme),
    el("CardInformation", [
      textEl("IsTokenized", "false"),
      textEl("Token", card.token),
      textEl("MaskedPan", card.maskedPan),
      el("Expiry", [textEl("Year", card.year), textEl("Month", card.month)]),
      textEl("IssuingCountry", CARD.country),
      textEl("LastFourDigits", card.maskedPan.slice(-4)),
      textEl("Scheme", card.scheme),
    ]),
  ]
}

export function transactionXml(t: StoredTransaction): string {
  return el("Transaction", [
    textEl("TransactionId", t.transactionId),
    textEl("PaymentId", t.paymentId),
    cdataEl("ShopOrderId", t.shopOrderId),
    cdataEl("Shop", t.shop),
    cdataEl("Terminal", t.terminal),
    textEl("AuthType", t.authType),
    textEl("TransactionStatus", t.status),
    textEl("ReasonCode", t.status === "epayment_declined" ? "CARD_DECLINED" : "NONE"),
    ...cardXml(t),
    textEl("ThreeDSecureResult", t.threeDSecureResult ?? "Not_Applicable"),
    textEl("LiableForChargeback", "Merchant"),
    textEl("MerchantCurrency", t.currency.numeric),
    textEl("MerchantCurrencyAlpha", t.currency.alpha),
    textEl("CardHolderCurrency", t.currency.numeric),
    textEl("CardHolderCurrencyAlpha", t.currency.alpha),
    textEl("ReservedAmount", amount(t, t.reservedMinor)),
    textEl("CapturedAmount", amount(t, t.capturedMinor)),
    textEl("RefundedAmount", amount(t, t.refundedMinor)),
    // An agreement's set-up carries the amount charges default to (api-php setupsubscription.xml, reservesubscription.xml).
    textEl("RecurringDefaultAmount", amount(t, t.recurringDefaultMinor ?? 0)),
    // ReservedAmount includes it (sdk-php AltapayAPIPayment::getInitialAmount; sdk-java APIResponse.xsd orders it here).
    textEl("SurchargeAmount", amount(t, t.surchargeMinor ?? 0)),
    textEl("CreatedDate", gatewayDate(t.createdAt)),
    textEl("UpdatedDate", gatewayDate(t.updatedAt)),
    textEl("PaymentNature", t.nature),
    textEl("PaymentSource", "eCommerce"),
    // "YYYY-MM-DD hh:mm:ss", after PaymentSource (sdk-java APIResponse.xsd; api-php Transaction::$AuthorisationExpiryDate).
    ...(t.authorisationExpiresAt !== undefined ? [textEl("AuthorisationExpiryDate", gatewayDate(t.authorisationExpiresAt))] : []),
    el(
      "PaymentNatureService",
      [textEl("SupportsRefunds", "true"), textEl("SupportsRelease", "true"), textEl("SupportsMultipleCaptures", "true"), textEl("SupportsMultipleRefunds", "true")],
      { name: "SoapTestAcquirer" }
    ),
    textEl("FraudRiskScore", fraudRiskScore(t.reservedMinor - (t.surchargeMinor ?? 0), t.currency.exponent)),
    cdataEl("FraudExplanation", TEST_FRAUD_EXPLANATION),
    // After FraudExplanation, as AltaPay's schema orders it (sdk-java APIResponse.xsd, sdk-csharp APIResponse.cs).
    ...(t.fraudRecommendation ? [textEl("FraudRecommendation", t.fraudRecommendation)] : []),
    // AVS after the fraud fields (sdk-php example/xml/CallbackXML_reservationAndCapture.xml, sdk-java APIResponse.xsd).
    ...(t.avs ? [textEl("AddressVerification", t.avs.code), cdataEl("AddressVerificationDescription", t.avs.description)] : []),
    el(
      "PaymentInfos",
      Object.entries(t.paymentInfos).map(([name, value]) => el("PaymentInfo", value ? cdata(value) : "", { name }))
    ),
    customerXml(t.customer),
    el(
      "ReconciliationIdentifiers",
      t.reconciliation.map((r) =>
        el("ReconciliationIdentifier", [
          textEl("Id", r.id),
          textEl("Amount", amount(t, r.amountMinor), { currency: t.currency.numeric }),
          textEl("Type", r.type),
          textEl("Date", isoWithOffset(r.at)),
        ])
      )
    ),
    el("InvoiceOrderInfo"),
  ])
}

export const transactionsXml = (transactions: StoredTransaction[]): string => el("Transactions", transactions.map(transactionXml))

/** The `payments` answer for some transactions; also the `xml` field of a notification callback. */
export const paymentsResponse = (transactions: StoredTransaction[], nowMs: number): string =>
  apiResponse("payments", nowMs, [textEl("Result", "Success"), transactionsXml(transactions)])
