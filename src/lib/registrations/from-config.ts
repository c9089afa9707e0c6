/**
 * Routes need the same AltaPay client the provider uses (CUSTOMER tokens, live transaction reads,
 * payment links). They find the provider's options in the Payment module's config and use the
 * process-wide shared client wired to the same cache and locking modules, so the MERCHANT token
 * and connections are the provider's too (across servers when those modules are Redis).
 *
 * A store may register the provider several times, once per AltaPay terminal (pp_altapay_card,
 * pp_altapay_mobilepay): each registration has its own options, so routes pick the registration
 * by Medusa's provider id (a payment's own, or the one a request names).
 */
import type { ConfigModule, MedusaContainer } from "@medusajs/framework/types"
import { ContainerRegistrationKeys, MedusaError, Modules } from "@medusajs/framework/utils"
import type { AltaPayClient } from "../../altapay"
import { parseAltaPayOptions, type AltaPayOptions } from "./options"
import { scaleOutFrom, type ScaleOut } from "../scale-out/shared-state"
import { sharedAltaPayClient } from "./shared-client"

interface ProviderEntry {
  resolve?: unknown
  id?: string
  options?: Record<string, unknown>
}

/** Medusa names a payment provider `pp_<identifier>_<id>`; ours has the identifier "altapay". */
export function altapayProviderId(entry: Pick<ProviderEntry, "id">): string {
  return `pp_altapay_${entry.id ?? "altapay"}`
}

/** Every provider entry whose resolve points at this package's AltaPay provider, in config order. */
export function findAltaPayProviderEntries(configModule: ConfigModule): ProviderEntry[] {
  const modules = configModule.modules as Record<string, unknown> | undefined
  const payment = (modules?.[Modules.PAYMENT] ?? modules?.payment) as { options?: { providers?: ProviderEntry[] } } | undefined
  const providers = payment?.options?.providers ?? []
  const byResolve = providers.filter((p) => typeof p.resolve === "string" && /altapay/i.test(p.resolve))
  return byResolve.length > 0 ? byResolve : providers.filter((p) => p.id === "altapay")
}

/** Medusa's ids of this store's AltaPay registrations (pp_altapay_<id>), in config order. */
export function altapayProviderIds(scope: MedusaContainer): string[] {
  return findAltaPayProviderEntries(configModuleOf(scope)).map(altapayProviderId)
}

/**
 * The registration a request works with: `providerId` when given (it must be one of this store's
 * AltaPay registrations), else the only one. Several registrations and none named, or a name that
 * is not one of them, is a 400 that lists the choices.
 */
export function chooseAltaPayEntry(entries: ProviderEntry[], providerId: string | undefined): ProviderEntry {
  const choices = entries.map(altapayProviderId)
  if (providerId !== undefined) {
    const entry = entries.find((e) => altapayProviderId(e) === providerId)
    if (entry) return entry
    // Quoted in part: a request's own text is not echoed back whole.
    const named = providerId.length > 100 ? `${providerId.slice(0, 100)}…` : providerId
    throw new MedusaError(MedusaError.Types.INVALID_DATA, `provider_id ${JSON.stringify(named)} is not an AltaPay provider of this store: use one of ${choices.join(", ")}.`)
  }
  if (entries.length > 1) {
    throw new MedusaError(MedusaError.Types.INVALID_DATA, `This store registers several AltaPay providers: give provider_id, one of ${choices.join(", ")}.`)
  }
  return entries[0]
}

/** Parsed once per entry: routes ask on every request. */
const parsedOptions = new WeakMap<ProviderEntry, ReturnType<typeof parseAltaPayOptions>>()

/** The entry's options as its provider has them: `providerId` is the entry's id (a different one is a problem). */
export function parsedFor(entry: ProviderEntry): ReturnType<typeof parseAltaPayOptions> {
  let parsed = parsedOptions.get(entry)
  if (!parsed) parsedOptions.set(entry, (parsed = parseAltaPayOptions(entry.options ?? {}, { id: entry.id })))
  return parsed
}

export interface AltaPayRegistration {
  /** Medusa's provider id, pp_altapay_<id>. */
  providerId: string
  options: AltaPayOptions
  entry: ProviderEntry
}

/** The options of registration `providerId` (or of the only one): see chooseAltaPayEntry. */
export function altapayOptionsFromConfig(scope: MedusaContainer, providerId?: string): AltaPayRegistration {
  const entries = findAltaPayProviderEntries(configModuleOf(scope))
  if (entries.length === 0) {
    throw new MedusaError(
      MedusaError.Types.INVALID_DATA,
      "The AltaPay provider is not configured: add medusa-payment-altapay/providers/altapay to the Payment module's providers in medusa-config."
    )
  }
  const entry = chooseAltaPayEntry(entries, providerId)
  const id = altapayProviderId(entry)
  if (!entry.options) throw new MedusaError(MedusaError.Types.INVALID_DATA, `The AltaPay provider ${id} has no options in medusa-config.`)
  const parsed = parsedFor(entry)
  if ("problems" in parsed) throw new MedusaError(MedusaError.Types.INVALID_DATA, `AltaPay provider options of ${id} are invalid: ${parsed.problems.join("; ")}`)
  return { options: parsed.options, providerId: id, entry }
}

/** Registration `providerId` (or the only one) with its client, cache and locks: see chooseAltaPayEntry. */
export function altapayFromConfig(scope: MedusaContainer, providerId?: string): { options: AltaPayOptions; client: AltaPayClient; providerId: string; scaleOut: ScaleOut } {
  const registration = altapayOptionsFromConfig(scope, providerId)
  const scaleOut = providerScaleOut(scope)
  // One client per distinct credentials and modules: registrations of one API user share it.
  return { options: registration.options, client: sharedAltaPayClient(registration.options, undefined, scaleOut), providerId: registration.providerId, scaleOut }
}

function configModuleOf(scope: MedusaContainer): ConfigModule {
  return scope.resolve<ConfigModule>(ContainerRegistrationKeys.CONFIG_MODULE)
}

/**
 * The modules the Payment module gives the provider, and only those: the routes must share the
 * provider's cache and locks (the same instances), or use this process's, as the provider does.
 */
export function providerScaleOut(scope: MedusaContainer): ScaleOut {
  const dependencies = paymentModuleDependencies(configModuleOf(scope))
  return scaleOutFrom((name) => (dependencies.has(name) && scope.hasRegistration(name) ? scope.resolve(name) : undefined))
}

function paymentModuleDependencies(configModule: ConfigModule): Set<string> {
  const modules = configModule.modules as Record<string, unknown> | undefined
  const payment = (modules?.[Modules.PAYMENT] ?? modules?.payment) as { dependencies?: unknown } | undefined
  return new Set(Array.isArray(payment?.dependencies) ? payment.dependencies.filter((d): d is string => typeof d === "string") : [])
}
