/**
 * Order lines against Medusa's own totals (one test file per currency runs this, so jest spreads
 * the 10,000+ carts over its workers). Random carts (tax-inclusive and exclusive prices,
 * several rates, percentage and fixed promotions allocated across or each item the way Medusa's
 * promotion module computes them, shipping with its own promotions, store credit) are totalled by
 * Medusa's `decorateCartTotals`, mapped with the provider's cart mapping and built into lines.
 * Then: the lines total the amount Medusa asks, their tax is Medusa's tax total, each item's lines
 * are Medusa's item total, and refunding every item, in any order and quantities, returns exactly
 * what was captured.
 */
import fc from "fast-check"
import { MathBN, calculateAdjustmentAmountFromPromotion, decorateCartTotals, getLineItemTotals } from "@medusajs/framework/utils"
import {
  buildOrderLineSet,
  isCreditLine,
  lineTaxMinor,
  lineTotalMinor,
  orderLinesTotalMinor,
  planItemRefund,
  proportionalAdjustmentLine,
  toGatewayOrderLineFields,
  validateOrderLines,
  wireAmountProblem,
  type OrderLine,
  type RefundedItem,
} from "../../../src/altapay"
import { cartToLineSource, type CartForLines } from "../../../src/lib/medusa-mapping/cart-lines"
import { toMinorUnits } from "../../../src/lib/medusa-mapping/amounts"
import { sourceEntries } from "../../../src/altapay/order-lines/build"
import { compare, decimalOf, fromDecimal, ratioText } from "../../../src/altapay/order-lines/exact"
import { entryTotal } from "../../../src/altapay/order-lines/source"
import { refusedForPrecision } from "../../helpers/issues"

/** x 3 currencies (JPY, DKK, KWD: 0, 2 and 3 decimals): over 10,000 carts per run. */
const CARTS_PER_CURRENCY = 3_400
const CURRENCIES = {
  jpy: { code: "jpy", exponent: 0 },
  dkk: { code: "dkk", exponent: 2 },
  kwd: { code: "kwd", exponent: 3 },
} as const
type Currency = (typeof CURRENCIES)[keyof typeof CURRENCIES]
// Rates as a shop stores them, including one computed in floating point (0.0725 * 100).
const RATES = [0, 5, 6.5, 7.25, 0.0725 * 100, 8.875, 10, 12.5, 19, 21, 25]

/** A plain check: jest's expect() costs more than the code under test at this many carts. */
function check(ok: boolean, what: string, detail?: unknown): void {
  if (!ok) throw new Error(`${what}${detail === undefined ? "" : `: ${JSON.stringify(detail)}`}`)
}

/** Medusa keeps amounts to 20 significant digits (BigNumber raw values). */
const stored = (value: unknown): string => MathBN.convert(value as number).toPrecision(20)

const price = (exponent: number) =>
  fc.oneof(
    { weight: 6, arbitrary: fc.integer({ min: 1, max: 500_000 }).map((minor) => MathBN.convert(minor).shiftedBy(-exponent).toFixed()) },
    // Shops may keep one digit more than the currency has (Medusa stores 7.728 DKK).
    {
      weight: 1,
      arbitrary: fc.integer({ min: 1, max: 5_000_000 }).map((tenths) =>
        MathBN.convert(tenths)
          .shiftedBy(-exponent - 1)
          .toFixed()
      ),
    }
  )

const taxLines = fc.array(fc.constantFrom(...RATES), { maxLength: 3 }).map((rates) => rates.map((rate, i) => ({ rate, code: `T${i}` })))

const promotion = fc.record({
  type: fc.constantFrom("percentage", "fixed"),
  allocation: fc.constantFrom("across", "each"),
  percent: fc.oneof(fc.integer({ min: 1, max: 100 }), fc.constantFrom(12.5, 33.33, 7.5)),
  fixedShare: fc.integer({ min: 1, max: 1000 }),
  is_tax_inclusive: fc.boolean(),
  everyItem: fc.boolean(),
})

