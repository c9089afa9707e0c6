/**
 * Which of a reservation's order lines belong to which of the order's items. Lines are matched by
 * rebuilding the order's lines with the same builder and pairing every rebuilt line with a
 * reserved line equal in all but itemId (a cart item's id is not the order item's). The reserved
 * lines themselves are what captures send, unchanged: invoice methods (Klarna) accept a partial
 * capture only of lines exactly as reserved.
 */
import type { OrderLine } from "../types"
import { isCreditLine, type BuiltOrderLines } from "./build"

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
