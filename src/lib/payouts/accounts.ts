/**
 * Funding files belong to an AltaPay API user, not to a registration: registrations sharing the
 * gateway host and user are one account, imported once, with every provider id of it noted.
 */
import type { AltaPayRegistration } from "../registrations/registrations"

export interface PayoutAccount {
  /** `${gateway host}/${username}`: names the account without a secret. */
  account: string
  /** The registrations of this account whose payouts are enabled. */
  registrations: AltaPayRegistration[]
  providerIds: string[]
}

export function accountKey(registration: Pick<AltaPayRegistration, "options">): string {
  return `${new URL(registration.options.gatewayUrl).host}/${registration.options.username}`
}

/** The accounts to import, in the registrations' order; registrations with payouts.enabled false are left out. */
export function payoutAccounts(registrations: AltaPayRegistration[]): PayoutAccount[] {
  const accounts = new Map<string, PayoutAccount>()
  for (const registration of registrations) {
    if (!registration.options.payouts.enabled) continue
    const account = accountKey(registration)
    const entry = accounts.get(account) ?? { account, registrations: [], providerIds: [] }
    entry.registrations.push(registration)
    entry.providerIds.push(registration.providerId)
    accounts.set(account, entry)
  }
  return [...accounts.values()]
}
