/** The panel's sentence about what stays reserved after a partial capture (payment view's `reservation_left`). */
import type { AdminAltaPayPayment } from "../../api/admin/altapay/_lib/payment-view"

type ReservationLeft = NonNullable<AdminAltaPayPayment["reservation_left"]>

/** "12 Mar 2026" in the admin's locale; a parameter so tests do not depend on the machine's. */
export type DayFormat = (iso: string) => string

export const formatDay: DayFormat = (iso) => new Date(iso).toLocaleDateString(undefined, { day: "numeric", month: "short", year: "numeric" })

/**
 * What stays reserved, why AltaPay cannot release it, and until about when: the merchant can
 * tell a customer who asks why the amount is still held.
 */
export function reservationLeftText(left: ReservationLeft, day: DayFormat = formatDay): string {
  const amount = `${left.amount.decimal} ${left.amount.currency}`
  const where = left.kind === "invoice" ? "Klarna or invoice payment" : "card"
  const head = left.abandoned
    ? `${amount} stays reserved on the customer's ${where}: AltaPay cannot release part of a reservation, so it lapses by itself`
    : `${amount} is still reserved and can be captured; AltaPay cannot release part of a reservation, so what is not captured lapses by itself`
  if (!left.lapses_about) return `${head}.`
  if (left.kind === "invoice") return `${head} on about ${day(left.lapses_about)} (28 days after the reservation).`
  return `${head} on about ${day(left.lapses_about)} (card reservations usually hold 7 days; some issuers keep them up to about 30 days, to ${day(left.lapses_by ?? left.lapses_about)}).`
}
