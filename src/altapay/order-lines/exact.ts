/**
 * Exact numbers for order lines. Rates, quantities and percentages arrive as JS numbers and shop
 * amounts as decimal text; each is read as the exact decimal it prints as (`String(n)`, the
 * shortest round-trip text) and computed with as a BigInt fraction, so no float ever touches money.
 */
import { divRound } from "../money"

/** value = units / 10^scale */
export interface Decimal {
  units: bigint
  scale: number
}

/** value = n / d, d > 0, in lowest terms. */
export interface Ratio {
  n: bigint
  d: bigint
}

const POW10 = Array.from({ length: 40 }, (_, i) => 10n ** BigInt(i))
export const pow10 = (n: number): bigint => POW10[n] ?? 10n ** BigInt(n)

const DECIMAL_TEXT = /^\s*([+-]?)(\d*)(?:\.(\d*))?(?:[eE]([+-]?\d+))?\s*$/

/** The exact decimal a finite number prints as, or decimal text parsed exactly (1e-7, "772.8"). */
export function decimalOf(value: number | string): Decimal | undefined {
  if (typeof value === "number") {
    if (!Number.isFinite(value)) return undefined
    if (Number.isSafeInteger(value)) return { units: BigInt(value), scale: 0 }
  } else if (typeof value !== "string") return undefined
  const match = DECIMAL_TEXT.exec(String(value))
  if (!match || (match[2] === "" && (match[3] ?? "") === "")) return undefined
  const [, sign, whole, fraction = "", exponent = "0"] = match
  let units = BigInt(`${whole || "0"}${fraction}`)
  let scale = fraction.length - Number(exponent)
  if (scale < 0) {
    units *= pow10(-scale)
    scale = 0
  }
  return { units: sign === "-" ? -units : units, scale }
}

/** Plain decimal text, never with an exponent, trailing zeros dropped: 1e-7 -> "0.0000001". */
export function decimalText({ units, scale }: Decimal): string {
  const negative = units < 0n
  const digits = (negative ? -units : units).toString().padStart(scale + 1, "0")
  const whole = digits.slice(0, digits.length - scale)
  const fraction = digits.slice(digits.length - scale).replace(/0+$/, "")
  return `${negative ? "-" : ""}${whole}${fraction ? `.${fraction}` : ""}`
}

/** Plain decimal text of a finite number, never with an exponent: 1e-7 -> "0.0000001". */
export function plainNumberText(n: number): string {
  const decimal = decimalOf(n)
  if (!decimal) throw new RangeError(`${String(n)} is not a finite number`)
  return decimalText(decimal)
}

/** `n` rounded half away from zero to at most `places` decimals: 0.0725*100 -> 7.25 (not 7.249999999999999). */
export function roundedNumber(n: number, places: number): number {
  const decimal = decimalOf(n)
  if (!decimal) throw new RangeError(`${String(n)} is not a finite number`)
  if (decimal.scale <= places) return n
  const units = divRound(decimal.units, pow10(decimal.scale - places))
  return Number(decimalText({ units, scale: places }))
}

// --- fractions ---------------------------------------------------------------------------------
// Fractions are not reduced (a gcd per operation costs more than everything else here): shop
// amounts are decimals, so denominators are powers of ten and sums keep the larger one.

/** value = n / d with d > 0; not necessarily in lowest terms. */
export function ratio(n: bigint, d = 1n): Ratio {
  if (d === 0n) throw new RangeError("division by zero")
  return d < 0n ? { n: -n, d: -d } : { n, d }
}

export const ZERO: Ratio = { n: 0n, d: 1n }
export const ONE: Ratio = { n: 1n, d: 1n }

export const fromDecimal = ({ units, scale }: Decimal): Ratio => ({ n: units, d: pow10(scale) })
export const fromInteger = (n: bigint | number): Ratio => ({ n: BigInt(n), d: 1n })
export function add(a: Ratio, b: Ratio): Ratio {
  if (a.d === b.d) return { n: a.n + b.n, d: a.d }
  if (b.d % a.d === 0n) return { n: a.n * (b.d / a.d) + b.n, d: b.d }
  if (a.d % b.d === 0n) return { n: a.n + b.n * (a.d / b.d), d: a.d }
  return { n: a.n * b.d + b.n * a.d, d: a.d * b.d }
}
export const neg = (a: Ratio): Ratio => ({ n: -a.n, d: a.d })
export const sub = (a: Ratio, b: Ratio): Ratio => add(a, neg(b))
export const mul = (a: Ratio, b: Ratio): Ratio => ({ n: a.n * b.n, d: a.d * b.d })
export const div = (a: Ratio, b: Ratio): Ratio => ratio(a.n * b.d, a.d * b.n)
export const sum = (values: readonly Ratio[]): Ratio => values.reduce(add, ZERO)
export const isInteger = (a: Ratio): boolean => a.n % a.d === 0n
export const compare = (a: Ratio, b: Ratio): number => {
  const left = a.n * b.d
  const right = b.n * a.d
  return left < right ? -1 : left > right ? 1 : 0
}

/** Largest integer <= a. */
export function floor(a: Ratio): bigint {
  const q = a.n / a.d
  return a.n < 0n && q * a.d !== a.n ? q - 1n : q
}

/** a - floor(a), in [0, 1). */
export const fraction = (a: Ratio): Ratio => ({ n: a.n - floor(a) * a.d, d: a.d })

/** The nearest integer, halves away from zero (bignumber.js ROUND_HALF_UP, which Medusa uses). */
export const roundHalfUp = (a: Ratio): bigint => divRound(a.n, a.d)

/** Exact decimal text of a ratio whose denominator divides a power of ten, else `places` decimals. */
export function ratioText(a: Ratio, places = 6): string {
  for (let scale = 0; scale <= 30; scale++) {
    if ((pow10(scale) * a.n) % a.d === 0n) return decimalText({ units: (pow10(scale) * a.n) / a.d, scale })
  }
  return `~${decimalText({ units: divRound(a.n * pow10(places), a.d), scale: places })}`
}
