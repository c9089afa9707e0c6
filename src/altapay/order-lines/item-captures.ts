/**
 * Captures by item: the lines of a capture of chosen units of an order's items, taken from the
 * reservation's own lines (reservation-map.ts). A whole item is captured with its lines exactly as
 * reserved, which is what invoice methods (Klarna) accept; part of an item's units (card payments
 * only) is its goods line(s) at the reserved unit price with a share of their tax and promotion,
 * shared cumulatively, so an item captured in any parts adds up to its reserved lines. Credit
 * lines (store credit, gift cards) go with the first capture they leave something in, so the
 * captures of all items always add up to the reservation.
 */
import type { OrderLine } from "../types"
import { unitsShare } from "./allocation"
import { toSafeMinor } from "./problems"
import { reservedLines, type ReservationMap, type ReservedEntry } from "./reservation-map"
import { orderLinesTotalMinor } from "./totals"
import { validateOrderLines } from "./validation"

/** Units of one order item or shipping method (quantity 1). */
export interface CapturedItem {
  line_item_id: string
  quantity: number
}

export interface ItemCaptureRequest {
  items: CapturedItem[]
  /** Capture the order's shipping methods that were not captured yet. */
  shipping?: boolean
}

export interface ItemCapturePlan {
  amountMinor: number
  lines: OrderLine[]
  /** Items and shipping methods this capture takes, by units (recorded with the capture). */
  items: CapturedItem[]
  /** True when nothing of the reservation is left to capture after this one. */
  final: boolean
}

/** What was captured by item before: units per item or shipping method, and whether the credits went. */
export interface CapturedSoFar {
  units: ReadonlyMap<string, number>
  creditsCaptured: boolean
}

export class ItemCaptureError extends Error {
  constructor(readonly problems: string[]) {
    super(problems.join(" "))
    this.name = "ItemCaptureError"
  }
}

export interface ItemCaptureInput {
  map: ReservationMap
  captured: CapturedSoFar
  request: ItemCaptureRequest
  /** Invoice methods: only an item's whole reserved lines can be captured. */
  wholeItemsOnly: boolean
  currency: string
}

/** The lines and amount for capturing the chosen units, or ItemCaptureError saying why not. */
export function planItemCapture(input: ItemCaptureInput): ItemCapturePlan {
  const { map, captured, request } = input
  const problems: string[] = []
  const chosen: Array<{ entry: ReservedEntry; quantity: number }> = []
  const seen = new Set<string>()
  for (const { line_item_id: id, quantity } of request.items) {
    const entry = map.entries.find((e) => e.kind === "item" && e.id === id)
    if (!entry) {
      problems.push(`Item ${id} is not one of the order's items AltaPay reserved.`)
      continue
    }
    if (seen.has(id)) {
      problems.push(`Item ${id} is listed twice.`)
      continue
    }
    seen.add(id)
    const left = entry.quantity - (captured.units.get(id) ?? 0)
    if (quantity > left) problems.push(`"${entry.title}": ${quantity} asked, ${left} of ${entry.quantity} left to capture.`)
    else if (input.wholeItemsOnly && quantity !== entry.quantity) {
      problems.push(`"${entry.title}": this payment method (invoice, Klarna) captures whole order lines only: capture all ${entry.quantity} units at once.`)
    } else chosen.push({ entry, quantity })
  }
  if (request.shipping) {
    for (const entry of map.entries) if (entry.kind === "shipping" && !captured.units.get(entry.id)) chosen.push({ entry, quantity: 1 })
  }
  if (problems.length > 0) throw new ItemCaptureError(problems)
  if (chosen.length === 0) throw new ItemCaptureError(["Nothing chosen is left to capture."])
  return linesFor(input, chosen)
}

/** Everything not captured yet, by item: the capture that completes an order captured by items (undefined: nothing is left). */
export function planRemainingCapture(input: Omit<ItemCaptureInput, "request" | "wholeItemsOnly">): ItemCapturePlan | undefined {
  if (remainingMinor(input.map, input.captured) === 0) return undefined
  return linesFor(input, remaining(input.map, input.captured))
}

/** What the units not captured yet, and the credits if they have not gone, are worth. */
export function remainingMinor(map: ReservationMap, captured: CapturedSoFar): number {
  const lines = remaining(map, captured).flatMap(({ entry, quantity }) => unitLines(entry, captured.units.get(entry.id) ?? 0, quantity))
  return orderLinesTotalMinor(captured.creditsCaptured ? lines : [...lines, ...map.credits])
}

