/**
 * A Medusa cart or order (as `query.graph` returns it) -> the framework-free OrderLineSource, and
 * from it AltaPay order lines that total the cart total exactly. Amounts go over exact (Medusa
 * keeps prices and promotions beyond the currency's digits); the line builder rounds once, for the
 * whole cart. Used by the store route, by the provider when it loads the cart through `query`, and
 * for orders by the admin routes, so every path sends the same lines for the same cart.
 */
import { MathBN, MedusaError } from "@medusajs/framework/utils"
import type { BigNumberInput } from "@medusajs/framework/types"
import {
  AltaPayValidationError,
  buildOrderLines,
  currencyExponent,
  entryTotalsMinor,
  reservedCredits,
  type OrderLine,
  type OrderLineSource,
  type OrderLineSourceAdjustment,
  type OrderLineSourceItem,
} from "../../altapay"
import { exactMinorText, payableMinorUnits, toMinorUnits, withinOnePayment } from "./amounts"

/** What the line builder reads from a cart; requesting `total` makes Medusa compute totals. */
export const CART_FIELDS_FOR_LINES = [
  "id",
  "currency_code",
  "total",
  "customer_id",
  "email",
  "items.id",
  "items.title",
  "items.product_title",
  "items.variant_title",
  "items.variant_sku",
  "items.product_handle",
  "items.thumbnail",
  "items.quantity",
  "items.unit_price",
  "items.is_tax_inclusive",
  "items.is_giftcard",
  "items.requires_shipping",
  "items.tax_lines.rate",
  "items.tax_lines.code",
  "items.adjustments.amount",
  "items.adjustments.is_tax_inclusive",
  "items.adjustments.code",
  "shipping_methods.id",
  "shipping_methods.name",
  "shipping_methods.amount",
  "shipping_methods.is_tax_inclusive",
  "shipping_methods.tax_lines.rate",
  "shipping_methods.adjustments.amount",
  "shipping_methods.adjustments.is_tax_inclusive",
  "credit_lines.id",
  "credit_lines.amount",
  "credit_lines.reference",
  "credit_lines.metadata",
]

interface Adjustment {
  amount?: BigNumberInput | null
  is_tax_inclusive?: boolean | null
  code?: string | null
}
interface TaxLine {
  rate?: number | string | null
  code?: string | null
}
export interface CartForLines {
  id: string
  currency_code: string
  total?: BigNumberInput | null
  items?: Array<{
    id: string
    title?: string | null
    product_title?: string | null
    variant_title?: string | null
    variant_sku?: string | null
    product_handle?: string | null
    thumbnail?: string | null
    quantity: BigNumberInput
    unit_price: BigNumberInput
    is_tax_inclusive?: boolean | null
    is_giftcard?: boolean | null
    requires_shipping?: boolean | null
    tax_lines?: TaxLine[] | null
    adjustments?: Adjustment[] | null
  } | null> | null
  shipping_methods?: Array<{
    id: string
    name?: string | null
    amount: BigNumberInput
    is_tax_inclusive?: boolean | null
    tax_lines?: TaxLine[] | null
    adjustments?: Adjustment[] | null
  } | null> | null
  credit_lines?: Array<{ id: string; amount: BigNumberInput; reference?: string | null; metadata?: Record<string, unknown> | null } | null> | null
}

export interface CartLineOptions {
  /** e.g. "https://shop.example/products/{handle}"; omitted: no productUrl. */
  productUrlTemplate?: string
  /**
   * For an order mapped onto its reservation: the lines AltaPay reserved. A credit line Medusa added
   * to the order after it was placed (an order change, which marks it `metadata.created_in_version`:
   * how refundPaymentWorkflow books a refund of an order not paid in full) counts only when it pairs
   * with a reserved credit line (reservedCredits); the credits the order was placed with always count.
   */
  creditsReservedIn?: readonly OrderLine[]
}

/** The cart total in minor units, as AltaPay will be asked for it (Medusa's total, rounded half up). */
export function cartTotalMinor(cart: CartForLines): number {
  return toMinorUnits(cart.total ?? 0, cart.currency_code)
}

/**
 * The cart total in minor units to compare with a session's amount; undefined past what one payment
 * takes (withinOnePayment): no session asks that much, so such a cart has changed, and is not a 500.
 */
export function cartTotalMinorIfPayable(cart: CartForLines): number | undefined {
  return withinOnePayment(cart.total ?? 0, cart.currency_code) ? cartTotalMinor(cart) : undefined
}

