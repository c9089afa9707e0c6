/**
 * When an uncaptured reservation lapses, from AltaPay's AuthorisationExpiryDate kept in the payment
 * data: what the order panel warns about and the follow-up's expiry notice lists. After that a card
 * capture needs a new authorisation, which the issuer may decline (reauth_failed, AltaPay FAQ).
 */
import { AUTHORIZED_STATUSES, statusIn } from "../../altapay"
import type { AltaPayPaymentData } from "./data"

const DAY_MS = 24 * 60 * 60 * 1000

export interface ReservationExpiry {
  /** AltaPay's AuthorisationExpiryDate (ISO 8601). */
  expires_at: string
  /** Whole days left (0: lapses within a day; negative: lapsed). */
  days_left: number
  lapsed: boolean
  /** Reserved and not captured: what lapses. */
  uncaptured_minor: number
}

/** Undefined when AltaPay states no date, or nothing reserved is left to capture. */
export function reservationExpiry(
  data: Pick<AltaPayPaymentData, "authorisation_expires_at" | "transaction_status" | "reserved_minor" | "captured_minor">,
  now: Date
): ReservationExpiry | undefined {
  if (!data.authorisation_expires_at || !statusIn(data.transaction_status ?? undefined, AUTHORIZED_STATUSES)) return undefined
  const uncaptured = (data.reserved_minor ?? 0) - (data.captured_minor ?? 0)
  const at = Date.parse(data.authorisation_expires_at)
  if (uncaptured <= 0 || Number.isNaN(at)) return undefined
  const left = at - now.getTime()
  return { expires_at: new Date(at).toISOString(), days_left: Math.floor(left / DAY_MS), lapsed: left <= 0, uncaptured_minor: uncaptured }
}

/** Whether the merchant should act now: it lapses within `noticeDays` (or has lapsed). */
export const expiresSoon = (expiry: ReservationExpiry | undefined, noticeDays: number): expiry is ReservationExpiry => !!expiry && expiry.days_left < noticeDays
