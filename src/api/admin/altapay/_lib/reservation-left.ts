/**
 * What stays reserved at AltaPay after a partial capture, and until about when. AltaPay cannot
 * release part of a reservation (releaseReservation: "A release always covers the full amount of
 * the reservation"; docs/altapay-wire-facts.md), and Medusa releases only payments with nothing
 * captured (cancelling an order refunds its captured payments), so the rest is left to lapse.
 * Only what the order still owes is offered as capturable: after an order edit lowered the order
 * (or with a surcharge, never captured) the rest of the reservation is not to be captured and only
 * lapses. Pure: the payment view passes in what it knows.
 */

/** How long a reservation holds, in days from the reservation, by AltaPay's documentation. */
export const RESERVATION_DAYS = {
  /** AltaPay FAQ ("How long is a Credit Card Reservation valid?"): it depends on the issuing bank; Visa 7 days, Mastercard at least 3 bank days, in practice often still valid after 28 days. */
  card: { usual: 7, latest: 30 },
  /** Scenarios, "Partially capture a Klarna payment": the last capture within 28 days of the reservation. */
  invoice: { usual: 28, latest: 28 },
} as const

export interface ReservationLeft {
  /** What stays reserved: all of it when `abandoned`, else what can still be captured (no more than the order still owes). */
  amount_minor: number
  /** When AltaPay made the reservation; null when unknown (then no dates either). */
  reserved_at: string | null
  /** card: the issuer's hold; invoice: Klarna and invoice methods (28 days). */
  kind: keyof typeof RESERVATION_DAYS
  /** When such a reservation usually lapses (card: 7 days; invoice: 28 days). */
  lapses_about: string | null
  /** The latest it can hold (card: about 30 days; invoice: 28 days). */
  lapses_by: string | null
  /** Medusa canceled the payment or its order, or the order owes nothing more: nothing will capture the rest, it only lapses. */
  abandoned: boolean
  /**
   * Beside a capturable `amount_minor`: the rest of the reservation, which the order does not owe
   * (an edit lowered it after a partial capture, a surcharge): not to be captured, it only lapses.
   * Absent when there is none.
   */
  not_owed_minor?: number
}

export interface ReservationFacts {
  reservedMinor: number | null
  capturedMinor: number | null
  /** AltaPay's TransactionStatus. */
  status: string | null
  /** AltaPay's CreatedDate of the transaction, or when the provider saw it authorized. */
  reservedAt: string | null
  /** Klarna or another invoice method (lib/item-captures/basis.ts `wholeItemsOnly`, the rule item captures follow). */
  invoiceLike: boolean
  canceled: boolean
  /**
   * What the payment's order still owes (Medusa's pending difference, never less than 0;
   * lib/medusa-mapping/amount-due.ts), in minor units; undefined or null when not known: then all
   * of what is left counts as capturable.
   */
  owedMinor?: number | null
}

const DAY_MS = 24 * 60 * 60 * 1000

/** Null unless part was captured and part is still reserved (nothing captured: Medusa's cancel releases it all). */
export function reservationLeft(facts: ReservationFacts): ReservationLeft | null {
  const captured = facts.capturedMinor ?? 0
  const left = (facts.reservedMinor ?? 0) - captured
  if (captured <= 0 || left <= 0 || facts.status?.toLowerCase() === "released") return null
  const kind = facts.invoiceLike ? "invoice" : "card"
  const from = facts.reservedAt ? new Date(facts.reservedAt).getTime() : NaN
  const after = (days: number) => (Number.isNaN(from) ? null : new Date(from + days * DAY_MS).toISOString())
  const owed = facts.owedMinor ?? left
  const abandoned = facts.canceled || owed <= 0
  const capturable = abandoned ? left : Math.min(left, owed)
  return {
    amount_minor: capturable,
    reserved_at: Number.isNaN(from) ? null : new Date(from).toISOString(),
    kind,
    lapses_about: after(RESERVATION_DAYS[kind].usual),
    lapses_by: after(RESERVATION_DAYS[kind].latest),
    abandoned,
    ...(capturable < left ? { not_owed_minor: left - capturable } : {}),
  }
}
