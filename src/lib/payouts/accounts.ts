/**
 * Funding files belong to an AltaPay API user, not to a registration: registrations sharing the
 * gateway host and user are one account, imported once, with every provider id of it noted.
 */
import type { AltaPayRegistration } from "../registrations/registrations"

export interface PayoutAccount {
  /** `${gateway host}/${username}`: names the account without a secret. */
  account: string
  /** The registrations of this account whose payouts are enabled: they import its files. */
  registrations: AltaPayRegistration[]
  /**
   * Every registration whose captures and refunds the account's files pay out: those importing
   * them and those with payouts off that share the API user (their lines are in the same files, and
   * without their captures copied those lines would stay unmatched).
   */
  providerIds: string[]
  /**
   * Fundings dated before this day (YYYY-MM-DD) are not imported: the earliest `payouts.reconcileFrom`
   * of the importing registrations, undefined when one of them has none (it wants every funding).
   */
  reconcileFrom: string | undefined
}

export function accountKey(registration: Pick<AltaPayRegistration, "options">): string {
  return `${new URL(registration.options.gatewayUrl).host}/${registration.options.username}`
}

/** The accounts to import, in the registrations' order: those with at least one registration whose payouts are enabled. */
export function payoutAccounts(registrations: AltaPayRegistration[]): PayoutAccount[] {
  const accounts = new Map<string, PayoutAccount>()
  for (const registration of registrations) {
    if (!registration.options.payouts.enabled) continue
    const account = accountKey(registration)
    const entry = accounts.get(account) ?? { account, registrations: [], providerIds: [], reconcileFrom: undefined }
    entry.registrations.push(registration)
    accounts.set(account, entry)
  }
  for (const registration of registrations) accounts.get(accountKey(registration))?.providerIds.push(registration.providerId)
  for (const entry of accounts.values()) entry.reconcileFrom = earliestReconcileFrom(entry.registrations)
  return [...accounts.values()]
}

function earliestReconcileFrom(registrations: AltaPayRegistration[]): string | undefined {
  const days = registrations.map((r) => r.options.payouts.reconcileFrom)
  if (days.some((day) => day === undefined)) return undefined
  // YYYY-MM-DD sorts as text.
  return (days as string[]).sort()[0]
}
