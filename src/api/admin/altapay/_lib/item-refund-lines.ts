/**
 * The AltaPay lines and amount of an item-level refund: for each chosen order item, the lines the
 * order's own line builder gives it (item line, promotion line), scaled to the refunded quantity.
 *
 * Money is split cumulatively: refunding r+q of Q units returns round(V*(r+q)/Q) - round(V*r/Q)
 * of the item's value V, so however an item is refunded in parts, the parts add up to V to the
 * minor unit. The scaled lines are made to total that amount with a rounding line.
 */
import {
  buildOrderLines,
  divRound,
  lineTotalMinor,
  orderLinesTotalMinor,
  validateOrderLines,
  withCompensationLine,
  type OrderLine,
  type OrderLineSource,
} from "../../../../altapay"
import { cartToLineSource, type CartForLines } from "../../../../lib/cart-lines"

/** One refunded unit count, as recorded in `data.refunds[].items` (shipping methods too, quantity 1). */
export interface RefundedItem {
  line_item_id: string
  quantity: number
}

export interface ItemRefundRequest {
  items: RefundedItem[]
  /** Refund the order's shipping methods that were not refunded yet. */
  shipping?: boolean
}

export interface ItemRefundPlan {
  amountMinor: number
  lines: OrderLine[]
  /** What to record on the refund: items, and shipping method ids with quantity 1. */
  items: RefundedItem[]
}

/** A request the order cannot satisfy; `problems` are one sentence each, for a 400 answer. */
export class ItemRefundError extends Error {
  constructor(readonly problems: string[]) {
    super(problems.join(" "))
    this.name = "ItemRefundError"
  }
}

/** What each item or shipping method has had refunded so far (open refunds count: the money is on its way). */
export function refundedQuantities(refunds: ReadonlyArray<{ items?: RefundedItem[] | null }>): Map<string, number> {
  const refunded = new Map<string, number>()
  for (const refund of refunds) {
    for (const item of refund.items ?? []) refunded.set(item.line_item_id, (refunded.get(item.line_item_id) ?? 0) + item.quantity)
  }
  return refunded
}

/** The lines of one order entry (an item or a shipping method) in the order's full line set. */
interface EntryLines {
  main?: OrderLine
  discount?: OrderLine
}

export interface OrderEntries {
  source: OrderLineSource
  items: Map<string, EntryLines>
  shipping: Map<string, EntryLines>
}

/**
 * Builds the order's lines with the project's builder and finds which lines belong to which item
 * and shipping method. The builder names lines after SKUs, so the owner of each line is found by
 * building the same source once more with unique placeholder ids: ids never change how many
 * lines there are or their order, which is checked.
 */
export function orderEntries(order: CartForLines): OrderEntries {
  // Credit lines (store credit, refund credits Medusa adds to the order) belong to no item.
  const source = cartToLineSource({ ...order, credit_lines: [] }, 0)
  const lines = buildOrderLines(source)
  const probe = buildOrderLines({
    ...source,
    items: source.items.map((item, i) => ({ ...item, id: `item-${i}`, sku: null })),
    shipping: (source.shipping ?? []).map((method, i) => ({ ...method, id: `shipping-${i}` })),
  })
  const same = probe.length === lines.length && probe.every((line, j) => lineTotalMinor(line) === lineTotalMinor(lines[j]))
  if (!same) throw new Error("The order line builder gave different lines for the same order; item refunds cannot be mapped.")

  const items = new Map<string, EntryLines>()
  const shipping = new Map<string, EntryLines>()
  probe.forEach((line, j) => {
    const match = /^(discount-)?(item|shipping)-(\d+)$/.exec(line.itemId)
    if (!match) return // the rounding line
    const [, discount, kind, index] = match
    const id = kind === "item" ? source.items[Number(index)]?.id : source.shipping?.[Number(index)]?.id
    if (!id) return
    const map = kind === "item" ? items : shipping
    const entry = map.get(id) ?? {}
    if (discount) entry.discount = lines[j]
    else entry.main = lines[j]
    map.set(id, entry)
  })
  return { source, items, shipping }
}

/**
 * Plans an item-level refund of `order` (query.graph shape, same fields as a cart) given what was
 * refunded before. Throws ItemRefundError listing every problem (unknown items, quantities beyond
 * what is still refundable, nothing to refund).
 */
