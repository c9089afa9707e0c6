import fc from "fast-check"
import { lineTotalMinor, orderLinesTotalMinor } from "../../src/altapay"
import { cartOrderLines, type CartForLines } from "../../src/lib/cart-lines"
import { ItemRefundError, orderEntries, planItemRefund, refundedQuantities, type RefundedItem } from "../../src/api/admin/altapay/_lib/item-refund-lines"

// A DKK order, prices including 25% VAT: 3 x coffee at 99.99 with a 10.00 promotion on the line,
// 2 x mug at 50.00, shipping 39.00. Total 289.97 + 100.00 + 39.00 = 428.97.
const order: CartForLines = {
  id: "order_1",
  currency_code: "dkk",
  total: 428.97,
  items: [
    {
      id: "ordli_coffee",
      product_title: "Coffee beans",
      variant_title: "1 kg",
      variant_sku: "COFFEE-1KG",
      quantity: 3,
      unit_price: 99.99,
      is_tax_inclusive: true,
      tax_lines: [{ rate: 25 }],
      adjustments: [{ amount: 10, is_tax_inclusive: true, code: "TEN" }],
    },
    { id: "ordli_mug", product_title: "Mug", quantity: 2, unit_price: 50, is_tax_inclusive: true, tax_lines: [{ rate: 25 }] },
  ],
  shipping_methods: [{ id: "ordsm_express", name: "Express", amount: 39, is_tax_inclusive: true, tax_lines: [{ rate: 25 }] }],
}

const refund = (items: RefundedItem[], shipping = false, previous: Array<{ items?: RefundedItem[] }> = []) => planItemRefund(order, previous, { items, shipping })

