import fc from "fast-check"
import {
  buildOrderLineSet,
  ItemCaptureError,
  mapReservation,
  matchCaptureAmount,
  orderLinesTotalMinor,
  planItemCapture,
  planRemainingCapture,
  remainingMinor,
  sourceTotalMinor,
  type CapturedSoFar,
  type ItemCapturePlan,
  type OrderLineSource,
  type ReservationMap,
} from "../../../src/altapay/order-lines"
import type { OrderLine } from "../../../src/altapay/types"

const RUNS = 1_000

/** Random promotion carts as Medusa keeps them: tax-inclusive or not, fractions of a minor unit, credits. */
const cart: fc.Arbitrary<Omit<OrderLineSource, "totalMinor">> = fc
  .record({
    items: fc.array(
      fc.record({
        quantity: fc.integer({ min: 1, max: 5 }),
        unit: fc.oneof(fc.integer({ min: 1, max: 90_000 }), fc.constantFrom("7999.2", "12495.5", "333.3333")),
        inclusive: fc.boolean(),
        rate: fc.constantFrom(0, 6, 12.5, 25),
        discount: fc.oneof(fc.constant(0), fc.integer({ min: 1, max: 4_000 })),
        sku: fc.boolean(),
      }),
      { minLength: 1, maxLength: 6 }
    ),
    shipping: fc.option(fc.integer({ min: 0, max: 9_900 }), { nil: undefined }),
    credit: fc.option(fc.integer({ min: 1, max: 3_000 }), { nil: undefined }),
  })
  .map(({ items, shipping, credit }) => ({
    currency: "DKK",
    items: items.map((it, i) => ({
      id: `cali_${i}`,
      title: `Product ${i}`,
      sku: it.sku ? `SKU-${i}` : undefined,
      quantity: it.quantity,
      unitPriceMinor: it.unit,
      taxInclusive: it.inclusive,
      taxRates: [{ rate: it.rate }],
      discountMinor: Math.min(it.discount, Number(it.unit) * it.quantity),
    })),
    shipping: shipping === undefined ? [] : [{ id: "casm_1", name: "Post", amountMinor: shipping, taxInclusive: true, taxRates: [{ rate: 25 }] }],
    credits: credit === undefined ? [] : [{ id: "cl_1", label: "Gift card", amountMinor: credit }],
  }))
  .filter((source) => sourceTotalMinor(source) > 0)

/** The cart as reserved, and the order it became: the same items under new ids (Medusa gives order items their own). */
function reserved(source: Omit<OrderLineSource, "totalMinor">): { lines: OrderLine[]; map: ReservationMap; totalMinor: number } {
  const totalMinor = sourceTotalMinor(source)
  const lines = buildOrderLineSet({ ...source, totalMinor }).lines
  const order = {
    ...source,
    totalMinor,
    items: source.items.map((item, i) => ({ ...item, id: `ordli_${i}` })),
    shipping: source.shipping?.map((s) => ({ ...s, id: "ordsm_1" })),
    credits: source.credits?.map((c) => ({ ...c, id: "ordcl_1" })),
  }
  const map = mapReservation(lines, buildOrderLineSet(order))
  if (!map) throw new Error("the order's lines did not map onto the reservation")
  return { lines, map, totalMinor }
}

const key = (line: OrderLine) => JSON.stringify(line)
const nothingCaptured = (): CapturedSoFar => ({ units: new Map(), creditsCaptured: false })

function after(captured: CapturedSoFar, plan: ItemCapturePlan, map: ReservationMap): CapturedSoFar {
  const units = new Map(captured.units)
  for (const item of plan.items) units.set(item.line_item_id, (units.get(item.line_item_id) ?? 0) + item.quantity)
  return { units, creditsCaptured: captured.creditsCaptured || plan.lines.some((line) => map.credits.includes(line)) }
}

