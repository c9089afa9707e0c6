/**
 * Item refunds of invoice payments (Klarna): AltaPay documents that a refund's order lines must
 * relate to the reservation's, so an item's refund is its reserved lines (all its units), or its
 * goods line(s) at the reserved unit price with a share of their tax and promotion (some units),
 * shared cumulatively like captures (item-captures.ts): an item refunded in any parts adds up to
 * its reserved lines.
 */
import { unitLines } from "./item-captures"
import type { ItemRefundPlan, ItemRefundRequest } from "./item-refunds"
import { ItemRefundError } from "./item-refunds"
import type { ReservationMap, ReservedEntry } from "./reservation-map"
import { orderLinesTotalMinor } from "./totals"
import { validateOrderLines } from "./validation"

export interface ReservedRefundInput {
  map: ReservationMap
  /** Units refunded so far, by item or shipping method. */
  refunded: ReadonlyMap<string, number>
  /** Units captured so far; undefined: everything was captured. */
  captured?: ReadonlyMap<string, number>
  request: ItemRefundRequest
  currency: string
}

export function planReservedRefund(input: ReservedRefundInput): ItemRefundPlan {
  const { map, refunded, captured, request } = input
  const problems: string[] = []
  const chosen: Array<{ entry: ReservedEntry; quantity: number }> = []
  for (const { line_item_id: id, quantity } of request.items) {
    const entry = map.entries.find((e) => e.kind === "item" && e.id === id)
    if (!entry) {
      problems.push(`Item ${id} is not one of the order's items AltaPay reserved.`)
      continue
    }
    const done = refunded.get(id) ?? 0
    const takenOut = captured ? (captured.get(id) ?? 0) : entry.quantity
    if (quantity > takenOut - done) problems.push(`"${entry.title}": ${quantity} asked, ${Math.max(takenOut - done, 0)} captured and not refunded.`)
    else chosen.push({ entry, quantity })
  }
  if (request.shipping) {
    for (const entry of map.entries) {
      if (entry.kind === "shipping" && !refunded.get(entry.id) && (!captured || captured.get(entry.id))) chosen.push({ entry, quantity: 1 })
    }
  }
  if (problems.length > 0) throw new ItemRefundError(problems)
  const lines = chosen.flatMap(({ entry, quantity }) => unitLines(entry, refunded.get(entry.id) ?? 0, quantity))
  const amountMinor = orderLinesTotalMinor(lines)
  if (amountMinor <= 0) throw new ItemRefundError(["The chosen items have nothing to refund (their price is zero)."])
  validateOrderLines(lines, { currency: input.currency, expectedTotalMinor: amountMinor })
  return { amountMinor, lines, items: chosen.map(({ entry, quantity }) => ({ line_item_id: entry.id, quantity })) }
}
