/**
 * The provider's loader: checks its options wherever Medusa loads the provider. Medusa calls a
 * provider's static validateOptions only when it loads the Payment module in full (`medusa start`,
 * `medusa develop`, migration scripts); `medusa db:migrate` plans its migrations with a partial
 * load that skips it, yet still runs each provider's own loaders. So invalid options also stop
 * `medusa db:migrate` (exit 1) with the same message, instead of failing only in its migration
 * scripts child process, whose exit code Medusa 2.21.2 ignores (docs/merchant.md, troubleshooting).
 */
import type { LoaderOptions } from "@medusajs/framework/types"
import { AltaPayProviderService } from "./service"

export default async function validateAltaPayOptions({ options }: LoaderOptions<Record<string, unknown>>): Promise<void> {
  AltaPayProviderService.validateOptions(options ?? {})
}