describe("captures by item", () => {
  it("maps every reserved line onto the order's items, under the order's own item ids", () => {
    fc.assert(
      fc.property(cart, (source) => {
        const { lines, map } = reserved(source)
        const mapped = [...map.entries.flatMap((e) => [...e.main, ...(e.discount ? [e.discount] : [])]), ...map.credits]
        expect(mapped.map(key).sort()).toEqual(lines.map(key).sort())
        expect(map.entries.filter((e) => e.kind === "item").map((e) => e.id)).toEqual(source.items.map((_, i) => `ordli_${i}`))
      }),
      { numRuns: RUNS }
    )
  })

  it("whole items in any grouping: each capture is reserved lines exactly, and together they are the reservation", () => {
    fc.assert(
      fc.property(cart, fc.array(fc.integer({ min: 0, max: 3 }), { minLength: 8, maxLength: 8 }), (source, groups) => {
        const { lines, map, totalMinor } = reserved(source)
        let captured = nothingCaptured()
        const sent: OrderLine[] = []
        let sum = 0
        for (let group = 0; group <= 3; group++) {
          const items = map.entries.filter((e, i) => e.kind === "item" && groups[i % 8] === group).map((e) => ({ line_item_id: e.id, quantity: e.quantity }))
          const shipping = group === 3
          if (items.length === 0 && !shipping) continue
          let plan: ItemCapturePlan
          try {
            plan = planItemCapture({ map, captured, request: { items, shipping }, wholeItemsOnly: true, currency: "DKK" })
          } catch (error) {
            // Only a capture worth nothing (or less, with the credits) is refused; it waits for the last one.
            expect(error).toBeInstanceOf(ItemCaptureError)
            continue
          }
          expect(orderLinesTotalMinor(plan.lines)).toBe(plan.amountMinor)
          sent.push(...plan.lines)
          sum += plan.amountMinor
          captured = after(captured, plan, map)
        }
        const rest = map.entries.filter((e) => (captured.units.get(e.id) ?? 0) < e.quantity)
        if (rest.length === 0 && captured.creditsCaptured === map.credits.length > 0) {
          expect(sum).toBe(totalMinor)
          expect(sent.map(key).sort()).toEqual(lines.map(key).sort())
        }
        const reservedKeys = new Set(lines.map(key))
        for (const line of sent) expect(reservedKeys.has(key(line))).toBe(true)
      }),
      { numRuns: RUNS }
    )
  })

  it("units in any parts (card payments): every capture totals its amount, and all of them the reservation", () => {
    fc.assert(
      fc.property(cart, fc.array(fc.integer({ min: 1, max: 5 }), { minLength: 1, maxLength: 10 }), (source, cuts) => {
        const { map, totalMinor } = reserved(source)
        let captured = nothingCaptured()
        let sum = 0
        let round = 0
        // Items worth nothing are never captured on their own: AltaPay takes no capture of nothing.
        while (remainingMinor(map, captured) > 0) {
          const cut = cuts[round++ % cuts.length]
          const items = map.entries
            .filter((e) => e.kind === "item" && (captured.units.get(e.id) ?? 0) < e.quantity)
            .map((e) => ({ line_item_id: e.id, quantity: Math.min(cut, e.quantity - (captured.units.get(e.id) ?? 0)) }))
          let plan: ItemCapturePlan
          try {
            plan = planItemCapture({ map, captured, request: { items, shipping: true }, wholeItemsOnly: false, currency: "DKK" })
          } catch (error) {
            // Units worth nothing alone (or less than the credits that must go with them): the rest in one go.
            expect(error).toBeInstanceOf(ItemCaptureError)
            plan = planRemainingCapture({ map, captured, currency: "DKK" })!
          }
          expect(orderLinesTotalMinor(plan.lines)).toBe(plan.amountMinor)
          sum += plan.amountMinor
          captured = after(captured, plan, map)
          if (round > 50) throw new Error("did not finish")
        }
        expect(sum).toBe(totalMinor)
      }),
      { numRuns: RUNS }
    )
  })

  it("a bare amount that is exactly some items' price is captured with those items' reserved lines", () => {
    fc.assert(
      fc.property(cart, fc.integer({ min: 0, max: 63 }), (source, pick) => {
        const { map } = reserved(source)
        const chosen = map.entries.filter((e, i) => e.kind === "item" && (pick >> i) % 2 === 1)
        if (chosen.length === 0) return
        let plan: ItemCapturePlan
        try {
          plan = planItemCapture({
            map,
            captured: nothingCaptured(),
            request: { items: chosen.map((e) => ({ line_item_id: e.id, quantity: e.quantity })) },
            wholeItemsOnly: true,
            currency: "DKK",
          })
        } catch {
          return
        }
        const match = matchCaptureAmount(map, nothingCaptured(), plan.amountMinor, "DKK")
        expect(match.kind).not.toBe("none")
        if (match.kind === "items") {
          expect(orderLinesTotalMinor(match.plan.lines)).toBe(plan.amountMinor)
          for (const line of match.plan.lines) expect(map.entries.some((e) => [...e.main, e.discount].includes(line)) || map.credits.includes(line)).toBe(true)
        }
        // With credits the match takes them at once where the plan may leave them for later: both are reserved lines.
        if (map.credits.length > 0) return
        // Another set of the same price is ambiguous; the same set, but for items worth nothing, is the same capture.
        const priced = (lines: OrderLine[]) =>
          lines.filter((l) => !map.entries.some((e) => orderLinesTotalMinor([...e.main, ...(e.discount ? [e.discount] : [])]) === 0 && [...e.main, e.discount].includes(l)))
        if (match.kind === "items") expect(priced(match.plan.lines).map(key).sort()).toEqual(priced(plan.lines).map(key).sort())
      }),
      { numRuns: RUNS }
    )
  })
})

