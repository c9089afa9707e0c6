import { buildOrderLineSet, mapReservation, orderLinesTotalMinor, pairReservation, reservedLines, sourceTotalMinor, type OrderLineSource } from "../../../src/altapay/order-lines"

type Source = Omit<OrderLineSource, "totalMinor">

/** 2 coffee (89.95) + 1 tea (45.50), 10 % off each, 25 % VAT, shipping 49.00: 314.83 DKK. */
const paid: Source = {
  currency: "DKK",
  items: [
    { id: "cali_coffee", title: "Coffee", sku: "COFFEE", quantity: 2, unitPriceMinor: 8995, taxRates: [{ rate: 25 }], discountMinor: 1799 },
    { id: "cali_tea", title: "Tea", sku: "TEA", quantity: 1, unitPriceMinor: 4550, taxRates: [{ rate: 25 }], discountMinor: 455 },
  ],
  shipping: [{ id: "casm_post", name: "Post", amountMinor: 4900, taxRates: [{ rate: 25 }] }],
}

/** The reservation's lines, as the cart was sent to AltaPay. */
const reserved = buildOrderLineSet({ ...paid, totalMinor: sourceTotalMinor(paid) }).lines

/** The order's lines for its own current total, under the order's own ids (Medusa gives order items new ones). */
function orderLines(source: Source) {
  const order: Source = {
    ...source,
    items: source.items.map((item) => ({ ...item, id: item.id.replace("cali_", "ordli_") })),
    shipping: (source.shipping ?? []).map((method) => ({ ...method, id: method.id.replace("casm_", "ordsm_") })),
  }
  return buildOrderLineSet({ ...order, totalMinor: sourceTotalMinor(order) })
}

describe("pairing an edited order's entries with the reservation's lines", () => {
  it("an order that still matches its reservation pairs as mapReservation does, with nothing unpaired", () => {
    expect(sourceTotalMinor(paid)).toBe(31483)
    const rebuilt = orderLines(paid)
    const whole = mapReservation(reserved, rebuilt)
    expect(whole).toBeDefined()
    expect(pairReservation(reserved, rebuilt)).toEqual({ ...whole, unpaired: [] })
  })

  it("an edit that lowers the coffee (its promotion kept as for two): the tea and the shipping keep their reserved lines, the coffee is unpaired", () => {
    const edited: Source = { ...paid, items: paid.items.map((item) => (item.sku === "COFFEE" ? { ...item, quantity: 1 } : item)) }
    const rebuilt = orderLines(edited)
    expect(sourceTotalMinor(edited)).toBe(20239)
    // The whole reservation no longer maps: item captures and refunds by the full map are refused.
    expect(mapReservation(reserved, rebuilt)).toBeUndefined()

    const paired = pairReservation(reserved, rebuilt)
    expect(paired.unpaired).toEqual([{ id: "ordli_coffee", kind: "item", quantity: 1, title: "Coffee" }])
    expect(paired.entries.map((e) => [e.id, e.kind, e.quantity])).toEqual([
      ["ordli_tea", "item", 1],
      ["ordsm_post", "shipping", 1],
    ])
    // Each paired entry carries the reservation's own lines (the same objects), never rebuilt ones.
    const tea = paired.entries[0]
    for (const line of reservedLines(tea)) expect(reserved).toContain(line)
    expect(reservedLines(tea).map((l) => l.itemId)).toEqual(["TEA", "discount-TEA"])
    expect(orderLinesTotalMinor(reservedLines(tea))).toBe(5119)
    expect(orderLinesTotalMinor(reservedLines(paired.entries[1]))).toBe(6125)
    expect(paired.credits).toEqual([])
  })

  it("a removed item has no lines and pairs with nothing; the other entries keep theirs", () => {
    const edited: Source = { ...paid, items: paid.items.map((item) => (item.sku === "TEA" ? { ...item, quantity: 0 } : item)) }
    const paired = pairReservation(reserved, orderLines(edited))
    expect(paired.unpaired).toEqual([])
    const tea = paired.entries.find((e) => e.id === "ordli_tea")!
    expect(reservedLines(tea)).toEqual([])
    const coffee = paired.entries.find((e) => e.id === "ordli_coffee")!
    expect(orderLinesTotalMinor(reservedLines(coffee))).toBe(orderLinesTotalMinor(reserved.filter((l) => l.itemId.endsWith("COFFEE"))))
  })

  it("takes each reserved line once: a second item with the same lines as a paired one is unpaired, and a changed price unpairs its item only", () => {
    const edited: Source = {
      ...paid,
      items: [
        ...paid.items.map((item) => (item.sku === "COFFEE" ? { ...item, unitPriceMinor: 8895 } : item)),
        { id: "cali_tea2", title: "Tea", sku: "TEA-2", quantity: 1, unitPriceMinor: 4550, taxRates: [{ rate: 25 }], discountMinor: 455 },
      ],
    }
    const rebuilt = orderLines(edited)
    const paired = pairReservation(reserved, rebuilt)
    expect(paired.unpaired.map((e) => e.id).sort()).toEqual(["ordli_coffee", "ordli_tea2"])
    expect(paired.entries.map((e) => e.id)).toEqual(["ordli_tea", "ordsm_post"])
    const taken = paired.entries.flatMap(reservedLines)
    expect(new Set(taken).size).toBe(taken.length)
  })

  it("credit lines pair when they are as reserved", () => {
    const withCredit: Source = { ...paid, credits: [{ id: "cl_1", label: "Gift card", amountMinor: 1000 }] }
    const lines = buildOrderLineSet({ ...withCredit, totalMinor: sourceTotalMinor(withCredit) }).lines
    const edited: Source = { ...withCredit, items: withCredit.items.map((item) => (item.sku === "COFFEE" ? { ...item, quantity: 1 } : item)) }
    const paired = pairReservation(lines, orderLines(edited))
    expect(paired.credits).toEqual(lines.filter((l) => l.itemId === "credit-cl_1"))
    expect(paired.unpaired.map((e) => e.id)).toEqual(["ordli_coffee"])
  })
})
