/**
 * Order-line rules shared by the checkout session and the gateway's capture/refund. A line's total
 * is (unitPrice * quantity + taxAmount) * (1 - discount/100), rounded to the currency's minor unit
 * (half away from zero); totals are compared exactly in minor units, never as floats.
 */
import { currencyExponent, divRound, fitsWireDecimals } from "../altapay/money"

export interface Issue {
  path: string
  message: string
}

const GOODS_TYPES = new Set(["shipment", "handling", "item", "digital", "discount", "gift_card", "physical", "sales_tax"])
// The reference: unitPrice is "greater than zero, unless goodsType is `handling`, where it may carry
// a discount". So discounts and credits are `handling` lines; a negative `discount` line is refused.
const MAY_BE_NEGATIVE = new Set(["handling"])

interface Rational {
  n: bigint
  d: bigint
}

const DECIMAL = /^([+-]?)(\d+)(?:\.(\d+))?$|^([+-]?)\.(\d+)$/

/** Exact decimal text (or a JS number's shortest text) as a fraction; null when not a plain decimal. */
export function parseDecimal(value: unknown): Rational | null {
  let text: string
  if (typeof value === "number") {
    if (!Number.isFinite(value)) return null
    text = String(value)
  } else if (typeof value === "string") {
    text = value.trim()
  } else {
    return null
  }
  const match = DECIMAL.exec(text)
  if (!match) return null
  const sign = match[1] ?? match[4] ?? ""
  const whole = match[2] ?? "0"
  const fraction = match[3] ?? match[5] ?? ""
  const n = BigInt(whole + fraction) * (sign === "-" ? -1n : 1n)
  return { n, d: 10n ** BigInt(fraction.length) }
}

const isBlank = (v: unknown): boolean => v === undefined || v === null || v === ""

/** unitPrice × quantity × taxPercent / 100, exact (rounded with the line's total); null when a factor is missing. */
function inferredTax(unitPrice: Rational | null, quantity: Rational | null, taxPercent: Rational): Rational | null {
  if (!unitPrice || !quantity) return null
  return { n: unitPrice.n * quantity.n * taxPercent.n, d: unitPrice.d * quantity.d * taxPercent.d * 100n }
}

function checkText(line: Record<string, unknown>, field: string, max: number, required: boolean, at: string, issues: Issue[]): void {
  const value = line[field]
  if (isBlank(value)) {
    if (required) issues.push({ path: `${at}.${field}`, message: `${field} is required` })
    return
  }
  if (typeof value !== "string") issues.push({ path: `${at}.${field}`, message: `${field} must be a string` })
  else if (value.length > max) issues.push({ path: `${at}.${field}`, message: `${field} is longer than ${max} characters` })
}

function checkNumber(line: Record<string, unknown>, field: string, required: boolean, at: string, issues: Issue[]): Rational | null {
  const value = line[field]
  if (isBlank(value)) {
    if (required) issues.push({ path: `${at}.${field}`, message: `${field} is required` })
    return null
  }
  const parsed = parseDecimal(value)
  if (!parsed) issues.push({ path: `${at}.${field}`, message: `${field} must be a decimal number` })
  return parsed
}

export interface LineRules {
  /**
   * A Klarna refund: a `handling` line is a return fee deducted from the other lines, not added
   * ("Refund a Klarna payment": goods 11.00 and a handling line of 6.40 refund 4.60). A negative
   * handling line (a share of a promotion) lowers the refund too: each lowers it by its amount.
   */
  handlingDeducted?: boolean
}

/**
 * Validates every line against the reference's limits and returns the lines' total in minor units
 * (undefined when a line is too broken to total). `at` prefixes issue paths, e.g. "order.orderLines".
 */
export function validateOrderLines(lines: unknown[], currency: string, at: string, rules: LineRules = {}): { issues: Issue[]; totalMinor?: number } {
  const issues: Issue[] = []
  const exponentScale = 10n ** BigInt(currencyExponent(currency))
  const seenItemIds = new Set<string>()
  let total = 0n
  let totalable = true

  lines.forEach((raw, index) => {
    const path = `${at}.${index}`
    if (typeof raw !== "object" || raw === null || Array.isArray(raw)) {
      issues.push({ path, message: "an order line must be an object" })
      totalable = false
      return
    }
    const line = raw as Record<string, unknown>
    checkText(line, "description", 255, true, path, issues)
    checkText(line, "itemId", 100, true, path, issues)
    checkText(line, "unitCode", 50, false, path, issues)
    checkText(line, "imageUrl", 255, false, path, issues)
    checkText(line, "productUrl", 255, false, path, issues)
    if (typeof line.itemId === "string") {
      if (seenItemIds.has(line.itemId)) issues.push({ path: `${path}.itemId`, message: `itemId "${line.itemId}" is not unique` })
      seenItemIds.add(line.itemId)
    }
    const goodsType = line.goodsType
    if (!isBlank(goodsType) && (typeof goodsType !== "string" || !GOODS_TYPES.has(goodsType))) {
      issues.push({ path: `${path}.goodsType`, message: `goodsType must be one of ${[...GOODS_TYPES].join(", ")}` })
    }
    const quantity = checkNumber(line, "quantity", true, path, issues)
    const unitPrice = checkNumber(line, "unitPrice", true, path, issues)
    const taxPercent = checkNumber(line, "taxPercent", false, path, issues)
    // "If you provide only one, the other is inferred" (Refund a Klarna payment; its example sends taxPercent alone).
    const taxAmount = isBlank(line.taxAmount) && taxPercent ? inferredTax(unitPrice, quantity, taxPercent) : checkNumber(line, "taxAmount", true, path, issues)
    // Amounts take at most 2 decimals, whatever the currency (OrderDetails; the Merchant API pages).
    for (const [field, value] of [
      ["unitPrice", unitPrice],
      ["taxAmount", taxAmount],
    ] as const) {
      if (value && !isBlank(line[field]) && !fitsWireDecimals(String(line[field]))) issues.push({ path: `${path}.${field}`, message: `${field} can have at most 2 decimals` })
    }
    const discount = checkNumber(line, "discount", false, path, issues)

    if (quantity && quantity.n <= 0n) issues.push({ path: `${path}.quantity`, message: "quantity must be greater than zero" })
    if (unitPrice && unitPrice.n <= 0n && !(typeof goodsType === "string" && MAY_BE_NEGATIVE.has(goodsType))) {
      issues.push({ path: `${path}.unitPrice`, message: "unitPrice must be greater than zero (except for handling lines)" })
    }
    if (discount && (discount.n < 0n || discount.n > 100n * discount.d)) {
      issues.push({ path: `${path}.discount`, message: "discount is a percentage between 0 and 100" })
    }
    if (!quantity || !unitPrice || !taxAmount) {
      totalable = false
      return
    }
    const d = discount ?? { n: 0n, d: 1n }
    // (up.n/up.d * q.n/q.d + t.n/t.d) * (100*d.d - d.n) / (100*d.d), then scaled to minor units.
    const gross: Rational = {
      n: unitPrice.n * quantity.n * taxAmount.d + taxAmount.n * unitPrice.d * quantity.d,
      d: unitPrice.d * quantity.d * taxAmount.d,
    }
    const numerator = gross.n * (100n * d.d - d.n) * exponentScale
    const denominator = gross.d * 100n * d.d
    const lineTotal = divRound(numerator, denominator)
    const deducted = rules.handlingDeducted && goodsType === "handling"
    total += deducted ? -(lineTotal < 0n ? -lineTotal : lineTotal) : lineTotal
  })

  return totalable ? { issues, totalMinor: Number(total) } : { issues }
}