describe("item refund lines", () => {
  it("refunds one of three discounted coffees: its line, its share of the promotion, the exact amount", () => {
    const plan = refund([{ line_item_id: "ordli_coffee", quantity: 1 }])
    // (3 * 99.99 - 10.00) / 3 = 96.6566... -> 96.66
    expect(plan.amountMinor).toBe(9666)
    expect(orderLinesTotalMinor(plan.lines)).toBe(9666)
    const [item, discount] = plan.lines
    expect(item).toMatchObject({ itemId: "COFFEE-1KG", quantity: 1, taxPercent: 25, goodsType: "item" })
    expect(discount).toMatchObject({ itemId: "discount-COFFEE-1KG", quantity: 1, goodsType: "handling" })
    expect(lineTotalMinor(discount)).toBe(-334) // a third of the 10.00 promotion: net -2.67 and tax -0.67, each rounded
    expect(plan.lines.at(-1)).toMatchObject({ goodsType: "handling", description: "Rounding adjustment" })
    expect(plan.items).toEqual([{ line_item_id: "ordli_coffee", quantity: 1 }])
  })

  it("uses the same itemIds as the order's full line set, so AltaPay can match them to the capture", () => {
    const full = cartOrderLines(order)
    const plan = refund([{ line_item_id: "ordli_coffee", quantity: 2 }, { line_item_id: "ordli_mug", quantity: 1 }], true)
    const fullIds = new Set(full.map((line) => line.itemId))
    for (const line of plan.lines.filter((l) => !l.itemId.startsWith("rounding"))) expect(fullIds).toContain(line.itemId)
    expect(plan.lines.find((l) => l.goodsType === "shipment")).toMatchObject({ itemId: "ordsm_express", quantity: 1 })
  })

  it("three refunds of one coffee add up to exactly what the three coffees cost", () => {
    const previous: Array<{ items?: RefundedItem[] }> = []
    const amounts: number[] = []
    for (let i = 0; i < 3; i++) {
      const plan = refund([{ line_item_id: "ordli_coffee", quantity: 1 }], false, previous)
      expect(orderLinesTotalMinor(plan.lines)).toBe(plan.amountMinor)
      amounts.push(plan.amountMinor)
      previous.push({ items: plan.items })
    }
    expect(amounts).toEqual([9666, 9665, 9666])
    expect(amounts.reduce((a, b) => a + b)).toBe(3 * 9999 - 1000)
  })

  it("refunding everything item by item returns the order total", () => {
    const previous: Array<{ items?: RefundedItem[] }> = []
    let total = 0
    for (const request of [
      { items: [{ line_item_id: "ordli_mug", quantity: 1 }] },
      { items: [{ line_item_id: "ordli_coffee", quantity: 2 }], shipping: true },
      { items: [{ line_item_id: "ordli_coffee", quantity: 1 }, { line_item_id: "ordli_mug", quantity: 1 }] },
    ]) {
      const plan = planItemRefund(order, previous, request)
      total += plan.amountMinor
      previous.push({ items: plan.items })
    }
    expect(total).toBe(42897)
  })

  it("refuses more than is still refundable, saying how many are left", () => {
    const previous = [{ items: [{ line_item_id: "ordli_coffee", quantity: 2 }] }]
    const error = (() => {
      try {
        refund([{ line_item_id: "ordli_coffee", quantity: 2 }], false, previous)
      } catch (e) {
        return e
      }
    })()
    expect(error).toBeInstanceOf(ItemRefundError)
    expect((error as Error).message).toBe('"Coffee beans – 1 kg" (ordli_coffee): 2 requested, but only 1 of 3 is still refundable (2 refunded before).')
  })

  it("adds up repeated entries for one item before checking the quantity", () => {
    expect(() => refund([{ line_item_id: "ordli_mug", quantity: 2 }, { line_item_id: "ordli_mug", quantity: 1 }])).toThrow(/3 requested, but only 2 of 2/)
  })

  it("lists every problem at once: unknown items, bad quantities, shipping refunded before", () => {
    const previous = [{ items: [{ line_item_id: "ordsm_express", quantity: 1 }] }]
    expect(() => refund([{ line_item_id: "ordli_nope", quantity: 1 }, { line_item_id: "ordli_mug", quantity: 0 }], true, previous)).toThrow(
      "Quantity for ordli_mug must be a whole number greater than zero. ordli_nope is not an item of this order. Shipping was already refunded."
    )
    expect(() => refund([])).toThrow(/Choose at least one item/)
  })

  it("refunds shipping once, as its own shipment line", () => {
    const plan = refund([], true)
    expect(plan.amountMinor).toBe(3900)
    expect(plan.lines).toEqual([expect.objectContaining({ itemId: "ordsm_express", goodsType: "shipment", unitPriceMinor: 3120, taxAmountMinor: 780 })])
    expect(plan.items).toEqual([{ line_item_id: "ordsm_express", quantity: 1 }])
  })

  it("handles prices without tax and promotions without tax", () => {
    const exclusive: CartForLines = {
      id: "order_2",
      currency_code: "eur",
      items: [{ id: "ordli_a", title: "A", quantity: 3, unit_price: 10.01, is_tax_inclusive: false, tax_lines: [{ rate: 19 }], adjustments: [{ amount: 1, is_tax_inclusive: false }] }],
      shipping_methods: [],
    }
    const first = planItemRefund(exclusive, [], { items: [{ line_item_id: "ordli_a", quantity: 2 }] })
    const rest = planItemRefund(exclusive, [{ items: first.items }], { items: [{ line_item_id: "ordli_a", quantity: 1 }] })
    // net 30.03 + tax 5.71 - promotion (1.00 + 0.19) = 34.55
    expect(first.amountMinor + rest.amountMinor).toBe(3455)
    expect(orderLinesTotalMinor(first.lines)).toBe(first.amountMinor)
    expect(first.lines[0]).toMatchObject({ quantity: 2, unitPriceMinor: 1001 })
  })

  it("finds each item's lines even when two items share a SKU", () => {
    const twin: CartForLines = {
      ...order,
      items: [
        { id: "ordli_x", title: "X", variant_sku: "SAME", quantity: 1, unit_price: 10, tax_lines: [] },
        { id: "ordli_y", title: "Y", variant_sku: "SAME", quantity: 1, unit_price: 20, tax_lines: [] },
      ],
    }
    const entries = orderEntries(twin)
    expect(entries.items.get("ordli_x")?.main).toMatchObject({ itemId: "ordli_x", unitPriceMinor: 1000 })
    expect(entries.items.get("ordli_y")?.main).toMatchObject({ itemId: "ordli_y", unitPriceMinor: 2000 })
  })

  it("counts refunded quantities from every recorded refund", () => {
    const counted = refundedQuantities([{ items: [{ line_item_id: "a", quantity: 1 }] }, {}, { items: [{ line_item_id: "a", quantity: 2 }, { line_item_id: "b", quantity: 1 }] }])
    expect(Object.fromEntries(counted)).toEqual({ a: 3, b: 1 })
  })

  it("any split of an item's quantity refunds exactly the item's value, each refund's lines totalling its amount", () => {
    fc.assert(
      fc.property(
        fc.record({
          unit: fc.integer({ min: 100, max: 500_000 }), // from 1.00: below, a unit can round to nothing
          quantity: fc.integer({ min: 1, max: 12 }),
          rate: fc.constantFrom(0, 6, 12.5, 19, 25),
          inclusive: fc.boolean(),
          discountPercent: fc.integer({ min: 0, max: 90 }),
          cuts: fc.array(fc.integer({ min: 1, max: 12 }), { maxLength: 12 }),
        }),
        ({ unit, quantity, rate, inclusive, discountPercent, cuts }) => {
          const discount = Math.floor((unit * quantity * discountPercent) / 100)
          const single: CartForLines = {
            id: "o",
            currency_code: "dkk",
            items: [
              {
                id: "ordli_p",
                title: "P",
                quantity,
                unit_price: unit / 100,
                is_tax_inclusive: inclusive,
                tax_lines: [{ rate }],
                adjustments: discount ? [{ amount: discount / 100, is_tax_inclusive: inclusive }] : [],
              },
            ],
          }
          const whole = planItemRefund(single, [], { items: [{ line_item_id: "ordli_p", quantity }] })
          const previous: Array<{ items?: RefundedItem[] }> = []
          let left = quantity
          let sum = 0
          for (const cut of [...cuts, quantity]) {
            const q = Math.min(cut, left)
            if (q === 0) break
            const plan = planItemRefund(single, previous, { items: [{ line_item_id: "ordli_p", quantity: q }] })
            expect(orderLinesTotalMinor(plan.lines)).toBe(plan.amountMinor)
            sum += plan.amountMinor
            previous.push({ items: plan.items })
            left -= q
          }
          expect(sum).toBe(whole.amountMinor)
          if (inclusive) expect(whole.amountMinor).toBe(unit * quantity - discount)
        }
      ),
      { numRuns: 300 }
    )
  })
})
