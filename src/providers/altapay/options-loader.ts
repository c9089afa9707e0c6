/**
 * The provider's loader: checks its options wherever Medusa loads the provider. Medusa calls a
 * provider's static validateOptions only when it loads the Payment module in full (`medusa start`,
 * `medusa develop`, migration scripts); `medusa db:migrate` plans its migrations with a partial
 * load that skips it, yet still runs each provider's own loaders. So invalid options also stop
 * `medusa db:migrate` (exit 1) with the same message, instead of failing only in its migration
 * scripts child process, whose exit code Medusa 2.21.2 ignores (docs/merchant.md, troubleshooting).
 *
 * Only here does the provider see its medusa-config entry: it notes the entry's id for the
 * constructor (../../lib/registrations/registration-id.ts) and refuses a providerId that differs
 * from it.
 */
import type { LoaderOptions } from "@medusajs/framework/types"
import { noteRegistration, registrationOf } from "../../lib/registrations/registration-id"
import { AltaPayProviderService } from "./service"

/** What Medusa passes a provider's loader, with the Payment module's own options (not in LoaderOptions' type). */
type ProviderLoaderOptions = LoaderOptions<Record<string, unknown>> & { moduleOptions?: { providers?: { id?: string; options?: unknown }[] } }

export default async function validateAltaPayOptions({ options, moduleOptions }: ProviderLoaderOptions): Promise<void> {
  const registration = registrationOf(options, moduleOptions?.providers)
  if (options && registration) noteRegistration(options, registration)
  AltaPayProviderService.parseOptions(options ?? {}, registration)
}
