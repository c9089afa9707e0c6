import {
  buildOrderLines,
  orderLinesTotalMinor,
  textLength,
  toCheckoutOrderLines,
  toGatewayOrderLineFields,
  validateOrderLines,
  type OrderLineSource,
} from "../../../src/altapay/order-lines"
import { AltaPayAmountPrecisionError } from "../../../src/altapay/errors"
import { issuesOf } from "../../helpers/issues"

describe("buildOrderLines", () => {
  it("builds a Danish 25% VAT cart priced with tax: a net the quantity does not divide, with no promotion to carry the rest, becomes two lines, never a rounding line", () => {
    const source: OrderLineSource = {
      currency: "DKK",
      totalMinor: 59887,
      items: [
        { id: "item_1", title: "T-shirt", sku: "TS-1", quantity: 2, unitPriceMinor: 19995, taxInclusive: true, taxRates: [{ rate: 25, code: "DK" }] },
        { id: "item_2", title: "Kaffekop", quantity: 3, unitPriceMinor: 4999, taxInclusive: true, taxRates: [{ rate: 25 }] },
      ],
      shipping: [{ id: "sm_1", name: "PostNord", amountMinor: 4900, taxInclusive: true, taxRates: [{ rate: 25 }] }],
    }
    const lines = buildOrderLines(source)
    expect(lines).toEqual([
      { description: "T-shirt", itemId: "TS-1", quantity: 2, unitPriceMinor: 15996, taxAmountMinor: 7998, taxPercent: 25, goodsType: "item" },
      // 149.97 incl. VAT = 119.976 net -> 119.98 net and 29.99 tax; 119.98 = 2 x 39.99 + 1 x 40.00
      { description: "Kaffekop", itemId: "item_2", quantity: 2, unitPriceMinor: 3999, taxAmountMinor: 1999, taxPercent: 25, goodsType: "item" },
      { description: "Kaffekop", itemId: "item_2-2", quantity: 1, unitPriceMinor: 4000, taxAmountMinor: 1000, taxPercent: 25, goodsType: "item" },
      { description: "PostNord", itemId: "sm_1", quantity: 1, unitPriceMinor: 3920, taxAmountMinor: 980, taxPercent: 25, goodsType: "shipment" },
    ])
    expect(orderLinesTotalMinor(lines)).toBe(59887)
  })

  it("keeps a product with a promotion on one line: its promotion line carries what the rounded unit price misses", () => {
    const cups = (promotion: string, totalMinor: number) =>
      buildOrderLines({
        currency: "DKK",
        totalMinor,
        items: [
          {
            id: "item_2",
            title: "Kaffekop",
            quantity: 3,
            unitPriceMinor: 4999,
            taxInclusive: true,
            taxRates: [{ rate: 25 }],
            adjustments: [{ amountMinor: promotion, taxInclusive: true }],
          },
        ],
      })
    // 119.98 net and 29.99 tax, less a 10 % promotion of 12.00 and 3.00 tax: the goods at 3 x 39.99,
    // and the promotion 0.01 smaller (the tax on 0.01 rounds to nothing).
    expect(cups("1499.7", 13497)).toEqual([
      { description: "Kaffekop", itemId: "item_2", quantity: 3, unitPriceMinor: 3999, taxAmountMinor: 2999, taxPercent: 25, goodsType: "item" },
      { description: "Discount: Kaffekop", itemId: "discount-item_2", quantity: 1, unitPriceMinor: -1199, taxAmountMinor: -300, taxPercent: 25, goodsType: "handling" },
    ])
    // A promotion of 0.01 cannot give up 0.01: the goods go at 3 x 40.00 (tax 30.00) and the promotion grows to 0.04.
    const lines = cups("1", 14996)
    expect(lines.map((l) => [l.quantity, l.unitPriceMinor, l.taxAmountMinor])).toEqual([
      [3, 4000, 3000],
      [1, -3, -1],
    ])
    expect(orderLinesTotalMinor(lines)).toBe(14996)
  })

  it("rounds once for the whole cart: one item of 10.02 excl. 25 % VAT with a 10 % promotion", () => {
    // Medusa: total 11.2725, tax 2.2545. Lines: 10.02 + 2.50 tax, promotion -1.00 - 0.25 tax; no rounding line.
    const lines = buildOrderLines({
      currency: "DKK",
      totalMinor: 1127,
      items: [{ id: "i1", title: "Te", quantity: 1, unitPriceMinor: 1002, taxRates: [{ rate: 25 }], adjustments: [{ amountMinor: "100.2", taxInclusive: false }] }],
    })
    expect(lines.map((l) => [l.itemId, l.unitPriceMinor, l.taxAmountMinor])).toEqual([
      ["i1", 1002, 250],
      ["discount-i1", -100, -25],
    ])
    expect(lines.reduce((sum, l) => sum + l.taxAmountMinor, 0)).toBe(225) // Medusa's 2.2545, rounded
  })

  it("builds a US-style cart priced without tax, summing state and county rates", () => {
    const rates = [
      { rate: 6.25, code: "state" },
      { rate: 1.5, code: "county" },
    ]
    const lines = buildOrderLines({
      currency: "USD",
      totalMinor: 12847,
      items: [
        { id: "i1", title: "Widget", sku: "W-1", quantity: 3, unitPriceMinor: 1999, taxRates: rates },
        { id: "i2", title: "Gadget", sku: "G-1", quantity: 1, unitPriceMinor: 4999, taxRates: rates },
      ],
      shipping: [{ id: "ship", name: "UPS Ground", amountMinor: 999, taxRates: [] }],
    })
    expect(lines.map((l) => [l.itemId, l.unitPriceMinor, l.quantity, l.taxAmountMinor, l.taxPercent])).toEqual([
      ["W-1", 1999, 3, 465, 7.75], // 59.97 * 7.75% = 4.647675
      ["G-1", 4999, 1, 387, 7.75], // 3.874225
      ["ship", 999, 1, 0, 0],
    ])
    expect(orderLinesTotalMinor(lines)).toBe(12847)
  })

  it("turns a percentage promotion into a negative handling line carrying its share of the tax", () => {
    const lines = buildOrderLines({
      currency: "DKK",
      totalMinor: 18000,
      items: [{ id: "i1", title: "Sko", sku: "SHOE", quantity: 2, unitPriceMinor: 10000, taxInclusive: true, taxRates: [{ rate: 25 }], discountMinor: 2000 }],
    })
    expect(lines).toEqual([
      { description: "Sko", itemId: "SHOE", quantity: 2, unitPriceMinor: 8000, taxAmountMinor: 4000, taxPercent: 25, goodsType: "item" },
      { description: "Discount: Sko", itemId: "discount-SHOE", quantity: 1, unitPriceMinor: -1600, taxAmountMinor: -400, taxPercent: 25, goodsType: "handling" },
    ])
  })

  it("taxes a promotion on a net-priced item at the item's rate", () => {
    const lines = buildOrderLines({
      currency: "EUR",
      totalMinor: 1125,
      items: [{ id: "i1", title: "Book", quantity: 1, unitPriceMinor: 1000, taxRates: [{ rate: 25 }], discountMinor: 100 }],
    })
    expect(lines[1]).toMatchObject({ itemId: "discount-i1", unitPriceMinor: -100, taxAmountMinor: -25 })
    expect(lines).toHaveLength(2)
  })

  it("shows shipping with its tax, and a free-shipping promotion as its own line", () => {
    const lines = buildOrderLines({
      currency: "EUR",
      totalMinor: 2500,
      items: [{ id: "i1", title: "Lamp", quantity: 1, unitPriceMinor: 2000, taxRates: [{ rate: 25 }] }],
      shipping: [{ id: "sm_1", name: "DHL", amountMinor: 500, taxRates: [{ rate: 25 }], discountMinor: 500 }],
    })
    expect(lines.slice(1)).toEqual([
      { description: "DHL", itemId: "sm_1", quantity: 1, unitPriceMinor: 500, taxAmountMinor: 125, taxPercent: 25, goodsType: "shipment" },
      { description: "Discount: DHL", itemId: "discount-sm_1", quantity: 1, unitPriceMinor: -500, taxAmountMinor: -125, taxPercent: 25, goodsType: "handling" },
    ])
  })

  it("leaves out free shipping, zero-priced items and empty quantities", () => {
    const lines = buildOrderLines({
      currency: "DKK",
      totalMinor: 1000,
      items: [
        { id: "i1", title: "Gift wrap", quantity: 1, unitPriceMinor: 0, taxRates: [] },
        { id: "i2", title: "Removed", quantity: 0, unitPriceMinor: 500, taxRates: [] },
        { id: "i3", title: "Poster", quantity: 1, unitPriceMinor: 1000, taxRates: [] },
      ],
      shipping: [{ id: "pickup", name: "Pick-up in store", amountMinor: 0, taxRates: [{ rate: 25 }] }],
    })
    expect(lines.map((l) => l.itemId)).toEqual(["i3"])
  })

  it("shows a gift-card redemption as a negative handling line without tax, and a bought gift card as gift_card", () => {
    const lines = buildOrderLines({
      currency: "DKK",
      totalMinor: 15000,
      items: [
        { id: "i1", title: "Jakke", quantity: 1, unitPriceMinor: 15000, taxInclusive: true, taxRates: [{ rate: 25 }] },
        { id: "i2", title: "Gavekort 50 kr", quantity: 1, unitPriceMinor: 5000, taxRates: [], goodsType: "gift_card" },
      ],
      credits: [{ id: "gc_1", label: "Gift card ****1234", amountMinor: 5000 }],
    })
    expect(lines[1]).toMatchObject({ itemId: "i2", goodsType: "gift_card", unitPriceMinor: 5000, taxAmountMinor: 0 })
    expect(lines[2]).toEqual({
      description: "Gift card ****1234",
      itemId: "credit-gc_1",
      quantity: 1,
      unitPriceMinor: -5000,
      taxAmountMinor: 0,
      taxPercent: 0,
      goodsType: "handling",
    })
    expect(lines).toHaveLength(3)
  })

  it("prices a JPY cart in whole yen", () => {
    const lines = buildOrderLines({
      currency: "JPY",
      totalMinor: 4500,
      items: [{ id: "i1", title: "お茶", quantity: 3, unitPriceMinor: 1500, taxInclusive: true, taxRates: [{ rate: 10 }] }],
    })
    // 4500 incl. 10% = 4090.9 net -> 4091 net, 409 tax; 4091 = 1 x 1363 + 2 x 1364
    expect(lines).toEqual([
      expect.objectContaining({ itemId: "i1", unitPriceMinor: 1363, taxAmountMinor: 136, quantity: 1 }),
      expect.objectContaining({ itemId: "i1-2", unitPriceMinor: 1364, taxAmountMinor: 273, quantity: 2 }),
    ])
    const fields = toGatewayOrderLineFields(lines, "JPY")
    expect(fields["orderLines[0][unitPrice]"]).toBe("1363")
    expect(fields["orderLines[1][taxAmount]"]).toBe("273")
  })

  it("keeps prices with more digits than the currency exact (Medusa stores 7.728 DKK)", () => {
    const lines = buildOrderLines({
      currency: "DKK",
      totalMinor: 966,
      items: [{ id: "i1", title: "Sample", quantity: 1, unitPriceMinor: "772.8", taxRates: [{ rate: 25 }] }],
    })
    expect(lines).toEqual([expect.objectContaining({ unitPriceMinor: 773, taxAmountMinor: 193 })]) // 7.728 + 1.932 = 9.66
  })

  it("prices KWD and BHD carts in fils (three decimals), and sends them with AltaPay's 2 decimals only when they fit", () => {
    const kwd = buildOrderLines({
      currency: "KWD",
      totalMinor: 24690,
      items: [{ id: "i1", title: "Dates", quantity: 2, unitPriceMinor: 12345, taxRates: [] }],
    })
    expect(kwd).toEqual([expect.objectContaining({ unitPriceMinor: 12345 })])
    // 12.345 KWD has no 2-decimal form: refused, never rounded to 12.35 as AltaPay's PHP plugins would.
    expect(() => toGatewayOrderLineFields(kwd, "KWD")).toThrow(AltaPayAmountPrecisionError)
    expect(issuesOf(() => toGatewayOrderLineFields(kwd, "KWD"))).toEqual([{ field: "orderLines.0.unitPrice", message: "12.345 KWD does not fit 2 decimals" }])
    const whole = buildOrderLines({
      currency: "KWD",
      totalMinor: 24680,
      items: [{ id: "i1", title: "Dates", quantity: 2, unitPriceMinor: 12340, taxRates: [] }],
    })
    expect(toGatewayOrderLineFields(whole, "KWD")["orderLines[0][unitPrice]"]).toBe("12.34")
    expect(toCheckoutOrderLines(whole, "KWD")[0]).toMatchObject({ unitPrice: 12.34, taxAmount: 0 })
    const bhd = buildOrderLines({
      currency: "BHD",
      totalMinor: 1106,
      items: [{ id: "i1", title: "Coffee", quantity: 1, unitPriceMinor: 1005, taxRates: [{ rate: 10 }] }],
    })
    expect(bhd).toEqual([expect.objectContaining({ unitPriceMinor: 1005, taxAmountMinor: 101 })]) // 100.5 rounds up
    expect(issuesOf(() => toCheckoutOrderLines(bhd, "BHD"))).toEqual([
      { field: "orderLines.0.unitPrice", message: "1.005 BHD does not fit 2 decimals" },
      { field: "orderLines.0.taxAmount", message: "0.101 BHD does not fit 2 decimals" },
    ])
  })

  it("uses SKUs as item ids only when they are unique, and keeps every item id unique", () => {
    const lines = buildOrderLines({
      currency: "EUR",
      totalMinor: 600,
      items: [
        { id: "item_1", title: "Shirt S", sku: "SHIRT", quantity: 1, unitPriceMinor: 100, taxRates: [] },
        { id: "item_2", title: "Shirt M", sku: "SHIRT", quantity: 1, unitPriceMinor: 100, taxRates: [] },
        { id: "item_3", title: "Cap", sku: "item_1", quantity: 1, unitPriceMinor: 100, taxRates: [] },
        { id: "item_4", title: "Sock", sku: "  ", quantity: 1, unitPriceMinor: 100, taxRates: [] },
      ],
      shipping: [{ id: "item_4", name: "Post", amountMinor: 200, taxRates: [] }],
    })
    expect(lines.map((l) => l.itemId)).toEqual(["item_1", "item_2", "item_1-2", "item_4", "item_4-2"])
  })

  it("shortens long titles, SKUs and unit codes, and drops unusable URLs", () => {
    const lines = buildOrderLines({
      currency: "DKK",
      totalMinor: 1000,
      items: [
        {
          id: "i1",
          title: "Æ".repeat(300),
          sku: "S".repeat(150),
          quantity: 1,
          unitPriceMinor: 1000,
          taxRates: [],
          unitCode: "kilogram ".repeat(10),
          imageUrl: `https://cdn.example.com/${"x".repeat(300)}.png`,
          productUrl: "/products/relative",
          discountMinor: 0,
        },
      ],
    })
    expect(textLength(lines[0].description)).toBe(255)
    expect(textLength(lines[0].itemId)).toBe(100)
    expect(textLength(lines[0].unitCode!)).toBeLessThanOrEqual(50)
    expect(lines[0].imageUrl).toBeUndefined()
    expect(lines[0].productUrl).toBeUndefined()
  })

  it("fits emoji titles and SKUs in UTF-16 units and leaves control characters out", () => {
    const lines = buildOrderLines({
      currency: "DKK",
      totalMinor: 2000,
      items: [
        { id: "i1", title: "😀".repeat(300), sku: "🎁".repeat(60), quantity: 1, unitPriceMinor: 1000, taxRates: [] },
        { id: "i2", title: "Mug\u0000\nblue\t", sku: "MUG\u0007", quantity: 1, unitPriceMinor: 1000, taxRates: [], unitCode: "pcs\r\n" },
      ],
    })
    expect(lines[0].description).toBe("😀".repeat(127) + "…")
    expect(lines[0].itemId).toBe("🎁".repeat(49) + "…")
    expect(lines[1]).toMatchObject({ description: "Mug blue", itemId: "MUG", unitCode: "pcs" })
    validateOrderLines(lines, { currency: "DKK", expectedTotalMinor: 2000 })
  })

  it("keeps valid URLs", () => {
    const [l] = buildOrderLines({
      currency: "DKK",
      totalMinor: 1000,
      items: [
        {
          id: "i1",
          title: "Vase",
          quantity: 1,
          unitPriceMinor: 1000,
          taxRates: [],
          imageUrl: "https://cdn.example.com/v.png",
          productUrl: "http://shop.example.com/vase",
          unitCode: "pcs",
        },
      ],
    })
    expect(l).toMatchObject({ imageUrl: "https://cdn.example.com/v.png", productUrl: "http://shop.example.com/vase", unitCode: "pcs" })
  })

  it("totals the cart's own total rounded down or up, and refuses any other amount", () => {
    const base: OrderLineSource = {
      currency: "DKK",
      totalMinor: 0,
      items: [{ id: "i1", title: "Te", quantity: 7, unitPriceMinor: "333.3", taxInclusive: true, taxRates: [{ rate: 25 }] }],
    }
    for (const totalMinor of [2333, 2334]) expect(orderLinesTotalMinor(buildOrderLines({ ...base, totalMinor }))).toBe(totalMinor) // 23.331 exactly
    for (const totalMinor of [2332, 2335, 1, 5000]) {
      expect(issuesOf(() => buildOrderLines({ ...base, totalMinor }))).toEqual([
        { field: "totalMinor", message: `is ${totalMinor}, but this cart comes to 2333.1 minor units: lines can only total that, rounded` },
      ])
    }
  })

  it("names the bound a whole quantity is over, rather than calling it not whole", () => {
    const tooMany: OrderLineSource = { currency: "DKK", totalMinor: 2_000_000_000, items: [{ id: "i1", title: "Pin", quantity: 2_000_000_000, unitPriceMinor: 1, taxRates: [] }] }
    expect(issuesOf(() => buildOrderLines(tooMany))).toEqual([{ field: "items.0.quantity", message: "is 2000000000, more than the 1,000,000,000 units one order line takes" }])
  })

  it("reports every problem in the cart at once", () => {
    const issues = issuesOf(() =>
      buildOrderLines({
        currency: "XXY",
        totalMinor: -1,
        items: [{ id: "", title: "A", quantity: 1.5, unitPriceMinor: "ten", taxRates: [{ rate: -1 }], discountMinor: -5 }],
        credits: [{ id: "c", label: "Credit", amountMinor: -100 }],
      })
    )
    expect(issues.map((i) => i.field).sort()).toEqual(
      ["currency", "totalMinor", "items.0.id", "items.0.quantity", "items.0.unitPriceMinor", "items.0.taxRates.0.rate", "items.0.discountMinor", "credits.0.amountMinor"].sort()
    )
  })
})