/** The cart total in minor units for a new AltaPay payment: a 400 past what one payment takes (payableMinorUnits). */
export function payableCartTotal(cart: CartForLines): number {
  return payableMinorUnits(cart.total ?? 0, cart.currency_code, `Cart ${cart.id}`)
}

/** The cart's lines for `totalMinor` (by default the cart total); refused when that is not the cart's total. */
export function cartOrderLines(cart: CartForLines, options: CartLineOptions = {}, totalMinor = cartTotalMinor(cart)): OrderLine[] {
  return buildOrderLines(cartToLineSource(cart, totalMinor, options))
}

/**
 * The cart's lines for a new payment (cartOrderLines), or a 400 before anything is sent when the
 * line builder refuses the cart's own data: it names the cart's fields (e.g. a negative credit
 * line, a charge the cart owes, which AltaPay's lines carry no way: a credit line there is money
 * off the bill).
 */
export function payableCartLines(cart: CartForLines, options: CartLineOptions, totalMinor: number): OrderLine[] {
  try {
    return cartOrderLines(cart, options, totalMinor)
  } catch (error) {
    if (!(error instanceof AltaPayValidationError)) throw error
    const problems = [...new Set(error.issues.map((issue) => `${cartLineField(cart, issue.field)} ${issue.message}`))]
    const charge = error.issues.some((issue) => issue.field.startsWith("credits."))
      ? " A credit line must lower what the cart costs: one below zero (a charge) cannot be sent to AltaPay as a credit. Charge it as a line item or a shipping method instead."
      : ""
    throw new MedusaError(MedusaError.Types.INVALID_DATA, `Cart ${cart.id} cannot be paid with AltaPay: ${problems.join("; ")}.${charge} Nothing was sent to AltaPay.`)
  }
}

export function cartToLineSource(cart: CartForLines, totalMinor: number, options: CartLineOptions = {}): OrderLineSource {
  const currency = cart.currency_code.toUpperCase()
  const exact = (amount: BigNumberInput) => exactMinorText(amount, currency)
  const items: OrderLineSourceItem[] = (cart.items ?? []).flatMap((item) => {
    if (!item) return []
    return [
      {
        id: item.id,
        title: [item.product_title ?? item.title ?? "Item", item.variant_title && item.variant_title !== "Default variant" ? item.variant_title : ""].filter(Boolean).join(" – "),
        sku: item.variant_sku,
        quantity: Number(MathBN.convert(item.quantity).toFixed(0)),
        unitPriceMinor: exact(item.unit_price),
        taxInclusive: !!item.is_tax_inclusive,
        taxRates: taxRates(item.tax_lines),
        adjustments: adjustments(item.adjustments, currency),
        goodsType: item.is_giftcard ? "gift_card" : item.requires_shipping === false ? "digital" : item.requires_shipping ? "physical" : "item",
        imageUrl: absoluteUrl(item.thumbnail),
        productUrl: options.productUrlTemplate && item.product_handle ? options.productUrlTemplate.replace("{handle}", encodeURIComponent(item.product_handle)) : undefined,
      },
    ]
  })
  const shipping = (cart.shipping_methods ?? []).flatMap((method) => {
    if (!method) return []
    return [
      {
        id: method.id,
        name: method.name ?? "Shipping",
        amountMinor: exact(method.amount),
        taxInclusive: !!method.is_tax_inclusive,
        taxRates: taxRates(method.tax_lines),
        adjustments: adjustments(method.adjustments, currency),
      },
    ]
  })
  const offered = (cart.credit_lines ?? []).flatMap((credit) =>
    credit
      ? [{ id: credit.id, label: credit.reference ? `Credit: ${credit.reference}` : "Credit", amountMinor: exact(credit.amount), amount: credit.amount, metadata: credit.metadata }]
      : []
  )
  const creditLines = options.creditsReservedIn ? creditsOnReservation(offered, options.creditsReservedIn) : offered
  // Medusa counts credit lines adding up to one minor unit or less as none (calculateCreditLinesTotal).
  const creditTotal = MathBN.abs(MathBN.sum(...creditLines.map((credit) => credit.amount)))
  const credits = MathBN.lte(creditTotal, MathBN.convert(1).shiftedBy(-currencyExponent(currency)))
    ? []
    : creditLines.map(({ id, label, amountMinor }) => ({ id, label, amountMinor }))
  // Medusa's query answers a cart's (and its order's) items in no fixed order, and rounding gives a
  // tied minor unit to the earlier line: in content order, a cart and the order made from it get the
  // same lines, whatever order either was read in.
  return { currency, totalMinor, items: inContentOrder(items), shipping: inContentOrder(shipping), credits: inContentOrder(credits) }
}

