/**
 * Routes need the same AltaPay client the provider uses (CUSTOMER tokens, live transaction reads,
 * payment links). They find the provider's options in the Payment module's config and use the
 * process-wide shared client wired to the same cache and locking modules, so the MERCHANT token
 * and connections are the provider's too (across servers when those modules are Redis).
 */
import type { ConfigModule, MedusaContainer } from "@medusajs/framework/types"
import { ContainerRegistrationKeys, MedusaError, Modules } from "@medusajs/framework/utils"
import type { AltaPayClient } from "../altapay"
import { parseAltaPayOptions, type AltaPayOptions } from "./options"
import { scaleOutFrom, type ScaleOut } from "./scale-out"
import { sharedAltaPayClient } from "./shared-client"

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

/** Parsed once per options object: routes ask on every request. */
const parsedOptions = new WeakMap<Record<string, unknown>, ReturnType<typeof parseAltaPayOptions>>()

function parsedFor(options: Record<string, unknown>): ReturnType<typeof parseAltaPayOptions> {
  let parsed = parsedOptions.get(options)
  if (!parsed) parsedOptions.set(options, (parsed = parseAltaPayOptions(options)))
  return parsed
}

export function altapayOptionsFromConfig(scope: MedusaContainer): { options: AltaPayOptions; providerId: string; entry: ProviderEntry } {
  const entry = findAltaPayProviderEntry(scope.resolve<ConfigModule>(ContainerRegistrationKeys.CONFIG_MODULE))
  if (!entry?.options) {
    throw new MedusaError(
      MedusaError.Types.INVALID_DATA,
      "The AltaPay provider is not configured: add medusa-payment-altapay/providers/altapay to the Payment module's providers in medusa-config."
    )
  }
  const parsed = parsedFor(entry.options)
  if ("problems" in parsed) throw new MedusaError(MedusaError.Types.INVALID_DATA, `AltaPay provider options are invalid: ${parsed.problems.join("; ")}`)
  return { options: parsed.options, providerId: `pp_altapay_${entry.id ?? "altapay"}`, entry }
}

export function altapayFromConfig(scope: MedusaContainer): { options: AltaPayOptions; client: AltaPayClient; providerId: string; scaleOut: ScaleOut } {
  const { options, providerId } = altapayOptionsFromConfig(scope)
  // The modules the Payment module gives the provider, and only those: the routes must share the
  // provider's cache and locks (the same instances), or use this process's, as the provider does.
  const dependencies = paymentModuleDependencies(scope.resolve<ConfigModule>(ContainerRegistrationKeys.CONFIG_MODULE))
  const scaleOut = scaleOutFrom((name) => (dependencies.has(name) && scope.hasRegistration(name) ? scope.resolve(name) : undefined))
  return { options, client: sharedAltaPayClient(options, undefined, scaleOut), providerId, scaleOut }
}

function paymentModuleDependencies(configModule: ConfigModule): Set<string> {
  const modules = configModule.modules as Record<string, unknown> | undefined
  const payment = (modules?.[Modules.PAYMENT] ?? modules?.payment) as { dependencies?: unknown } | undefined
  return new Set(Array.isArray(payment?.dependencies) ? payment.dependencies.filter((d): d is string => typeof d === "string") : [])
}
