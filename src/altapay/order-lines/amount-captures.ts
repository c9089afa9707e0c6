/**
 * Which whole items a capture of a bare amount is for. Medusa's own Capture button sends a provider
 * only an amount; when that amount is exactly what is left, or exactly the reserved lines of some
 * set of items not captured yet (with the credits while they have not gone), the capture can carry
 * those items' own lines, which invoice methods (Klarna) require.
 */
import { ItemCaptureError, planItemCapture, planRemainingCapture, type CapturedSoFar, type ItemCapturePlan } from "./item-captures"
import { contentKey, reservedLines, type ReservationMap, type ReservedEntry } from "./reservation-map"
import { orderLinesTotalMinor } from "./totals"

export type AmountCaptureMatch =
  | { kind: "items"; plan: ItemCapturePlan }
  /** Several different sets of items come to the amount: which were shipped cannot be told. */
  | { kind: "ambiguous"; sets: string[][] }
  | { kind: "none" }

/** Subsets tried at most: past it an amount counts as matching no items (a bare-amount capture). */
const SEARCH_BUDGET = 200_000

export function matchCaptureAmount(map: ReservationMap, captured: CapturedSoFar, amountMinor: number, currency: string): AmountCaptureMatch {
  const rest = planRemainingCapture({ map, captured, currency })
  if (rest && rest.amountMinor === amountMinor) return { kind: "items", plan: rest }

  const untouched = map.entries.filter((entry) => !captured.units.get(entry.id) && reservedLines(entry).length > 0)
  const openShipping = untouched.filter((e) => e.kind === "shipping").length
  const credits = captured.creditsCaptured ? 0 : orderLinesTotalMinor(map.credits)
  // Items worth nothing change no amount: they are no evidence of what was shipped.
  const priced = untouched.map((entry) => ({ entry, value: entryValue(entry) })).filter(({ value }) => value !== 0)
  // The credits go with a capture when they leave something in it (planItemCapture): try both.
  const plans = new Map<string, { ids: string[]; plan: ItemCapturePlan }>()
  for (const target of new Set([amountMinor - credits, amountMinor])) {
    const { sets, complete } = subsetsSumming(priced, target)
    if (!complete) return { kind: "none" }
    for (const set of sets) {
      const items = set.filter((e) => e.kind === "item").map((e) => ({ line_item_id: e.id, quantity: e.quantity }))
      const shipping = set.filter((e) => e.kind === "shipping").length
      // Shipping is captured all at once by planItemCapture: only a set taking every open shipping method is one.
      if (shipping > 0 && shipping !== openShipping) continue
      const plan = tryPlan(() => planItemCapture({ map, captured, request: { items, shipping: shipping > 0 }, wholeItemsOnly: true, currency }))
      // Entries with the same lines but their itemId are one choice for an invoice: count distinct line sets.
      if (plan?.amountMinor === amountMinor) plans.set(set.map(linesKey).sort().join("|"), { ids: set.map((e) => e.id), plan })
    }
  }
  if (plans.size === 0) return { kind: "none" }
  if (plans.size > 1) return { kind: "ambiguous", sets: [...plans.values()].map(({ ids }) => ids) }
  return { kind: "items", plan: [...plans.values()][0].plan }
}

function tryPlan(plan: () => ItemCapturePlan): ItemCapturePlan | undefined {
  try {
    return plan()
  } catch (error) {
    if (error instanceof ItemCaptureError) return undefined
    throw error
  }
}

const entryValue = (entry: ReservedEntry): number => orderLinesTotalMinor(reservedLines(entry))
/** Entries whose lines differ only in itemId are one choice for an invoice. */
const linesKey = (entry: ReservedEntry): string => reservedLines(entry).map(contentKey).join("\n")

/**
 * Non-empty subsets of `options` whose values add up to `target`: at most 3 (two different ones
 * already decide); `complete` is false when the search budget ran out before it could tell.
 */
function subsetsSumming(options: ReadonlyArray<{ entry: ReservedEntry; value: number }>, target: number): { sets: ReservedEntry[][]; complete: boolean } {
  const sorted = [...options].sort((a, b) => b.value - a.value)
  // What the options from i on can still add, at most and at least (values may be negative).
  const most = new Array<number>(sorted.length + 1).fill(0)
  const least = new Array<number>(sorted.length + 1).fill(0)
  for (let i = sorted.length - 1; i >= 0; i--) {
    most[i] = most[i + 1] + Math.max(sorted[i].value, 0)
    least[i] = least[i + 1] + Math.min(sorted[i].value, 0)
  }
  const found: ReservedEntry[][] = []
  const picked: ReservedEntry[] = []
  let budget = SEARCH_BUDGET
  // Each subset is reached once, at the option picked last, so none is counted twice.
  const walk = (i: number, left: number): void => {
    if (found.length >= 3 || --budget < 0) return
    if (i === sorted.length || left > most[i] || left < least[i]) return
    picked.push(sorted[i].entry)
    if (left === sorted[i].value) found.push([...picked])
    walk(i + 1, left - sorted[i].value)
    picked.pop()
    walk(i + 1, left)
  }
  walk(0, target)
  return { sets: found, complete: budget >= 0 || found.length >= 3 }
}
