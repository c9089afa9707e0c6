/**
 * Money is integer minor units everywhere inside this package. These helpers convert between
 * minor units and the decimal text AltaPay speaks, per the ISO 4217 exponent of each currency,
 * using string and BigInt arithmetic only: a JS float never touches an amount.
 */
import * as iso4217 from "currency-codes"
import { AltaPayAmountPrecisionError, AltaPayValidationError, type ValidationIssue } from "./errors"

export interface CurrencyInfo {
  /** ISO 4217 alphabetic code, upper case, e.g. `DKK`. */
  alpha: string
  /** ISO 4217 numeric code as three digits, e.g. `208`. */
  numeric: string
  /** Minor-unit digits: 2 for DKK, 0 for JPY, 3 for KWD. */
  exponent: number
}

const infoCache = new Map<string, CurrencyInfo>()
// ISO 4217 lists these, but they are not money a shop takes: testing, no currency, metals, bond units.
const NOT_PAYABLE = new Set(["XTS", "XXX", "XAU", "XAG", "XPD", "XPT", "XBA", "XBB", "XBC", "XBD", "XDR", "XSU", "XUA"])

/** Looks a currency up by alphabetic (`dkk`, `DKK`) or numeric (`208`, `8`) code. */
export function currencyInfo(code: string | number): CurrencyInfo {
  const key = String(code).trim().toUpperCase()
  const cached = infoCache.get(key)
  if (cached) return cached
  const record = /^\d{1,3}$/.test(key) ? iso4217.number(key.padStart(3, "0")) : iso4217.code(key)
  if (!record || !Number.isInteger(record.digits) || NOT_PAYABLE.has(record.code)) {
    throw new AltaPayValidationError(`Unknown currency "${String(code)}": use an ISO 4217 code such as DKK or 208.`, [
      { field: "currency", message: `unknown ISO 4217 currency ${String(code)}` },
    ])
  }
  const info: CurrencyInfo = { alpha: record.code, numeric: record.number, exponent: record.digits }
  infoCache.set(key, info)
  return info
}

export const currencyExponent = (code: string | number): number => currencyInfo(code).exponent
export const toNumericCurrency = (code: string | number): string => currencyInfo(code).numeric
export const toAlphaCurrency = (code: string | number): string => currencyInfo(code).alpha

/**
 * The largest amount in minor units this package sends (minorToDecimal, minorToNumber): 15
 * digits. Beyond it, the JSON number the Checkout API gets may no longer be the exact amount.
 * Reading (decimalToMinor, AltaPay's answers) accepts any safe integer.
 */
export const MAX_MINOR_UNITS = 999_999_999_999_999

const DECIMAL = /^([+-]?)(\d*)(?:\.(\d*))?$/

/**
 * Parses decimal text (or a JS number, via its shortest round-trip text) into integer minor units.
 * Exact: "9.66" DKK -> 966, "100.00" JPY -> 100. Digits beyond the exponent must be zeros,
 * otherwise the amount is not representable and a validation error names it.
 */
export function decimalToMinor(value: string | number, currency: string | number, field = "amount"): number {
  const exponent = currencyExponent(currency)
  const text = typeof value === "number" ? numberToPlainText(value, field) : value.trim()
  const match = DECIMAL.exec(text)
  if (!match || (match[2] === "" && (match[3] ?? "") === "")) {
    throw invalid(field, `"${text}" is not a decimal amount`)
  }
  const [, sign, whole, fraction = ""] = match
  const kept = fraction.slice(0, exponent).padEnd(exponent, "0")
  if (/[^0]/.test(fraction.slice(exponent))) {
    throw invalid(field, `"${text}" has more than ${exponent} decimals for ${toAlphaCurrency(currency)}`)
  }
  const minor = BigInt(`${whole || "0"}${kept}`) * (sign === "-" ? -1n : 1n)
  if (minor > BigInt(Number.MAX_SAFE_INTEGER) || minor < -BigInt(Number.MAX_SAFE_INTEGER)) {
    throw invalid(field, `"${text}" is too large`)
  }
  return Number(minor)
}

