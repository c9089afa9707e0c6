/**
 * What a refused item capture tells the merchant to do instead: the one way that works for the
 * payment, never a way that is refused too (a Klarna payment captured in part before an exchange
 * was told to use Capture items, capture on shipment or capture the rest, and each was refused).
 */
import { insteadOfItemCapture, type ItemCaptureBasis } from "../../../src/lib/item-captures/basis"

describe("insteadOfItemCapture", () => {
  const orderChanged: ItemCaptureBasis = { ok: false, reason: "the order's items no longer match the lines AltaPay reserved" }

  it("nothing when the refusal says what to do itself (captured by amount before)", () => {
    expect(insteadOfItemCapture({ ok: false, reason: "capture the rest by amount", advised: true }, { captured_minor: 5_000 }, true)).toBe("")
  })

  it("a card payment: capture by amount, which cards accept whatever the lines", () => {
    expect(insteadOfItemCapture(orderChanged, { captured_minor: 5_000 }, false)).toMatch(/by amount/)
  })

  it("an invoice payment with nothing captured: capture all of it, its reserved lines as they are", () => {
    expect(insteadOfItemCapture(orderChanged, { captured_minor: null }, true)).toMatch(/^Capture all of it/)
    expect(insteadOfItemCapture(orderChanged, { captured_minor: 0 }, true)).toMatch(/^Capture all of it/)
  })

  it("an invoice payment captured in part: nothing more on it, a payment link for what is due, the rest lapses", () => {
    const text = insteadOfItemCapture(orderChanged, { captured_minor: 21_091 }, true)
    expect(text).toMatch(/^Nothing more can be captured on it/)
    expect(text).toMatch(/payment link/)
    expect(text).toMatch(/lapses/)
    expect(text).not.toMatch(/Capture items|by amount/)
  })
})