const cartArb = (currency: Currency) =>
  fc.record({
    items: fc.array(
      fc.record({
        unit_price: price(currency.exponent),
        quantity: fc.oneof({ weight: 4, arbitrary: fc.integer({ min: 1, max: 4 }) }, { weight: 1, arbitrary: fc.integer({ min: 5, max: 24 }) }),
        is_tax_inclusive: fc.boolean(),
        tax_lines: taxLines,
        is_discountable: fc.boolean(),
      }),
      { minLength: 1, maxLength: 5 }
    ),
    shipping: fc.array(
      fc.record({
        amount: price(currency.exponent),
        is_tax_inclusive: fc.boolean(),
        tax_lines: taxLines,
        promo: fc.option(fc.record({ percent: fc.integer({ min: 1, max: 100 }), is_tax_inclusive: fc.boolean() }), { nil: undefined }),
      }),
      { maxLength: 2 }
    ),
    promotions: fc.array(promotion, { maxLength: 2 }),
    credits: fc.array(fc.integer({ min: 1, max: 1000 }), { maxLength: 2 }),
    capturePermille: fc.oneof({ weight: 3, arbitrary: fc.constant(1000) }, { weight: 1, arbitrary: fc.integer({ min: 1, max: 999 }) }),
    refundSeed: fc.array(fc.tuple(fc.nat(), fc.integer({ min: 1, max: 24 })), { minLength: 1, maxLength: 12 }),
  })

type GeneratedCart = typeof cartArb extends (c: never) => fc.Arbitrary<infer T> ? T : never

/** The cart Medusa would hold: promotions computed as Medusa's promotion module does, then totals. */
function medusaCart(g: GeneratedCart, currency: Currency): any {
  const items = g.items.map((item, i) => ({ id: `item_${i}`, title: `Item ${i}`, variant_sku: `SKU-${i}`, ...item, adjustments: [] as any[] }))
  const shipping_methods = g.shipping.map((method, i) => ({
    id: `sm_${i}`,
    name: `Ship ${i}`,
    amount: method.amount,
    is_tax_inclusive: method.is_tax_inclusive,
    tax_lines: method.tax_lines,
    adjustments: [] as any[],
  }))
  // Item subtotal and original_total before promotions, as the promotion module receives them.
  const plain = g.promotions.length ? items.map((it) => getLineItemTotals({ ...it, adjustments: [] } as any, { includeTax: it.is_tax_inclusive })) : []
  const base = items.map((it, i) => ({ id: it.id, quantity: it.quantity, subtotal: plain[i]?.subtotal, original_total: plain[i]?.original_total }))
  const applied = new Map<string, any>()
  for (const promo of g.promotions) {
    const applicable = base.filter((_, i) => promo.everyItem || items[i].is_discountable)
    const inBase = (b: (typeof base)[number]) => (promo.is_tax_inclusive ? b.original_total : b.subtotal)
    const appliedInBase = (b: (typeof base)[number]) =>
      promo.is_tax_inclusive ? MathBN.mult(applied.get(b.id) ?? 0, MathBN.div(b.original_total, b.subtotal)) : (applied.get(b.id) ?? 0)
    const lineItemsAmount = applicable.reduce((acc, b) => MathBN.sub(MathBN.add(acc, inBase(b)), appliedInBase(b)), MathBN.convert(0))
    if (promo.allocation === "across" && MathBN.lte(lineItemsAmount, 0)) continue
    const totalBase = applicable.reduce((acc, b) => MathBN.add(acc, inBase(b)), MathBN.convert(0))
    const value = promo.type === "percentage" ? promo.percent : MathBN.div(MathBN.mult(totalBase, promo.fixedShare), 1000).decimalPlaces(currency.exponent).toNumber()
    for (const b of applicable) {
      if (MathBN.lte(inBase(b), 0)) continue
      const amount = calculateAdjustmentAmountFromPromotion(
        b as any,
        { value, applied_value: applied.get(b.id) ?? 0, is_tax_inclusive: promo.is_tax_inclusive, type: promo.type as any, allocation: promo.allocation as any } as any,
        lineItemsAmount
      )
      if (MathBN.lte(amount, 0)) continue
      const exclTax = promo.is_tax_inclusive ? MathBN.mult(amount, MathBN.div(b.subtotal, b.original_total)) : amount
      applied.set(b.id, MathBN.add(applied.get(b.id) ?? 0, exclTax))
      items.find((it) => it.id === b.id)!.adjustments.push({ amount: stored(amount), is_tax_inclusive: promo.is_tax_inclusive, code: "PROMO" })
    }
  }
  g.shipping.forEach((method, i) => {
    if (!method.promo) return
    const subtotal = method.is_tax_inclusive
      ? MathBN.div(method.amount, MathBN.add(1, MathBN.div(MathBN.sum(...method.tax_lines.map((t) => t.rate)), 100)))
      : MathBN.convert(method.amount)
    shipping_methods[i].adjustments.push({ amount: stored(MathBN.mult(subtotal, method.promo.percent / 100)), is_tax_inclusive: method.promo.is_tax_inclusive })
  })
  const cart: any = JSON.parse(JSON.stringify({ id: "cart_1", currency_code: currency.code, items, shipping_methods, credit_lines: [] }))
  if (g.credits.length === 0) return decorateCartTotals(cart)
  const before = decorateCartTotals(JSON.parse(JSON.stringify(cart))) as any
  // Store credit: shares of what is left to pay, in whole minor units, never more than the total.
  let left = MathBN.convert(before.total).shiftedBy(currency.exponent).integerValue(1)
  cart.credit_lines = g.credits.flatMap((share, i) => {
    const minor = left.times(share).div(1000).integerValue(1)
    left = left.minus(minor)
    return minor.gt(0) ? [{ id: `cred_${i}`, amount: minor.shiftedBy(-currency.exponent).toFixed(), reference: `store credit ${i}` }] : []
  })
  return decorateCartTotals(cart)
}

