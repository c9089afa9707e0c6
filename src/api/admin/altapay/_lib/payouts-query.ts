/**
 * What the payout routes share: the payouts module from the container, their query strings
 * (zod), and the unfunded cut-off per registration (its `payouts.unfundedAfterDays`, or the
 * request's `unfunded_after_days` for all, and its `payouts.reconcileFrom`).
 */
import type { MedusaContainer } from "@medusajs/framework/types"
import { ContainerRegistrationKeys, MedusaError } from "@medusajs/framework/utils"
import type { ConfigModule } from "@medusajs/framework/types"
import { z } from "zod"
import type AltaPayPayoutsService from "../../../../modules/altapay-payouts/service"
import type { ExceptionKind, ExceptionQuery, FundingFileSummary } from "../../../../modules/altapay-payouts/types"
import { altapayProviderId, findAltaPayProviderEntries, parsedFor } from "../../../../lib/registrations/from-config"
import { DEFAULT_PAYOUTS_OPTIONS } from "../../../../lib/registrations/options"
import { registeredPayoutsModule } from "../../../../lib/payouts/module"
import { LISTED_EXCEPTION_KINDS } from "../../../../lib/payouts/chargeback-exceptions"

export const MAX_PAGE_SIZE = 200
const DAY_MS = 24 * 60 * 60 * 1000

export function payoutsModule(scope: MedusaContainer): AltaPayPayoutsService {
  const payouts = registeredPayoutsModule(scope)
  if (!payouts) {
    throw new MedusaError(
      MedusaError.Types.NOT_ALLOWED,
      "The AltaPay payouts module is not registered in this store: add the plugin to medusa-config's plugins and run the migrations."
    )
  }
  return payouts
}

export const pageQuery = (defaultLimit: number) => ({
  limit: z.coerce.number().int().min(1).max(MAX_PAGE_SIZE).default(defaultLimit),
  offset: z.coerce.number().int().min(0).default(0),
})

/** `?kind=unfunded&kind=rejected` or `?kind=unfunded,rejected`. */
const kinds = z.preprocess(
  (value) => (value === undefined ? undefined : [value].flat().flatMap((v) => String(v).split(","))),
  z.array(z.enum(LISTED_EXCEPTION_KINDS, { error: `must be one of ${LISTED_EXCEPTION_KINDS.join(", ")}` })).min(1)
)

export const exceptionFilterQuery = {
  kind: kinds.optional(),
  /** One cut-off for every registration instead of each one's payouts.unfundedAfterDays (0: everything not funded yet). */
  unfunded_after_days: z.coerce.number().int().min(0).max(365).optional(),
}

/** The days after which a capture or refund counts as unfunded: per registration, and for payments of any other provider. */
export interface UnfundedAfterDays {
  default: number
  byProvider: Record<string, number>
}

/** Which captures and refunds can be unfunded: older than the days, and (per registration) not before its payouts.reconcileFrom. */
export interface UnfundedCutoff {
  days: UnfundedAfterDays
  /** Provider id -> its payouts.reconcileFrom (YYYY-MM-DD), for the registrations that set one. */
  reconcileFrom: Record<string, string>
}

export function unfundedCutoff(scope: MedusaContainer, override: number | undefined): UnfundedCutoff {
  const entries = findAltaPayProviderEntries(scope.resolve<ConfigModule>(ContainerRegistrationKeys.CONFIG_MODULE))
  const byProvider: Record<string, number> = {}
  const reconcileFrom: Record<string, string> = {}
  for (const entry of entries) {
    const parsed = parsedFor(entry)
    if (!("options" in parsed)) continue
    const providerId = altapayProviderId(entry)
    byProvider[providerId] = override ?? parsed.options.payouts.unfundedAfterDays
    if (parsed.options.payouts.reconcileFrom) reconcileFrom[providerId] = parsed.options.payouts.reconcileFrom
  }
  return { days: { default: override ?? DEFAULT_PAYOUTS_OPTIONS.unfundedAfterDays, byProvider }, reconcileFrom }
}

export function exceptionQuery(cutoff: UnfundedCutoff, kindsAsked: ExceptionKind[] | undefined, page: { limit: number; offset: number }, now = new Date()): ExceptionQuery {
  const before = (d: number) => new Date(now.getTime() - d * DAY_MS)
  const { days } = cutoff
  return {
    ...(kindsAsked ? { kinds: kindsAsked } : {}),
    unfundedBefore: { default: before(days.default), byProvider: Object.fromEntries(Object.entries(days.byProvider).map(([id, d]) => [id, before(d)])) },
    reconcileFrom: Object.fromEntries(Object.entries(cutoff.reconcileFrom).map(([id, day]) => [id, new Date(`${day}T00:00:00Z`)])),
    ...page,
  }
}

/** The funding file, or a 404. */
export async function payoutFile(scope: MedusaContainer, id: string): Promise<FundingFileSummary> {
  const file = await payoutsModule(scope).retrievePayoutFile(id)
  if (!file) throw new MedusaError(MedusaError.Types.NOT_FOUND, `No AltaPay funding file with id ${id} has been imported.`)
  return file
}
