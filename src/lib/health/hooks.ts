/**
 * The one-line hooks the callback, return and job code calls to feed the health recorder
 * (recorder.ts), each finding the shared store the way its caller already does.
 */
import type { MedusaContainer } from "@medusajs/framework/types"
import { AltaPayCallbackSignatureError, AltaPayStaleCallbackSignatureError, verifyCallbackSignature } from "../../altapay"
import { arrivalTime } from "../callbacks/arrival"
import { altapayProviderId, providerScaleOut } from "../registrations/from-config"
import type { AltaPayOptions } from "../registrations/options"
import type { ServerKeys } from "../registrations/server-keys"
import { processStore, type ScaleOut } from "../scale-out/shared-state"
import { HealthRecorder, signedAt, type PostRoad, type RefusalReason } from "./recorder"

/** The recorder on a registration's (or the provider's) store and locks. */
export const healthOn = (scaleOut: ScaleOut): HealthRecorder => new HealthRecorder(scaleOut.store ?? processStore(), scaleOut.paymentLock)

/** Medusa's id of the registration the provider's options are (options.providerId is its `id`: `card`). */
const medusaId = (options: Pick<AltaPayOptions, "providerId">): string => altapayProviderId({ id: options.providerId })

/** A post the provider or the return endpoint refused. */
export const noteRefused = (scaleOut: ScaleOut, options: AltaPayOptions, road: PostRoad, reason: RefusalReason): Promise<void> =>
  healthOn(scaleOut).refused(medusaId(options), road, reason)

/** The recorder on the Payment module's store, from a request's or a job's container. */
export const healthOf = (scope: MedusaContainer): HealthRecorder => healthOn(providerScaleOut(scope))

/** A post the callbackSources check refused (after its 403 is sent: the answer never waits for the note). */
export async function noteSourceRefused(scope: MedusaContainer, providerId: string, path: string): Promise<void> {
  try {
    await healthOf(scope).refused(providerId, postRoadOf(path), "source")
  } catch {
    // A scope without the Payment module's config: nothing to note in.
  }
}

/** Which road a path of AltaPay's posts is: Medusa's webhook route, or the plugin's return routes. */
export const postRoadOf = (path: string): PostRoad => (path.split("?")[0].includes("/hooks/payment/") ? "callback" : "return")

interface CallbackPost {
  headers: Record<string, unknown>
  rawBody: Buffer
}

/** A notification callback the provider accepted: how late after AltaPay signed it (its stamped arrival). */
export function noteCallbackReceived(scaleOut: ScaleOut, options: AltaPayOptions, arrivalKeys: ServerKeys, post: CallbackPost): Promise<void> {
  const header = post.headers["altapay-signature"]
  const signature = options.callbackSecret ? (Array.isArray(header) ? String(header[0]) : typeof header === "string" ? header : undefined) : undefined
  return healthOn(scaleOut).received(medusaId(options), "callback", signedAt(signature), arrivalTime(post.headers, post.rawBody, arrivalKeys))
}

/** A callback the provider refused: counted when its signature is what failed. */
export async function noteCallbackRefused(scaleOut: ScaleOut, options: AltaPayOptions, error: unknown): Promise<void> {
  if (error instanceof AltaPayCallbackSignatureError) await noteRefused(scaleOut, options, "callback", "signature")
}

interface ReturnPost {
  rawBody?: Buffer
  signatureHeader?: string
}

/**
 * A customer's return AltaPay posted (a GET is the customer's browser, not AltaPay: not noted). With
 * a callbackSecret, a signature that does not verify is a refusal (nothing in the post is trusted);
 * a valid one, fresh or stale, tells how late the post came.
 */
export async function noteReturnPost(registration: { scaleOut: ScaleOut; options: AltaPayOptions }, post: ReturnPost): Promise<void> {
  if (!post.rawBody) return
  const { options } = registration
  const health = healthOn(registration.scaleOut)
  const providerId = medusaId(options)
  if (!options.callbackSecret || !post.signatureHeader) return health.received(providerId, "return", undefined)
  try {
    verifyCallbackSignature({ rawBody: post.rawBody, signatureHeader: post.signatureHeader, secret: options.callbackSecret, toleranceSeconds: options.callbackToleranceSeconds })
  } catch (error) {
    if (!(error instanceof AltaPayStaleCallbackSignatureError)) return health.refused(providerId, "return", "signature")
  }
  await health.received(providerId, "return", signedAt(post.signatureHeader))
}

/** A follow-up or payouts run, as its job reports it. */
export const noteJobRun = (container: MedusaContainer, job: string, summary: { line: string; counts: Record<string, number>; stopped: boolean }): Promise<void> =>
  healthOf(container).jobRan(job, summary)

/** What a payouts run reports per account (lib/payouts/run.ts's AccountRunSummary; not imported: that file calls this one). */
interface PayoutAccountRun {
  filesImported: number
  linesImported: number
  movementsRecorded: number
  matched: { byReconciliationIdentifier: number; byPaymentAndAmount: number }
  problems: string[]
}

/** A payouts import, its accounts' figures added up (a problem does not stop the run: the others go on). */
export function notePayoutRun(container: MedusaContainer, line: string, accounts: PayoutAccountRun[]): Promise<void> {
  const counts: Record<string, number> = {}
  const add = (name: string, n: number) => n > 0 && (counts[name] = (counts[name] ?? 0) + n)
  for (const a of accounts) {
    add("files imported", a.filesImported)
    add("lines imported", a.linesImported)
    add("captures and refunds recorded", a.movementsRecorded)
    add("lines matched", a.matched.byReconciliationIdentifier + a.matched.byPaymentAndAmount)
    add("problems", a.problems.length)
  }
  return noteJobRun(container, "payouts", { line, counts, stopped: false })
}
