/**
 * Typed view of the gateway's XML `APIResponse` (refundCapturedReservation, captureReservation,
 * releaseReservation, payments), as produced by `xml.ts`. Optional text fields are `undefined`
 * when the element is absent or empty.
 */
import type { SecretToken } from "./agreements/secret-token"

/** An exact amount: `minor` is integer minor units of `currency`, `decimal` the same value as text. */
export interface GatewayAmount {
  /** Canonical exact text with the currency's fraction digits, e.g. "9.66", "10.50", "1500" (JPY). */
  decimal: string
  /** Integer minor units of `currency`. */
  minor: number
  /**
   * ISO 4217 alphabetic code, e.g. "DKK". "" when AltaPay named no currency we know; the amount is
   * then read with the two fraction digits the reference states for gateway amounts.
   */
  currency: string
}

export interface ReconciliationIdentifier {
  id: string
  amount?: GatewayAmount
  /** "captured" | "refunded" | other values AltaPay may add. */
  type: string
  date?: Date
}

export interface PaymentNatureService {
  /** The `name` attribute, e.g. the acquirer. */
  name?: string
  supportsRefunds?: boolean
  supportsRelease?: boolean
  supportsMultipleCaptures?: boolean
  supportsMultipleRefunds?: boolean
}

export interface CardExpiry {
  year?: string
  month?: string
}

export interface CardInformation {
  isTokenized?: boolean
  /** Never prints (SecretToken): `reveal()` reads it. */
  token?: SecretToken
  maskedPan?: string
  expiry?: CardExpiry
  issuingCountry?: string
  lastFourDigits?: string
  scheme?: string
}

export interface Address {
  firstname?: string
  lastname?: string
  address?: string
  city?: string
  postalCode?: string
  country?: string
}

export interface CustomerInfo {
  userAgent?: string
  ipAddress?: string
  email?: string
  username?: string
  customerPhone?: string
  organisationNumber?: string
  countryOfOrigin?: { country?: string; source?: string }
  billingAddress?: Address
  shippingAddress?: Address
  registeredAddress?: Address
}

export interface PaymentInfo {
  name: string
  value: string
}

/** One `Body/Transactions/Transaction`: AltaPay's record of a payment after the call. */
export interface GatewayTransaction {
  transactionId: string
  paymentId?: string
  shopOrderId?: string
  shop?: string
  terminal?: string
  authType?: string
  /** See TRANSACTION_STATUSES; kept as sent (AltaPay may add values). */
  transactionStatus?: string
  reasonCode?: string
  cardStatus?: string
  threeDSecureResult?: string
  liableForChargeback?: string
  invoiceOrderInfo?: string
  creditCardExpiry?: CardExpiry
  /** The card token, which never prints (SecretToken): `reveal()` reads it. */
  creditCardToken?: SecretToken
  /** PaymentSchemeName, e.g. Visa (api-php tests/Api/Results/setupsubscription*.xml). */
  paymentSchemeName?: string
  creditCardMaskedPan?: string
  blacklistToken?: string
  cardInformation?: CardInformation
  /** Numeric ISO 4217 code as sent, e.g. "208". */
  merchantCurrency?: string
  merchantCurrencyAlpha?: string
  /** Numeric ISO 4217 code as sent. */
  cardHolderCurrency?: string
  cardHolderCurrencyAlpha?: string
  reservedAmount?: GatewayAmount
  capturedAmount?: GatewayAmount
  refundedAmount?: GatewayAmount
  recurringDefaultAmount?: GatewayAmount
  /**
   * SurchargeAmount: what a terminal with surcharging added to the payment; ReservedAmount includes
   * it (sdk-php AltapayAPIPayment::getInitialAmount is ReservedAmount - SurchargeAmount, "the
   * amount of the good(s) without surcharge"; sdk-java APIResponse.xsd).
   */
  surchargeAmount?: GatewayAmount
  createdDate?: Date
  updatedDate?: Date
  paymentNature?: string
  /**
   * AuthorisationExpiryDate: when the reservation's authorisation lapses, as AltaPay states it
   * (api-php Transaction::$AuthorisationExpiryDate, sdk-java APIResponse.xsd: "YYYY-MM-DD hh:mm:ss", may be empty).
   */
  authorisationExpiryDate?: Date
  paymentNatureService?: PaymentNatureService
  /** Decimal text, exact as sent. */
  fraudRiskScore?: string
  fraudExplanation?: string
  /** The fraud service's recommendation, e.g. Accept, Challenge, Deny (sdk-csharp APIResponse.cs, api-php Transaction::$FraudRecommendation). */
  fraudRecommendation?: string
  /** AddressVerification: the card scheme's one-letter AVS result, e.g. P, S, G (sdk-java APIResponse.xsd; sdk-php CallbackXML_reservationAndCapture.xml). */
  addressVerification?: string
  /** AddressVerificationDescription: AltaPay's text for that code, e.g. "AVS not supported". */
  addressVerificationDescription?: string
  paymentInfos: PaymentInfo[]
  customerInfo?: CustomerInfo
  reconciliationIdentifiers: ReconciliationIdentifier[]
  /** Elements we do not model, kept as parsed (unknown fields are kept, never dropped). */
  extra: Record<string, unknown>
}

