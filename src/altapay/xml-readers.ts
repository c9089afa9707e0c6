/**
 * Leaf readers of the gateway's parsed XML (xml.ts parses, xml-transaction.ts maps transactions):
 * an element's text, an optional field, a list, an attribute, a boolean, a currency, an exact
 * amount in minor units (never through a float) and a date, plus the error the mapping raises for
 * a field it cannot read.
 */
import type { z } from "zod"
import type { GatewayAmount } from "./gateway-types"
import { currencyInfo, minorToDecimalWithExponent } from "./money"

export const ATTR = "@_"
export const TEXT = "#text"

/** Raised inside the mapping for a field we cannot read; turned into AltaPayBadResponseError. */
export class ShapeError extends Error {}

export type Raw = Record<string, unknown>
export interface Currency {
  /** ISO alpha, or "" when unknown. */
  alpha: string
  exponent: number
}
/** The reference: gateway amounts are decimals with two fraction digits. */
export const UNKNOWN_CURRENCY: Currency = { alpha: "", exponent: 2 }
/** ISO 4217 "no currency" (999) and "testing" (963) codes: treated as unknown, not as 0 decimals. */
export const NOT_A_CURRENCY = new Set(["XXX", "XTS"])

// ---------------------------------------------------------------------------------------------
// Leaf readers.

export function isRecord(value: unknown): value is Raw {
  return typeof value === "object" && value !== null && !Array.isArray(value)
}

/** A repeated element where one was expected: the first one wins. */
export const single = (node: unknown): unknown => (Array.isArray(node) ? node[0] : node)

/** The element's trimmed text ("" for an empty element or one holding only children), or undefined when absent. */
export function textOf(node: unknown): string | undefined {
  const value = single(node)
  if (value === undefined || value === null) return undefined
  if (typeof value === "string") return value.trim()
  if (typeof value === "number" || typeof value === "boolean") return String(value)
  if (isRecord(value)) {
    const text = value[TEXT]
    return typeof text === "string" ? text.trim() : text === undefined ? "" : String(text)
  }
  return undefined
}

/** Optional text field: absent and empty elements both read as undefined. */
export function str(node: unknown): string | undefined {
  const text = textOf(node)
  return text === "" ? undefined : text
}

/** An element with children; empty elements (`<RegisteredAddress/>`) read as undefined. */
export function obj(node: unknown): Raw | undefined {
  const value = single(node)
  return isRecord(value) ? value : undefined
}

export function list(node: unknown): unknown[] {
  if (node === undefined || node === null || node === "") return []
  return Array.isArray(node) ? node : [node]
}

export function attr(node: unknown, name: string): string | undefined {
  const value = single(node)
  if (!isRecord(value)) return undefined
  const text = value[`${ATTR}${name}`]
  return typeof text === "string" && text.trim() !== "" ? text.trim() : undefined
}

export function bool(node: unknown): boolean | undefined {
  const text = normalise(textOf(node))
  if (text === "true" || text === "1") return true
  if (text === "false" || text === "0") return false
  return undefined
}

export function resolveCurrency(...codes: Array<string | undefined>): Currency {
  for (const code of codes) {
    if (!code) continue
    try {
      const info = currencyInfo(code)
      if (!NOT_A_CURRENCY.has(info.alpha)) return { alpha: info.alpha, exponent: info.exponent }
    } catch {
      // Not an ISO 4217 code we know: try the next one.
    }
  }
  return UNKNOWN_CURRENCY
}

export const AMOUNT = /^(-?)(\d+)(?:\.(\d+))?$/
export const MAX_MINOR = BigInt(Number.MAX_SAFE_INTEGER)

