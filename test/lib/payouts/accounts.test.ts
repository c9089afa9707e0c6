/** Funding files belong to an API user: registrations of one user are imported once, disabled ones not at all. */
import { accountKey, payoutAccounts } from "../../../src/lib/payouts/accounts"
import { parseAltaPayOptions, type AltaPayOptions } from "../../../src/lib/registrations/options"
import type { AltaPayRegistration } from "../../../src/lib/registrations/registrations"

function registration(providerId: string, overrides: Record<string, unknown>): AltaPayRegistration {
  const parsed = parseAltaPayOptions({
    checkoutUrl: "https://testgateway.altapaysecure.com",
    gatewayUrl: "https://testgateway.altapaysecure.com",
    username: "shop_api",
    password: "secret-password",
    backendUrl: "https://shop.example",
    paymentDataSecret: "accounts-payment-data-secret-0123456789",
    ...overrides,
  })
  if (!("options" in parsed)) throw new Error(parsed.problems.join("; "))
  return { providerId, options: parsed.options as AltaPayOptions } as AltaPayRegistration
}

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
