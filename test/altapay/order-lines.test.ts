import { decimalToMinor } from "../../src/altapay/money"
import {
  buildOrderLines,
  codePointLength,
  fromCheckoutOrderLines,
  lineTotalMinor,
  orderLinesTotalMinor,
  plainNumberText,
  proportionalAdjustmentLine,
  toCheckoutOrderLines,
  toGatewayOrderLineFields,
  truncateText,
  validateOrderLines,
  withCompensationLine,
  type OrderLineSource,
} from "../../src/altapay/order-lines"
import type { OrderLine } from "../../src/altapay/types"
import { issuesOf } from "../helpers/issues"


const line = (over: Partial<OrderLine> = {}): OrderLine => ({
  description: "T-shirt",
  itemId: "TS-1",
  quantity: 1,
  unitPriceMinor: 8000,
  taxAmountMinor: 2000,
  taxPercent: 25,
  goodsType: "item",
  ...over,
})

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
    expect(issuesOf(() => orderLinesTotalMinor([line(), line({ taxAmountMinor: NaN })]))[0].field).toBe(
      "orderLines.1.taxAmountMinor"
    )
  })
})

describe("truncateText", () => {
  it("leaves short text alone apart from trimming", () => {
    expect(truncateText("  Mug  ", 255)).toBe("Mug")
    expect(truncateText("ø".repeat(255), 255)).toBe("ø".repeat(255))
  })

  it("counts characters as code points, so 255 emoji fit in a 255-character description", () => {
    const emoji = "😀".repeat(255)
    expect(emoji.length).toBe(510)
    expect(truncateText(emoji, 255)).toBe(emoji)
  })

  it("cuts long Danish text at 255 characters including the ellipsis", () => {
    const out = truncateText("Rødgrød med fløde og æblegrød ".repeat(20), 255)
    expect(codePointLength(out)).toBeLessThanOrEqual(255)
    expect(out.endsWith("…")).toBe(true)
    expect(out).not.toMatch(/\s…$/)
  })

  it("never splits a surrogate pair at the boundary", () => {
    const out = truncateText("a".repeat(254) + "😀😀", 255)
    expect(out).toBe("a".repeat(254) + "…")
    const emoji = truncateText("😀".repeat(300), 255)
    expect(codePointLength(emoji)).toBe(255)
    expect(emoji).toBe("😀".repeat(254) + "…")
    expect(/[\uD800-\uDBFF](?![\uDC00-\uDFFF])/.test(emoji)).toBe(false)
  })

  it("never splits a joined emoji or a letter from its accent", () => {
    const family = "👨‍👩‍👧" // 5 code points
    expect(truncateText("a".repeat(250) + family + "bb", 255)).toBe("a".repeat(250) + "…")
    expect(truncateText("a".repeat(253) + "e\u0301" + "xyz", 255)).toBe("a".repeat(253) + "…")
  })

  it("adds the ellipsis only when it fits", () => {
    expect(truncateText("abcdef", 3)).toBe("ab…")
    expect(truncateText("abcdef", 1)).toBe("a")
    expect(truncateText("abcdef", 0)).toBe("")
  })
})

