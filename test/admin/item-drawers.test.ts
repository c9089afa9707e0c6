import type { AdminAltaPayPayment } from "../../src/api/admin/altapay/_lib/payment-view"
import { chosenQuantities } from "../../src/admin/lib/item-quantities"
import { canCaptureItems } from "../../src/admin/lib/payment-actions"
import { reservationLeftText } from "../../src/admin/lib/reservation-left"
import { adminTranslator } from "../../src/admin/i18n/catalogues"

const rows = [
  { line_item_id: "ordli_mug", left: 2 },
  { line_item_id: "ordli_tea", left: 1 },
]

describe("the quantities typed into an item drawer", () => {
  it("sends the items with a quantity, an empty box meaning none", () => {
    expect(chosenQuantities(rows, { ordli_mug: "2", ordli_tea: "" })).toEqual({ items: [{ line_item_id: "ordli_mug", quantity: 2 }], invalid: false })
    expect(chosenQuantities(rows, {})).toEqual({ items: [], invalid: false })
  })

  it("refuses more than is left, fractions and negative numbers", () => {
    expect(chosenQuantities(rows, { ordli_mug: "3" }).invalid).toBe(true)
    expect(chosenQuantities(rows, { ordli_tea: "0.5" }).invalid).toBe(true)
    expect(chosenQuantities(rows, { ordli_tea: "-1" }).invalid).toBe(true)
    expect(chosenQuantities(rows, { ordli_tea: "x" }).invalid).toBe(true)
  })
})

const money = (minor: number) => ({ minor, decimal: (minor / 100).toFixed(2), currency: "DKK" })
const day = (iso: string) => iso.slice(0, 10)

describe("Capture items on the order panel", () => {
  const view = (medusa: Partial<AdminAltaPayPayment["medusa"]>, transactionId: string | null = "tx_1", orderCanceled = false) =>
    ({
      order_id: "order_1",
      medusa: { amount: money(25000), captured: money(0), refunded: money(0), canceled_at: null, ...medusa },
      altapay: { transaction_id: transactionId },
      reservation_left: orderCanceled ? { abandoned: true } : null,
    }) as unknown as AdminAltaPayPayment

  it("is offered while a paid payment is not fully captured, and neither it nor its order is canceled", () => {
    expect(canCaptureItems(view({}))).toBe(true)
    expect(canCaptureItems(view({ captured: money(10000) }))).toBe(true)
    expect(canCaptureItems(view({ captured: money(25000) }))).toBe(false)
    expect(canCaptureItems(view({ canceled_at: "2026-03-02T00:00:00Z" }))).toBe(false)
    expect(canCaptureItems(view({}, null))).toBe(false)
    // Medusa refunds a canceled order's captures but leaves the payment itself uncanceled.
    expect(canCaptureItems(view({ captured: money(10000) }, "tx_1", true))).toBe(false)
  })
})

const en = adminTranslator("en")

describe("what the panel says stays reserved", () => {
  const left = { amount: money(15000), reserved_at: "2026-03-01T12:00:00.000Z", lapses_about: "2026-03-08T12:00:00.000Z", lapses_by: "2026-03-31T12:00:00.000Z" }

  it("after a canceled order on a card: lapses by itself in about 7 days, at most about 30", () => {
    expect(reservationLeftText(en, { ...left, kind: "card", abandoned: true }, day)).toBe(
      "150.00 DKK stays reserved on the customer's card: AltaPay cannot release part of a reservation, so it lapses by itself on about 2026-03-08 (card reservations usually hold 7 days; some issuers keep them up to about 30 days, to 2026-03-31)."
    )
  })

  it("for Klarna: 28 days; while the order is open it can still be captured", () => {
    expect(reservationLeftText(en, { ...left, kind: "invoice", abandoned: false, lapses_about: "2026-03-29T12:00:00.000Z", lapses_by: "2026-03-29T12:00:00.000Z" }, day)).toBe(
      "150.00 DKK is still reserved and can be captured; AltaPay cannot release part of a reservation, so what is not captured lapses by itself on about 2026-03-29 (28 days after the reservation)."
    )
  })

  it("without the reservation's date, says no date", () => {
    expect(reservationLeftText(en, { ...left, kind: "card", abandoned: true, reserved_at: null, lapses_about: null, lapses_by: null }, day)).toBe(
      "150.00 DKK stays reserved on the customer's card: AltaPay cannot release part of a reservation, so it lapses by itself."
    )
  })

  it("in the admin's language, the whole sentence in its own word order", () => {
    expect(reservationLeftText(adminTranslator("da"), { ...left, kind: "invoice", abandoned: true }, day)).toBe(
      "150.00 DKK forbliver reserveret på kundens Klarna- eller fakturabetaling: AltaPay kan ikke frigive en del af en reservation, så den udløber af sig selv omkring 2026-03-08 (28 dage efter reservationen)."
    )
    expect(reservationLeftText(adminTranslator("de"), { ...left, kind: "card", abandoned: false }, day)).toMatch(
      /^150\.00 DKK ist noch reserviert und kann erfasst werden; .*, etwa am 2026-03-08 \(Kartenreservierungen gelten meist 7 Tage; .* bis 2026-03-31\)\.$/
    )
  })
})
