/** One `Transaction` node of a gateway answer -> GatewayTransaction (cards, customer, reconciliation identifiers). */
import { z } from "zod"
import type {
  Address,
  CardExpiry,
  CardInformation,
  CustomerInfo,
  GatewayAmount,
  GatewayTransaction,
  PaymentInfo,
  PaymentNatureService,
  ReconciliationIdentifier,
} from "./gateway-types"
import { secretTokenOf } from "./agreements/secret-token"
import { amount, attr, bool, describeIssues, isRecord, list, obj, parseDate, resolveCurrency, ShapeError, str, textOf, type Currency, type Raw } from "./xml-readers"

/** Checks the one element every Transaction needs; z.object, not looseObject: the node is kept as read, not copied. */
const transactionSchema = z.object({ TransactionId: z.preprocess(textOf, z.string({ error: "is missing" }).min(1, { error: "is empty" })) }, { error: "is empty" })

export function transactionNodes(body: Raw): Raw[] {
  // <Transactions/> parses as "", and a repeated <Transactions> as a list: accept both.
  const containers = list(body.Transactions)
  const nodes = containers.flatMap((container) => (isRecord(container) ? list(container.Transaction) : []))
  return nodes.map((node, index) => {
    const checked = transactionSchema.safeParse(node)
    if (!checked.success) throw new ShapeError(describeIssues(checked.error, `Transaction ${index + 1}`))
    return node as Raw
  })
}

const TRANSACTION_ELEMENTS = new Set([
  "TransactionId",
  "PaymentId",
  "ShopOrderId",
  "Shop",
  "Terminal",
  "AuthType",
  "TransactionStatus",
  "ReasonCode",
  "CardStatus",
  "ThreeDSecureResult",
  "LiableForChargeback",
  "InvoiceOrderInfo",
  "CreditCardExpiry",
  "CreditCardToken",
  "PaymentSchemeName",
  "CreditCardMaskedPan",
  "BlacklistToken",
  "CardInformation",
  "MerchantCurrency",
  "MerchantCurrencyAlpha",
  "CardHolderCurrency",
  "CardHolderCurrencyAlpha",
  "ReservedAmount",
  "CapturedAmount",
  "RefundedAmount",
  "RecurringDefaultAmount",
  "SurchargeAmount",
  "AuthorisationExpiryDate",
  "CreatedDate",
  "UpdatedDate",
  "PaymentNature",
  "PaymentNatureService",
  "FraudRiskScore",
  "FraudExplanation",
  "FraudRecommendation",
  "AddressVerification",
  "AddressVerificationDescription",
  "PaymentInfos",
  "CustomerInfo",
  "ReconciliationIdentifiers",
])

export function toTransaction(raw: Raw, index: number): GatewayTransaction {
  const where = `Transaction ${index + 1}`
  const merchantCurrency = str(raw.MerchantCurrency)
  const merchantCurrencyAlpha = str(raw.MerchantCurrencyAlpha)
  const currency = resolveCurrency(merchantCurrency, merchantCurrencyAlpha)
  const money = (key: string): GatewayAmount | undefined => amount(raw[key], `${where}.${key}`, currency)
  const extra: Raw = {}
  for (const [key, value] of Object.entries(raw)) if (!TRANSACTION_ELEMENTS.has(key)) extra[key] = value

  return {
    transactionId: textOf(raw.TransactionId) ?? "",
    paymentId: str(raw.PaymentId),
    shopOrderId: str(raw.ShopOrderId),
    shop: str(raw.Shop),
    terminal: str(raw.Terminal),
    authType: str(raw.AuthType),
    transactionStatus: str(raw.TransactionStatus),
    reasonCode: str(raw.ReasonCode),
    cardStatus: str(raw.CardStatus),
    threeDSecureResult: str(raw.ThreeDSecureResult),
    liableForChargeback: str(raw.LiableForChargeback),
    invoiceOrderInfo: str(raw.InvoiceOrderInfo),
    creditCardExpiry: expiry(raw.CreditCardExpiry),
    creditCardToken: secretTokenOf(str(raw.CreditCardToken)),
    creditCardMaskedPan: str(raw.CreditCardMaskedPan),
    blacklistToken: str(raw.BlacklistToken),
    cardInformation: cardInformation(raw.CardInformation),
    merchantCurrency,
    merchantCurrencyAlpha,
    cardHolderCurrency: str(raw.CardHolderCurrency),
    cardHolderCurrencyAlpha: str(raw.CardHolderCurrencyAlpha),
    reservedAmount: money("ReservedAmount"),
    capturedAmount: money("CapturedAmount"),
    refundedAmount: money("RefundedAmount"),
    recurringDefaultAmount: money("RecurringDefaultAmount"),
    surchargeAmount: money("SurchargeAmount"),
    createdDate: parseDate(str(raw.CreatedDate)),
    updatedDate: parseDate(str(raw.UpdatedDate)),
    // api-php's createInvoiceReservation sample repeats PaymentNature (CreditCard, then Invoice);
    // api-php's deserializer sets each child in turn, so the last one wins, here too.
    paymentNature: str(Array.isArray(raw.PaymentNature) ? raw.PaymentNature.at(-1) : raw.PaymentNature),
    paymentSchemeName: str(raw.PaymentSchemeName),
    // "(YYYY-MM-DD hh:mm:ss)?" in sdk-java's APIResponse.xsd: empty reads as unknown.
    authorisationExpiryDate: parseDate(str(raw.AuthorisationExpiryDate)),
    paymentNatureService: paymentNatureService(raw.PaymentNatureService),
    fraudRiskScore: str(raw.FraudRiskScore),
    fraudExplanation: str(raw.FraudExplanation),
    fraudRecommendation: str(raw.FraudRecommendation),
    addressVerification: str(raw.AddressVerification),
    addressVerificationDescription: str(raw.AddressVerificationDescription),
    paymentInfos: paymentInfos(raw.PaymentInfos),
    customerInfo: customerInfo(raw.CustomerInfo),
    reconciliationIdentifiers: reconciliationIdentifiers(raw.ReconciliationIdentifiers, `${where}.`, currency),
    extra,
  }
}

