/**
 * What GET /admin/altapay/health and its check answer, for the admin's AltaPay page: figures only,
 * never a secret's value (secrets are present or not), nor the API user's name.
 */
import type { JobRun, PostHealth } from "./recorder"

export type GatewayKind = "sandbox" | "test" | "production"

export interface RegistrationHealth {
  providerId: string
  /** The local sandbox, AltaPay's test gateway, or its production gateway. */
  gateway: GatewayKind
  /** The terminals the options name, each with the option that names it. */
  terminals: Array<{ option: string; title: string; currency?: string }>
  urls: { checkout: string; gateway: string; notification: string; success: string | null; failure: string | null }
  /** Whether each secret is set: never its value. */
  secrets: { password: boolean; callbackSecret: boolean; paymentDataSecret: boolean }
  /** Where callbacks may come from: anywhere, AltaPay's addresses, or the store's own list. */
  callbackSources: "any" | "altapay" | "list"
  posts: PostHealth
}

export interface UncertainAttemptView {
  kind: string
  amountMinor: number
  currency: string
  /** When the door sent it, ms since the epoch. */
  at: number
  providerId: string | null
  paymentId: string | null
  orderId: string | null
  orderDisplayId: number | null
}

export interface ExpiringReservationView {
  paymentId: string
  orderId: string | null
  orderDisplayId: number | null
  providerId: string
  uncapturedMinor: number
  currency: string
  expiresAt: string
  lapsed: boolean
}

export interface AdminAltaPayHealthResponse {
  registrations: RegistrationHealth[]
  jobs: JobRun[]
  uncertain: UncertainAttemptView[]
  /** Reservations not captured whose authorisation ends within the registration's jobs.expiryNoticeDays. */
  expiring: ExpiringReservationView[]
  /** Open payout exceptions; null without the payouts module. */
  payoutExceptions: { count: number } | null
}

export interface AdminAltaPayCheckResponse {
  providerId: string
  checkedAt: string
  /** Whether AltaPay accepted the API user: listed its terminals (yes), refused it (no), or could not tell. */
  credentials: "accepted" | "refused" | "unknown"
  /** The API user's terminals as AltaPay lists them, and which option names each. */
  terminals: Array<{ title: string; currencies: string[]; natures: string[]; namedBy: string[] }>
  /** altapay-check's lines for this registration, as the command prints them (the API user's name left out). */
  lines: Array<{ status: "ok" | "problem" | "note" | "skipped"; text: string }>
}
