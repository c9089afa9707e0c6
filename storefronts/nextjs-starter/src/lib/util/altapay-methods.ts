/**
 * The payment methods of the store's AltaPay options (medusa-payment-altapay kit). The plugin is
 * registered once per AltaPay terminal, `pp_altapay_<id>`, and the id names the method as the
 * plugin reads it (`applepay`, `googlepay`, `mobilepay`, `vipps`, `swish`, `klarna`; anything else
 * is a card). Apple Pay is offered only where the customer's device offers it: Apple's
 * `ApplePaySession.canMakePayments()`, which exists only in Safari on Apple devices. Plain
 * TypeScript, safe on the server (where it offers no Apple Pay).
 */

export const ALTAPAY_METHODS = [
  "applepay",
  "googlepay",
  "mobilepay",
  "vipps",
  "swish",
  "klarna",
] as const
export type AltaPayMethod = (typeof ALTAPAY_METHODS)[number] | "card"

/** The method of an AltaPay option (`pp_altapay_vipps` -> vipps, `pp_altapay_card` -> card), else undefined. */
export function altapayMethodOf(providerId?: string | null): AltaPayMethod | undefined {
  if (!providerId?.startsWith("pp_altapay_")) {
    return undefined
  }
  const id = providerId
    .slice("pp_altapay_".length)
    .toLowerCase()
    .replace(/[^a-z0-9]/g, "")
  return ALTAPAY_METHODS.find((method) => id.includes(method)) ?? "card"
}

type ApplePayScope = {
  ApplePaySession?: { canMakePayments?: () => boolean }
}

/** Whether this device offers Apple Pay (false on the server and in every browser without it). */
export function altapayApplePayOffered(
  scope: unknown = typeof window === "undefined" ? undefined : window,
): boolean {
  const session = (scope as ApplePayScope | undefined)?.ApplePaySession
  try {
    return (
      typeof session?.canMakePayments === "function" &&
      session.canMakePayments() === true
    )
  } catch {
    // Safari throws outside a secure context: no Apple Pay there either.
    return false
  }
}

/** The payment options to show: all of them, less the Apple Pay ones where the device has no Apple Pay. */
export function altapayOfferedOptions<T extends { id: string }>(
  options: readonly T[],
  applePay: boolean,
): T[] {
  return options.filter(
    (option) => applePay || altapayMethodOf(option.id) !== "applepay",
  )
}
