/**
 * The sandbox's in-memory world: checkout sessions, checkout payments, gateway transactions and
 * payment links. Amounts are integer minor units; the JSON/XML views are rendered elsewhere.
 */
import { randomUUID } from "node:crypto"
import type { CurrencyInfo } from "../altapay/money"
import type { SessionBody } from "./checkout/schemas"
import { AgreementBook, type PendingChallenge, type SandboxCard } from "./agreements/agreements"
import { ChallengeBook } from "./challenges"

export type PaymentStatus = "CREATED" | "PENDING" | "AUTHORIZED" | "CAPTURED" | "DECLINED" | "FAILED" | "EXPIRED" | "CANCELLED" | "RELEASED" | "REFUNDED"

export type SessionStatus = "CREATED" | "COMPLETED"

export interface StoredSession {
  sessionId: string
  body: SessionBody
  status: SessionStatus
  amountMinor: number
  currency: CurrencyInfo
  createdAt: number
  updatedAt: number
  paymentIds: string[]
}

/** A transaction's PaymentNature (sdk-csharp's `TransactionPaymentNature` has more; the sandbox has these). */
export type PaymentNature = "CreditCard" | "Wallet" | "Invoice"

export interface PaymentMethod {
  id: string
  /** The checkout API's method type; "INVOICE" is the sandbox's name for it (AltaPay publishes no list). */
  type: "CARD" | "WALLET" | "INVOICE"
  name: string
  terminalName: string
  nature: PaymentNature
  /** The terminal's currencies, as getTerminals lists them (AltaPay's terminals.xml: `Currencies/Currency`). */
  currencies: readonly string[]
}

export interface StoredPayment {
  paymentId: string
  sessionId: string
  shopOrderId: string
  status: PaymentStatus
  paymentMethodId: string
  terminal: string
  amountMinor: number
  currency: CurrencyInfo
  transactionId?: string
  authType?: AuthType
  maskedPan?: string
  cardScheme?: string
  reason?: string
  createdAt: number
  updatedAt: number
}

export type TransactionStatus =
  | "pending"
  | "preauth"
  /** An invoice (Klarna) reservation: AltaPay's createInvoiceReservation sample (api-php invoicereservation.xml). */
  | "invoice_initialized"
  | "captured"
  | "refunded"
  | "released"
  | "epayment_declined"
  | "preauth_error"
  /** The customer failed the 3-D Secure challenge (api-php CallbackTest.php, sdk-csharp CardHolderMessageMustBeShown*.xml). */
  | "3dsecure_failed"
  | "recurring_confirmed"
  | "recurring_failed"
  /** A capture of a lapsed reservation whose new authorisation failed (AltaPay FAQ, "reauth_failed"). */
  | "reauth_failed"

/** Reserved and not yet captured in full: what captureReservation takes and releaseReservation releases. */
export const RESERVED_STATUSES: ReadonlySet<TransactionStatus> = new Set(["preauth", "invoice_initialized"])

/** AuthType of a transaction: payments, agreement set-ups and charges on an agreement (api-php fixtures). */
export type AuthType = "payment" | "paymentAndCapture" | "subscription" | "subscriptionAndReserve" | "subscriptionAndCharge" | "verifyCard" | "subscription_payment"

export type { SandboxCard } from "./agreements/agreements"

export interface ReconciliationEntry {
  id: string
  amountMinor: number
  type: "captured" | "refunded"
  at: number
}

/** A gateway operation answered `Open`: recorded, but no money moved. */
export interface PendingOperation {
  type: "capture" | "refund" | "release"
  amountMinor: number
  reconciliationIdentifier?: string
  at: number
}

/** One order line of an invoice reservation, its fields as text (as a form would send them). */
export interface ReservationLine {
  fields: Record<string, string>
  captured: boolean
  /** Quantity refunded so far, exact decimal text. */
  refundedQuantity: string
}

export interface InvoiceReservation {
  lines: ReservationLine[]
  /** Days after the reservation within which every capture must be made (Klarna: 28). */
  captureWithinDays: number
}

/** A capture or refund that moved money, with the parameters it came with. */
export interface MoneyOperation {
  amountMinor: number
  reconciliationIdentifier: string
  at: number
  invoiceNumber?: string
  salesTax?: string
  orderLines?: Record<string, string>[]
  trackingInfo?: Record<string, string>[]
  /** `shippingTrackingInfo[<i>][shippingCompany|trackingNumber]`, the form AltaPay's own clients send (api-php, Magento). */
  shippingTrackingInfo?: Record<string, string>[]
}

