/** Medusa's amounts in minor units: half up to the currency's exponent, and running totals that add up. */
import { MathBN } from "@medusajs/framework/utils"
import { roundedIncrement, toMinorUnits } from "../../../src/lib/medusa-mapping/amounts"

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
