import { proportionalAdjustmentLine, withCompensationLine } from "../../../src/altapay/order-lines"
import { issuesOf } from "../../helpers/issues"
import { line } from "./helpers"

describe("withCompensationLine", () => {
  it("adds nothing when the lines already total the amount", () => {
    expect(withCompensationLine([line()], 10000, "DKK")).toEqual([line()])
  })

  it("adds a handling line for the difference, positive or negative", () => {
    expect(withCompensationLine([line()], 10002, "DKK")[1]).toEqual({
      itemId: "rounding",
      description: "Rounding adjustment",
      goodsType: "handling",
      quantity: 1,
      unitPriceMinor: 2,
      taxAmountMinor: 0,
      taxPercent: 0,
    })
    expect(withCompensationLine([line()], 9999, "DKK")[1].unitPriceMinor).toBe(-1)
  })

  it("picks a free item id", () => {
    const lines = [line({ itemId: "rounding" }), line({ itemId: "rounding-2" })]
    expect(withCompensationLine(lines, 1, "DKK")[2].itemId).toBe("rounding-3")
  })
})

describe("proportionalAdjustmentLine", () => {
  const order = [line({ quantity: 2, unitPriceMinor: 4000, taxAmountMinor: 2000 }), line({ itemId: "ship", unitPriceMinor: 2000, taxAmountMinor: 500 })]

  it("splits a partial refund into net and tax like the order", () => {
    expect(proportionalAdjustmentLine(order, 5000, { itemId: "partial-refund", description: "Partial refund" })).toEqual([
      { itemId: "partial-refund", description: "Partial refund", goodsType: "item", quantity: 1, unitPriceMinor: 4000, taxAmountMinor: 1000, taxPercent: 25 },
    ])
  })

  it("gives the effective rate of a mixed-rate order to two decimals", () => {
    const mixed = [line({ taxAmountMinor: 2000 }), line({ itemId: "book", unitPriceMinor: 8000, taxAmountMinor: 0, taxPercent: 0 })]
    const [l] = proportionalAdjustmentLine(mixed, 999)
    expect(l.taxPercent).toBe(12.5)
    expect(l.unitPriceMinor + l.taxAmountMinor).toBe(999)
    expect(l).toMatchObject({ itemId: "partial-refund", description: "Partial refund" })
  })

  it("keeps the unit price positive for a one-minor-unit refund", () => {
    const taxHeavy = [line({ unitPriceMinor: 4000, taxAmountMinor: 6000 })]
    expect(proportionalAdjustmentLine(taxHeavy, 1)[0]).toMatchObject({ unitPriceMinor: 1, taxAmountMinor: 0 })
  })

  it("refuses a zero amount", () => {
    expect(issuesOf(() => proportionalAdjustmentLine(order, 0))[0].field).toBe("amount")
  })
})
