/**
 * Routes need the same AltaPay client the provider uses (CUSTOMER tokens, live transaction reads,
 * payment links). They find the provider's options in the Payment module's config and share one
 * client per options object, so tokens and connections are pooled per process.
 */
import type { ConfigModule } from "@medusajs/framework/types"
import { MedusaError, Modules } from "@medusajs/framework/utils"
import { createAltaPayClient, type AltaPayClient } from "../altapay"
import { parseAltaPayOptions, type AltaPayOptions } from "../providers/altapay/options"

const clients = new WeakMap<object, { options: AltaPayOptions; client: AltaPayClient }>()

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
  let cached = clients.get(entry.options)
  if (!cached) {
    const parsed = parseAltaPayOptions(entry.options)
    if ("problems" in parsed) throw new MedusaError(MedusaError.Types.INVALID_DATA, `AltaPay provider options are invalid: ${parsed.problems.join("; ")}`)
    const o = parsed.options
    cached = {
      options: o,
      client: createAltaPayClient({
        checkoutUrl: o.checkoutUrl,
        gatewayUrl: o.gatewayUrl,
        username: o.username,
        password: o.password,
        connectTimeoutMs: o.connectTimeoutMs,
        headersTimeoutMs: o.headersTimeoutMs,
        bodyTimeoutMs: o.bodyTimeoutMs,
        maxRetries: o.maxRetries,
      }),
    }
    clients.set(entry.options, cached)
  }
  return { ...cached, providerId: `pp_altapay_${entry.id ?? "altapay"}` }
}