describe("buildOrderLines", () => {
  it("builds a Danish 25% VAT cart priced with tax, with a rounding line for the øre left over", () => {
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
      // 149.97 incl. VAT = 119.976 net: 3 x 39.99 + 29.99 tax leaves 0.01 for the rounding line
      { description: "Kaffekop", itemId: "item_2", quantity: 3, unitPriceMinor: 3999, taxAmountMinor: 2999, taxPercent: 25, goodsType: "item" },
      { description: "PostNord", itemId: "sm_1", quantity: 1, unitPriceMinor: 3920, taxAmountMinor: 980, taxPercent: 25, goodsType: "shipment" },
      { description: "Rounding adjustment", itemId: "rounding", quantity: 1, unitPriceMinor: 1, taxAmountMinor: 0, taxPercent: 0, goodsType: "handling" },
    ])
    expect(orderLinesTotalMinor(lines)).toBe(59887)
  })

  it("builds a US-style cart priced without tax, summing state and county rates", () => {
    const rates = [{ rate: 6.25, code: "state" }, { rate: 1.5, code: "county" }]
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
      items: [
        { id: "i1", title: "Sko", sku: "SHOE", quantity: 2, unitPriceMinor: 10000, taxInclusive: true, taxRates: [{ rate: 25 }], discountMinor: 2000 },
      ],
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
      itemId: "gc_1",
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
    // 4500 incl. 10% = 4090.9 net -> 4091 net, 409 tax; 3 x 1364 overshoots by 1 yen
    expect(lines).toEqual([
      expect.objectContaining({ itemId: "i1", unitPriceMinor: 1364, taxAmountMinor: 409, quantity: 3 }),
      expect.objectContaining({ itemId: "rounding", unitPriceMinor: -1, goodsType: "handling" }),
    ])
    const fields = toGatewayOrderLineFields(lines, "JPY")
    expect(fields["orderLines[0][unitPrice]"]).toBe("1364")
    expect(fields["orderLines[0][taxAmount]"]).toBe("409")
    expect(fields["orderLines[1][unitPrice]"]).toBe("-1")
  })

  it("prices KWD and BHD carts in fils (three decimals)", () => {
    const kwd = buildOrderLines({
      currency: "KWD",
      totalMinor: 24690,
      items: [{ id: "i1", title: "Dates", quantity: 2, unitPriceMinor: 12345, taxRates: [] }],
    })
    expect(toGatewayOrderLineFields(kwd, "KWD")["orderLines[0][unitPrice]"]).toBe("12.345")
    const bhd = buildOrderLines({
      currency: "BHD",
      totalMinor: 1106,
      items: [{ id: "i1", title: "Coffee", quantity: 1, unitPriceMinor: 1005, taxRates: [{ rate: 10 }] }],
    })
    expect(bhd).toEqual([expect.objectContaining({ unitPriceMinor: 1005, taxAmountMinor: 101 })]) // 100.5 rounds up
    expect(toCheckoutOrderLines(bhd, "BHD")[0]).toMatchObject({ unitPrice: 1.005, taxAmount: 0.101, taxPercent: 10 })
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
    expect(codePointLength(lines[0].description)).toBe(255)
    expect(codePointLength(lines[0].itemId)).toBe(100)
    expect(codePointLength(lines[0].unitCode!)).toBeLessThanOrEqual(50)
    expect(lines[0].imageUrl).toBeUndefined()
    expect(lines[0].productUrl).toBeUndefined()
  })

  it("keeps valid URLs", () => {
    const [l] = buildOrderLines({
      currency: "DKK",
      totalMinor: 1000,
      items: [
        { id: "i1", title: "Vase", quantity: 1, unitPriceMinor: 1000, taxRates: [], imageUrl: "https://cdn.example.com/v.png", productUrl: "http://shop.example.com/vase", unitCode: "pcs" },
      ],
    })
    expect(l).toMatchObject({ imageUrl: "https://cdn.example.com/v.png", productUrl: "http://shop.example.com/vase", unitCode: "pcs" })
  })

  it("always totals the amount actually charged, whatever the shop's own rounding", () => {
    const base: OrderLineSource = {
      currency: "DKK",
      totalMinor: 0,
      items: [{ id: "i1", title: "Te", quantity: 7, unitPriceMinor: 333, taxInclusive: true, taxRates: [{ rate: 25 }] }],
    }
    for (const totalMinor of [2331, 2330, 2332, 1, 5000]) {
      const lines = buildOrderLines({ ...base, totalMinor })
      expect(orderLinesTotalMinor(lines)).toBe(totalMinor)
    }
  })

  it("reports every problem in the cart at once", () => {
    const issues = issuesOf(() =>
      buildOrderLines({
        currency: "XXY",
        totalMinor: -1,
        items: [{ id: "", title: "A", quantity: 1.5, unitPriceMinor: 10.5, taxRates: [{ rate: -1 }], discountMinor: -5 }],
        credits: [{ id: "c", label: "Credit", amountMinor: -100 }],
      })
    )
    expect(issues.map((i) => i.field).sort()).toEqual(
      [
        "currency",
        "totalMinor",
        "items.0.id",
        "items.0.quantity",
        "items.0.unitPriceMinor",
        "items.0.taxRates.0.rate",
        "items.0.discountMinor",
        "credits.0.amountMinor",
      ].sort()
    )
  })
})

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
    ["itemId over 100 characters", (l) => (l.itemId = "😀".repeat(101)), "orderLines.2.itemId"],
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

  it("counts characters as code points: 255 emoji are a valid description", () => {
    expect(() => validateOrderLines([line({ description: "😀".repeat(255) })], { currency: "DKK" })).not.toThrow()
  })
})

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

