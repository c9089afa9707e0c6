/**
 * Item-level refunds: the AltaPay lines and amount for chosen units of an order's items and its
 * shipping, given what was captured and refunded before.
 *
 * An entry's value is its share of the captured amount: the captured amount split over the order's
 * items and shipping in proportion to their exact totals (largest remainder), so credits (store
 * credit, gift cards) and partial captures lower every item alike and keep its tax rate. Units are
 * shared out cumulatively (refunding units r+1..r+q returns round(V*(r+q)/Q) - round(V*r/Q)), and
 * the refund that leaves nothing refundable returns exactly what is left of the captured amount:
 * however the order is refunded, item by item and in any quantities, the refunds add up to it.
 */
import type { OrderLine } from "../types"
import { roundOrScale, splitInProportion, unitsShare } from "./allocation"
import { roundedEntries, sourceEntries, type SourceEntry } from "./build"
import { entryLines, type EntryMinor } from "./entry-lines"
import { div, fromInteger, mul, neg, ratio, sum, type Ratio } from "./exact"
import { toSafeMinor, validationError } from "./problems"
import { entryNet, entryTax, entryTotal, sourceIssues, type OrderLineSource } from "./source"
import { validateOrderLines } from "./validation"

/** Units refunded of one item, or a shipping method (quantity 1), as recorded with a refund. */
export interface RefundedItem {
  line_item_id: string
  quantity: number
}

export interface ItemRefundRequest {
  items: RefundedItem[]
  /** Refund the order's shipping methods that were not refunded yet. */
  shipping?: boolean
}

