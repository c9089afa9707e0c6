/**
 * A framework-free view of a cart or order, and its exact amounts. Shops keep prices and promotions
 * beyond the currency's digits (Medusa stores 7.728 DKK, and promotions spread across items to 20
 * significant digits), so source amounts are exact minor units: integers, or decimal text.
 *
 * Exact amounts follow Medusa's own totals (`decorateCartTotals`): a tax-inclusive price's net is
 * gross / (1 + rate); each promotion is net (or, when tax-inclusive, its gross / (1 + rate)); tax
 * is charged on the net after promotions; several tax rates on a line add up.
 */
import type { ValidationIssue } from "../errors"
import { currencyInfo } from "../money"
import { add, decimalOf, div, fromDecimal, fromInteger, mul, neg, ONE, pow10, ratio, roundHalfUp, sub, sum, ZERO, type Decimal, type Ratio } from "./exact"

/** Minor units, exactly: an integer, or decimal text for fractions of a minor unit ("772.8"). */
export type ExactMinor = number | string

/** A promotion as the shop stores it, with its own tax-inclusiveness (Medusa's adjustments). */
export interface OrderLineSourceAdjustment {
  /** Positive: lowers the line. */
  amountMinor: ExactMinor
  taxInclusive: boolean
}

export interface OrderLineSourceItem {
  id: string
  title: string
  sku?: string | null
  /** A whole number; items with quantity 0 get no lines. */
  quantity: number
  /** As stored by the shop: gross when taxInclusive, else net. */
  unitPriceMinor: ExactMinor
  taxInclusive?: boolean
  /** Percent, e.g. 25 or 12.5; several rates add up. */
  taxRates: Array<{ rate: number; code?: string }>
  /** Promotions on this line in total (positive), with the same tax-inclusiveness as unitPriceMinor. */
  discountMinor?: ExactMinor
  /** Promotions each with its own tax-inclusiveness; they add to discountMinor. */
  adjustments?: OrderLineSourceAdjustment[]
  goodsType?: "item" | "physical" | "digital" | "gift_card"
  imageUrl?: string | null
  productUrl?: string | null
  unitCode?: string
}

export interface OrderLineSourceShipping {
  id: string
  name: string
  /** As stored by the shop: gross when taxInclusive, else net. */
  amountMinor: ExactMinor
  taxInclusive?: boolean
  taxRates: Array<{ rate: number }>
  discountMinor?: ExactMinor
  adjustments?: OrderLineSourceAdjustment[]
}

export interface OrderLineSourceCredit {
  id: string
  label: string
  /** Positive: lowers the total (gift-card redemption, store credit). Carries no tax. */
  amountMinor: ExactMinor
}

/** A framework-free view of a cart or order; the Medusa provider maps its data onto this. */
export interface OrderLineSource {
  /** ISO 4217 alphabetic code. */
  currency: string
  /** The amount that will be sent: the cart's exact total rounded down or up (the lines total exactly this). */
  totalMinor: number
  items: OrderLineSourceItem[]
  shipping?: OrderLineSourceShipping[]
  credits?: OrderLineSourceCredit[]
}

export const ITEM_GOODS_TYPES = ["item", "physical", "digital", "gift_card"] as const

/** Exact amounts of one item or shipping method, in minor units. */
export interface EntryAmounts {
  /** Net before promotions (AltaPay's unitPrice * quantity). */
  net: Ratio
  /** Promotions, net (positive). */
  discountNet: Ratio
  /** Tax before promotions (AltaPay's taxAmount of the item line). */
  tax: Ratio
  /** Tax on the promotions (positive). */
  discountTax: Ratio
  /** Sum of the line's tax rates, in percent. */
  rate: Decimal
}

export const entryTotal = (a: EntryAmounts): Ratio => sum([a.net, neg(a.discountNet), a.tax, neg(a.discountTax)])
export const entryTax = (a: EntryAmounts): Ratio => sub(a.tax, a.discountTax)
export const entryNet = (a: EntryAmounts): Ratio => sub(a.net, a.discountNet)