const half = (value: unknown, currency: string) => toMinorUnits(value as number, currency)
const exactText = (value: unknown) => MathBN.convert(value as number).toFixed()
const floorMinor = (value: unknown, exponent: number) =>
  MathBN.convert(value as number)
    .shiftedBy(exponent)
    .integerValue(3)
    .toNumber()

interface Stats {
  carts: number
  taxOff: number
  itemsOffHalfUp: number
  items: number
  splitLines: number
  refunds: number
  /** Carts whose lines AltaPay's 2 decimals cannot carry (KWD amounts that are not whole 10 fils). */
  refusedOnTheWire: number
}

function checkCart(g: GeneratedCart, currency: Currency, stats: Stats): void {
  const cart = medusaCart(g, currency)
  const code = currency.code.toUpperCase()
  const totalMinor = half(cart.total, code)
  if (totalMinor <= 0) return
  stats.carts++
  const lineSource = cartToLineSource(cart as CartForLines, totalMinor)
  const built = buildOrderLineSet(lineSource)
  const { lines } = built

  // The builder's exact amounts are Medusa's, digit for digit (Medusa rounds its divisions, so an
  // entry can sit a hair off half a minor unit; rounding must see the same hair).
  for (const entry of sourceEntries(lineSource)) {
    const medusa = (entry.kind === "item" ? cart.items : cart.shipping_methods).find((m: any) => m.id === entry.id)
    const medusaMinor = MathBN.convert(medusa.total).shiftedBy(currency.exponent).toFixed()
    const ours = entryTotal(entry.amounts)
    check(compare(ours, fromDecimal(decimalOf(medusaMinor)!)) === 0, "an entry's exact total is Medusa's", {
      kind: entry.kind,
      medusaMinor,
      ours: ratioText(ours, 24),
    })
  }

  check(orderLinesTotalMinor(lines) === totalMinor, "lines total the amount Medusa asks", { total: exactText(cart.total), lines })
  // Every line is valid; on the wire, AltaPay takes 2 decimals: a KWD cart goes out only when every
  // unit price and tax is whole 10 fils, and is otherwise refused as a whole, never rounded.
  const fits = lines.every((l) => !wireAmountProblem(l.unitPriceMinor, code) && !wireAmountProblem(l.taxAmountMinor, code))
  validateOrderLines(lines, { currency: code, expectedTotalMinor: totalMinor })
  if (fits) toGatewayOrderLineFields(lines, code)
  else {
    check(currency.exponent > 2, "only a 3-decimal currency has amounts 2 decimals cannot carry", lines)
    check(
      refusedForPrecision(() => toGatewayOrderLineFields(lines, code)),
      "lines that do not fit 2 decimals are refused",
      lines
    )
    stats.refusedOnTheWire++
  }
  check(!lines.some((l) => l.itemId.startsWith("rounding")), "no rounding line: a quantity that leaves a remainder is split instead", lines)
  for (const line of lines) check(/^\d+(\.\d{1,4})?$/.test(String(line.taxPercent)), "taxPercent has at most 4 decimals", line)

  // Tax: Medusa's tax_total rounded half up. A shortfall of one minor unit is allowed only where
  // every item's and shipping method's total is already fixed by the cart total, and no rounding
  // of their taxes (each down or up) reaches Medusa's rounded tax total; it is counted below.
  const taxMinor = lines.reduce((acc, l) => acc + l.taxAmountMinor, 0)
  const medusaTax = half(cart.tax_total, code)
  check(Math.abs(taxMinor - medusaTax) <= 1 && taxMinor - medusaTax === built.taxOffMinor, "tax equals Medusa's tax total", { taxMinor, medusaTax, tax: exactText(cart.tax_total) })
  if (taxMinor !== medusaTax) stats.taxOff++

  // Each item's and shipping method's lines: Medusa's total for it, rounded down or up, and half
  // up except for the fewest entries the cart total forces the other way.
  const medusaEntries = [...cart.items.map((i: any) => ({ kind: "item", ...i })), ...cart.shipping_methods.map((s: any) => ({ kind: "shipping", ...s }))]
  let halfUpSum = 0
  let off = 0
  for (const entry of built.entries) {
    const medusa = medusaEntries.find((m) => m.kind === entry.kind && m.id === entry.id)
    const entryLines = [...entry.lines.main, ...(entry.lines.discount ? [entry.lines.discount] : [])]
    const sum = orderLinesTotalMinor(entryLines)
    const floor = floorMinor(medusa.total, currency.exponent)
    const exactlyWhole = MathBN.convert(medusa.total).shiftedBy(currency.exponent).isInteger()
    check(sum === floor || (!exactlyWhole && sum === floor + 1), "entry lines are Medusa's total rounded down or up", { total: exactText(medusa.total), sum })
    halfUpSum += half(medusa.total, code)
    if (sum !== half(medusa.total, code)) off++
    const entryTax = entryLines.reduce((acc, l) => acc + l.taxAmountMinor, 0)
    const taxFloor = floorMinor(medusa.tax_total, currency.exponent)
    check(entryTax === taxFloor || entryTax === taxFloor + 1, "entry tax is Medusa's tax for it rounded down or up", { tax: exactText(medusa.tax_total), entryTax })
    check(entry.lines.main.length <= 2, "at most two goods lines per entry")
    if (entry.lines.main.length === 2) {
      stats.splitLines++
      check(entry.lines.main[1].unitPriceMinor - entry.lines.main[0].unitPriceMinor === 1, "a split line is one minor unit apart", entry.lines.main)
    }
    stats.items++
  }
  const creditsMinor = half(cart.credit_line_total, code)
  check(off === Math.abs(totalMinor + creditsMinor - halfUpSum), "only the entries the cart total forces differ from half up", { off, totalMinor, creditsMinor, halfUpSum })
  stats.itemsOffHalfUp += off

  // Credits: a refund without item lines keeps the goods' tax rate.
  const goods = lines.filter((l) => !isCreditLine(l))
  const goodsTax = goods.reduce((acc, l) => acc + lineTaxMinor(l), 0)
  const goodsTotal = goods.reduce((acc, l) => acc + lineTotalMinor(l), 0)
  if (goodsTotal > 0 && goodsTax >= 0 && totalMinor > 1) {
    const amount = Math.max(1, Math.floor(totalMinor / 3))
    const [line] = proportionalAdjustmentLine(lines, amount)
    const expectedTax = (amount * goodsTax) / goodsTotal
    check(Math.abs(line.taxAmountMinor - expectedTax) <= 1, "a partial refund's tax is in the goods' proportion, credits aside", { line, expectedTax })
  }

  // Refund every item and the shipping through the item planner, in a random order and random
  // quantities: the refunds add up to exactly what was captured.
  const captured = Math.floor((totalMinor * g.capturePermille) / 1000)
  if (captured <= 0) return
  const source = cartToLineSource(cart as CartForLines, 0)
  const remaining = new Map(source.items.map((item) => [item.id, item.quantity]))
  const previous: Array<{ items?: RefundedItem[] }> = []
  let refunded = 0
  let shippingDone = (source.shipping ?? []).length === 0
  const entryTotals = new Map(built.entries.map((e) => [e.id, e]))
  for (let step = 0; refunded < captured || [...remaining.values()].some((q) => q > 0) || !shippingDone; step++) {
    const [pick, count] = g.refundSeed[step % g.refundSeed.length]
    const open = [...remaining.entries()].filter(([, q]) => q > 0)
    const takeShipping = !shippingDone && (open.length === 0 || pick % 5 === 0)
    const items = takeShipping || open.length === 0 ? [] : [{ line_item_id: open[(pick + step) % open.length][0], quantity: Math.min(count, open[(pick + step) % open.length][1]) }]
    if (items.length === 0 && !takeShipping) break
    let plan
    try {
      plan = planItemRefund({ source, capturedMinor: captured, refundedMinor: refunded, previousRefunds: previous, request: { items, shipping: takeShipping } })
    } catch (error) {
      // Units worth nothing (a 100 % promotion, or all value already returned) have nothing to refund.
      check(/nothing to refund|Nothing is left to refund/.test(String(error)), "an item refund plans", { error: String(error), items })
      for (const item of items) remaining.set(item.line_item_id, remaining.get(item.line_item_id)! - item.quantity)
      previous.push({ items })
      if (takeShipping) shippingDone = true
      continue
    }
    check(orderLinesTotalMinor(plan.lines) === plan.amountMinor, "refund lines total the refund", plan) // planItemRefund validated them
    checkRefundTaxRate(plan.lines, plan.items, entryTotals)
    refunded += plan.amountMinor
    check(refunded <= captured, "item refunds never exceed what was captured", { refunded, captured })
    for (const item of items) remaining.set(item.line_item_id, remaining.get(item.line_item_id)! - item.quantity)
    if (takeShipping) shippingDone = true
    previous.push({ items: plan.items })
    stats.refunds++
  }
  check(refunded === captured, "refunding everything returns exactly what was captured", { refunded, captured, total: totalMinor })
}

