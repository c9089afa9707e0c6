import { buildOrderLineSet, isCreditLine, reservedCredits, sourceTotalMinor, type OrderLineSource } from "../../../src/altapay/order-lines"

type Source = Omit<OrderLineSource, "totalMinor">

/** 2 coffee (89.95) + 1 tea (45.50), 10 % off each, 25 % VAT, shipping 49.00: 314.83 DKK. */
const goods: Source = {
  currency: "DKK",
  items: [
    { id: "cali_coffee", title: "Coffee", sku: "COFFEE", quantity: 2, unitPriceMinor: 8995, taxRates: [{ rate: 25 }], discountMinor: 1799 },
    { id: "cali_tea", title: "Tea", sku: "TEA", quantity: 1, unitPriceMinor: 4550, taxRates: [{ rate: 25 }], discountMinor: 455 },
  ],
  shipping: [{ id: "casm_post", name: "Post", amountMinor: 4900, taxRates: [{ rate: 25 }] }],
}

const reservedWith = (credits: Source["credits"]) => {
  const source = { ...goods, credits }
  return buildOrderLineSet({ ...source, totalMinor: sourceTotalMinor(source) }).lines
}

describe("reservedCredits: the order's credits AltaPay reserved", () => {
  it("keeps the store credit the cart was paid with and leaves out the credit Medusa booked for a refund", () => {
    const reserved = reservedWith([{ id: "cacl_store", label: "Credit: store-credit", amountMinor: 5000 }])
    const order = [
      { id: "ordcl_store", label: "Credit: store-credit", amountMinor: 5000 },
      { id: "ordcl_refund", label: "Credit: payment_collection", amountMinor: 1000 },
    ]
    expect(reservedCredits(reserved, order).map((c) => c.id)).toEqual(["ordcl_store"])
  })

  it("a reservation without credits: every whole credit of the order is left out", () => {
    const reserved = reservedWith([])
    expect(reserved.some(isCreditLine)).toBe(false)
    expect(reservedCredits(reserved, [{ id: "ordcl_refund", label: "Credit", amountMinor: 1000 }])).toEqual([])
  })

  it("a refund credit with the store credit's label but another amount pairs with nothing; one of the same amount pairs once", () => {
    const reserved = reservedWith([{ id: "cacl_store", label: "Credit: store-credit", amountMinor: 5000 }])
    const refund = { id: "ordcl_refund", label: "Credit: store-credit", amountMinor: 1000 }
    const store = { id: "ordcl_store", label: "Credit: store-credit", amountMinor: 5000 }
    expect(reservedCredits(reserved, [refund, store])).toEqual([store])
    expect(reservedCredits(reserved, [store, { ...store, id: "ordcl_twin" }])).toEqual([store])
  })

  it("credits with fractions of an øre pair with their rounded lines, each with its own", () => {
    const credits = [
      { id: "a", label: "Credit: store-credit", amountMinor: "1234.5" },
      { id: "b", label: "Credit: store-credit", amountMinor: "766" },
    ]
    const reserved = reservedWith(credits)
    expect(reserved.filter(isCreditLine)).toHaveLength(2)
    expect(reservedCredits(reserved, credits)).toEqual(credits)
  })

  it("credits under one minor unit are kept (they may have been reserved as no line)", () => {
    const credits = [
      { id: "a", label: "Credit", amountMinor: "0.6" },
      { id: "b", label: "Credit", amountMinor: "0.6" },
    ]
    const reserved = reservedWith(credits)
    expect(reservedCredits(reserved, [...credits, { id: "refund", label: "Credit", amountMinor: 1000 }]).map((c) => c.id)).toEqual(["a", "b"])
  })

  it("pairs by the description the builder writes: a long label is compared truncated", () => {
    const label = `Credit: ${"x".repeat(400)}`
    const reserved = reservedWith([{ id: "cacl_long", label, amountMinor: 2500 }])
    expect(reservedCredits(reserved, [{ id: "ordcl_long", label, amountMinor: 2500 }])).toHaveLength(1)
  })
})