export function planItemRefund(order: CartForLines, previousRefunds: ReadonlyArray<{ items?: RefundedItem[] | null }>, request: ItemRefundRequest): ItemRefundPlan {
  const entries = orderEntries(order)
  const { source } = entries
  const refunded = refundedQuantities(previousRefunds)
  const problems: string[] = []
  const lines: OrderLine[] = []
  const recorded: RefundedItem[] = []
  let amountMinor = 0n

  const requested = new Map<string, number>()
  for (const { line_item_id, quantity } of request.items) {
    if (!Number.isSafeInteger(quantity) || quantity <= 0) problems.push(`Quantity for ${line_item_id} must be a whole number greater than zero.`)
    else requested.set(line_item_id, (requested.get(line_item_id) ?? 0) + quantity)
  }

  for (const [lineItemId, quantity] of requested) {
    const item = source.items.find((candidate) => candidate.id === lineItemId)
    if (!item) {
      problems.push(`${lineItemId} is not an item of this order.`)
      continue
    }
    const before = refunded.get(lineItemId) ?? 0
    const left = Math.max(item.quantity - before, 0)
    if (quantity > left) {
      problems.push(
        `"${item.title}" (${lineItemId}): ${quantity} requested, but only ${left} of ${item.quantity} ${left === 1 ? "is" : "are"} still refundable${before ? ` (${before} refunded before)` : ""}.`
      )
      continue
    }
    const entry = entries.items.get(lineItemId) ?? {}
    const value = itemValueMinor(item, entry)
    amountMinor += share(value, before, quantity, item.quantity)
    if (entry.main) {
      lines.push({ ...entry.main, quantity, taxAmountMinor: toNumber(share(BigInt(entry.main.taxAmountMinor), before, quantity, item.quantity)) })
    }
    if (entry.discount) {
      const unitPriceMinor = toNumber(share(BigInt(entry.discount.unitPriceMinor), before, quantity, item.quantity))
      const taxAmountMinor = toNumber(share(BigInt(entry.discount.taxAmountMinor), before, quantity, item.quantity))
      if (unitPriceMinor !== 0 || taxAmountMinor !== 0) lines.push({ ...entry.discount, quantity: 1, unitPriceMinor, taxAmountMinor })
    }
    recorded.push({ line_item_id: lineItemId, quantity })
  }

  if (request.shipping) {
    const methods = (source.shipping ?? []).filter((method) => !refunded.has(method.id))
    if (methods.length === 0) problems.push((source.shipping ?? []).length ? "Shipping was already refunded." : "This order has no shipping to refund.")
    for (const method of methods) {
      const entry = entries.shipping.get(method.id) ?? {}
      const methodLines = [entry.main, entry.discount].filter((line): line is OrderLine => !!line)
      amountMinor += BigInt(orderLinesTotalMinor(methodLines))
      lines.push(...methodLines)
      recorded.push({ line_item_id: method.id, quantity: 1 })
    }
  }

  if (problems.length === 0 && recorded.length === 0) problems.push("Choose at least one item or the shipping to refund.")
  if (problems.length === 0 && amountMinor <= 0n) problems.push("The chosen items have nothing to refund (their price is zero).")
  if (problems.length > 0) throw new ItemRefundError(problems)

  const total = toNumber(amountMinor)
  const result = withCompensationLine(lines, total, source.currency)
  validateOrderLines(result, { currency: source.currency, expectedTotalMinor: total })
  return { amountMinor: total, lines: result, items: recorded }
}

/**
 * What the customer paid for all units of an item, in minor units. Lines carry a rounded net unit
 * price; for tax-inclusive prices the exact value is the gross price less the gross promotion.
 */
function itemValueMinor(item: OrderLineSource["items"][number], entry: EntryLines): bigint {
  if (item.taxInclusive && entry.main) return BigInt(item.unitPriceMinor) * BigInt(item.quantity) - BigInt(item.discountMinor ?? 0)
  return BigInt(orderLinesTotalMinor([entry.main, entry.discount].filter((line): line is OrderLine => !!line)))
}

/** Units before+1 .. before+quantity of `total` spread over `of` units, without losing a minor unit. */
function share(total: bigint, before: number, quantity: number, of: number): bigint {
  const count = BigInt(of)
  return divRound(total * BigInt(before + quantity), count) - divRound(total * BigInt(before), count)
}

function toNumber(value: bigint): number {
  if (value > BigInt(Number.MAX_SAFE_INTEGER) || value < -BigInt(Number.MAX_SAFE_INTEGER)) throw new RangeError("amount is too large")
  return Number(value)
}
