/** The panel's sentence about what stays reserved after a partial capture (payment view's `reservation_left`). */
import type { AdminAltaPayPayment } from "../../api/admin/altapay/_lib/payment-view"
import type { AdminT } from "../i18n/catalogues"

type ReservationLeft = NonNullable<AdminAltaPayPayment["reservation_left"]>

/** "12 Mar 2026" in the admin's language; a parameter so tests do not depend on the machine's. */
export type DayFormat = (iso: string) => string

export const dayFormat =
  (language?: string): DayFormat =>
  (iso) =>
    new Date(iso).toLocaleDateString(language, { day: "numeric", month: "short", year: "numeric" })

/**
 * What stays reserved, why AltaPay cannot release it, and until about when: the merchant can
 * tell a customer who asks why the amount is still held. Only what the order still owes is said
 * to be capturable; the rest of the reservation (`not_owed`) is said not to be captured.
 */
export function reservationLeftText(t: AdminT, left: ReservationLeft, day: DayFormat = dayFormat()): string {
  const text = (money: { decimal: string; currency: string }) => `${money.decimal} ${money.currency}`
  const amount = text(left.amount)
  const head = left.abandoned
    ? t(left.kind === "invoice" ? "reservationLeft.abandonedInvoice" : "reservationLeft.abandonedCard", { amount })
    : left.not_owed
      ? t("reservationLeft.stillReservedNotOwed", { amount, notOwed: text(left.not_owed) })
      : t("reservationLeft.stillReserved", { amount })
  if (!left.lapses_about) return t("reservationLeft.noDate", { head })
  if (left.kind === "invoice") return t("reservationLeft.invoiceDate", { head, day: day(left.lapses_about) })
  return t("reservationLeft.cardDate", { head, day: day(left.lapses_about), by: day(left.lapses_by ?? left.lapses_about) })
}
