/**
 * The AltaPay lines of one item or shipping method once its amounts are whole minor units: a goods
 * line at the net price before promotions with the tax before promotions, and one `handling` line
 * for its promotions (negative net and tax). Used for whole carts and for refunds.
 *
 * AltaPay multiplies unitPrice by quantity, and we send it with 2 decimals at most. A net the
 * quantity does not divide (119.98 for 3 cups) goes out as one goods line at the unit price rounded
 * to the minor unit (3 x 39.99), and the promotion line carries what that misses with its tax: one
 * line per product as in AltaPay's own plugins, which carry it on an order-wide compensation line
 * instead (wire facts, "Order lines"). Without a promotion line the goods are two lines one minor
 * unit apart (2 x 39.99 and 1 x 40.00), never a rounding line: an entry's lines total its share.
 */
import type { GoodsType, OrderLine } from "../types"
import { divRound } from "../money"
import { splitInProportion } from "./allocation"
import { decimalOf, fromDecimal, fromInteger, mul, roundHalfUp } from "./exact"
import { toSafeMinor } from "./problems"
import { ORDER_LINE_LIMITS, claimItemId, truncateText } from "./text"

/** One entry's amounts in whole minor units. */
export interface EntryMinor {
  net: bigint
  discountNet: bigint
  tax: bigint
  discountTax: bigint
}

export interface EntryLineSpec {
  /** The preferred itemId of the goods line; the promotion line gets `discount-<itemId>`. */
  itemId: string
  description: string
  quantity: number
  goodsType: GoodsType
  taxPercent: number
  /** Copied onto the goods line(s). */
  extra?: Pick<OrderLine, "unitCode" | "imageUrl" | "productUrl">
}

export interface EntryLines {
  /**
   * The goods line (two a minor unit apart in price when the quantity does not divide the net and
   * there is no promotion line to carry the rest), or a `handling` line when the net is not positive.
   */
  main: OrderLine[]
  discount?: OrderLine
}

export function entryLines(spec: EntryLineSpec, entry: EntryMinor, taken: Set<string>, field: string): EntryLines {
  const amounts = carriedIntoPromotion(entry, spec) ?? entry
  const main: OrderLine[] = []
  const base = { description: spec.description, taxPercent: spec.taxPercent }
  if (amounts.net > 0n) {
    for (const part of quantityParts(amounts.net, spec.quantity)) {
      main.push({
        ...base,
        itemId: claimItemId(spec.itemId, taken),
        quantity: part.quantity,
        unitPriceMinor: toSafeMinor(part.unitPrice, field),
        taxAmountMinor: 0,
        goodsType: spec.goodsType,
        ...spec.extra,
      })
    }
    const taxes = splitInProportion(
      main.map((l) => fromInteger(BigInt(l.unitPriceMinor) * BigInt(l.quantity))),
      amounts.tax
    )
    main.forEach((line, i) => (line.taxAmountMinor = toSafeMinor(taxes[i], field)))
  } else if (amounts.net !== 0n || amounts.tax !== 0n) {
    // A net of nothing (or less) cannot be a goods line; the money still goes on a handling line.
    main.push({
      ...base,
      itemId: claimItemId(spec.itemId, taken),
      quantity: 1,
      unitPriceMinor: toSafeMinor(amounts.net, field),
      taxAmountMinor: toSafeMinor(amounts.tax, field),
      goodsType: "handling",
    })
  }
  if (amounts.discountNet === 0n && amounts.discountTax === 0n) return { main }
  const discount: OrderLine = {
    description: truncateText(`Discount: ${spec.description}`, ORDER_LINE_LIMITS.description),
    itemId: claimItemId(`discount-${main[0]?.itemId ?? spec.itemId}`, taken),
    quantity: 1,
    unitPriceMinor: toSafeMinor(-amounts.discountNet, field),
    taxAmountMinor: toSafeMinor(-amounts.discountTax, field),
    taxPercent: spec.taxPercent,
    goodsType: "handling",
  }
  return { main, discount }
}

/**
 * The entry with a goods net its quantity divides: the goods at the unit price rounded to the minor
 * unit (or, if that would leave the promotion line taking nothing off, one minor unit more), and
 * the promotion line changed by as much, with the tax on the difference at the entry's rate, so
 * the entry's total and tax stay what they were. Undefined when the quantity divides the net
 * already, or when there is no promotion line that takes money off.
 */
function carriedIntoPromotion(amounts: EntryMinor, spec: EntryLineSpec): EntryMinor | undefined {
  const count = BigInt(spec.quantity)
  if (amounts.net <= 0n || amounts.net % count === 0n) return undefined
  if (!(amounts.discountNet > 0n && amounts.discountNet + amounts.discountTax > 0n)) return undefined
  const percent = decimalOf(spec.taxPercent)
  if (!percent) return undefined
  const rate = fromDecimal({ units: percent.units, scale: percent.scale + 2 })
  for (const unitPrice of new Set([divRound(amounts.net, count), amounts.net / count + 1n])) {
    if (unitPrice <= 0n) continue
    const moved = unitPrice * count - amounts.net
    const movedTax = roundHalfUp(mul(fromInteger(moved), rate))
    const carried: EntryMinor = {
      net: amounts.net + moved,
      tax: amounts.tax + movedTax,
      discountNet: amounts.discountNet + moved,
      discountTax: amounts.discountTax + movedTax,
    }
    if (carried.tax >= 0n && carried.discountNet > 0n && carried.discountNet + carried.discountTax > 0n) return carried
  }
  return undefined
}

/**
 * `net` over `quantity` units as at most two (quantity, unitPrice) parts: units at the floor price
 * and the rest one minor unit dearer. Below one minor unit per unit, only the dearer units remain.
 */
export function quantityParts(net: bigint, quantity: number): Array<{ quantity: number; unitPrice: bigint }> {
  const count = BigInt(quantity)
  const unit = net / count
  const dearer = Number(net - unit * count)
  const parts: Array<{ quantity: number; unitPrice: bigint }> = []
  if (quantity - dearer > 0 && unit > 0n) parts.push({ quantity: quantity - dearer, unitPrice: unit })
  if (dearer > 0) parts.push({ quantity: dearer, unitPrice: unit + 1n })
  return parts
}
