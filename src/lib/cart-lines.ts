/**
 * A Medusa cart (as `query.graph` returns it) -> AltaPay order lines that total the cart total
 * exactly. Used by the store route (lines handed to the provider in the session context) and by
 * the provider itself when it loads the cart through `query`, so both paths send the same lines.
 */
import { MathBN } from "@medusajs/framework/utils"
import type { BigNumberInput } from "@medusajs/framework/types"
import { buildOrderLines, type OrderLine, type OrderLineSource, type OrderLineSourceItem } from "../altapay"
import { toMinorUnits } from "./amounts"

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
  credit_lines?: Array<{ id: string; amount: BigNumberInput; reference?: string | null } | null> | null
}

export interface CartLineOptions {
  /** e.g. "https://shop.example/products/{handle}"; omitted: no productUrl. */
  productUrlTemplate?: string
}

/** The cart total in minor units, as AltaPay will be asked for it. */
export function cartTotalMinor(cart: CartForLines): number {
  return toMinorUnits(cart.total ?? 0, cart.currency_code)
}

export function cartOrderLines(cart: CartForLines, options: CartLineOptions = {}, totalMinor = cartTotalMinor(cart)): OrderLine[] {
  return buildOrderLines(cartToLineSource(cart, totalMinor, options))
}

export function cartToLineSource(cart: CartForLines, totalMinor: number, options: CartLineOptions = {}): OrderLineSource {
  const currency = cart.currency_code.toUpperCase()
  const minor = (amount: BigNumberInput) => toMinorUnits(amount, currency)
  const items: OrderLineSourceItem[] = (cart.items ?? []).flatMap((item) => {
    if (!item) return []
    const rates = taxRates(item.tax_lines)
    const inclusive = !!item.is_tax_inclusive
    return [
      {
        id: item.id,
        title: [item.product_title ?? item.title ?? "Item", item.variant_title && item.variant_title !== "Default variant" ? item.variant_title : ""].filter(Boolean).join(" – "),
        sku: item.variant_sku,
        quantity: Number(MathBN.convert(item.quantity).toFixed(0)),
        unitPriceMinor: minor(item.unit_price),
        taxInclusive: inclusive,
        taxRates: rates,
        discountMinor: adjustmentsMinor(item.adjustments, inclusive, rates, currency),
        goodsType: item.is_giftcard ? "gift_card" : item.requires_shipping === false ? "digital" : item.requires_shipping ? "physical" : "item",
        imageUrl: absoluteUrl(item.thumbnail),
        productUrl: options.productUrlTemplate && item.product_handle ? options.productUrlTemplate.replace("{handle}", encodeURIComponent(item.product_handle)) : undefined,
      },
    ]
  })
  const shipping = (cart.shipping_methods ?? []).flatMap((method) => {
    if (!method) return []
    const rates = taxRates(method.tax_lines)
    const inclusive = !!method.is_tax_inclusive
    return [{ id: method.id, name: method.name ?? "Shipping", amountMinor: minor(method.amount), taxInclusive: inclusive, taxRates: rates, discountMinor: adjustmentsMinor(method.adjustments, inclusive, rates, currency) }]
  })
  const credits = (cart.credit_lines ?? []).flatMap((credit) =>
    credit ? [{ id: credit.id, label: credit.reference ? `Credit: ${credit.reference}` : "Credit", amountMinor: minor(credit.amount) }] : []
  )
  return { currency, totalMinor, items, shipping, credits }
}

function taxRates(lines: TaxLine[] | null | undefined): Array<{ rate: number; code?: string }> {
  return (lines ?? []).map((line) => ({ rate: Number(line.rate ?? 0), code: line.code ?? undefined }))
}

/**
 * Promotions on a line, expressed like the line's own price (gross when the price includes tax):
 * Medusa stores each adjustment with its own tax-inclusiveness.
 */
function adjustmentsMinor(adjustments: Adjustment[] | null | undefined, lineInclusive: boolean, rates: Array<{ rate: number }>, currency: string): number {
  const rate = rates.reduce((sum, r) => sum.plus(r.rate), MathBN.convert(0)).div(100)
  let total = MathBN.convert(0)
  for (const adjustment of adjustments ?? []) {
    if (adjustment?.amount == null) continue
    let amount = MathBN.convert(adjustment.amount)
    if (!!adjustment.is_tax_inclusive !== lineInclusive) {
      amount = lineInclusive ? amount.times(rate.plus(1)) : amount.div(rate.plus(1))
    }
    total = total.plus(amount)
  }
  return toMinorUnits(total.toFixed(), currency)
}

function absoluteUrl(url: string | null | undefined): string | undefined {
  return url && /^https?:\/\//i.test(url) ? url : undefined
}