/** The exact minor units of a source amount (validated beforehand). */
export const exactMinor = (value: ExactMinor | undefined): Ratio => (value === undefined ? ZERO : fromDecimal(decimalOf(value)!))

export function itemAmounts(item: OrderLineSourceItem, exponent: number): EntryAmounts {
  return amounts(mul(exactMinor(item.unitPriceMinor), fromInteger(item.quantity)), item, item.quantity, exponent)
}

export function shippingAmounts(shipping: OrderLineSourceShipping, exponent: number): EntryAmounts {
  return amounts(exactMinor(shipping.amountMinor), shipping, undefined, exponent)
}

/**
 * Medusa's getLineItemTotals / getShippingMethodTotals, step by step. Medusa divides with
 * bignumber.js (20 decimals of the major unit, half up), so its totals are those quotients, not
 * the exact fractions: an amount can sit a hair below half a minor unit, and rounds down in Medusa.
 * An item's promotions are spread over its `quantity` units (each unit's share divided, so
 * rounded); a shipping method's (`quantity` undefined) are taken whole, undivided.
 */
function amounts(
  price: Ratio,
  line: { taxInclusive?: boolean; taxRates: ReadonlyArray<{ rate: number }>; discountMinor?: ExactMinor; adjustments?: OrderLineSourceAdjustment[] },
  quantity: number | undefined,
  exponent: number
): EntryAmounts {
  const rate = sumRates(line.taxRates)
  const factor = fromDecimal({ units: rate.units, scale: rate.scale + 2 })
  const grossFactor = add(ONE, factor)
  const places = MEDUSA_DECIMAL_PLACES - exponent
  const toNet = (amount: Ratio, inclusive: boolean) => (inclusive ? divAt(amount, grossFactor, places) : amount)
  const net = toNet(price, line.taxInclusive === true)
  let discounts = toNet(exactMinor(line.discountMinor), line.taxInclusive === true)
  for (const adjustment of line.adjustments ?? []) discounts = add(discounts, toNet(exactMinor(adjustment.amountMinor), adjustment.taxInclusive))
  // Medusa spreads an item's promotions per unit and multiplies back (adjustmentSubtotalPerItem *
  // quantity); getShippingMethodTotals uses adjustmentsSubtotal as it is.
  const discountNet = quantity === undefined ? discounts : quantity > 0 ? mul(divAt(discounts, fromInteger(quantity), places), fromInteger(quantity)) : ZERO
  const tax = mul(net, factor)
  return { net, discountNet, tax, discountTax: sub(tax, mul(sub(net, discountNet), factor)), rate }
}

/** The most units of one item a line takes: the package's own bound, not AltaPay's. */
const MAX_QUANTITY = 1_000_000_000

/** Decimals bignumber.js keeps when Medusa divides (its default DECIMAL_PLACES). */
const MEDUSA_DECIMAL_PLACES = 20

/** a / b rounded half up to `places` decimals (of the minor unit; may be negative). */
function divAt(a: Ratio, b: Ratio, places: number): Ratio {
  const q = div(a, b)
  const scale = places >= 0 ? ratio(pow10(places)) : ratio(1n, pow10(-places))
  return div(fromInteger(roundHalfUp(mul(q, scale))), scale)
}

export function sumRates(rates: ReadonlyArray<{ rate: number }>): Decimal {
  let total: Ratio = ZERO
  let scale = 0
  for (const { rate } of rates) {
    const decimal = decimalOf(rate)
    if (!decimal) continue
    total = add(total, fromDecimal(decimal))
    scale = Math.max(scale, decimal.scale)
  }
  return { units: (total.n * 10n ** BigInt(scale)) / total.d, scale }
}