describe("refused captures by item", () => {
  const source: OrderLineSource = {
    currency: "DKK",
    totalMinor: 0,
    items: [
      { id: "a", title: "Scarf", quantity: 2, unitPriceMinor: 5000, taxRates: [{ rate: 25 }] },
      { id: "b", title: "Trousers", quantity: 1, unitPriceMinor: 7500, taxRates: [{ rate: 25 }] },
    ],
  }
  const { map } = reserved(source)

  it("part of an item's units on an invoice payment, naming the whole quantity", () => {
    expect(() =>
      planItemCapture({ map, captured: nothingCaptured(), request: { items: [{ line_item_id: "ordli_0", quantity: 1 }] }, wholeItemsOnly: true, currency: "DKK" })
    ).toThrow(/"Scarf": this payment method \(invoice, Klarna\) captures whole order lines only: capture all 2 units at once/)
  })

  it("a unit of an item priced in fractions of a minor unit, worth tax only on its own, is refused saying what to do", () => {
    // Three units at 0.01 DKK with 25 % VAT included are reserved as two at 0.01 plus 0.01 tax: the
    // second unit alone would carry tax and no price, which AltaPay takes on no goods line.
    const { map: tiny } = reserved({ currency: "DKK", items: [{ id: "a", title: "Sticker", quantity: 3, unitPriceMinor: 1, taxInclusive: true, taxRates: [{ rate: 25 }] }] })
    const captured = { units: new Map([["ordli_0", 1]]), creditsCaptured: false }
    const plan = (quantity: number) => planItemCapture({ map: tiny, captured, request: { items: [{ line_item_id: "ordli_0", quantity }] }, wholeItemsOnly: false, currency: "DKK" })
    expect(() => plan(1)).toThrow(ItemCaptureError)
    expect(() => plan(1)).toThrow(/"Sticker": the units chosen are worth less than one minor unit before tax: capture them together with more of its units/)
    expect(plan(2).amountMinor).toBe(2)
  })

  it("more units than are left, and items the order does not have", () => {
    const captured = { units: new Map([["ordli_0", 1]]), creditsCaptured: false }
    expect(() =>
      planItemCapture({
        map,
        captured,
        request: {
          items: [
            { line_item_id: "ordli_0", quantity: 2 },
            { line_item_id: "nope", quantity: 1 },
          ],
        },
        wholeItemsOnly: false,
        currency: "DKK",
      })
    ).toThrow(/"Scarf": 2 asked, 1 of 2 left to capture\. Item nope is not one of the order's items/)
  })

  it("an amount two different sets of items come to is ambiguous, one no set comes to is none", () => {
    const even: OrderLineSource = { ...source, items: [...source.items, { id: "c", title: "Hat", quantity: 1, unitPriceMinor: 2500, taxRates: [{ rate: 25 }] }] }
    const { map: evenMap } = reserved(even)
    // Trousers (93.75) = Hat (31.25) + one more? No: Scarf x2 (125.00) = Trousers + Hat (93.75 + 31.25).
    expect(matchCaptureAmount(evenMap, nothingCaptured(), 12500, "DKK").kind).toBe("ambiguous")
    expect(matchCaptureAmount(evenMap, nothingCaptured(), 5000, "DKK").kind).toBe("none")
  })
})
