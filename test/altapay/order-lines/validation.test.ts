import { validateOrderLines } from "../../../src/altapay/order-lines"
import type { OrderLine } from "../../../src/altapay/types"
import { issuesOf } from "../../helpers/issues"
import { line } from "./helpers"

describe("validateOrderLines", () => {
  const valid = (): OrderLine[] => [
    line(),
    line({ itemId: "MUG", description: "Mug", quantity: 2, unitPriceMinor: 4000, taxAmountMinor: 2000 }),
    line({ itemId: "X", description: "X" }),
  ]
  const fieldsFor = (mutate: (l: OrderLine) => void, expectedTotalMinor?: number): string[] => {
    const lines = valid()
    mutate(lines[2])
    return issuesOf(() => validateOrderLines(lines, { currency: "DKK", expectedTotalMinor })).map((i) => i.field)
  }

  it("accepts valid lines", () => {
    expect(() => validateOrderLines(valid(), { currency: "DKK", expectedTotalMinor: 30000 })).not.toThrow()
  })

  it.each<[string, (l: OrderLine) => void, string]>([
    ["description missing", (l) => (l.description = "  "), "orderLines.2.description"],
    ["description over 255 characters", (l) => (l.description = "ø".repeat(256)), "orderLines.2.description"],
    ["itemId missing", (l) => (l.itemId = ""), "orderLines.2.itemId"],
    ["itemId over 100 characters", (l) => (l.itemId = "😀".repeat(51)), "orderLines.2.itemId"],
    ["itemId duplicated", (l) => (l.itemId = "TS-1"), "orderLines.2.itemId"],
    ["quantity zero", (l) => (l.quantity = 0), "orderLines.2.quantity"],
    ["quantity negative", (l) => (l.quantity = -1), "orderLines.2.quantity"],
    ["quantity NaN", (l) => (l.quantity = NaN), "orderLines.2.quantity"],
    ["unit price zero on an item", (l) => (l.unitPriceMinor = 0), "orderLines.2.unitPriceMinor"],
    ["negative price on a discount goodsType", (l) => Object.assign(l, { unitPriceMinor: -100, goodsType: "discount" }), "orderLines.2.unitPriceMinor"],
    ["unit price fractional", (l) => (l.unitPriceMinor = 99.5), "orderLines.2.unitPriceMinor"],
    ["tax amount fractional", (l) => (l.taxAmountMinor = 0.5), "orderLines.2.taxAmountMinor"],
    ["tax amount negative on an item", (l) => (l.taxAmountMinor = -1), "orderLines.2.taxAmountMinor"],
    ["tax percent negative", (l) => (l.taxPercent = -25), "orderLines.2.taxPercent"],
    ["tax percent infinite", (l) => (l.taxPercent = Infinity), "orderLines.2.taxPercent"],
    ["discount over 100%", (l) => (l.discountPercent = 101), "orderLines.2.discountPercent"],
    ["unknown goodsType", (l) => (l.goodsType = "food" as never), "orderLines.2.goodsType"],
    ["unitCode over 50 characters", (l) => (l.unitCode = "k".repeat(51)), "orderLines.2.unitCode"],
    ["imageUrl relative", (l) => (l.imageUrl = "/img.png"), "orderLines.2.imageUrl"],
    ["imageUrl not http(s)", (l) => (l.imageUrl = "javascript:alert(1)"), "orderLines.2.imageUrl"],
    ["imageUrl over 255 characters", (l) => (l.imageUrl = `https://e.com/${"a".repeat(250)}`), "orderLines.2.imageUrl"],
    ["productUrl relative", (l) => (l.productUrl = "shop/item"), "orderLines.2.productUrl"],
  ])("reports %s", (_, mutate, field) => {
    expect(fieldsFor(mutate)).toContain(field)
  })

  it("reports a total that differs from the amount", () => {
    expect(fieldsFor(() => undefined, 29999)).toEqual(["orderLines"])
  })

  it("allows zero and negative prices on handling lines", () => {
    const lines = [...valid(), line({ itemId: "promo", goodsType: "handling", unitPriceMinor: -500, taxAmountMinor: -125 })]
    expect(() => validateOrderLines(lines, { currency: "DKK", expectedTotalMinor: 29375 })).not.toThrow()
  })

  it("lists every issue in one error", () => {
    const lines = valid()
    lines[0].itemId = ""
    lines[1].quantity = 0
    lines[2].imageUrl = "nope"
    const issues = issuesOf(() => validateOrderLines(lines, { currency: "NOPE", expectedTotalMinor: 1 }))
    expect(issues.map((i) => i.field)).toEqual(["currency", "orderLines.0.itemId", "orderLines.1.quantity", "orderLines.2.imageUrl"])
  })

  it("counts characters in UTF-16 units: 127 emoji and a letter fit a description, 128 emoji do not", () => {
    expect(() => validateOrderLines([line({ description: "😀".repeat(127) + "a" })], { currency: "DKK" })).not.toThrow()
    const issues = issuesOf(() => validateOrderLines([line({ description: "😀".repeat(128) })], { currency: "DKK" }))
    expect(issues).toEqual([{ field: "orderLines.0.description", message: "must be at most 255 characters, counted in UTF-16 units (is 256)" }])
  })
})
