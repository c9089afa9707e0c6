/**
 * Every text the order panel's review section shows (fraud check, approval, the reservation's
 * expiry, surcharge), in one place so the admin's text catalogue can take them over as they are.
 */
import type { AdminAltaPayPayment } from "./altapay-api"

type Review = AdminAltaPayPayment["review"]
type Fraud = NonNullable<Review["fraud"]>
type Expiry = NonNullable<Review["expiry"]>

export const REVIEW_TEXTS = {
  fraudRecommendation: "Fraud recommendation",
  avs: "Address verification (AVS)",
  approve: "Approve capture",
  approving: "Approving…",
  expires: "Reservation expires",
  surcharge: "Surcharge (not captured)",
} as const

/** The warning over a held payment, or the note that a merchant approved it. */
export function fraudText(fraud: Fraud, day: (iso: string) => string): { variant: "warning" | "error" | "info"; text: string } | null {
  const why = fraud.reasons.join("; ")
  if (fraud.held) return { variant: "warning", text: `Held for review: ${why}. Nothing can be captured until you approve it; cancel the order instead to release the reservation.` }
  if (fraud.decision === "hold" && fraud.approved_at) return { variant: "info", text: `Capture approved on ${day(fraud.approved_at)} despite: ${why}.` }
  if (fraud.decision === "deny")
    return { variant: "error", text: `${why}, but AltaPay captured the payment at once: cancel the order to refund the customer if you do not deliver.` }
  return null
}

export const avsText = (fraud: Fraud): string => (fraud.avs_code ? `${fraud.avs_code}${fraud.avs_text ? ` – ${fraud.avs_text}` : ""}` : "no result")

/** The reservation's lapse, and what happens at a capture after it. */
export function expiryText(expiry: Expiry, day: (iso: string) => string): { variant: "warning" | "error" | "info"; text: string } {
  const when = day(expiry.expires_at)
  if (expiry.lapsed)
    return {
      variant: "error",
      text: `The reservation lapsed on ${when}. A capture now asks the card issuer for a new authorisation, which may be declined (reauth_failed); capture as soon as you can, or ask the customer to pay again.`,
    }
  const soon = expiry.days_left < 2
  return {
    variant: soon ? "warning" : "info",
    text: `AltaPay's authorisation of this reservation expires on ${when}${soon ? ": capture what you will ship before then" : ""}.`,
  }
}
