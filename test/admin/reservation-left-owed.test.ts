/**
 * What the panel offers as capturable after an order edit lowered the order below what is still
 * reserved: no more than the order still owes (Medusa's pending difference); the rest of the
 * reservation is not to be captured and only lapses.
 */
import { adminTranslator } from "../../src/admin/i18n/catalogues"
import { canCaptureItems } from "../../src/admin/lib/payment-actions"
import { reservationLeftText } from "../../src/admin/lib/reservation-left"
import { reservationLeft, type ReservationFacts } from "../../src/api/admin/altapay/_lib/reservation-left"
import type { AdminAltaPayPayment } from "../../src/api/admin/altapay/_lib/payment-view"

const facts = (overrides: Partial<ReservationFacts> = {}): ReservationFacts => ({
  reservedMinor: 31483,
  capturedMinor: 11244,
  status: "captured",
  reservedAt: "2026-03-01T12:00:00.000Z",
  invoiceLike: true,
  canceled: false,
  ...overrides,
})

const money = (minor: number) => ({ minor, decimal: (minor / 100).toFixed(2), currency: "DKK" })
const day = (iso: string) => iso.slice(0, 10)

describe("what stays reserved, capped at what the order still owes", () => {
  it("offers only what the order owes as capturable; the rest is not owed and only lapses", () => {
    expect(reservationLeft(facts({ owedMinor: 8995 }))).toEqual({
      amount_minor: 8995,
      reserved_at: "2026-03-01T12:00:00.000Z",
      kind: "invoice",
      lapses_about: "2026-03-29T12:00:00.000Z",
      lapses_by: "2026-03-29T12:00:00.000Z",
      abandoned: false,
      not_owed_minor: 11244,
    })
  })

  it("with nothing owed, the whole rest is abandoned: nothing will capture it", () => {
    expect(reservationLeft(facts({ capturedMinor: 26364, owedMinor: 0 }))).toMatchObject({ amount_minor: 5119, abandoned: true })
    expect(reservationLeft(facts({ capturedMinor: 26364, owedMinor: 0 }))?.not_owed_minor).toBeUndefined()
  })

  it("owing as much as is left, or more (a refund counts as owed again), or not known: all of it is capturable", () => {
    for (const owedMinor of [20239, 25358, null, undefined]) {
      const left = reservationLeft(facts({ owedMinor }))
      expect(left).toMatchObject({ amount_minor: 20239, abandoned: false })
      expect(left).not.toHaveProperty("not_owed_minor")
    }
  })

  it("a canceled payment or order stays abandoned whatever is owed", () => {
    expect(reservationLeft(facts({ canceled: true, owedMinor: 8995 }))).toMatchObject({ amount_minor: 20239, abandoned: true })
    expect(reservationLeft(facts({ canceled: true, owedMinor: 8995 }))).not.toHaveProperty("not_owed_minor")
  })
})

describe("the panel's sentence when the order owes less than is reserved", () => {
  const left = {
    amount: money(8995),
    not_owed: money(11244),
    reserved_at: "2026-03-01T12:00:00.000Z",
    kind: "invoice" as const,
    lapses_about: "2026-03-29T12:00:00.000Z",
    lapses_by: "2026-03-29T12:00:00.000Z",
    abandoned: false,
  }

  it("says what can be captured and what is not to be captured, in every language", () => {
    expect(reservationLeftText(adminTranslator("en"), left, day)).toBe(
      "89.95 DKK is still reserved and can be captured; 112.44 DKK more is reserved that the order does not owe, and is not to be captured. AltaPay cannot release part of a reservation, so what is not captured lapses by itself on about 2026-03-29 (28 days after the reservation)."
    )
    for (const language of ["da", "sv", "nb", "fi", "de"] as const) {
      const text = reservationLeftText(adminTranslator(language), left, day)
      expect(text).toContain("89.95 DKK")
      expect(text).toContain("112.44 DKK")
      expect(text).toContain("2026-03-29")
    }
  })

  it("an abandoned rest (nothing owed) reads as lapsing, and Capture items is not offered", () => {
    const abandoned = { ...left, amount: money(5119), not_owed: undefined, abandoned: true }
    expect(reservationLeftText(adminTranslator("en"), abandoned, day)).toBe(
      "51.19 DKK stays reserved on the customer's Klarna or invoice payment: AltaPay cannot release part of a reservation, so it lapses by itself on about 2026-03-29 (28 days after the reservation)."
    )
    const view = (reservation_left: unknown) =>
      ({
        order_id: "order_1",
        medusa: { amount: money(31483), captured: money(26364), refunded: money(0), canceled_at: null },
        altapay: { transaction_id: "tx_1" },
        reservation_left,
      }) as unknown as AdminAltaPayPayment
    expect(canCaptureItems(view(abandoned))).toBe(false)
    expect(canCaptureItems(view(left))).toBe(true)
  })
})
