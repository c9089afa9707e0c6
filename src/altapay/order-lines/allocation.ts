/**
 * Rounding exact amounts to minor units once, so the parts add up. Largest remainder: every part
 * becomes its exact value rounded down or up, and the parts with the largest fractions round up
 * until the parts total what was asked. Where the total is the sum rounded half up, each part is
 * its own half-up rounding except for the fewest parts the total forces the other way.
 */
import { divRound } from "../money"
import { compare, div, floor, fraction, fromInteger, isInteger, mul, ONE, ratio, sum, type Ratio } from "./exact"

/**
 * Integers, each the floor or ceiling of its value, adding up to `total`; undefined when no such
 * integers exist (`total` outside [sum of floors, sum of ceilings]). Ties go to the earlier part.
 */
export function roundToTotal(values: readonly Ratio[], total: bigint): bigint[] | undefined {
  const parts = values.map(floor)
  let left = total - parts.reduce((a, b) => a + b, 0n)
  const candidates = values.map((value, i) => ({ i, rest: fraction(value) })).filter((c) => c.rest.n !== 0n)
  if (left < 0n || left > BigInt(candidates.length)) return undefined
  candidates.sort((a, b) => compare(b.rest, a.rest) || a.i - b.i)
  for (const { i } of candidates) {
    if (left === 0n) break
    parts[i] += 1n
    left -= 1n
  }
  return parts
}

/**
 * Splits `total` over parts in proportion to `weights` (any signs), each part rounded once. With
 * weights that already add up to `total` this is roundToTotal. Weights adding up to zero give the
 * whole total to the first part.
 */
export function splitInProportion(weights: readonly Ratio[], total: bigint): bigint[] {
  const whole = sum(weights)
  if (whole.n === 0n) return weights.map((_, i) => (i === 0 ? total : 0n))
  const factor = div(fromInteger(total), whole)
  const scaled = weights.map((w) => mul(w, factor))
  const parts = roundToTotal(scaled, total)
  if (!parts) throw new RangeError("scaled parts always round to their own sum")
  return parts
}

/** roundToTotal where the total allows it, else the parts scaled to the total first (splitInProportion). */
export function roundOrScale(values: readonly Ratio[], total: bigint): bigint[] {
  return roundToTotal(values, total) ?? splitInProportion(values, total)
}

/**
 * The share of `value` for units `done+1 .. done+count` of `of` units: the rounded share of all
 * units refunded after, less that of all before, so any split of the units adds up to `value`.
 */
export function unitsShare(value: bigint, done: number, count: number, of: number): bigint {
  const upTo = (n: number) => divRound(value * BigInt(n), BigInt(of))
  return upTo(done + count) - upTo(done)
}

export interface TableRow {
  net: Ratio
  tax: Ratio
}

export interface RoundedRow {
  total: bigint
  tax: bigint
}

export interface RoundedTable {
  rows: RoundedRow[]
  /** The rows' rounded tax minus `taxTotal`: 0 unless no rounding of the rows' totals and taxes reaches it. */
  taxOff: bigint
}

const HALF = ratio(1n, 2n)

/**
 * Rounds a table of exact net and tax amounts (one row per cart entry) so that every row's total,
 * tax and net, the grand total (`total`) and, wherever possible, the tax total (`taxTotal`) are each
 * their exact value rounded down or up. Row totals come first (largest remainder to `total`); where
 * the taxes those totals allow cannot reach `taxTotal`, two rows trade their rounding direction
 * when that moves no row further from half-up rounding. Then each row's tax rounds up or down as
 * its total allows, the largest tax fractions rounding up, until the taxes add up to `taxTotal`.
 */
export function roundTable(rows: readonly TableRow[], total: bigint, taxTotal: bigint): RoundedTable | undefined {
  const totals = roundToTotal(
    rows.map((row) => sum([row.net, row.tax])),
    total
  )
  if (!totals) return undefined
  const shape = rows.map((row) => {
    const exact = sum([row.net, row.tax])
    const taxFraction = fraction(row.tax)
    const netFraction = fraction(row.net)
    return {
      floor: floor(exact),
      whole: isInteger(exact),
      roundsUp: compare(fraction(exact), HALF) >= 0,
      carry: compare(sum([taxFraction, netFraction]), ONE) >= 0 ? 1 : 0,
      netWhole: isInteger(row.net),
      taxWhole: isInteger(row.tax),
      taxFraction,
    }
  })
  const ups = totals.map((t, i) => Number(t - shape[i].floor))
  // Per row: tax = floor(tax) + x and net = floor(net) + carry + up - x, where x and the net's own
  // rounding are each 0 or 1 (0 where that part is whole). The range of x:
  const range = (i: number, up: number): [number, number] => {
    const { carry, netWhole, taxWhole } = shape[i]
    if (netWhole) return [carry + up, carry + up]
    if (taxWhole) return [0, 0]
    return [Math.max(0, carry + up - 1), Math.min(1, carry + up)]
  }
  const wanted = taxTotal - rows.reduce((acc, row) => acc + floor(row.tax), 0n)
  const bounds = () => ups.reduce(([lo, hi], up, i) => [lo + range(i, up)[0], hi + range(i, up)[1]], [0, 0])
  const offHalfUp = (i: number, up: number) => (shape[i].whole ? 0 : Number(up === 1) ^ Number(shape[i].roundsUp))

  for (let [lowest, highest] = bounds(); wanted < BigInt(lowest) || wanted > BigInt(highest); [lowest, highest] = bounds()) {
    const need = wanted > BigInt(highest) ? "higher" : "lower"
    let best: [number, number] | undefined
    for (let i = 0; i < rows.length && !best; i++) {
      if (ups[i] !== 1) continue
      for (let j = 0; j < rows.length && !best; j++) {
        if (ups[j] !== 0 || shape[j].whole) continue
        const gain = need === "higher" ? range(i, 0)[1] + range(j, 1)[1] - range(i, 1)[1] - range(j, 0)[1] : range(i, 1)[0] + range(j, 0)[0] - range(i, 0)[0] - range(j, 1)[0]
        const drift = offHalfUp(i, 0) + offHalfUp(j, 1) - offHalfUp(i, 1) - offHalfUp(j, 0)
        if (gain > 0 && drift <= 0) best = [i, j]
      }
    }
    if (!best) break
    ups[best[0]] = 0
    ups[best[1]] = 1
  }

  const [lowest, highest] = bounds()
  const reachable = wanted < BigInt(lowest) ? BigInt(lowest) : wanted > BigInt(highest) ? BigInt(highest) : wanted
  let extra = Number(reachable) - lowest
  const xs = ups.map((up, i) => range(i, up)[0])
  const open = shape
    .map((row, i) => ({ i, row }))
    .filter(({ i }) => range(i, ups[i])[1] > xs[i])
    .sort((a, b) => compare(b.row.taxFraction, a.row.taxFraction) || a.i - b.i)
  for (const { i } of open) {
    if (extra === 0) break
    xs[i] += 1
    extra -= 1
  }
  return {
    rows: rows.map((row, i) => ({ total: shape[i].floor + BigInt(ups[i]), tax: floor(row.tax) + BigInt(xs[i]) })),
    taxOff: reachable - wanted,
  }
}
