/** Medusa's amounts in minor units: half up to the currency's exponent, and running totals that add up. */
import { BigNumber, MathBN } from "@medusajs/framework/utils"
import { exactMinorText, payableMinorUnits, roundedIncrement, toMinorUnits } from "../../../src/lib/medusa-mapping/amounts"

// 1/3 × 3 is 0.99999999999999999999 in bignumber.js: a cart of half a yen, computed, falls a hair short.
const computedHalfYen = new BigNumber(MathBN.add(MathBN.mult(MathBN.div(1, 3), 3), 8001.5))

it("rounds a computed total as Medusa stores it: a cart of 8,002.5 yen and its payment collection both come to 8,003", () => {
  expect(computedHalfYen.raw?.value).toBe("8002.5000000000000000")
  expect(MathBN.convert(computedHalfYen).lt(8002.5)).toBe(true)
  expect(toMinorUnits(computedHalfYen, "JPY")).toBe(8003)
  expect(toMinorUnits(computedHalfYen.raw!, "JPY")).toBe(8003)
  // The builder keeps every computed digit: it rounds each item as Medusa computed it.
  expect(exactMinorText(computedHalfYen, "JPY")).toMatch(/^8002\.4999999999999999999/)
})

it("rounds half up to the currency's exponent, and running totals add up to the total rounded once", () => {
  expect([toMinorUnits("10.005", "DKK"), toMinorUnits("10.004", "DKK"), toMinorUnits({ value: "0.5", precision: 20 }, "JPY"), toMinorUnits("1.0005", "KWD")]).toEqual([
    1001, 1000, 1, 1001,
  ])
  const parts = ["0.5", "0.5", "1.2"]
  let before = MathBN.convert(0)
  const moved = parts.map((part) => {
    const minor = roundedIncrement(before, part, "JPY")
    before = MathBN.add(before, part)
    return minor
  })
  expect(moved).toEqual([1, 0, 1])
  expect(moved.reduce((a, b) => a + b)).toBe(toMinorUnits("2.2", "JPY"))
})

it("refuses, as the merchant's 400, a payment larger than one AltaPay payment takes, however large", () => {
  expect(payableMinorUnits("9999999999999.99", "DKK", "Cart cart_1")).toBe(999_999_999_999_999)
  for (const [amount, currency, shown] of [
    ["10000000000000.00", "DKK", "10000000000000.00 DKK"],
    ["124999999987561.25", "DKK", "124999999987561.25 DKK"],
    ["9900000000000770", "JPY", "9900000000000770 JPY"],
  ]) {
    expect(() => payableMinorUnits(amount, currency, "Cart cart_1")).toThrow(
      expect.objectContaining({
        type: "invalid_data",
        message: `Cart cart_1 comes to ${shown}, more than one AltaPay payment takes (at most ${currency === "JPY" ? "999999999999999" : "9999999999999.99"} ${currency}). Nothing was sent to AltaPay.`,
      })
    )
  }
})