/**
 * A line source's field, as the line builder names it in an AltaPayValidationError
 * ("credits.0.amountMinor", indexed in content order), as the cart or order has it:
 * "credit_lines[cacl_…].amount". Other fields come back as they are.
 */
export function cartLineField(cart: CartForLines, field: string): string {
  const match = /^(items|shipping|credits)\.(\d+)\.?(.*)$/.exec(field)
  if (!match) return field
  const [, list, index, rest] = match
  const source = cartToLineSource(cart, 0)
  const entries: Array<{ id: string }> = list === "items" ? source.items : list === "shipping" ? (source.shipping ?? []) : (source.credits ?? [])
  const inner = rest
    .replace(/^(taxRates|adjustments)\.(\d+)\.(\w+)$/, (_all, name: string, n: string, leaf: string) => `${name === "taxRates" ? "tax_lines" : name}[${n}].${leaf}`)
    .replace(/(^|\.)(unitPriceMinor)$/, "$1unit_price")
    .replace(/(^|\.)(amountMinor)$/, "$1amount")
  const name = list === "items" ? "items" : list === "shipping" ? "shipping_methods" : "credit_lines"
  return `${name}[${entries[Number(index)]?.id ?? index}]${inner ? `.${inner}` : ""}`
}

/** The order's credits as placed, and those added since that pair with reserved credit lines (the placed ones pair first). */
function creditsOnReservation<T extends { label: string; amountMinor: string | number; metadata?: Record<string, unknown> | null }>(
  credits: T[],
  reserved: readonly OrderLine[]
): T[] {
  const addedLater = (credit: T) => credit.metadata?.created_in_version != null
  const paired = new Set(reservedCredits(reserved, [...credits.filter((c) => !addedLater(c)), ...credits.filter(addedLater)]))
  return credits.filter((credit) => !addedLater(credit) || paired.has(credit))
}

/**
 * What an order offers for item refunds, as the admin shows it: each shipping method at its own
 * total (after its promotions, with its tax: what refunding it gives back of a payment captured in
 * full), not its price as stored, and none that costs nothing (free shipping).
 */
export function refundableEntries(order: CartForLines): {
  items: Array<{ id: string; title: string; sku: string | null; quantity: number }>
  shipping: Array<{ id: string; name: string; amountMinor: number }>
} {
  const source = cartToLineSource(order, 0)
  const totals = entryTotalsMinor(source)
  return {
    items: source.items.map((item) => ({ id: item.id, title: item.title, sku: item.sku ?? null, quantity: item.quantity })),
    shipping: (source.shipping ?? []).flatMap((method) => ((totals.get(method.id) ?? 0) > 0 ? [{ id: method.id, name: method.name, amountMinor: totals.get(method.id)! }] : [])),
  }
}

function taxRates(lines: TaxLine[] | null | undefined): Array<{ rate: number; code?: string }> {
  return (lines ?? []).map((line) => ({ rate: Number(line.rate ?? 0), code: line.code ?? undefined }))
}

/** Promotions exactly as Medusa stores them, each with its own tax-inclusiveness. */
function adjustments(list: Adjustment[] | null | undefined, currency: string): OrderLineSourceAdjustment[] {
  return (list ?? []).flatMap((adjustment) =>
    adjustment?.amount == null ? [] : [{ amountMinor: exactMinorText(adjustment.amount, currency), taxInclusive: !!adjustment.is_tax_inclusive }]
  )
}

function absoluteUrl(url: string | null | undefined): string | undefined {
  return url && /^https?:\/\//i.test(url) ? url : undefined
}

/** Entries sorted by everything but their id (a cart's and its order's ids differ); ties keep their order. */
function inContentOrder<T extends { id: string }>(entries: T[]): T[] {
  const keyed = entries.map((entry) => {
    const { id: _id, ...content } = entry
    return { entry, key: JSON.stringify(content) }
  })
  return keyed.sort((a, b) => (a.key < b.key ? -1 : a.key > b.key ? 1 : 0)).map(({ entry }) => entry)
}
