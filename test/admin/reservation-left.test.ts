import { reservationLeft, type ReservationFacts } from "../../src/api/admin/altapay/_lib/reservation-left"

const facts = (overrides: Partial<ReservationFacts> = {}): ReservationFacts => ({
  reservedMinor: 25000,
  capturedMinor: 10000,
  status: "captured",
  reservedAt: "2026-03-01T12:00:00.000Z",
  invoiceLike: false,
  canceled: false,
  ...overrides,
})

describe("what stays reserved after a partial capture", () => {
  it("is the reserved amount less the captured one, on a card until about 7 days after the reservation and at most about 30", () => {
    expect(reservationLeft(facts())).toEqual({
      amount_minor: 15000,
      reserved_at: "2026-03-01T12:00:00.000Z",
      kind: "card",
      lapses_about: "2026-03-08T12:00:00.000Z",
      lapses_by: "2026-03-31T12:00:00.000Z",
      abandoned: false,
    })
  })

  it("lapses 28 days after the reservation for Klarna and invoice payments", () => {
    const left = reservationLeft(facts({ invoiceLike: true }))
    expect(left).toMatchObject({ kind: "invoice", lapses_about: "2026-03-29T12:00:00.000Z", lapses_by: "2026-03-29T12:00:00.000Z" })
  })

  it("is nothing when nothing or everything was captured, or the reservation was released", () => {
    expect(reservationLeft(facts({ capturedMinor: 0 }))).toBeNull()
    expect(reservationLeft(facts({ capturedMinor: null }))).toBeNull()
    expect(reservationLeft(facts({ capturedMinor: 25000 }))).toBeNull()
    expect(reservationLeft(facts({ status: "released" }))).toBeNull()
  })

  it("says the rest only lapses once Medusa canceled the payment or its order, and gives no dates without a reservation date", () => {
    expect(reservationLeft(facts({ canceled: true }))?.abandoned).toBe(true)
    expect(reservationLeft(facts({ reservedAt: null }))).toMatchObject({ amount_minor: 15000, reserved_at: null, lapses_about: null, lapses_by: null })
  })
})