describe("wire encoders", () => {
  const lines: OrderLine[] = [
    line({ quantity: 3, unitPriceMinor: 322, taxAmountMinor: 242, taxPercent: 25, unitCode: "pcs", imageUrl: "https://e.com/a.png" }),
    line({ itemId: "kg", description: "Coffee beans", quantity: 0.25, unitPriceMinor: 30000, taxAmountMinor: 1875, taxPercent: 12.5, discountPercent: 10 }),
    line({ itemId: "promo", description: "Discount", goodsType: "handling", unitPriceMinor: -5, taxAmountMinor: -1, taxPercent: 0.0000001 }),
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
      "orderLines[2][taxPercent]": "0.0000001",
      "orderLines[2][goodsType]": "handling",
    })
  })

  it("writes Checkout API lines whose JSON numbers print as the exact decimals", () => {
    const json = JSON.stringify(toCheckoutOrderLines(lines, "DKK"))
    expect(json).toContain('"unitPrice":3.22,"taxAmount":2.42,"taxPercent":25')
    expect(json).toContain('"quantity":0.25,"unitPrice":300,"taxAmount":18.75,"taxPercent":12.5,"goodsType":"item","discount":10')
    expect(json).toContain('"unitPrice":-0.05,"taxAmount":-0.01')
  })

  it("refuses to encode invalid lines", () => {
    expect(issuesOf(() => toGatewayOrderLineFields([line({ quantity: 0 })], "DKK"))[0].field).toBe("orderLines.0.quantity")
    expect(issuesOf(() => toCheckoutOrderLines([line({ itemId: "" })], "DKK"))[0].field).toBe("orderLines.0.itemId")
  })

  it("reads Checkout API lines back exactly", () => {
    expect(fromCheckoutOrderLines(toCheckoutOrderLines(lines, "DKK"), "DKK")).toEqual(lines)
    const fromStrings = fromCheckoutOrderLines(
      [{ description: "Te", itemId: "te", quantity: "2", unitPrice: "9.66", taxAmount: "4.83", taxPercent: "25", goodsType: null }],
      "DKK"
    )
    expect(fromStrings).toEqual([{ description: "Te", itemId: "te", quantity: 2, unitPriceMinor: 966, taxAmountMinor: 483, taxPercent: 25 }])
  })

  it("infers a missing taxPercent from the tax amount", () => {
    const [l] = fromCheckoutOrderLines([{ description: "Te", itemId: "te", quantity: 3, unitPrice: 3.33, taxAmount: 0.83 }], "EUR")
    expect(l.taxPercent).toBe(8.31) // 83 / 999
  })

  it("names every missing or malformed field of lines handed over", () => {
    const issues = issuesOf(() =>
      fromCheckoutOrderLines([{ description: "A", quantity: 1, unitPrice: "abc", taxAmount: 0 }, { itemId: "b", description: "B", quantity: 1, unitPrice: 1, taxAmount: 0, goodsType: "food" }], "DKK")
    )
    expect(issues.map((i) => i.field)).toEqual(
      expect.arrayContaining(["orderLines.0.itemId", "orderLines.0.unitPrice", "orderLines.1.goodsType"])
    )
    expect(issuesOf(() => fromCheckoutOrderLines({}, "DKK"))[0].field).toBe("orderLines")
    expect(issuesOf(() => fromCheckoutOrderLines([{ description: "A", itemId: "a", quantity: 1, unitPrice: 1.005, taxAmount: 0 }], "DKK"))[0].field).toBe(
      "orderLines.0.unitPrice"
    )
  })

  it("round-trips gateway decimal text through decimalToMinor", () => {
    const fields = toGatewayOrderLineFields(lines, "DKK")
    expect(decimalToMinor(fields["orderLines[1][unitPrice]"], "DKK")).toBe(30000)
    expect(plainNumberText(1e21)).toBe("1000000000000000000000")
    expect(plainNumberText(1.5e-10)).toBe("0.00000000015")
  })
})
