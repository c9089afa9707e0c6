/**
 * Agreements (saved cards, merchant-started charges) as AltaPay's Merchant API has them: set up
 * through the hosted page by createPaymentRequest, charged by chargeSubscription or
 * reserveSubscriptionCharge. Sources for every field: docs/altapay-wire-facts.md ("Agreements").
 */
import type { GatewayTransaction } from "../gateway-types"
import type { SessionCallbacks } from "../checkout"
import type { OrderLine } from "../types"
import type { SecretToken } from "./secret-token"

/** `agreement[type]` (Agreements page; plugin-magento2-community Model/Config/Source). */
export const AGREEMENT_TYPES = ["unscheduled", "recurring", "instalment"] as const
export type AgreementType = (typeof AGREEMENT_TYPES)[number]

/** `agreement[unscheduled_type]`, mandatory when charging an unscheduled agreement (chargeSubscription page). */
export const UNSCHEDULED_TYPES = ["incremental", "resubmission", "delayedCharges", "reauthorisation", "noShow", "charge"] as const
export type UnscheduledType = (typeof UNSCHEDULED_TYPES)[number]

/** createPaymentRequest `type` values that set an agreement up (api-php src/Types/PaymentTypes.php). */
export type AgreementSetupType = "subscription" | "subscriptionAndCharge" | "subscriptionAndReserve" | "verifyCard"

export interface AgreementSetupInput {
  terminal: string
  /** shop_orderid, `[a-zA-Z0-9-]{1,100}`. */
  shopOrderId: string
  /** "when setting up a agreement the amount has to be positive" (setupSubscription page). */
  amountMinor: number
  currency: string
  /** Default `subscription`; `verifyCard` is AltaPay's backwards-compatible way for unscheduled agreements. */
  type?: AgreementSetupType
  agreement: {
    type: AgreementType
    /** Optional on the set-up (AltaPay's set-up example has none); the charges of an unscheduled agreement need one. */
    unscheduledType?: UnscheduledType
    /** `agreement[expiry]`, YYYYMMDD (the plugins send `date("Ymd")`). */
    expiry?: string
    /** `agreement[frequency]` in days (recurring). */
    frequency?: number
    /** `agreement[next_charge_date]`, YYYYMMDD (recurring). */
    nextChargeDate?: string
    /** `agreement[admin_url]`: where the customer manages it. */
    adminUrl?: string
  }
  /** The same shape as a checkout session's callbacks, sent as `config[callback_*]`; `open` adds callback_open. */
  callbacks: SessionCallbacks & { open?: string }
  language?: string
  orderLines?: OrderLine[]
  /** `transaction_info[...]`, propagated to the callbacks. */
  transactionInfo?: Record<string, string>
  /** `sale_reconciliation_identifier` (0-100 characters). */
  saleReconciliationIdentifier?: string
}

/** createPaymentRequest's answer: where to send the customer. */
export interface AgreementSetupRequest {
  paymentRequestId: string
  /** The hosted payment page. */
  url: string
  dynamicJavascriptUrl?: string
}

export interface AgreementChargeInput {
  /** `agreement[id]`: the TransactionId of the set-up transaction. */
  agreementId: string
  /** Omitted: AltaPay charges the agreement's RecurringDefaultAmount (chargeSubscription page: `amount` is optional). */
  amountMinor?: number
  /** The agreement's currency, to write the amount and order lines; never sent (the charge pages take none). Required with either. */
  currency?: string
  /** Required for an unscheduled agreement. `charge` is a customer buying with the saved card (may need 3-D Secure); the others are merchant-initiated. */
  unscheduledType?: UnscheduledType
  /** 0-100 characters; lets a lost answer be found again with `payments`. */
  reconciliationIdentifier?: string
  orderLines?: OrderLine[]
  transactionInfo?: Record<string, string>
}

/** Where a customer must go to authenticate a charge (Result=Redirect, RedirectResponse). */
export interface ThreeDSecureRedirect {
  url: string
  /** GET or POST. */
  method: string
  /** Form fields to send with a POST (RedirectResponse/Data). */
  data: Record<string, string>
}

export type AgreementChargeResult =
  { outcome: "succeeded" | "open"; transaction: GatewayTransaction; card?: AgreementCard } | { outcome: "redirect"; redirect: ThreeDSecureRedirect }

/** What a shop keeps of a saved card. Everything but `token` is safe to show; `token` never prints. */
export interface AgreementCard {
  /** The set-up transaction's TransactionId: `agreement[id]` of later charges. */
  agreementId: string
  paymentId?: string
  maskedPan?: string
  lastFourDigits?: string
  expiry?: { month: string; year: string }
  /** PaymentSchemeName, else CardInformation/Scheme (e.g. Visa). */
  scheme?: string
  terminal?: string
  /** Alphabetic ISO 4217. */
  currency?: string
  transactionStatus?: string
  token?: SecretToken
}
