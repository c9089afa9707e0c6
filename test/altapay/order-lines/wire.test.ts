import { decimalToMinor } from "../../../src/altapay/money"
import { fromCheckoutOrderLines, plainNumberText, toCheckoutOrderLines, toGatewayOrderLineFields } from "../../../src/altapay/order-lines"
import type { OrderLine } from "../../../src/altapay/types"
import { issuesOf } from "../../helpers/issues"
import { line } from "./helpers"

describe("wire encoders", () => {
  const lines: OrderLine[] = [
    line({ quantity: 3, unitPriceMinor: 322, taxAmountMinor: 242, taxPercent: 25, unitCode: "pcs", imageUrl: "https://e.com/a.png" }),
    line({ itemId: "kg", description: "Coffee beans", quantity: 0.25, unitPriceMinor: 30000, taxAmountMinor: 1875, taxPercent: 12.5, discountPercent: 10 }),
    line({ itemId: "promo", description: "Discount", goodsType: "handling", unitPriceMinor: -5, taxAmountMinor: -1, taxPercent: 0.125 }),
  ]

  it("writes gateway form fields as exact decimal text", () => {
    expect(toGatewayOrderLineFields(lines, "DKK")).toEqual({
      "orderLines[0][description]": "T-shirt",
      "orderLines[0][itemId]": "TS-1",
      "orderLines[0][quantity]": "3",
      "orderLines[0][unitPrice]": "3.22",
      "orderLines[0][taxAmount]": "2.42",
      "orderLines[0][taxPercent]": "25",
      "orderLines[0][goodsType]": "item",
      "orderLines[0][unitCode]": "pcs",
      "orderLines[0][imageUrl]": "https://e.com/a.png",
      "orderLines[1][description]": "Coffee beans",
      "orderLines[1][itemId]": "kg",
      "orderLines[1][quantity]": "0.25",
      "orderLines[1][unitPrice]": "300.00",
      "orderLines[1][taxAmount]": "18.75",
      "orderLines[1][taxPercent]": "12.5",
      "orderLines[1][goodsType]": "item",
      "orderLines[1][discount]": "10",
      "orderLines[2][description]": "Discount",
      "orderLines[2][itemId]": "promo",
      "orderLines[2][quantity]": "1",
      "orderLines[2][unitPrice]": "-0.05",
      "orderLines[2][taxAmount]": "-0.01",
      "orderLines[2][taxPercent]": "0.125",
      "orderLines[2][goodsType]": "handling",
    })
  })

  it("writes Checkout API lines whose JSON numbers print as the exact decimals", () => {
    const json = JSON.stringify(toCheckoutOrderLines(lines, "DKK"))
    expect(json).toContain('"unitPrice":3.22,"taxAmount":2.42,"taxPercent":25')
    expect(json).toContain('"quantity":0.25,"unitPrice":300,"taxAmount":18.75,"taxPercent":12.5,"goodsType":"item","discount":10')
    expect(json).toContain('"unitPrice":-0.05,"taxAmount":-0.01')
  })

  it("writes taxPercent with at most 4 decimals, rounded: a rate computed as 0.0725 * 100 goes out as 7.25", () => {
    const rated = (taxPercent: number) => [line({ taxPercent })]
    expect(toGatewayOrderLineFields(rated(0.0725 * 100), "DKK")["orderLines[0][taxPercent]"]).toBe("7.25")
    expect(toCheckoutOrderLines(rated(0.0725 * 100), "DKK")[0].taxPercent).toBe(7.25)
    expect(toGatewayOrderLineFields(rated(8.87549), "DKK")["orderLines[0][taxPercent]"]).toBe("8.8755")
    expect(toGatewayOrderLineFields(rated(1e-7), "DKK")["orderLines[0][taxPercent]"]).toBe("0")
  })

  it("refuses to encode invalid lines", () => {
    expect(issuesOf(() => toGatewayOrderLineFields([line({ quantity: 0 })], "DKK"))[0].field).toBe("orderLines.0.quantity")
    expect(issuesOf(() => toCheckoutOrderLines([line({ itemId: "" })], "DKK"))[0].field).toBe("orderLines.0.itemId")
  })

  it("reads Checkout API lines back exactly", () => {
    expect(fromCheckoutOrderLines(toCheckoutOrderLines(lines, "DKK"), "DKK")).toEqual(lines)
    const fromStrings = fromCheckoutOrderLines([{ description: "Te", itemId: "te", quantity: "2", unitPrice: "9.66", taxAmount: "4.83", taxPercent: "25", goodsType: null }], "DKK")
    expect(fromStrings).toEqual([{ description: "Te", itemId: "te", quantity: 2, unitPriceMinor: 966, taxAmountMinor: 483, taxPercent: 25 }])
  })

  it("infers a missing taxPercent from the tax amount", () => {
    const [l] = fromCheckoutOrderLines([{ description: "Te", itemId: "te", quantity: 3, unitPrice: 3.33, taxAmount: 0.83 }], "EUR")
    expect(l.taxPercent).toBe(8.31) // 83 / 999
  })

  it("names every missing or malformed field of lines handed over", () => {
    const issues = issuesOf(() =>
      fromCheckoutOrderLines(
        [
          { description: "A", quantity: 1, unitPrice: "abc", taxAmount: 0 },
          { itemId: "b", description: "B", quantity: 1, unitPrice: 1, taxAmount: 0, goodsType: "food" },
        ],
        "DKK"
      )
    )
    expect(issues.map((i) => i.field)).toEqual(expect.arrayContaining(["orderLines.0.itemId", "orderLines.0.unitPrice", "orderLines.1.goodsType"]))
    expect(issuesOf(() => fromCheckoutOrderLines({}, "DKK"))[0].field).toBe("orderLines")
    expect(issuesOf(() => fromCheckoutOrderLines([{ description: "A", itemId: "a", quantity: 1, unitPrice: 1.005, taxAmount: 0 }], "DKK"))[0].field).toBe("orderLines.0.unitPrice")
  })

  it("round-trips gateway decimal text through decimalToMinor", () => {
    const fields = toGatewayOrderLineFields(lines, "DKK")
    expect(decimalToMinor(fields["orderLines[1][unitPrice]"], "DKK")).toBe(30000)
    expect(plainNumberText(1e21)).toBe("1000000000000000000000")
    expect(plainNumberText(1.5e-10)).toBe("0.00000000015")
  })
})
