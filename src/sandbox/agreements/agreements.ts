/**
 * The sandbox's agreements (saved cards): set-up requests waiting on the hosted page and agreements
 * made there. Test cards (test-cards.ts) decide what a card does; challenges wait in challenges.ts.
 */
import { createHash } from "node:crypto"
import type { CurrencyInfo } from "../../altapay/money"
import { TEST_CARDS } from "../test-cards"

/** The card of an agreement's transactions (others show the sandbox's fixed test card). */
export interface SandboxCard {
  maskedPan: string
  year: string
  month: string
  scheme: string
  token: string
}

export type AgreementKind = "unscheduled" | "recurring" | "instalment"
export const AGREEMENT_KINDS: readonly string[] = ["unscheduled", "recurring", "instalment"]
export const UNSCHEDULED_KINDS: readonly string[] = ["incremental", "resubmission", "delayedCharges", "reauthorisation", "noShow", "charge"]

/** createPaymentRequest types that set an agreement up (api-php src/Types/PaymentTypes.php). */
export const SETUP_TYPES = ["subscription", "verifyCard", "subscriptionAndReserve", "subscriptionAndCharge"] as const
export type SetupType = (typeof SETUP_TYPES)[number]

export interface SetupRequest {
  paymentRequestId: string
  terminal: string
  shopOrderId: string
  amountMinor: number
  currency: CurrencyInfo
  /** subscriptionAndReserve / subscriptionAndCharge also reserve (and capture) the amount on the set-up page. */
  type: SetupType
  agreementType: AgreementKind
  unscheduledType?: string
  /** config[callback_*] by name (callback_ok, callback_fail, callback_notification, ...). */
  callbacks: Record<string, string>
  transactionInfo: Record<string, string>
  /** orderLines of a set-up that also reserves. */
  orderLines?: Record<string, string>[]
  /** The set-up transaction once the page was submitted. */
  transactionId?: string
  /** The 3-D Secure challenge the page is waiting on (test-cards.ts: the 3-D Secure card, 5.68). */
  challengeId?: string
}

export interface StoredAgreement {
  /** The set-up transaction's id: agreement[id]. */
  id: string
  paymentRequestId: string
  type: AgreementKind
  unscheduledType?: string
  card: SandboxCard & { threeDSecure: boolean }
  terminal: string
  currency: CurrencyInfo
  /** The set-up's amount: RecurringDefaultAmount, what a charge without `amount` charges. */
  amountMinor: number
  shopOrderId: string
  status: "active" | "ended"
  callbacks: Record<string, string>
}

/** A charge on an agreement: made at once, or (customer-initiated, 3-D Secure card) once the customer passes the challenge. */
export interface PendingChallenge {
  id: string
  agreementId: string
  method: "chargeSubscription" | "reserveSubscriptionCharge"
  amountMinor: number
  reconciliationIdentifier?: string
  orderLines?: Record<string, string>[]
  /** transaction_info[...] of the charge, kept as the charge's PaymentInfos. */
  transactionInfo?: Record<string, string>
  /** The charge's transaction once the challenge was answered. */
  transactionId?: string
}

export class AgreementBook {
  readonly requests = new Map<string, SetupRequest>()
  readonly agreements = new Map<string, StoredAgreement>()

  /** Ends an agreement (the customer deleted the card): later charges are declined. */
  end(agreementId: string): boolean {
    const agreement = this.agreements.get(agreementId)
    if (!agreement) return false
    agreement.status = "ended"
    return true
  }
}

/** The card the hosted page was given: masked, with a token derived from the number and the set-up. */
export function cardFrom(number: string, month: string, year: string, salt: string): (SandboxCard & { threeDSecure: boolean }) | string {
  const digits = number.replace(/[\s-]/g, "")
  if (!/^\d{12,19}$/.test(digits)) return "The card number must be 12-19 digits."
  if (!/^(0[1-9]|1[0-2])$/.test(month) || !/^\d{4}$/.test(year)) return "The expiry must be a month 01-12 and a four-digit year."
  return {
    maskedPan: `${digits.slice(0, 6)}${"*".repeat(digits.length - 10)}${digits.slice(-4)}`,
    month,
    year,
    scheme: digits.startsWith("5") ? "Mastercard" : "Visa",
    token: createHash("sha1").update(`card:${digits}:${salt}`).digest("hex"),
    threeDSecure: digits === TEST_CARDS.visaThreeDSecure,
  }
}

/** A card is expired once the sandbox clock has passed the last day of its expiry month (UTC). */
export const isExpired = (card: SandboxCard, nowMs: number): boolean => nowMs >= Date.UTC(Number(card.year), Number(card.month), 1)