export interface GatewayResponseHeader {
  date?: Date
  path?: string
  /** 0 on success. */
  errorCode: number
  /** "" on success. */
  errorMessage: string
}

export interface GatewayResponse {
  /** The root's `version` attribute, e.g. "20170228". */
  version?: string
  header: GatewayResponseHeader
  /** Body/Result: Success, Open, Fail, Failed, Error, Cancelled, Incomplete, PartialSuccess... */
  result?: string
  /** Deprecated Body/RefundResult. */
  refundResult?: string
  captureResult?: string
  /** Deprecated Body/CancelResult of releaseReservation. */
  releaseResult?: string
  /** Body/RefundAmount. */
  refundAmount?: GatewayAmount
  /** Body/RefundedAmount (seen in the wild instead of RefundAmount). */
  refundedAmount?: GatewayAmount
  /** Numeric ISO 4217 code as sent. */
  refundCurrency?: string
  captureAmount?: GatewayAmount
  /** Numeric ISO 4217 code as sent. */
  captureCurrency?: string
  merchantErrorMessage?: string
  cardHolderErrorMessage?: string
  transactions: GatewayTransaction[]
  /** The whole parsed Body, for elements not modelled above. */
  body: Record<string, unknown>
}

/** Body/Result values that end a call unsuccessfully (compared case-insensitively). */
export const FAILED_RESULTS = ["fail", "failed", "error", "cancelled", "incomplete"] as const

/** Every TransactionStatus value known from AltaPay's documentation and integrations. */
export const TRANSACTION_STATUSES = [
  "created",
  "pending",
  "preauth",
  "preauth_error",
  "captured",
  "refunded",
  "released",
  "credited",
  "3dsecure_failed",
  "recurring_confirmed",
  "recurring_failed",
  "invoice_initialized",
  "epayment_cancelled",
  "epayment_declined",
  "bank_payment_finalized",
  /** A capture of a lapsed reservation whose new authorisation failed (AltaPay FAQ: "the capture ultimately fails with the status 'reauth_failed'"). */
  "reauth_failed",
] as const
export type TransactionStatus = (typeof TRANSACTION_STATUSES)[number]

/** Reserved and not yet captured. */
export const AUTHORIZED_STATUSES = ["preauth", "invoice_initialized", "recurring_confirmed"] as const
export const CAPTURED_STATUSES = ["captured", "bank_payment_finalized"] as const
export const DECLINED_STATUSES = ["preauth_error", "3dsecure_failed", "epayment_declined", "epayment_cancelled", "recurring_failed"] as const
export const REFUNDED_STATUSES = ["refunded"] as const
export const RELEASED_STATUSES = ["released"] as const
/** Not final yet: the customer or the acquirer has not finished. */
export const PENDING_STATUSES = ["created", "pending"] as const
/** A payout to the card holder, not a refund of a payment. */
export const CREDITED_STATUSES = ["credited"] as const

export const TRANSACTION_STATUS = {
  authorized: AUTHORIZED_STATUSES,
  captured: CAPTURED_STATUSES,
  declined: DECLINED_STATUSES,
  refunded: REFUNDED_STATUSES,
  released: RELEASED_STATUSES,
  pending: PENDING_STATUSES,
  credited: CREDITED_STATUSES,
} as const
export type TransactionStatusGroup = keyof typeof TRANSACTION_STATUS
