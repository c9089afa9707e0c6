/**
 * The AltaPay lines of one item or shipping method once its amounts are whole minor units: the
 * goods line(s) at the net price before promotions with the tax before promotions, and one
 * `handling` line for its promotions (negative net and tax). Used for whole carts and for refunds.
 *
 * AltaPay multiplies unitPrice by quantity, so a net that the quantity does not divide is sent as
 * two lines one minor unit apart in price (2 x 33.34 and 1 x 33.33 for 100.01), never as a
 * rounding line: every line then totals exactly its share of the amount.
 */
import type { GoodsType, OrderLine } from "../types"
import { splitInProportion } from "./allocation"
import { fromInteger } from "./exact"
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
  /** The goods lines (one, or two a minor unit apart in price), or a `handling` line when the net is not positive. */
  main: OrderLine[]
  discount?: OrderLine
}

export function entryLines(spec: EntryLineSpec, amounts: EntryMinor, taken: Set<string>, field: string): EntryLines {
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
