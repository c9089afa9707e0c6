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
 * from it. And it checks that the store loads the plugin's routes (plugin-entry.ts): refused when
 * AltaPay is given the plugin's return endpoints, a warning otherwise. What runs but should not go
 * live (start-up-warnings.ts) is a warning.
 */
import type { ConfigModule, LoaderOptions, Logger } from "@medusajs/framework/types"
import { ContainerRegistrationKeys, MedusaError } from "@medusajs/framework/utils"
import { findPluginRoutes, missingPluginMessage, needsOfPlugin } from "../../lib/registrations/plugin-entry"
import { noteRegistration, registrationOf } from "../../lib/registrations/registration-id"
import { startUpWarnings } from "../../lib/registrations/start-up-warnings"
import { AltaPayProviderService } from "./service"

/** What Medusa passes a provider's loader, with the Payment module's own options (not in LoaderOptions' type). */
type ProviderLoaderOptions = LoaderOptions<Record<string, unknown>> & { moduleOptions?: { providers?: { id?: string; options?: unknown }[] } }

export default async function validateAltaPayOptions({ options, moduleOptions, container, logger }: ProviderLoaderOptions): Promise<void> {
  const registration = registrationOf(options, moduleOptions?.providers)
  if (options && registration) noteRegistration(options, registration)
  const parsed = AltaPayProviderService.parseOptions(options ?? {}, registration)
  for (const warning of startUpWarnings(parsed, process.env.NODE_ENV === "production")) logger?.warn(`AltaPay: ${warning}`)
  await checkPluginEntry(container, parsed, logger)
}

async function checkPluginEntry(
  container: LoaderOptions["container"] | undefined,
  options: ReturnType<typeof AltaPayProviderService.parseOptions>,
  logger: Logger | undefined
): Promise<void> {
  let configModule: ConfigModule | undefined
  try {
    configModule = container?.resolve<ConfigModule>(ContainerRegistrationKeys.CONFIG_MODULE, { allowUnregistered: true })
  } catch {
    configModule = undefined
  }
  if (!configModule) return // Loaded outside a Medusa app (a test, a script): nothing to tell from.
  const routes = await findPluginRoutes(configModule, process.cwd())
  if (routes.found === "unknown") {
    logger?.debug?.(`AltaPay: could not tell whether the plugin's routes are loaded (${routes.reason}).`)
    return
  }
  if (routes.found) return
  const { refuse, warn } = needsOfPlugin(options)
  if (refuse.length > 0) throw new MedusaError(MedusaError.Types.INVALID_ARGUMENT, missingPluginMessage(options.providerId, [...refuse, ...warn]))
  logger?.warn(missingPluginMessage(options.providerId, warn))
}
