/**
 * Routes need the same AltaPay client the provider uses (CUSTOMER tokens, live transaction reads,
 * payment links). They find the provider's options in the Payment module's config and use the
 * process-wide shared client, so the MERCHANT token and connections are the provider's too.
 */
import type { ConfigModule } from "@medusajs/framework/types"
import { MedusaError, Modules } from "@medusajs/framework/utils"
import type { AltaPayClient } from "../altapay"
import { parseAltaPayOptions, type AltaPayOptions } from "../providers/altapay/options"
import { sharedAltaPayClient } from "../providers/altapay/shared-client"

interface ProviderEntry {
  resolve?: unknown
  id?: string
  options?: Record<string, unknown>
}

/** The provider entry whose resolve points at this package's AltaPay provider. */
export function findAltaPayProviderEntry(configModule: ConfigModule): ProviderEntry | undefined {
  const modules = configModule.modules as Record<string, unknown> | undefined
  const payment = (modules?.[Modules.PAYMENT] ?? modules?.payment) as { options?: { providers?: ProviderEntry[] } } | undefined
  const providers = payment?.options?.providers ?? []
  return providers.find((p) => typeof p.resolve === "string" && /altapay/i.test(p.resolve)) ?? providers.find((p) => p.id === "altapay")
}

export function altapayFromConfig(configModule: ConfigModule): { options: AltaPayOptions; client: AltaPayClient; providerId: string } {
  const entry = findAltaPayProviderEntry(configModule)
  if (!entry?.options) {
    throw new MedusaError(
      MedusaError.Types.INVALID_DATA,
      "The AltaPay provider is not configured: add medusa-payment-altapay/providers/altapay to the Payment module's providers in medusa-config."
    )
  }
  const parsed = parseAltaPayOptions(entry.options)
  if ("problems" in parsed) throw new MedusaError(MedusaError.Types.INVALID_DATA, `AltaPay provider options are invalid: ${parsed.problems.join("; ")}`)
  return { options: parsed.options, client: sharedAltaPayClient(parsed.options), providerId: `pp_altapay_${entry.id ?? "altapay"}` }
}
