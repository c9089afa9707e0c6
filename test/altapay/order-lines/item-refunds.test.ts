import fc from "fast-check"
import {
  ItemRefundError,
  buildOrderLines,
  buildOrderLineSet,
  lineTaxMinor,
  orderLinesTotalMinor,
  planItemRefund,
  refundedQuantities,
  sourceTotalMinor,
  type ItemRefundRequest,
  type OrderLineSource,
  type RefundedItem,
} from "../../../src/altapay/order-lines"

// A DKK order, prices including 25% VAT: 3 x coffee at 99.99 with a 10.00 promotion on the line,
// 2 x mug at 50.00, shipping 39.00. Total 289.97 + 100.00 + 39.00 = 428.97.
const order: OrderLineSource = {
  currency: "DKK",
  totalMinor: 42897,
  items: [
    {
      id: "ordli_coffee",
      title: "Coffee beans – 1 kg",
      sku: "COFFEE-1KG",
      quantity: 3,
      unitPriceMinor: 9999,
      taxInclusive: true,
      taxRates: [{ rate: 25 }],
      adjustments: [{ amountMinor: 1000, taxInclusive: true }],
    },
    { id: "ordli_mug", title: "Mug", quantity: 2, unitPriceMinor: 5000, taxInclusive: true, taxRates: [{ rate: 25 }] },
  ],
  shipping: [{ id: "ordsm_express", name: "Express", amountMinor: 3900, taxInclusive: true, taxRates: [{ rate: 25 }] }],
}

type Previous = Array<{ items?: RefundedItem[] }>
const plan = (request: ItemRefundRequest, previous: Previous = [], capturedMinor = 42897, refundedMinor = 0, source = order) =>
  planItemRefund({ source, capturedMinor, refundedMinor, previousRefunds: previous, request })

/** Refunds requests one after another, as the admin route does; returns each plan. */
function refundAll(requests: ItemRefundRequest[], capturedMinor = 42897, source = order) {
  const previous: Previous = []
  let refunded = 0
  return requests.map((request) => {
    const p = plan(request, previous, capturedMinor, refunded, source)
    refunded += p.amountMinor
    previous.push({ items: p.items })
    return p
  })
}

