/**
 * The payment methods a registration's terminal can take, and the capture rules each brings with
 * it, as AltaPay (or, where AltaPay's pages say nothing, the method's own provider) documents them.
 * A registration says which it is with the `paymentMethod` option, else by its id (`mobilepay`,
 * `applepay`, …: option-hints.ts); a card registration has no rules beyond the card's own.
 * Sources, row by row: docs/payment-methods.md and docs/altapay-wire-facts.md ("Wallets").
 */

import { methodNamedBy } from "../registrations/option-hints"

export const PAYMENT_METHOD_IDS = ["card", "applepay", "googlepay", "mobilepay", "vipps", "swish", "klarna"] as const
export type PaymentMethodId = (typeof PAYMENT_METHOD_IDS)[number]

export interface PaymentMethodRules {
  id: PaymentMethodId
  /** The method's name, as shoppers and merchants know it. */
  name: string
  /**
   * Days from the reservation within which it must be captured: after them the method cancels it
   * and no capture can succeed (Vipps MobilePay, "Payment time limits").
   */
  captureWithinDays?: number
  /**
   * AltaPay captures the payment when the customer pays: the method takes no separate capture, and
   * a release of it is a refund (AltaPay's releaseReservation page names Swish among them).
   */
  capturesAtOnce?: boolean
  /** A partial capture works only where the merchant agreed it with the method ("Limited availability for MobilePay"). */
  partialCaptureByAgreement?: boolean
}

const RULES: Record<PaymentMethodId, PaymentMethodRules> = {
  card: { id: "card", name: "Card" },
  // A card in a wallet: the card's reservation and capture rules (AltaPay's Apple Pay page: "re-using the existing callbacks").
  applepay: { id: "applepay", name: "Apple Pay" },
  googlepay: { id: "googlepay", name: "Google Pay" },
  // Vipps MobilePay "Reserve and capture": "You must capture within 14 days (MobilePay) or 180 days
  // (Vipps) or the payment will be cancelled"; partial capture: "Limited availability for MobilePay".
  mobilepay: { id: "mobilepay", name: "MobilePay", captureWithinDays: 14, partialCaptureByAgreement: true },
  vipps: { id: "vipps", name: "Vipps", captureWithinDays: 180 },
  swish: { id: "swish", name: "Swish", capturesAtOnce: true },
  // Klarna's 28 days hold "unless you have agreed an extended payment period": the invoice rules
  // (invoiceTerminals) and the order panel say so; nothing is refused here.
  klarna: { id: "klarna", name: "Klarna" },
}

/** What a registration id names (`mobilepay`, `pp_altapay_applepay`, `vipps-nok`), as option-hints.ts reads it; else undefined. */
export function methodNamedById(registrationId: string): PaymentMethodId | undefined {
  const named = methodNamedBy(registrationId.replace(/^pp_altapay_/, ""))
  return PAYMENT_METHOD_IDS.find((id) => RULES[id].name === named)
}

/** The rules of a registration: its `paymentMethod` option, else what its id names, else a card's. */
export function paymentMethodOf(options: { paymentMethod?: PaymentMethodId; providerId: string }): PaymentMethodRules {
  return RULES[options.paymentMethod ?? methodNamedById(options.providerId) ?? "card"]
}

/** Whether AltaPay captures this registration's payments when the customer pays (its option, or the method). */
export function capturesAtOnce(options: { autoCapture: boolean; paymentMethod?: PaymentMethodId; providerId: string }): boolean {
  return options.autoCapture || !!paymentMethodOf(options).capturesAtOnce
}

const DAY_MS = 24 * 60 * 60 * 1000

/**
 * Why a capture can no longer succeed: the method's capture window has passed since the payment was
 * reserved (`reservedAt`, ISO 8601). Undefined while it can, or when the method has no window.
 */
export function captureWindowClosed(method: PaymentMethodRules, reservedAt: string | null | undefined, now: number): string | undefined {
  if (!method.captureWithinDays || !reservedAt) return undefined
  const reserved = Date.parse(reservedAt)
  if (!Number.isFinite(reserved)) return undefined
  const deadline = reserved + method.captureWithinDays * DAY_MS
  if (now <= deadline) return undefined
  return (
    `${method.name} cancels a reservation that is not captured within ${method.captureWithinDays} days, and this one was reserved on ${new Date(reserved).toISOString().slice(0, 10)} ` +
    `(the window closed on ${new Date(deadline).toISOString().slice(0, 10)}): nothing was sent to AltaPay. Ask the customer to pay again, e.g. with a payment link.`
  )
}