/** Exact decimal text -> minor units ("10", "10.5", "10.50" all work); never through a float. */
export function amount(node: unknown, field: string, currency: Currency): GatewayAmount | undefined {
  const text = str(node)
  if (text === undefined) return undefined
  const match = AMOUNT.exec(text)
  const [, sign = "", whole = "", fraction = ""] = match ?? []
  const { alpha, exponent } = currency
  if (!match || /[^0]/.test(fraction.slice(exponent))) {
    const unit = alpha || "an unknown currency (read with 2 decimals)"
    throw new ShapeError(`${field} "${text.slice(0, 40)}" is not an exact amount in ${unit}`)
  }
  const digits = whole + fraction.slice(0, exponent).padEnd(exponent, "0")
  // Up to 15 digits a double holds the integer exactly; only longer ones need BigInt's range check.
  if (digits.length > 15 && BigInt(digits) > MAX_MINOR) throw new ShapeError(`${field} "${text.slice(0, 40)}" is too large`)
  const magnitude = Number(digits)
  const minor = sign === "-" && magnitude !== 0 ? -magnitude : magnitude
  return { decimal: minorToDecimalWithExponent(minor, exponent), minor, currency: alpha }
}

export const DATE_TIME = /^(\d{4})-(\d{2})-(\d{2})[T ](\d{2}):(\d{2})(?::(\d{2})(?:\.(\d{1,9}))?)?(Z|[+-]\d{2}(?::?\d{2})?)?$/i

/**
 * Header/Date and ReconciliationIdentifier/Date are ISO 8601 with an offset. CreatedDate and
 * UpdatedDate ("2017-10-02 10:46:21") carry none and AltaPay does not state the zone: read as UTC.
 * An unreadable date is undefined, never an error: no money decision rests on it alone.
 */
export function parseDate(text: string | undefined): Date | undefined {
  if (text === undefined) return undefined
  // Every answer about a payment repeats the dates of its captures and refunds: each text is read once.
  let time = readDates.get(text)
  if (time === undefined) {
    if (readDates.size >= MAX_READ_DATES) readDates.clear()
    readDates.set(text, (time = readDate(text)?.getTime() ?? null))
  }
  return time === null ? undefined : new Date(time)
}

/** Date texts already read, by text: the time, or null for a text that is no date. */
const readDates = new Map<string, number | null>()
const MAX_READ_DATES = 4096

function readDate(text: string): Date | undefined {
  const match = DATE_TIME.exec(text)
  if (!match) return undefined
  const [, y, mo, d, h, mi, s = "0", frac = "", zone = "Z"] = match
  const [year, month, day, hour, minute, second] = [y, mo, d, h, mi, s].map(Number) as [number, number, number, number, number, number]
  const millis = Number(frac.slice(0, 3).padEnd(3, "0"))
  const local = new Date(Date.UTC(year, month - 1, day, hour, minute, second, millis))
  const valid =
    local.getUTCFullYear() === year &&
    local.getUTCMonth() === month - 1 &&
    local.getUTCDate() === day &&
    local.getUTCHours() === hour &&
    local.getUTCMinutes() === minute &&
    local.getUTCSeconds() === second
  if (!valid) return undefined
  if (zone.toUpperCase() === "Z") return local
  const offset = /^([+-])(\d{2}):?(\d{2})?$/.exec(zone)
  if (!offset) return undefined
  const [, offsetSign, offsetHours = "0", offsetMinutes = "0"] = offset
  if (Number(offsetHours) > 14 || Number(offsetMinutes) > 59) return undefined
  const offsetMs = (Number(offsetHours) * 60 + Number(offsetMinutes)) * 60_000 * (offsetSign === "-" ? -1 : 1)
  return new Date(local.getTime() - offsetMs)
}

export const normalise = (value?: string): string => (value ?? "").trim().toLowerCase()

export function describeIssues(error: z.ZodError, prefix?: string): string {
  return error.issues
    .slice(0, 3)
    .map((issue) => `${[...(prefix ? [prefix] : []), ...issue.path.map(String)].join(".")} ${issue.message}`)
    .join("; ")
}
