/**
 * What the order panel shows the merchant to act on before capturing (issue 42): the fraud check
 * and the policy's decision (a hold waits for "Approve capture"), when an uncaptured reservation
 * lapses (AltaPay's AuthorisationExpiryDate), and a surcharge the terminal added. Pure.
 */
import type { GatewayTransaction } from "../../../../altapay"
import { heldForReview } from "../../../../lib/fraud/policy"
import type { AltaPayPaymentData, FraudRecord } from "../../../../lib/payment-data/data"
import { reservationExpiry } from "../../../../lib/payment-data/reservation-expiry"

export interface AdminAltaPayReview {
  /** Null when AltaPay stated neither a recommendation nor an AVS result. */
  fraud: (Omit<FraudRecord, "reasons"> & { reasons: string[]; held: boolean }) | null
  /** The uncaptured reservation's lapse; null when nothing is left to capture or AltaPay states no date. */
  expiry: { expires_at: string; days_left: number; lapsed: boolean; uncaptured_minor: number } | null
  /** What a surcharging terminal reserved on top of Medusa's amount (minor units); null: none. */
  surcharge_minor: number | null
}

export function reviewOf(data: AltaPayPaymentData, live: GatewayTransaction | undefined, now = new Date()): AdminAltaPayReview {
  const stored = data.fraud
  // AltaPay's live values where it was reached; the decision is the one made at authorization.
  const fraud: AdminAltaPayReview["fraud"] = stored
    ? { ...stored, held: !!heldForReview(data) }
    : live?.fraudRecommendation || live?.addressVerification
      ? {
          recommendation: live.fraudRecommendation ?? null,
          score: live.fraudRiskScore ?? null,
          explanation: live.fraudExplanation ?? null,
          avs_code: live.addressVerification ?? null,
          avs_text: live.addressVerificationDescription ?? null,
          decision: "accept",
          reasons: [],
          approved_at: null,
          approved_by: null,
          held: false,
        }
      : null
  return { fraud, expiry: reservationExpiry(data, now) ?? null, surcharge_minor: data.surcharge_minor ?? null }
}
