import { lineTotalMinor, orderLinesTotalMinor } from "../../../src/altapay/order-lines"
import { issuesOf } from "../../helpers/issues"
import { line } from "./helpers"

describe("lineTotalMinor", () => {
  it("is unit price times quantity plus the line's tax", () => {
    expect(lineTotalMinor(line({ quantity: 3, unitPriceMinor: 3999, taxAmountMinor: 2999 }))).toBe(14996)
  })

  it("applies the line discount percentage, rounding half away from zero", () => {
    expect(lineTotalMinor(line({ unitPriceMinor: 1001, taxAmountMinor: 0, discountPercent: 50 }))).toBe(501)
    expect(lineTotalMinor(line({ unitPriceMinor: -1001, taxAmountMinor: 0, goodsType: "handling", discountPercent: 50 }))).toBe(-501)
    expect(lineTotalMinor(line({ unitPriceMinor: 1999, taxAmountMinor: 500, discountPercent: 12.5 }))).toBe(2187) // 2186.625
    expect(lineTotalMinor(line({ discountPercent: 100 }))).toBe(0)
  })

  it("multiplies decimal quantities exactly (no float drift)", () => {
    // 0.1 + 0.2 style trap: 3 * 0.1 kg at 1000 per kg is exactly 300
    expect(lineTotalMinor(line({ quantity: 0.3, unitPriceMinor: 1000, taxAmountMinor: 0 }))).toBe(300)
    expect(lineTotalMinor(line({ quantity: 1.5, unitPriceMinor: 1000, taxAmountMinor: 375, discountPercent: 10 }))).toBe(1688)
    expect(lineTotalMinor(line({ quantity: 0.125, unitPriceMinor: 4, taxAmountMinor: 0 }))).toBe(1) // 0.5 rounds up
  })

  it("refuses lines it cannot total, naming the field", () => {
    expect(issuesOf(() => lineTotalMinor(line({ quantity: 0 })))[0].field).toBe("orderLine.quantity")
    expect(issuesOf(() => lineTotalMinor(line({ unitPriceMinor: 1.5 })))[0].field).toBe("orderLine.unitPriceMinor")
    expect(issuesOf(() => orderLinesTotalMinor([line(), line({ taxAmountMinor: NaN })]))[0].field).toBe("orderLines.1.taxAmountMinor")
  })
})
