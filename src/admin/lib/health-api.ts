/**
 * The AltaPay page's admin routes: the store's health figures and, per registration, the live
 * check. Where each figure's runbook section is in docs/operator.md (shipped in the package).
 */
import type { AdminAltaPayCheckResponse, AdminAltaPayHealthResponse } from "../../lib/health/views"
import type { RefusalReason } from "../../lib/health/recorder"
import { adminFetch } from "./admin-fetch"

export type { AdminAltaPayCheckResponse, AdminAltaPayHealthResponse, RegistrationHealth } from "../../lib/health/views"
export type { JobRun, PostRoad, RefusalReason } from "../../lib/health/recorder"

export const healthQueryKey = ["altapay", "health"] as const

export const loadHealth = (): Promise<AdminAltaPayHealthResponse> => adminFetch("/admin/altapay/health")

export const checkRegistration = (providerId: string): Promise<AdminAltaPayCheckResponse> => adminFetch(`/admin/altapay/health/${encodeURIComponent(providerId)}/check`)

/** The runbook section of each figure: docs/operator.md, "The AltaPay page". */
export const RUNBOOK = {
  check: "docs/operator.md#what-altapay-answers",
  posts: "docs/operator.md#posts-from-altapay",
  refused: {
    signature: "docs/operator.md#refused-signature",
    source: "docs/operator.md#refused-source",
    "unknown-session": "docs/operator.md#refused-unknown-session",
  } satisfies Record<RefusalReason, string>,
  jobs: "docs/operator.md#follow-up-jobs-runs",
} as const

/** The follow-up jobs by the name their runs report (src/lib/follow-up/run.ts), for their catalogue names. */
export const JOB_NAMES = {
  "payment sessions": "paymentSessions",
  "Open refunds and captures": "openResults",
  "money attempts without an answer": "uncertainMoney",
  "reservations about to expire": "expiringReservations",
  payouts: "payouts",
} as const

/** A duration in the admin's language: seconds under two minutes, minutes under two hours, then hours. */
export function formatDuration(ms: number, language: string): string {
  const seconds = Math.round(ms / 1000)
  const [value, unit] = seconds < 120 ? [seconds, "second"] : seconds < 7200 ? [Math.round(seconds / 60), "minute"] : [Math.round(seconds / 3600), "hour"]
  return new Intl.NumberFormat(language, { style: "unit", unit, unitDisplay: "long" }).format(value)
}
