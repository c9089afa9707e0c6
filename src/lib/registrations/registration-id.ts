/**
 * Which medusa-config entry a provider instance is. Medusa gives a payment provider's constructor
 * only the entry's `options`, not its `id` (@medusajs/payment loaders/providers.js:
 * `new klass(cradle, pluginOptions.options)`), yet the id names the provider (pp_altapay_<id>) and
 * the webhook route Medusa serves for it (/hooks/payment/altapay_<id>). The provider's own loader
 * runs first and gets the same options object together with the Payment module's options (Medusa
 * 2.21.2 modules-sdk load-internal.js: `options: providerOptions`, `moduleOptions:
 * resolution.options`; 2.12.6 the same, checked by integration-tests/providers under both), so it
 * finds its entry there by identity and notes the id for the constructor (options-loader.ts).
 */
import type { RegistrationOf } from "./options"

interface ProviderEntry {
  id?: string
  options?: unknown
}

const noted = new WeakMap<object, RegistrationOf>()

/**
 * The entry of `providers` whose options are `options` (the same object). Undefined when none is,
 * or when several entries with different ids share the one object (then the id cannot be told).
 */
export function registrationOf(options: unknown, providers: readonly ProviderEntry[] | undefined): RegistrationOf | undefined {
  if (!options || typeof options !== "object") return undefined
  const ids = new Set((providers ?? []).filter((entry) => entry?.options === options).map((entry) => entry.id))
  if (ids.size !== 1) return undefined
  const [id] = ids
  return { id: typeof id === "string" ? id : undefined }
}

/** Notes the entry an options object belongs to, for the constructor that gets the object next. */
export function noteRegistration(options: object, registration: RegistrationOf): void {
  noted.set(options, registration)
}

/** The entry noted for this options object; undefined where no loader saw it (a provider built by hand, e.g. in a test). */
export function notedRegistration(options: unknown): RegistrationOf | undefined {
  return options && typeof options === "object" ? noted.get(options) : undefined
}