export interface StoredTransaction {
  transactionId: string
  paymentId: string
  shopOrderId: string
  shop: string
  terminal: string
  authType: AuthType
  status: TransactionStatus
  currency: CurrencyInfo
  reservedMinor: number
  capturedMinor: number
  refundedMinor: number
  /** An agreement set-up's amount, charged when a charge gives none (RecurringDefaultAmount; api-php setupsubscription.xml). */
  recurringDefaultMinor?: number
  /** The fraud service's recommendation (AltaPay's test amounts 101, 102, 110: Accept, Challenge, Deny). */
  fraudRecommendation?: "Accept" | "Challenge" | "Deny"
  /** When the reservation's authorisation lapses (AuthorisationExpiryDate): card 7 days, invoice `captureWithinDays`. */
  authorisationExpiresAt?: number
  /** What a terminal with surcharging added (SurchargeAmount); included in reservedMinor. */
  surchargeMinor?: number
  /** The AVS result (AddressVerification, AddressVerificationDescription) of a card payment. */
  avs?: { code: string; description: string }
  /** What a capture after the authorisation lapsed gets from its new authorisation (`sandbox.lapseReservation`). */
  reauth?: "succeeds" | "fails"
  /** A charge answered Open, waiting for `sandbox.agreements.settle` (test amount 13.64). */
  openCharge?: PendingChallenge
  /** ThreeDSecureResult: `Successful` after a passed challenge, `Declined` after a failed one (AltaPay's values: sdk-java APIResponse.xsd). */
  threeDSecureResult?: "Successful" | "Declined"
  nature: PaymentNature
  /** Agreements only: the saved card, its token and PaymentSchemeName. */
  card?: SandboxCard
  /** Invoice terminals only: the reservation's order lines and what became of each. */
  invoice?: InvoiceReservation
  /** Captures and refunds answered Success (not those answered Open), with what they were sent with. */
  captures: MoneyOperation[]
  refunds: MoneyOperation[]
  customer: Record<string, unknown>
  paymentInfos: Record<string, string>
  merchantErrorMessage?: string
  cardHolderErrorMessage?: string
  reconciliation: ReconciliationEntry[]
  pending: PendingOperation[]
  createdAt: number
  updatedAt: number
}

export interface StoredLink {
  id: string
  sessionId: string
  url?: string
  size?: number
  /** Minutes the link stays usable once opened (not enforced by the sandbox). */
  activationTime?: number
  createdAt: number
  expiresAt: number
}

/** Fixed ids, so tests and storefront fixtures can name a method without listing first. */
export const PAYMENT_METHODS: readonly PaymentMethod[] = [
  {
    id: "7d0b1f7e-2c59-4f0e-9d3a-5a1c7b0e0001",
    type: "CARD",
    name: "AltaPay Sandbox Test Terminal",
    terminalName: "AltaPay Sandbox Test Terminal",
    nature: "CreditCard",
    currencies: ["DKK", "EUR", "SEK", "NOK", "GBP", "USD", "CHF", "PLN"],
  },
  {
    id: "7d0b1f7e-2c59-4f0e-9d3a-5a1c7b0e0002",
    type: "WALLET",
    name: "MobilePay Sandbox",
    terminalName: "MobilePay Sandbox Terminal",
    nature: "Wallet",
    currencies: ["DKK", "EUR", "NOK"],
  },
]

export const CARD_METHOD = PAYMENT_METHODS[0]

/**
 * An invoice terminal (Klarna), offered only when the sandbox is started with `invoiceTerminal`:
 * its payments need order lines and are captured and refunded by them.
 */
export const INVOICE_METHOD: PaymentMethod = {
  id: "7d0b1f7e-2c59-4f0e-9d3a-5a1c7b0e0003",
  type: "INVOICE",
  name: "Klarna Sandbox",
  terminalName: "Klarna DKK Sandbox Terminal",
  nature: "Invoice",
  currencies: ["DKK"],
}

/** Klarna: "the final capture ... must be completed within twenty-eight days of the original order reservation". */
export const DEFAULT_INVOICE_CAPTURE_DAYS = 28

/** The `invoiceTerminal` option as the sandbox keeps it. */
export function invoiceTerminalConfig(option: true | { captureWithinDays?: number }): { captureWithinDays: number } {
  const days = option === true ? DEFAULT_INVOICE_CAPTURE_DAYS : (option.captureWithinDays ?? DEFAULT_INVOICE_CAPTURE_DAYS)
  if (!Number.isFinite(days) || days < 0) throw new Error("invoiceTerminal.captureWithinDays must be a number of days, 0 or more.")
  return { captureWithinDays: days }
}

/** The methods a session lists and may be paid with. */
export const offeredMethods = (config: { invoiceTerminal?: unknown }): readonly PaymentMethod[] => (config.invoiceTerminal ? [...PAYMENT_METHODS, INVOICE_METHOD] : PAYMENT_METHODS)

export const findMethod = (id: string, config: { invoiceTerminal?: unknown }): PaymentMethod | undefined => offeredMethods(config).find((m) => m.id === id)

/** Statuses of a payment that once authorized: the session is then settled and cannot change. */
export const WAS_AUTHORIZED: ReadonlySet<PaymentStatus> = new Set(["AUTHORIZED", "CAPTURED", "REFUNDED", "RELEASED"])

export class Store {
  readonly sessions = new Map<string, StoredSession>()
  readonly payments = new Map<string, StoredPayment>()
  readonly transactions = new Map<string, StoredTransaction>()
  readonly links = new Map<string, StoredLink>()
  /** Agreements (saved cards) and their set-up requests. */
  readonly agreements = new AgreementBook()
  /** 3-D Secure challenges waiting for the customer (payment page, set-up page, charges). */
  readonly challenges = new ChallengeBook()
  // Real AltaPay transaction ids are small decimal numbers, which also fit `[0-9a-f]{1,32}`.
  // Numeric like AltaPay's, and different on every start, so a store database reused across
  // sandbox runs (the demo) never meets an old transaction id again.
  private nextTransactionId = Date.now() * 100

  newTransactionId(): string {
    return String(this.nextTransactionId++)
  }

  newId(): string {
    return randomUUID()
  }

  transactionsWhere(filter: { transactionId?: string; paymentId?: string; shopOrderId?: string }): StoredTransaction[] {
    return [...this.transactions.values()].filter(
      (t) =>
        (filter.transactionId === undefined || t.transactionId === filter.transactionId) &&
        (filter.paymentId === undefined || t.paymentId === filter.paymentId) &&
        (filter.shopOrderId === undefined || t.shopOrderId === filter.shopOrderId)
    )
  }
}
