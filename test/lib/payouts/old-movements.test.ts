/**
 * A first import copies old captures and refunds at once: the run says how many will be listed as
 * "not paid out" straight away, and how to leave them out, rather than let a wave surprise finance.
 */
import { OldMovements } from "../../../src/lib/payouts/old-movements"
import { parsedRegistration } from "../../helpers/options"

const DAY = 24 * 60 * 60 * 1000
const now = new Date("2026-11-27T12:00:00Z")
const registration = (providerId: string, payouts: Record<string, unknown> = {}) => parsedRegistration(providerId, { payouts })

const copied = (providerId: string, daysAgo: number) => ({ providerId, recordedAt: new Date(now.getTime() - daysAgo * DAY) })

it("counts only movements already past their registration's unfunded cut-off and says how to leave them out", () => {
  const old = new OldMovements([registration("pp_altapay_card"), registration("pp_altapay_mobilepay", { unfundedAfterDays: 30 })])
  old.count(copied("pp_altapay_card", 20), now)
  old.count(copied("pp_altapay_card", 3), now) // recent: it may still be paid out
  old.count(copied("pp_altapay_mobilepay", 20), now) // within MobilePay's 30 days
  expect(old.notice(["pp_altapay_mobilepay"])).toBeUndefined()
  expect(old.notice(["pp_altapay_card", "pp_altapay_mobilepay"])).toMatch(
    /^1 capture\(s\) and refund\(s\) of pp_altapay_card recorded more than 14 days ago were copied .* set payouts\.reconcileFrom/
  )
})

it("leaves out what reconcileFrom already keeps from the exceptions", () => {
  const old = new OldMovements([registration("pp_altapay_card", { reconcileFrom: "2026-11-01" })])
  old.count(copied("pp_altapay_card", 40), now) // before 2026-11-01: never unfunded
  expect(old.notice(["pp_altapay_card"])).toBeUndefined()
  old.count(copied("pp_altapay_card", 20), now)
  expect(old.notice(["pp_altapay_card"])).toMatch(/^1 capture/)
})