export interface ItemRefundInput {
  /** The order (items, shipping, credits); its totalMinor is not used. */
  source: OrderLineSource
  /** What was captured on the payment, in minor units: what all item refunds together return. */
  capturedMinor: number
  /** Everything refunded on the payment so far, item refunds or not. */
  refundedMinor: number
  /** Earlier refunds with the units they returned (open refunds count: their money is on its way). */
  previousRefunds: ReadonlyArray<{ items?: RefundedItem[] | null }>
  request: ItemRefundRequest
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

/** What each item or shipping method has had refunded so far. */
export function refundedQuantities(refunds: ReadonlyArray<{ items?: RefundedItem[] | null }>): Map<string, number> {
  const refunded = new Map<string, number>()
  for (const refund of refunds) {
    for (const item of refund.items ?? []) refunded.set(item.line_item_id, (refunded.get(item.line_item_id) ?? 0) + item.quantity)
  }
  return refunded
}

interface Chosen {
  entry: SourceEntry
  before: number
  quantity: number
  share: bigint
}

/** Plans an item-level refund; throws ItemRefundError listing every problem at once. */
export function planItemRefund(input: ItemRefundInput): ItemRefundPlan {
  const { source, request } = input
  const entries = entriesOf(source)
  const refunded = refundedQuantities(input.previousRefunds)
  const problems: string[] = []
  const chosen: Chosen[] = []

  const requested = new Map<string, number>()
  for (const { line_item_id, quantity } of request.items) {
    if (!Number.isSafeInteger(quantity) || quantity <= 0) problems.push(`Quantity for ${line_item_id} must be a whole number greater than zero.`)
    else requested.set(line_item_id, (requested.get(line_item_id) ?? 0) + quantity)
  }
  for (const [lineItemId, quantity] of requested) {
    const entry = entries.find((candidate) => candidate.kind === "item" && candidate.id === lineItemId)
    if (!entry) {
      problems.push(`${lineItemId} is not an item of this order.`)
      continue
    }
    const before = refunded.get(lineItemId) ?? 0
    const left = Math.max(entry.quantity - before, 0)
    if (quantity > left) {
      problems.push(
        `"${entry.spec.description}" (${lineItemId}): ${quantity} requested, but only ${left} of ${entry.quantity} ${left === 1 ? "is" : "are"} still refundable${before ? ` (${before} refunded before)` : ""}.`
      )
      continue
    }
    chosen.push({ entry, before, quantity, share: 0n })
  }
  if (request.shipping) {
    const methods = entries.filter((entry) => entry.kind === "shipping")
    const open = methods.filter((method) => !refunded.has(method.id))
    if (open.length === 0) problems.push(methods.length ? "Shipping was already refunded." : "This order has no shipping to refund.")
    for (const entry of open) chosen.push({ entry, before: 0, quantity: 1, share: 0n })
  }
  if (problems.length === 0 && chosen.length === 0) problems.push("Choose at least one item or the shipping to refund.")
  if (problems.length > 0) throw new ItemRefundError(problems)

  const values = entryValues(entries, input.capturedMinor)
  for (const c of chosen) c.share = unitsShare(values.get(c.entry)!, c.before, c.quantity, c.entry.quantity)
  let amount = chosen.reduce((acc, c) => acc + c.share, 0n)

  // The refund after which nothing is refundable returns exactly what is left.
  const leftAfter = entries.some((entry) => {
    const done = (refunded.get(entry.id) ?? 0) + chosen.filter((c) => c.entry === entry).reduce((acc, c) => acc + c.quantity, 0)
    return entry.quantity - done > 0 && entryTotal(entry.amounts).n !== 0n
  })
  if (!leftAfter) {
    const rest = BigInt(input.capturedMinor) - BigInt(input.refundedMinor)
    if (rest <= 0n) throw new ItemRefundError([`Nothing is left to refund on this payment (captured ${input.capturedMinor}, refunded ${input.refundedMinor} minor units).`])
    const shares = splitInProportion(
      chosen.map((c) => fromInteger(c.share)),
      rest
    )
    chosen.forEach((c, i) => (c.share = shares[i]))
    amount = rest
  }
  if (amount <= 0n) throw new ItemRefundError(["The chosen items have nothing to refund (their price is zero)."])

  // A payment captured in full took each entry's lines as buildOrderLines rounds them: a whole
  // entry refunded for what those lines total returns their net and tax, not a new split of it.
  const asCaptured = roundedEntries({ ...source, totalMinor: input.capturedMinor }, entries)?.entries
  const taken = new Set<string>()
  const lines: OrderLine[] = []
  for (const c of chosen) {
    if (c.share === 0n) continue
    const part = ratio(BigInt(c.quantity), BigInt(c.entry.quantity))
    const captured = c.before === 0 && c.quantity === c.entry.quantity ? asCaptured?.[entries.indexOf(c.entry)] : undefined
    const minor = captured && entryMinorTotal(captured) === c.share ? captured : refundMinor(c.entry, part, c.share)
    const built = entryLines({ ...c.entry.spec, quantity: c.quantity }, minor, taken, "refund")
    lines.push(...built.main, ...(built.discount ? [built.discount] : []))
  }
  const amountMinor = toSafeMinor(amount, "amount")
  validateOrderLines(lines, { currency: source.currency, expectedTotalMinor: amountMinor })
  return { amountMinor, lines, items: chosen.map((c) => ({ line_item_id: c.entry.id, quantity: c.quantity })) }
}

const entryCache = new WeakMap<OrderLineSource, SourceEntry[]>()

/**
 * A source's entries, checked and worked out once per source object (a refund plan reads them
 * many times). An order whose data is not usable (a tax rate that is not a number) is refused,
 * never read as zero.
 */
function entriesOf(source: OrderLineSource): SourceEntry[] {
  let entries = entryCache.get(source)
  if (!entries) {
    const problems = sourceIssues({ ...source, totalMinor: 0 })
    if (problems.length > 0) throw validationError("Cannot refund the order's items", problems)
    entryCache.set(source, (entries = sourceEntries(source)))
  }
  return entries
}

/** Each entry's share of the captured amount, in proportion to its exact total. */
function entryValues(entries: SourceEntry[], capturedMinor: number): Map<SourceEntry, bigint> {
  const totals = entries.map((entry) => entryTotal(entry.amounts))
  const whole = sum(totals)
  const shares =
    whole.n > 0n
      ? roundOrScale(
          totals.map((t) => mul(t, div(fromInteger(BigInt(capturedMinor)), whole))),
          BigInt(capturedMinor)
        )
      : totals.map(() => 0n)
  return new Map(entries.map((entry, i) => [entry, shares[i]]))
}

const entryMinorTotal = (m: EntryMinor): bigint => m.net - m.discountNet + m.tax - m.discountTax

/** `amount` over the refunded part of an entry: net and tax like the entry's, then goods and promotion. */
function refundMinor(entry: SourceEntry, part: Ratio, amount: bigint): EntryMinor {
  const a = entry.amounts
  const scaled = (value: Ratio) => mul(value, part)
  const [net, tax] = roundOrScale([scaled(entryNet(a)), scaled(entryTax(a))], amount)
  const [goods, discount] = roundOrScale([scaled(a.net), neg(scaled(a.discountNet))], net)
  const [goodsTax, discountTax] = roundOrScale([scaled(a.tax), neg(scaled(a.discountTax))], tax)
  return { net: goods, discountNet: -discount, tax: goodsTax, discountTax: -discountTax }
}