/** Every problem with a source, each named by path (`items.0.unitPriceMinor`). */
export function sourceIssues(source: OrderLineSource): ValidationIssue[] {
  const issues: ValidationIssue[] = []
  const add = (field: string, message: string) => issues.push({ field, message })
  try {
    currencyInfo(source.currency)
  } catch {
    add("currency", `unknown ISO 4217 currency ${String(source.currency)}`)
  }
  if (!Number.isSafeInteger(source.totalMinor) || source.totalMinor < 0) {
    add("totalMinor", "must be a non-negative integer amount in minor units")
  }
  const amount = (value: unknown, field: string, optional = false) => {
    if (optional && value === undefined) return
    const decimal = typeof value === "number" || typeof value === "string" ? decimalOf(value) : undefined
    if (!decimal || decimal.units < 0n) add(field, "must be an amount in minor units, zero or more (a number or decimal text)")
    else if (decimal.units / 10n ** BigInt(decimal.scale) > BigInt(Number.MAX_SAFE_INTEGER)) add(field, "is too large")
  }
  const adjustments = (value: unknown, field: string) => {
    if (value === undefined) return
    if (!Array.isArray(value)) return add(field, "must be an array")
    value.forEach((a: { amountMinor?: unknown; taxInclusive?: unknown }, j) => {
      amount(a?.amountMinor, `${field}.${j}.amountMinor`)
      if (typeof a?.taxInclusive !== "boolean") add(`${field}.${j}.taxInclusive`, "must be true or false")
    })
  }
  const rates = (value: unknown, field: string) => {
    if (!Array.isArray(value)) return add(field, "must be an array")
    value.forEach((r: { rate?: unknown }, j) => {
      if (typeof r?.rate !== "number" || !Number.isFinite(r.rate) || r.rate < 0) {
        add(`${field}.${j}.rate`, "must be a finite percentage, zero or more")
      }
    })
  }
  const id = (value: unknown, field: string) => {
    if (typeof value !== "string" || value.trim() === "") add(field, "is required")
  }
  const text = (value: unknown, field: string) => {
    if (typeof value !== "string") add(field, "must be a string")
  }

  if (!Array.isArray(source.items)) add("items", "must be an array")
  else {
    source.items.forEach((item, i) => {
      const p = `items.${i}`
      id(item.id, `${p}.id`)
      text(item.title, `${p}.title`)
      if (item.sku !== undefined && item.sku !== null) text(item.sku, `${p}.sku`)
      if (!Number.isSafeInteger(item.quantity) || item.quantity < 0) add(`${p}.quantity`, "must be a whole number, zero or more")
      else if (item.quantity > MAX_QUANTITY) add(`${p}.quantity`, `is ${item.quantity}, more than the ${MAX_QUANTITY.toLocaleString("en")} units one order line takes`)
      amount(item.unitPriceMinor, `${p}.unitPriceMinor`)
      rates(item.taxRates, `${p}.taxRates`)
      amount(item.discountMinor, `${p}.discountMinor`, true)
      adjustments(item.adjustments, `${p}.adjustments`)
      if (item.goodsType !== undefined && !(ITEM_GOODS_TYPES as readonly string[]).includes(item.goodsType)) {
        add(`${p}.goodsType`, `must be one of ${ITEM_GOODS_TYPES.join(", ")}`)
      }
      if (item.unitCode !== undefined) text(item.unitCode, `${p}.unitCode`)
    })
  }
  if (source.shipping !== undefined && !Array.isArray(source.shipping)) add("shipping", "must be an array")
  ;(Array.isArray(source.shipping) ? source.shipping : []).forEach((s, i) => {
    const p = `shipping.${i}`
    id(s.id, `${p}.id`)
    text(s.name, `${p}.name`)
    amount(s.amountMinor, `${p}.amountMinor`)
    rates(s.taxRates, `${p}.taxRates`)
    amount(s.discountMinor, `${p}.discountMinor`, true)
    adjustments(s.adjustments, `${p}.adjustments`)
  })
  if (source.credits !== undefined && !Array.isArray(source.credits)) add("credits", "must be an array")
  ;(Array.isArray(source.credits) ? source.credits : []).forEach((c, i) => {
    const p = `credits.${i}`
    id(c.id, `${p}.id`)
    text(c.label, `${p}.label`)
    amount(c.amountMinor, `${p}.amountMinor`)
  })
  return issues
}
