// The route's own type, not altapay-api.ts: that one would pull the admin's browser globals into the unit tests' tsconfig.
import type { AdminAltaPayProvider } from "../../api/admin/altapay/providers/route"

/** "mobilepay (MobilePay Terminal)": the registration's own id, and its terminal when it has one. */
export function providerLabel(provider: AdminAltaPayProvider): string {
  const name = provider.id.replace(/^pp_altapay_/, "")
  const terminals = provider.terminal ? [provider.terminal] : Object.values(provider.terminals ?? {})
  return terminals.length > 0 ? `${name} (${[...new Set(terminals)].join(", ")})` : name
}

/**
 * The registration a new payment link starts with: the one the order already paid with (the
 * newest AltaPay payment's), else the first in medusa-config's order.
 */
export function defaultProviderId(providers: AdminAltaPayProvider[], paidWith: string[]): string | undefined {
  const ids = new Set(providers.map((p) => p.id))
  return [...paidWith].reverse().find((id) => ids.has(id)) ?? providers[0]?.id
}
