import { parseAltaPayOptions } from "../../src/lib/registrations/options"
import type { AltaPayRegistration } from "../../src/lib/registrations/registrations"

/** The fewest provider options that parse: a store that sets nothing else gets every default. */
export const MINIMAL_OPTIONS = {
  checkoutUrl: "https://testgateway.altapaysecure.com",
  gatewayUrl: "https://testgateway.altapaysecure.com",
  username: "api-user",
  password: "api-password",
  backendUrl: "https://shop.example",
  // Required against AltaPay (https://), unlike against the local sandbox.
  paymentDataSecret: "minimal-options-payment-data-secret-0123456789",
}

/** A registration as the plugin parses it (MINIMAL_OPTIONS with `overrides`), for code that takes registrations. */
export function parsedRegistration(providerId: string, overrides: Record<string, unknown> = {}): AltaPayRegistration {
  const parsed = parseAltaPayOptions({ ...MINIMAL_OPTIONS, ...overrides })
  if (!("options" in parsed)) throw new Error(parsed.problems.join("; "))
  return { providerId, options: parsed.options } as AltaPayRegistration
}
