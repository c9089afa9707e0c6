/**
 * The `fraud` policy as a merchant configures it: AltaPay's recommendation and AVS result become
 * accept, hold (capture waits for approval) or deny (release), the stricter one winning; an
 * approval stays; and when an uncaptured reservation lapses.
 */
import type { GatewayTransaction } from "../../src/altapay"
import { fraudDecision, heldForReview } from "../../src/lib/fraud/policy"
import { expiresSoon, reservationExpiry } from "../../src/lib/payment-data/reservation-expiry"
import { fraudOptionsSchema } from "../../src/lib/registrations/fraud-options"

const tx = (fields: Partial<GatewayTransaction>): GatewayTransaction => ({ transactionId: "1", paymentInfos: [], reconciliationIdentifiers: [], extra: {}, ...fields })
const policy = (raw: unknown = {}) => fraudOptionsSchema.parse(raw)

describe("the fraud policy", () => {
  it("by default releases on Deny, holds on Challenge and accepts Accept; no recommendation and no AVS policy: nothing to decide", () => {
    expect(fraudDecision(tx({ fraudRecommendation: "Deny", fraudRiskScore: "87" }), policy())?.decision).toBe("deny")
    expect(fraudDecision(tx({ fraudRecommendation: "Challenge" }), policy())).toMatchObject({ decision: "hold", reasons: [expect.stringMatching(/recommends Challenge/)] })
    expect(fraudDecision(tx({ fraudRecommendation: "Accept" }), policy())).toMatchObject({ decision: "accept", reasons: [] })
    expect(fraudDecision(tx({}), policy())).toBeUndefined()
  })

  it("AVS outside the accepted codes counts as onMismatch, a missing one as onMissing; the stricter decision wins", () => {
    const avs = policy({ avs: { acceptedCodes: ["Y", "X"], onMismatch: "challenge", onMissing: "deny" } })
    expect(fraudDecision(tx({ addressVerification: "N" }), avs)?.decision).toBe("hold")
    expect(fraudDecision(tx({ addressVerification: "y" }), avs)?.decision).toBe("accept")
    expect(fraudDecision(tx({}), avs)?.decision).toBe("deny")
    expect(fraudDecision(tx({ fraudRecommendation: "Challenge", addressVerification: "Y" }), avs)?.decision).toBe("hold")
    expect(fraudDecision(tx({ fraudRecommendation: "Accept" }), avs)?.reasons).toEqual([expect.stringMatching(/no AVS result is not among the accepted AVS codes \(Y, X\)/)])
  })

  it("refuses AVS codes that are not one letter, naming the option", () => {
    expect(fraudOptionsSchema.safeParse({ avs: { acceptedCodes: ["YY"] } }).success).toBe(false)
    expect(fraudOptionsSchema.safeParse({ deny: "refund" }).success).toBe(false)
  })

  it("a merchant's approval ends the hold and is kept when AltaPay is read again", () => {
    const first = fraudDecision(tx({ fraudRecommendation: "Challenge" }), policy())!
    expect(heldForReview({ fraud: first })).toMatch(/Challenge/)
    const approved = { ...first, approved_at: "2026-11-02T10:00:00.000Z", approved_by: "user_1" }
    expect(heldForReview({ fraud: approved })).toBeUndefined()
    expect(fraudDecision(tx({ fraudRecommendation: "Challenge" }), policy(), approved)).toMatchObject({ approved_at: approved.approved_at, approved_by: "user_1" })
  })
})

describe("when an uncaptured reservation lapses", () => {
  const now = new Date("2026-11-02T10:00:00Z")
  const data = { authorisation_expires_at: "2026-11-04T09:00:00.000Z", transaction_status: "preauth", reserved_minor: 10000, captured_minor: 2500 }

  it("counts whole days left and what is still to capture; within the notice days it is due", () => {
    const expiry = reservationExpiry(data, now)
    expect(expiry).toEqual({ expires_at: "2026-11-04T09:00:00.000Z", days_left: 1, lapsed: false, uncaptured_minor: 7500 })
    expect(expiresSoon(expiry, 2)).toBe(true)
    expect(expiresSoon(expiry, 1)).toBe(false)
    expect(reservationExpiry(data, new Date("2026-11-05T00:00:00Z"))?.lapsed).toBe(true)
  })

  it("has nothing to say of a captured, released or undated reservation", () => {
    expect(reservationExpiry({ ...data, captured_minor: 10000, transaction_status: "captured" }, now)).toBeUndefined()
    expect(reservationExpiry({ ...data, transaction_status: "released" }, now)).toBeUndefined()
    expect(reservationExpiry({ ...data, authorisation_expires_at: undefined }, now)).toBeUndefined()
  })
})