describe("item refunds", () => {
  it("refunds one of three discounted coffees: its line, its share of the promotion, the exact amount", () => {
    const p = plan({ items: [{ line_item_id: "ordli_coffee", quantity: 1 }] })
    // (3 * 99.99 - 10.00) / 3 = 96.6566... -> 96.66
    expect(p.amountMinor).toBe(9666)
    expect(orderLinesTotalMinor(p.lines)).toBe(9666)
    const [item, discount] = p.lines
    expect(item).toMatchObject({ itemId: "COFFEE-1KG", quantity: 1, taxPercent: 25, goodsType: "item" })
    expect(discount).toMatchObject({ itemId: "discount-COFFEE-1KG", quantity: 1, goodsType: "handling" })
    expect(p.lines.some((l) => l.description === "Rounding adjustment")).toBe(false)
    expect(p.items).toEqual([{ line_item_id: "ordli_coffee", quantity: 1 }])
  })

  it("uses the same itemIds as the order's full line set, so AltaPay can match them to the capture", () => {
    const full = new Set(buildOrderLines(order).map((line) => line.itemId))
    const p = plan({
      items: [
        { line_item_id: "ordli_coffee", quantity: 2 },
        { line_item_id: "ordli_mug", quantity: 1 },
      ],
      shipping: true,
    })
    for (const line of p.lines) expect(full).toContain(line.itemId)
    expect(p.lines.find((l) => l.goodsType === "shipment")).toMatchObject({ itemId: "ordsm_express", quantity: 1 })
  })

  it("refunds three discounted coffees as one line: the promotion line carries what 3 x 79.99 misses", () => {
    const p = plan({ items: [{ line_item_id: "ordli_coffee", quantity: 3 }] })
    // 239.98 net does not divide by 3: 3 x 79.99 = 239.97, and the promotion is 0.01 smaller (8.00 -> 7.99).
    expect(p.lines.map((l) => [l.itemId, l.quantity, l.unitPriceMinor, l.taxAmountMinor])).toEqual([
      ["COFFEE-1KG", 3, 7999, 5999],
      ["discount-COFFEE-1KG", 1, -799, -200],
    ])
    expect(orderLinesTotalMinor(p.lines)).toBe(p.amountMinor)
  })

  it("three refunds of one coffee add up to exactly what the three coffees cost", () => {
    const plans = refundAll([1, 2, 3].map(() => ({ items: [{ line_item_id: "ordli_coffee", quantity: 1 }] })))
    for (const p of plans) expect(orderLinesTotalMinor(p.lines)).toBe(p.amountMinor)
    expect(plans.map((p) => p.amountMinor)).toEqual([9666, 9665, 9666])
  })

  it("refunding everything item by item returns the captured amount", () => {
    const plans = refundAll([
      { items: [{ line_item_id: "ordli_mug", quantity: 1 }] },
      { items: [{ line_item_id: "ordli_coffee", quantity: 2 }], shipping: true },
      {
        items: [
          { line_item_id: "ordli_coffee", quantity: 1 },
          { line_item_id: "ordli_mug", quantity: 1 },
        ],
      },
    ])
    expect(plans.reduce((sum, p) => sum + p.amountMinor, 0)).toBe(42897)
  })

  it("two items of 10.02 excl. 25 % VAT, captured 25.05: the refunds are 12.53 and 12.52, not 12.53 twice", () => {
    const two: OrderLineSource = { currency: "DKK", totalMinor: 2505, items: [{ id: "a", title: "A", quantity: 2, unitPriceMinor: 1002, taxRates: [{ rate: 25 }] }] }
    const plans = refundAll(
      [1, 2].map(() => ({ items: [{ line_item_id: "a", quantity: 1 }] })),
      2505,
      two
    )
    expect(plans.map((p) => p.amountMinor)).toEqual([1253, 1252])
  })

  it("values items as their share of what was captured: store credit paid 100.00 of 125.00", () => {
    const credited: OrderLineSource = {
      currency: "DKK",
      totalMinor: 2500,
      items: [{ id: "a", title: "A", quantity: 1, unitPriceMinor: 10000, taxRates: [{ rate: 25 }] }],
      credits: [{ id: "sc", label: "Store credit", amountMinor: 10000 }],
    }
    const p = plan({ items: [{ line_item_id: "a", quantity: 1 }] }, [], 2500, 0, credited)
    expect(p.amountMinor).toBe(2500)
    // The tax rate stays the item's: 20.00 net + 5.00 tax, not a negative credit line.
    expect(p.lines).toEqual([expect.objectContaining({ unitPriceMinor: 2000, taxAmountMinor: 500, taxPercent: 25, goodsType: "item" })])
  })

  it("after a partial capture of 40 %, refunds every item for 40 % of its price and ends at the captured amount", () => {
    const captured = 17159 // 40 % of 428.97
    const plans = refundAll([{ items: [{ line_item_id: "ordli_coffee", quantity: 3 }] }, { items: [{ line_item_id: "ordli_mug", quantity: 2 }], shipping: true }], captured)
    // The coffees' 289.97 of 428.97, scaled to the 171.59 captured: 115.99 (rounded).
    expect(plans[0].amountMinor).toBe(11599)
    expect(plans.reduce((sum, p) => sum + p.amountMinor, 0)).toBe(captured)
  })

  it("the refund that leaves nothing refundable returns exactly what is left, after other refunds too", () => {
    // A goodwill refund of 33.33 through Medusa's own Refund button came first.
    const first = plan(
      {
        items: [
          { line_item_id: "ordli_coffee", quantity: 3 },
          { line_item_id: "ordli_mug", quantity: 1 },
        ],
      },
      [],
      42897,
      3333
    )
    const last = plan({ items: [{ line_item_id: "ordli_mug", quantity: 1 }], shipping: true }, [{ items: first.items }], 42897, 3333 + first.amountMinor)
    expect(3333 + first.amountMinor + last.amountMinor).toBe(42897)
    expect(orderLinesTotalMinor(last.lines)).toBe(last.amountMinor)
  })

  it("refuses more than is still refundable, saying how many are left", () => {
    const error = (() => {
      try {
        plan({ items: [{ line_item_id: "ordli_coffee", quantity: 2 }] }, [{ items: [{ line_item_id: "ordli_coffee", quantity: 2 }] }])
      } catch (e) {
        return e
      }
    })()
    expect(error).toBeInstanceOf(ItemRefundError)
    expect((error as Error).message).toBe('"Coffee beans – 1 kg" (ordli_coffee): 2 requested, but only 1 of 3 is still refundable (2 refunded before).')
  })

  it("refuses an order whose tax rate is not a number instead of refunding it as untaxed", () => {
    const broken = { ...order, items: [{ ...order.items[0], taxRates: [{ rate: Number.NaN }] }, order.items[1]] }
    expect(() => plan({ items: [{ line_item_id: "ordli_coffee", quantity: 1 }] }, [], 42897, 0, broken)).toThrow(/items\.0\.taxRates\.0\.rate must be a finite percentage/)
  })

  it("adds up repeated entries for one item before checking the quantity", () => {
    expect(() =>
      plan({
        items: [
          { line_item_id: "ordli_mug", quantity: 2 },
          { line_item_id: "ordli_mug", quantity: 1 },
        ],
      })
    ).toThrow(/3 requested, but only 2 of 2/)
  })

  it("lists every problem at once: unknown items, bad quantities, shipping refunded before", () => {
    const previous = [{ items: [{ line_item_id: "ordsm_express", quantity: 1 }] }]
    expect(() =>
      plan(
        {
          items: [
            { line_item_id: "ordli_nope", quantity: 1 },
            { line_item_id: "ordli_mug", quantity: 0 },
          ],
          shipping: true,
        },
        previous
      )
    ).toThrow("Quantity for ordli_mug must be a whole number greater than zero. ordli_nope is not an item of this order. Shipping was already refunded.")
    expect(() => plan({ items: [] })).toThrow(/Choose at least one item/)
  })

  it("refunds shipping once, as its own shipment line", () => {
    const p = plan({ items: [], shipping: true })
    expect(p.amountMinor).toBe(3900)
    expect(p.lines).toEqual([expect.objectContaining({ itemId: "ordsm_express", goodsType: "shipment", unitPriceMinor: 3120, taxAmountMinor: 780 })])
    expect(p.items).toEqual([{ line_item_id: "ordsm_express", quantity: 1 }])
  })

  it("counts refunded quantities from every recorded refund", () => {
    const counted = refundedQuantities([
      { items: [{ line_item_id: "a", quantity: 1 }] },
      {},
      {
        items: [
          { line_item_id: "a", quantity: 2 },
          { line_item_id: "b", quantity: 1 },
        ],
      },
    ])
    expect(Object.fromEntries(counted)).toEqual({ a: 3, b: 1 })
  })

  it("any split of an item's quantity refunds exactly the item's value, each refund's lines totalling its amount and keeping its tax rate", () => {
    fc.assert(
      fc.property(
        fc.record({
          unit: fc.integer({ min: 1, max: 500_000 }),
          quantity: fc.integer({ min: 1, max: 12 }),
          rate: fc.constantFrom(0, 6, 12.5, 19, 25),
          inclusive: fc.boolean(),
          discountPercent: fc.integer({ min: 0, max: 100 }),
          cuts: fc.array(fc.integer({ min: 1, max: 12 }), { maxLength: 12 }),
        }),
        ({ unit, quantity, rate, inclusive, discountPercent, cuts }) => {
          const discount = Math.floor((unit * quantity * discountPercent) / 100)
          const single: OrderLineSource = {
            currency: "DKK",
            totalMinor: 0,
            items: [{ id: "p", title: "P", quantity, unitPriceMinor: unit, taxInclusive: inclusive, taxRates: [{ rate }], discountMinor: discount }],
          }
          const captured = sourceTotalMinor(single)
          const previous: Previous = []
          let left = quantity
          let sum = 0
          for (const cut of [...cuts, quantity]) {
            const q = Math.min(cut, left)
            if (q === 0) break
            let p
            try {
              p = plan({ items: [{ line_item_id: "p", quantity: q }] }, previous, captured, sum, single)
            } catch (error) {
              // Units worth less than half a minor unit have nothing to refund on their own.
              expect(String(error)).toMatch(/nothing to refund|Nothing is left/)
              if (q === left) expect(captured - sum).toBe(0)
              continue
            }
            expect(orderLinesTotalMinor(p.lines)).toBe(p.amountMinor)
            const tax = p.lines.reduce((acc, l) => acc + lineTaxMinor(l), 0)
            // Tax of a refund is its share of the item's tax, to within the rounding of its parts.
            expect(Math.abs(tax * (100 + rate) - p.amountMinor * rate)).toBeLessThanOrEqual(3 * (100 + rate))
            sum += p.amountMinor
            previous.push({ items: p.items })
            left -= q
          }
          expect(sum).toBe(captured)
          if (inclusive) expect(captured).toBe(unit * quantity - discount)
        }
      ),
      { numRuns: 300 }
    )
  })
  it("a whole item or shipping method of a payment captured in full refunds the VAT its capture took, to the minor unit", () => {
    const entry = fc.record({
      unit: fc.integer({ min: 1, max: 200_000 }),
      quantity: fc.integer({ min: 1, max: 7 }),
      rate: fc.constantFrom(0, 6, 12.5, 19, 25, 33),
      inclusive: fc.boolean(),
      discountPercent: fc.integer({ min: 0, max: 60 }),
    })
    fc.assert(
      fc.property(fc.array(entry, { minLength: 1, maxLength: 4 }), fc.array(entry, { maxLength: 2 }), (items, methods) => {
        const discount = (e: { unit: number; quantity: number; discountPercent: number }) => Math.floor((e.unit * e.quantity * e.discountPercent) / 100)
        const withoutTotal: Omit<OrderLineSource, "totalMinor"> = {
          currency: "DKK",
          items: items.map((e, i) => ({
            id: `i${i}`,
            title: `Item ${i}`,
            quantity: e.quantity,
            unitPriceMinor: e.unit,
            taxInclusive: e.inclusive,
            taxRates: [{ rate: e.rate }],
            discountMinor: discount(e),
          })),
          shipping: methods.map((e, i) => ({
            id: `s${i}`,
            name: `Shipping ${i}`,
            amountMinor: e.unit,
            taxInclusive: e.inclusive,
            taxRates: [{ rate: e.rate }],
            discountMinor: discount({ ...e, quantity: 1 }),
          })),
        }
        const captured = sourceTotalMinor(withoutTotal)
        const source = { ...withoutTotal, totalMinor: captured }
        const reserved = buildOrderLineSet(source).entries
        for (const built of reserved) {
          const capturedLines = [...built.lines.main, ...(built.lines.discount ? [built.lines.discount] : [])]
          const request = built.kind === "item" ? { items: [{ line_item_id: built.id, quantity: built.quantity }] } : { items: [], shipping: true }
          if (built.kind === "shipping" && methods.length > 1) continue
          let p
          try {
            p = plan(request, [], captured, 0, source)
          } catch (error) {
            expect(String(error)).toMatch(/nothing to refund/)
            continue
          }
          if (p.amountMinor !== orderLinesTotalMinor(capturedLines)) continue
          const tax = (lines: typeof p.lines) => lines.reduce((acc, l) => acc + lineTaxMinor(l), 0)
          expect([built.id, tax(p.lines)]).toEqual([built.id, tax(capturedLines)])
        }
      }),
      { numRuns: 400 }
    )
  })
})
