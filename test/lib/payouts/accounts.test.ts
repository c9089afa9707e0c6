/**
 * Funding files belong to an API user: registrations of one user are imported once, disabled ones
 * not at all, yet a disabled one sharing an importing user's files has its captures matched.
 */
import { accountKey, payoutAccounts } from "../../../src/lib/payouts/accounts"
import { parsedRegistration } from "../../helpers/options"

const registration = (providerId: string, overrides: Record<string, unknown>) => parsedRegistration(providerId, { username: "shop_api", ...overrides })

it("names an account by gateway host and API user, never by its password", () => {
  expect(accountKey(registration("pp_altapay_card", { gatewayUrl: "https://gw.example:8443/merchant" }))).toBe("gw.example:8443/shop_api")
})

it("imports registrations of one API user once, noting each provider id, and leaves disabled ones out", () => {
  const accounts = payoutAccounts([
    registration("pp_altapay_card", {}),
    registration("pp_altapay_mobilepay", {}),
    registration("pp_altapay_other", { username: "other_api" }),
    registration("pp_altapay_off", { username: "off_api", payouts: { enabled: false } }),
  ])
  expect(accounts.map(({ account, providerIds }) => ({ account, providerIds }))).toEqual([
    { account: "testgateway.altapaysecure.com/shop_api", providerIds: ["pp_altapay_card", "pp_altapay_mobilepay"] },
    { account: "testgateway.altapaysecure.com/other_api", providerIds: ["pp_altapay_other"] },
  ])
})

it("a registration with payouts off that shares an importing API user's files has its captures matched, not its own import", () => {
  // MobilePay's captures are paid out in the card registration's funding files (one API user).
  const [shared] = payoutAccounts([registration("pp_altapay_mobilepay", { payouts: { enabled: false } }), registration("pp_altapay_card", {})])
  expect(shared.registrations.map((r) => r.providerId)).toEqual(["pp_altapay_card"])
  expect(shared.providerIds).toEqual(["pp_altapay_mobilepay", "pp_altapay_card"])
})

it("leaves out fundings before the earliest reconcileFrom of the importing registrations, and none when one of them wants all", () => {
  const both = payoutAccounts([
    registration("pp_altapay_card", { payouts: { reconcileFrom: "2026-11-02" } }),
    registration("pp_altapay_mobilepay", { payouts: { reconcileFrom: "2026-10-15" } }),
  ])
  expect(both[0].reconcileFrom).toBe("2026-10-15")
  const oneWantsAll = payoutAccounts([registration("pp_altapay_card", { payouts: { reconcileFrom: "2026-11-02" } }), registration("pp_altapay_mobilepay", {})])
  expect(oneWantsAll[0].reconcileFrom).toBeUndefined()
})

it("refuses a reconcileFrom that is not a calendar day, saying the form", () => {
  for (const reconcileFrom of ["2026-02-30", "1 Nov 2026", "2026-11-01T00:00:00Z"]) {
    expect(() => registration("pp_altapay_card", { payouts: { reconcileFrom } })).toThrow(/payouts\.reconcileFrom: must be (a date as YYYY-MM-DD|a real calendar date)/)
  }
})
