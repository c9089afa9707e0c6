/**
 * Random Medusa carts for the order-line property tests (test/lib/medusa-totals) and the
 * order-line bench (bench/order-line-splits.ts): tax-inclusive and exclusive prices, several
 * rates, percentage and fixed promotions allocated across or each item the way Medusa's promotion
 * module computes them, shipping with its own promotions and store credit, totalled by Medusa's
 * own `decorateCartTotals`.
 */
import fc from "fast-check"
import { MathBN, calculateAdjustmentAmountFromPromotion, decorateCartTotals, getLineItemTotals } from "@medusajs/framework/utils"

export const CURRENCIES = {
  jpy: { code: "jpy", exponent: 0 },
  dkk: { code: "dkk", exponent: 2 },
  kwd: { code: "kwd", exponent: 3 },
} as const
export type Currency = (typeof CURRENCIES)[keyof typeof CURRENCIES]
// Rates as a shop stores them, including one computed in floating point (0.0725 * 100).
const RATES = [0, 5, 6.5, 7.25, 0.0725 * 100, 8.875, 10, 12.5, 19, 21, 25]

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

export const cartArb = (currency: Currency) =>
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

export type GeneratedCart = typeof cartArb extends (c: never) => fc.Arbitrary<infer T> ? T : never

/** The cart Medusa would hold: promotions computed as Medusa's promotion module does, then totals. */
export function medusaCart(g: GeneratedCart, currency: Currency): any {
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