/** Formats minor units as decimal text with the currency's exponent: 966 DKK -> "9.66", 100 JPY -> "100". */
export function minorToDecimal(minor: number, currency: string | number): string {
  assertMinor(minor)
  return minorToDecimalWithExponent(minor, currencyExponent(currency))
}

/**
 * An amount as people read it: "12.50 DKK" for 1250 DKK. For a currency ISO 4217 does not list (a
 * report's, a file's), the minor units as they were stored, "1250 ZZZ (minor units)": never guessed decimals.
 */
export function amountText(minor: number, currency: string): string {
  try {
    return `${minorToDecimal(minor, currency)} ${currency.toUpperCase()}`
  } catch {
    return `${minor} ${currency} (minor units)`
  }
}

/** Minor units as exact decimal text with `exponent` fraction digits (for amounts of no known currency). */
export function minorToDecimalWithExponent(minor: number, exponent: number): string {
  if (!Number.isSafeInteger(minor)) throw invalid("amount", `${minor} is not an integer amount in minor units`)
  const negative = minor < 0
  const digits = String(Math.abs(minor)).padStart(exponent + 1, "0")
  const whole = digits.slice(0, digits.length - exponent)
  const fraction = digits.slice(digits.length - exponent)
  return `${negative ? "-" : ""}${whole}${exponent > 0 ? `.${fraction}` : ""}`
}

/**
 * The JSON number AltaPay's Checkout API expects (`amount.value`). Parsing the exact decimal text
 * gives the double closest to it, which prints back as the same text.
 */
export const minorToNumber = (minor: number, currency: string | number): number => Number(minorToDecimal(minor, currency))

/**
 * Decimals AltaPay takes in an amount: OrderDetails ("Expects number with 2 decimal places"), the
 * Merchant API ("the amount can have maximum 2 decimals"), and AltaPay's own plugins, which send
 * `round($amount, 2)` for every currency (plugin-magento2-community Model/Gateway.php, plugin-wordpress
 * views/paymentClass.tpl).
 */
export const WIRE_MAX_DECIMALS = 2

/**
 * Why `minor` cannot be sent to AltaPay in `currency`, or undefined when it can: a currency with 0
 * to 2 decimals always fits (JPY "1000", DKK "9.66"); a 3-decimal one (KWD, BHD) only when its last
 * digit is 0 (12340 fils -> "12.34"; 12345 fils does not fit).
 */
export function wireAmountProblem(minor: number, currency: string | number): string | undefined {
  const { exponent, alpha } = currencyInfo(currency)
  if (exponent <= WIRE_MAX_DECIMALS || !Number.isSafeInteger(minor)) return undefined
  const step = 10 ** (exponent - WIRE_MAX_DECIMALS)
  return minor % step === 0 ? undefined : `${minorToDecimal(minor, alpha)} ${alpha} does not fit ${WIRE_MAX_DECIMALS} decimals`
}

/**
 * Throws one AltaPayAmountPrecisionError naming every amount (`field` -> minor units) that does not
 * fit AltaPay's 2 decimals; returns normally when all fit. Called before anything is sent.
 */
export function assertWireAmounts(amounts: ReadonlyArray<readonly [field: string, minor: number]>, currency: string | number): void {
  const { exponent, alpha } = currencyInfo(currency)
  const issues: ValidationIssue[] = []
  for (const [field, minor] of amounts) {
    const problem = wireAmountProblem(minor, alpha)
    if (problem) issues.push({ field, message: problem })
  }
  if (issues.length > 0) throw new AltaPayAmountPrecisionError(alpha, exponent, issues)
}