function expiry(node: unknown): CardExpiry | undefined {
  const raw = obj(node)
  return raw && { year: str(raw.Year), month: str(raw.Month) }
}

function cardInformation(node: unknown): CardInformation | undefined {
  const raw = obj(node)
  return (
    raw && {
      isTokenized: bool(raw.IsTokenized),
      token: secretTokenOf(str(raw.Token)),
      maskedPan: str(raw.MaskedPan),
      expiry: expiry(raw.Expiry),
      issuingCountry: str(raw.IssuingCountry),
      lastFourDigits: str(raw.LastFourDigits),
      scheme: str(raw.Scheme),
    }
  )
}

function paymentNatureService(node: unknown): PaymentNatureService | undefined {
  const raw = obj(node)
  if (!raw) return undefined
  return {
    name: attr(raw, "name"),
    supportsRefunds: bool(raw.SupportsRefunds),
    supportsRelease: bool(raw.SupportsRelease),
    supportsMultipleCaptures: bool(raw.SupportsMultipleCaptures),
    supportsMultipleRefunds: bool(raw.SupportsMultipleRefunds),
  }
}

function paymentInfos(node: unknown): PaymentInfo[] {
  const container = obj(node)
  if (!container) return []
  return list(container.PaymentInfo).map((info) => ({ name: attr(info, "name") ?? "", value: textOf(info) ?? "" }))
}

function address(node: unknown): Address | undefined {
  const raw = obj(node)
  return (
    raw && {
      firstname: str(raw.Firstname),
      lastname: str(raw.Lastname),
      address: str(raw.Address),
      city: str(raw.City),
      postalCode: str(raw.PostalCode),
      country: str(raw.Country),
    }
  )
}

function customerInfo(node: unknown): CustomerInfo | undefined {
  const raw = obj(node)
  if (!raw) return undefined
  const origin = obj(raw.CountryOfOrigin)
  return {
    userAgent: str(raw.UserAgent),
    ipAddress: str(raw.IpAddress),
    email: str(raw.Email),
    username: str(raw.Username),
    customerPhone: str(raw.CustomerPhone),
    organisationNumber: str(raw.OrganisationNumber),
    countryOfOrigin: origin && { country: str(origin.Country), source: str(origin.Source) },
    billingAddress: address(raw.BillingAddress),
    shippingAddress: address(raw.ShippingAddress),
    registeredAddress: address(raw.RegisteredAddress),
  }
}

function reconciliationIdentifiers(node: unknown, where: string, fallback: Currency): ReconciliationIdentifier[] {
  const container = obj(node)
  if (!container) return []
  return list(container.ReconciliationIdentifier).flatMap((item, index) => {
    const raw = obj(item)
    if (!raw) return []
    // The Amount carries its own `currency` attribute; the transaction's currency is the fallback.
    const currency = resolveCurrency(attr(raw.Amount, "currency"), fallback.alpha || undefined)
    return [
      {
        id: textOf(raw.Id) ?? "",
        amount: amount(raw.Amount, `${where}ReconciliationIdentifier ${index + 1}.Amount`, currency),
        type: textOf(raw.Type) ?? "",
        date: parseDate(str(raw.Date)),
      },
    ]
  })
}