/** A refund's tax is its entries' tax share (credits and partial captures lower net and tax alike). */
function checkRefundTaxRate(lines: OrderLine[], items: RefundedItem[], entries: Map<string, { lines: { main: OrderLine[]; discount?: OrderLine } }>): void {
  const of = items.map((i) => entries.get(i.line_item_id)!).flatMap((e) => [...e.lines.main, ...(e.lines.discount ? [e.lines.discount] : [])])
  const orderTax = of.reduce((acc, l) => acc + lineTaxMinor(l), 0)
  const orderTotal = of.reduce((acc, l) => acc + lineTotalMinor(l), 0)
  if (orderTotal <= 0 || orderTax < 0) return
  const total = orderLinesTotalMinor(lines)
  const tax = lines.reduce((acc, l) => acc + lineTaxMinor(l), 0)
  check(Math.abs(tax - (total * orderTax) / orderTotal) <= 2 + orderTax / orderTotal, "a refund keeps its items' tax rate", { tax, total, orderTax, orderTotal })
}

/** The property for one currency, as a jest test. */
export function describeMedusaCarts(code: keyof typeof CURRENCIES): void {
  const currency = CURRENCIES[code]
  describe("order lines for carts totalled by Medusa's decorateCartTotals", () => {
    it(`${code.toUpperCase()}: lines are Medusa's totals to the minor unit, and item refunds add up to the capture`, () => {
      const stats: Stats = { carts: 0, taxOff: 0, itemsOffHalfUp: 0, items: 0, splitLines: 0, refunds: 0, refusedOnTheWire: 0 }
      fc.assert(
        fc.property(cartArb(currency), (g) => checkCart(g, currency, stats)),
        { numRuns: CARTS_PER_CURRENCY }
      )
      // Tax off by one minor unit only where the items' totals leave no rounding that reaches it.
      expect(stats.taxOff).toBeLessThanOrEqual(stats.carts / 100)
      // Every cart with a positive total was checked, and refunded to the last unit.
      expect(stats.carts).toBeGreaterThan(CARTS_PER_CURRENCY * 0.95)
      // JPY and DKK always fit AltaPay's 2 decimals; random KWD prices and taxes mostly do not.
      if (currency.exponent <= 2) expect(stats.refusedOnTheWire).toBe(0)
      else expect(stats.refusedOnTheWire).toBeGreaterThan(0)
    })
  })
}