/**
 * Minor units as the decimal text AltaPay takes: the currency's own decimals up to 2 (966 DKK ->
 * "9.66", 1000 JPY -> "1000", as `round(1000, 2)` prints in AltaPay's PHP plugins), 2 for a
 * 3-decimal currency (12340 KWD -> "12.34"). An amount that does not fit is refused with
 * AltaPayAmountPrecisionError, never rounded.
 */
export function minorToWireDecimal(minor: number, currency: string | number, field = "amount"): string {
  assertMinor(minor, field)
  assertWireAmounts([[field, minor]], currency)
  const { exponent } = currencyInfo(currency)
  if (exponent <= WIRE_MAX_DECIMALS) return minorToDecimalWithExponent(minor, exponent)
  return minorToDecimalWithExponent(minor / 10 ** (exponent - WIRE_MAX_DECIMALS), WIRE_MAX_DECIMALS)
}

/** The JSON number for the Checkout API (`amount.value`, order line prices), from minorToWireDecimal. */
export const minorToWireNumber = (minor: number, currency: string | number, field = "amount"): number => Number(minorToWireDecimal(minor, currency, field))

/** Whether decimal text (or a JSON number) is written with at most 2 decimals' worth of digits (trailing zeros aside). */
export function fitsWireDecimals(value: string | number): boolean {
  const text = typeof value === "number" ? String(value) : value.trim()
  const match = DECIMAL.exec(text)
  return !!match && !/[^0]/.test((match[3] ?? "").slice(WIRE_MAX_DECIMALS))
}

export function assertMinor(minor: number, field = "amount"): void {
  if (!Number.isSafeInteger(minor)) throw invalid(field, `${minor} is not an integer amount in minor units`)
  if (Math.abs(minor) > MAX_MINOR_UNITS) throw invalid(field, `${minor} is too large (at most ${MAX_MINOR_UNITS} minor units)`)
}

/**
 * Splits `total` minor units in proportion to `weights` (largest remainder), so the parts always
 * add up to `total` exactly. Weights are non-negative integers; ties go to the earlier part.
 */
export function allocate(total: number, weights: number[]): number[] {
  assertMinor(total, "total")
  if (weights.length === 0) throw invalid("weights", "cannot allocate over no parts")
  if (weights.some((w) => !Number.isSafeInteger(w) || w < 0)) throw invalid("weights", "weights must be non-negative integers")
  const sum = weights.reduce((a, w) => a + BigInt(w), 0n)
  if (sum === 0n) {
    const parts = weights.map(() => 0)
    parts[0] = total
    return parts
  }
  const sign = total < 0 ? -1n : 1n
  const abs = BigInt(Math.abs(total))
  const floors = weights.map((w) => (abs * BigInt(w)) / sum)
  const remainders = weights.map((w, i) => ({ i, r: (abs * BigInt(w)) % sum }))
  let left = abs - floors.reduce((a, b) => a + b, 0n)
  remainders.sort((a, b) => (a.r === b.r ? a.i - b.i : a.r > b.r ? -1 : 1))
  for (const { i } of remainders) {
    if (left === 0n) break
    floors[i] += 1n
    left -= 1n
  }
  return floors.map((f) => Number(f * sign))
}

/** Integer division rounded half away from zero, in BigInt so large products stay exact. */
export function divRound(numerator: bigint, denominator: bigint): bigint {
  if (denominator === 0n) throw new RangeError("division by zero")
  const negative = numerator < 0n !== denominator < 0n
  const n = numerator < 0n ? -numerator : numerator
  const d = denominator < 0n ? -denominator : denominator
  const q = (n * 2n + d) / (d * 2n)
  return negative ? -q : q
}

function numberToPlainText(value: number, field: string): string {
  if (!Number.isFinite(value)) throw invalid(field, `${value} is not a finite amount`)
  const text = String(value)
  if (/e/i.test(text)) throw invalid(field, `${text} is outside the range of amounts`)
  return text
}

function invalid(field: string, message: string): AltaPayValidationError {
  return new AltaPayValidationError(`Invalid ${field}: ${message}.`, [{ field, message }])
}
