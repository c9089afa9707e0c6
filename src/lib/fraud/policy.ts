/**
 * What a registration's `fraud` policy makes of AltaPay's fraud recommendation and AVS result on a
 * paid transaction: accept, hold capture until a merchant approves, or deny (release). The
 * stricter of the two wins. Pure: the provider acts on the decision (authorization), the admin
 * approves a hold (approval.ts).
 */
import type { GatewayTransaction } from "../../altapay"
import type { AltaPayPaymentData, FraudRecord } from "../payment-data/data"
import type { FraudOptions } from "../registrations/fraud-options"

type Decision = FraudRecord["decision"]
const RANK: Record<Decision, number> = { accept: 0, hold: 1, deny: 2 }

/** The decision and its reasons, or undefined when AltaPay states neither a recommendation nor an AVS result. */
export function fraudDecision(transaction: GatewayTransaction, policy: FraudOptions, earlier?: FraudRecord): FraudRecord | undefined {
  const recommendation = transaction.fraudRecommendation?.trim() || null
  const avsCode = transaction.addressVerification?.trim() || null
  if (!recommendation && !avsCode && !policy.avs) return undefined
  const score = transaction.fraudRiskScore?.trim() || null
  const found: Array<{ decision: Decision; reason: string }> = []
  const scored = score ? ` (risk score ${score})` : ""
  switch (recommendation?.toLowerCase()) {
    case "deny":
      found.push({ decision: policy.deny === "release" ? "deny" : "accept", reason: `AltaPay's fraud check recommends Deny${scored}` })
      break
    case "challenge":
      found.push({ decision: policy.challenge === "hold" ? "hold" : "accept", reason: `AltaPay's fraud check recommends Challenge${scored}: review the order before capturing` })
      break
  }
  if (policy.avs) {
    const accepted = policy.avs.acceptedCodes.map((code) => code.toUpperCase())
    const outcome = !avsCode ? policy.avs.onMissing : accepted.includes(avsCode.toUpperCase()) ? "accept" : policy.avs.onMismatch
    const text = avsCode ? `AVS result ${avsCode}${transaction.addressVerificationDescription ? ` (${transaction.addressVerificationDescription})` : ""}` : "no AVS result"
    if (outcome !== "accept") found.push({ decision: outcome === "deny" ? "deny" : "hold", reason: `${text} is not among the accepted AVS codes (${accepted.join(", ")})` })
  }
  const decision = found.reduce<Decision>((worst, f) => (RANK[f.decision] > RANK[worst] ? f.decision : worst), "accept")
  return {
    recommendation,
    score,
    explanation: transaction.fraudExplanation?.trim() || null,
    avs_code: avsCode,
    avs_text: transaction.addressVerificationDescription?.trim() || null,
    decision,
    reasons: found.filter((f) => f.decision !== "accept").map((f) => f.reason),
    // An approval stays with the payment: a later read of AltaPay does not hold it again.
    approved_at: earlier?.approved_at ?? null,
    approved_by: earlier?.approved_by ?? null,
  }
}

/** Why a capture must wait, or undefined: held by the fraud policy and not approved yet. */
export function heldForReview(data: Pick<AltaPayPaymentData, "fraud">): string | undefined {
  const fraud = data.fraud
  if (fraud?.decision !== "hold" || fraud.approved_at) return undefined
  return fraud.reasons.join("; ") || "held for review"
}
