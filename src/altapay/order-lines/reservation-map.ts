/**
 * Which of a reservation's order lines belong to which of the order's items. Lines are matched by
 * rebuilding the order's lines with the same builder and pairing every rebuilt line with a
 * reserved line equal in all but itemId (a cart item's id is not the order item's). The reserved
 * lines themselves are what captures send, unchanged: invoice methods (Klarna) accept a partial
 * capture only of lines exactly as reserved.
 */
import type { OrderLine } from "../types"
import { creditLineDescription, isCreditLine, type BuiltOrderLines } from "./build"
import { add, compare, fromInteger, neg, ONE, type Ratio } from "./exact"
import { exactMinor, type OrderLineSourceCredit } from "./source"

/** One order item or shipping method and its lines as AltaPay reserved them. */
export interface ReservedEntry {
  /** The order's item or shipping method id. */
  id: string
  kind: "item" | "shipping"
  /** Units ordered (1 for a shipping method). */
  quantity: number
  title: string
  /** Goods line(s) as reserved: one, or two a minor unit apart in price. */
  main: OrderLine[]
  /** The entry's promotion line as reserved. */
  discount?: OrderLine
}

export interface ReservationMap {
  entries: ReservedEntry[]
  /** Credit lines (store credit, gift cards) as reserved: money off the bill, not off an item. */
  credits: OrderLine[]
}

/**
 * The reservation's lines by order entry; undefined unless every reserved line pairs with exactly
 * one rebuilt line (the order was edited, or the session was sent a summary line).
 */
export function mapReservation(reserved: readonly OrderLine[], rebuilt: BuiltOrderLines): ReservationMap | undefined {
  if (reserved.length !== rebuilt.lines.length) return undefined
  const unused = new Map<string, OrderLine[]>()
  for (const line of reserved) {
    const key = contentKey(line)
    unused.set(key, [...(unused.get(key) ?? []), line])
  }
  const take = (line: OrderLine): OrderLine | undefined => unused.get(contentKey(line))?.shift()

  const entries: ReservedEntry[] = []
  for (const entry of rebuilt.entries) {
    const main = entry.lines.main.map(take)
    const discount = entry.lines.discount ? take(entry.lines.discount) : undefined
    if (main.some((line) => !line) || (entry.lines.discount && !discount)) return undefined
    const goods = main as OrderLine[]
    entries.push({
      id: entry.id,
      kind: entry.kind,
      quantity: entry.quantity,
      title: goods[0]?.description ?? entry.id,
      main: goods,
      ...(discount ? { discount } : {}),
    })
  }
  const credits = rebuilt.lines.filter(isCreditLine).map(take)
  if (credits.some((line) => !line)) return undefined
  return { entries, credits: credits as OrderLine[] }
}

/** The reservation's lines of the order's entries that still pair with them, and the entries that do not. */
export interface PairedReservation extends ReservationMap {
  /** The order's items and shipping methods whose lines pair with no reserved lines (an order edit changed them). */
  unpaired: Array<Pick<ReservedEntry, "id" | "kind" | "quantity" | "title">>
}

/**
 * mapReservation for an order that no longer matches its reservation as a whole (an order edit
 * after a partial capture): each entry whose rebuilt lines all pair with reserved lines gets those
 * lines, as reserved; an entry of which any line does not pair is left out, in `unpaired`, and its
 * reserved lines stay with no entry. An entry with no lines (a removed item, a free one) pairs as
 * it does in mapReservation. `rebuilt` is the order's lines for its own current total.
 */
export function pairReservation(reserved: readonly OrderLine[], rebuilt: BuiltOrderLines): PairedReservation {
  const unused = new Map<string, OrderLine[]>()
  for (const line of reserved) {
    const key = contentKey(line)
    unused.set(key, [...(unused.get(key) ?? []), line])
  }
  /** The reserved lines equal to all of `lines`, taken from the unused ones; undefined (nothing taken) unless every one pairs. */
  const takeAll = (lines: OrderLine[]): OrderLine[] | undefined => {
    const wanted = new Map<string, number>()
    for (const line of lines) wanted.set(contentKey(line), (wanted.get(contentKey(line)) ?? 0) + 1)
    if ([...wanted].some(([key, count]) => (unused.get(key)?.length ?? 0) < count)) return undefined
    return lines.map((line) => unused.get(contentKey(line))!.shift()!)
  }

  const entries: ReservedEntry[] = []
  const unpaired: PairedReservation["unpaired"] = []
  for (const entry of rebuilt.entries) {
    const discount = entry.lines.discount ? [entry.lines.discount] : []
    const taken = takeAll([...entry.lines.main, ...discount])
    const title = entry.lines.main[0]?.description ?? entry.id
    if (!taken) {
      unpaired.push({ id: entry.id, kind: entry.kind, quantity: entry.quantity, title })
      continue
    }
    const goods = taken.slice(0, entry.lines.main.length)
    entries.push({
      id: entry.id,
      kind: entry.kind,
      quantity: entry.quantity,
      title,
      main: goods,
      ...(discount.length ? { discount: taken[goods.length] } : {}),
    })
  }
  const credits = rebuilt.lines.filter(isCreditLine).flatMap((line) => takeAll([line]) ?? [])
  return { entries, credits, unpaired }
}

/**
 * Of an order's credits, those AltaPay reserved: each pairs with a reserved credit line of its own,
 * of the same description and an amount within one minor unit of the credit's (the builder rounds
 * each credit down or up, with the cart; the nearest line is taken). A credit of less than one
 * minor unit is kept either way: it may have been reserved as no line. Credits the shop booked
 * after payment pair with none and are left out: Medusa books a refund of an order that is not
 * paid in full as an order credit line, money counted as refunded, not a credit AltaPay reserved.
 */
export function reservedCredits<T extends Pick<OrderLineSourceCredit, "label" | "amountMinor">>(reserved: readonly OrderLine[], credits: readonly T[]): T[] {
  const unused = reserved.filter(isCreditLine)
  return credits.filter((credit) => {
    const amount = exactMinor(credit.amountMinor)
    const description = creditLineDescription(credit.label)
    // A credit line's unit price is the credit, negated and rounded: their sum is the rounding.
    const off = (line: OrderLine): Ratio => add(amount, fromInteger(line.unitPriceMinor))
    let best = -1
    unused.forEach((line, i) => {
      if (line.description !== description || !underOne(off(line))) return
      if (best < 0 || compare(magnitude(off(line)), magnitude(off(unused[best]))) < 0) best = i
    })
    if (best >= 0) unused.splice(best, 1)
    return best >= 0 || underOne(amount)
  })
}

const magnitude = (a: Ratio): Ratio => (a.n < 0n ? neg(a) : a)
const underOne = (a: Ratio): boolean => compare(magnitude(a), ONE) < 0

/** An entry's lines as reserved: its goods line(s), then its promotion line. */
export const reservedLines = (entry: ReservedEntry): OrderLine[] => [...entry.main, ...(entry.discount ? [entry.discount] : [])]

/** Everything AltaPay and an invoice show of a line, but its itemId. */
export function contentKey(line: OrderLine): string {
  return JSON.stringify([
    line.description,
    line.quantity,
    line.unitPriceMinor,
    line.taxAmountMinor,
    line.taxPercent,
    line.goodsType ?? null,
    line.discountPercent ?? null,
    line.unitCode ?? null,
    line.imageUrl ?? null,
    line.productUrl ?? null,
    isCreditLine(line),
  ])
}