/** Units of each entry not captured yet. */
export function remaining(map: ReservationMap, captured: CapturedSoFar): Array<{ entry: ReservedEntry; quantity: number }> {
  return map.entries
    .map((entry) => ({ entry, quantity: entry.quantity - (captured.units.get(entry.id) ?? 0) }))
    .filter(({ entry, quantity }) => quantity > 0 && reservedLines(entry).length > 0)
}

function linesFor(input: Omit<ItemCaptureInput, "request" | "wholeItemsOnly">, chosen: Array<{ entry: ReservedEntry; quantity: number }>): ItemCapturePlan {
  const { map, captured } = input
  const lines = chosen.flatMap(({ entry, quantity }) => unitLines(entry, captured.units.get(entry.id) ?? 0, quantity))
  // The credits go with the first capture they leave something to capture in.
  const creditsOpen = !captured.creditsCaptured && map.credits.length > 0
  const withCredits = creditsOpen && orderLinesTotalMinor([...lines, ...map.credits]) > 0
  if (withCredits) lines.push(...map.credits)
  const amountMinor = orderLinesTotalMinor(lines)
  if (amountMinor <= 0) throw new ItemCaptureError(["The chosen items have nothing to capture (their price is zero)."])
  // Units priced in fractions of a minor unit: a part can get its share of the tax and none of the
  // price, and AltaPay takes no goods line priced at nothing.
  const unpriced = lines.filter((line) => line.goodsType !== "handling" && line.unitPriceMinor <= 0)
  if (unpriced.length > 0) {
    throw new ItemCaptureError(
      unpriced.map((line) => `"${line.description}": the units chosen are worth less than one minor unit before tax: capture them together with more of its units.`)
    )
  }
  if (amountMinor > remainingMinor(map, captured)) {
    throw new ItemCaptureError([
      "These items are worth less than the store credit or gift cards applied to the order, which must go with them: choose more items (or capture everything).",
    ])
  }
  validateOrderLines(lines, { currency: input.currency, expectedTotalMinor: amountMinor })
  const after = new Map(captured.units)
  for (const { entry, quantity } of chosen) after.set(entry.id, (after.get(entry.id) ?? 0) + quantity)
  const final = remainingMinor(map, { units: after, creditsCaptured: captured.creditsCaptured || withCredits }) === 0
  return { amountMinor, lines, items: chosen.map(({ entry, quantity }) => ({ line_item_id: entry.id, quantity })), final }
}

/**
 * The lines for units done+1 .. done+count of an entry: its reserved lines as they are when all
 * units are taken at once; else the goods lines' units in order, each part at the reserved unit
 * price with its cumulative share of the line's tax, and the promotion line's cumulative share.
 */
export function unitLines(entry: ReservedEntry, done: number, count: number): OrderLine[] {
  if (done === 0 && count === entry.quantity) return reservedLines(entry)
  const lines: OrderLine[] = []
  const unitsOnLines = entry.main.reduce((n, line) => n + line.quantity, 0)
  if (unitsOnLines === entry.quantity && entry.main.every((line) => Number.isInteger(line.quantity))) {
    let offset = 0
    for (const line of entry.main) {
      const from = Math.max(done, offset)
      const to = Math.min(done + count, offset + line.quantity)
      if (to > from)
        lines.push(to - from === line.quantity ? line : { ...line, quantity: to - from, taxAmountMinor: share(line.taxAmountMinor, from - offset, to - from, line.quantity) })
      offset += line.quantity
    }
  } else {
    // A line not priced per unit (a handling line for a net of nothing): its share of the units.
    for (const line of entry.main) lines.push(...sharedLine(line, done, count, entry.quantity))
  }
  if (entry.discount) lines.push(...sharedLine(entry.discount, done, count, entry.quantity))
  return lines
}

/** A quantity-1 line's cumulative share for units done+1 .. done+count of `of`; nothing when the share is nothing. */
function sharedLine(line: OrderLine, done: number, count: number, of: number): OrderLine[] {
  const total = BigInt(line.unitPriceMinor) * BigInt(line.quantity)
  const unitPriceMinor = toSafeMinor(unitsShare(total, done, count, of), "unitPrice")
  const taxAmountMinor = share(line.taxAmountMinor, done, count, of)
  return unitPriceMinor === 0 && taxAmountMinor === 0 ? [] : [{ ...line, quantity: 1, unitPriceMinor, taxAmountMinor }]
}

const share = (value: number, done: number, count: number, of: number): number => toSafeMinor(unitsShare(BigInt(value), done, count, of), "taxAmount")
