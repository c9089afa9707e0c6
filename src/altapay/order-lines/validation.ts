/**
 * The reference's rules for order lines. Every broken rule is listed at once, each named by path
 * (`orderLines.2.itemId`), so a caller can fix everything in one go.
 */
import type { ValidationIssue } from "../errors"
import { currencyInfo } from "../money"
import { GOODS_TYPES, type OrderLine } from "../types"
import { validationError } from "./problems"
import { ORDER_LINE_LIMITS, isAbsoluteHttpUrl, textLength } from "./text"
import { lineTotalMinor } from "./totals"

export interface ValidateOrderLinesOptions {
  /** ISO 4217 code of the payment; must be known. */
  currency: string
  /** When given, the lines must total exactly this (partial captures and refunds require it). */
  expectedTotalMinor?: number
}

/** Throws ONE AltaPayValidationError listing every problem; returns normally when the lines are valid. */
export function validateOrderLines(lines: readonly OrderLine[], opts: ValidateOrderLinesOptions): void {
  const issues: ValidationIssue[] = []
  try {
    currencyInfo(opts.currency)
  } catch {
    issues.push({ field: "currency", message: `unknown ISO 4217 currency ${String(opts.currency)}` })
  }
  issues.push(...orderLineIssues(lines, opts.expectedTotalMinor))
  if (issues.length > 0) throw validationError("Order lines are invalid", issues)
}

/** Every rule broken by `lines`, without throwing (validateOrderLines minus the currency check). */
export function orderLineIssues(lines: readonly OrderLine[], expectedTotalMinor?: number): ValidationIssue[] {
  const issues: ValidationIssue[] = []
  if (!Array.isArray(lines)) return [{ field: "orderLines", message: "must be an array" }]
  const firstIndexOfId = new Map<string, number>()
  let totallable = true

  lines.forEach((line: OrderLine, i) => {
    const p = `orderLines.${i}`
    const add = (field: string, message: string) => issues.push({ field: `${p}.${field}`, message })
    if (typeof line !== "object" || line === null) {
      issues.push({ field: p, message: "must be an object" })
      totallable = false
      return
    }
    const before = issues.length

    requiredText(line.description, ORDER_LINE_LIMITS.description, (m) => add("description", m))
    requiredText(line.itemId, ORDER_LINE_LIMITS.itemId, (m) => add("itemId", m))
    if (typeof line.itemId === "string" && line.itemId.trim() !== "") {
      const first = firstIndexOfId.get(line.itemId)
      if (first === undefined) firstIndexOfId.set(line.itemId, i)
      else add("itemId", `must be unique within the order; orderLines.${first}.itemId is also "${line.itemId}"`)
    }

    if (typeof line.quantity !== "number" || !Number.isFinite(line.quantity) || !(line.quantity > 0)) {
      add("quantity", "must be a number greater than zero")
    }
    const handling = line.goodsType === "handling"
    if (!Number.isSafeInteger(line.unitPriceMinor)) {
      add("unitPriceMinor", "must be an integer amount in minor units")
    } else if (!handling && !(line.unitPriceMinor > 0)) {
      add("unitPriceMinor", 'must be greater than zero unless goodsType is "handling" (discounts and credits)')
    }
    if (!Number.isSafeInteger(line.taxAmountMinor)) {
      add("taxAmountMinor", "must be an integer amount in minor units")
    } else if (!handling && line.taxAmountMinor < 0) {
      add("taxAmountMinor", 'must not be negative unless goodsType is "handling"')
    }
    if (typeof line.taxPercent !== "number" || !Number.isFinite(line.taxPercent) || line.taxPercent < 0) {
      add("taxPercent", "must be a finite number, zero or more")
    }
    if (line.discountPercent !== undefined) {
      const d = line.discountPercent
      if (typeof d !== "number" || !Number.isFinite(d) || d < 0 || d > 100) {
        add("discountPercent", "must be a percentage from 0 to 100")
      }
    }
    if (line.goodsType !== undefined && !(GOODS_TYPES as readonly string[]).includes(line.goodsType)) {
      add("goodsType", `must be one of ${GOODS_TYPES.join(", ")}`)
    }
    if (line.unitCode !== undefined) {
      requiredText(line.unitCode, ORDER_LINE_LIMITS.unitCode, (m) => add("unitCode", m))
    }
    for (const key of ["imageUrl", "productUrl"] as const) {
      const value = line[key]
      if (value === undefined) continue
      if (typeof value !== "string") add(key, "must be a string")
      else if (textLength(value) > ORDER_LINE_LIMITS[key]) {
        add(key, `must be at most ${ORDER_LINE_LIMITS[key]} characters, counted in UTF-16 units (is ${textLength(value)})`)
      } else if (!isAbsoluteHttpUrl(value)) add(key, "must be a full http(s) URL")
    }
    // Only the amount fields matter for the total; text problems do not stop us checking it.
    if (issues.slice(before).some((x) => /\.(quantity|unitPriceMinor|taxAmountMinor|discountPercent)$/.test(x.field))) {
      totallable = false
    }
  })

  if (expectedTotalMinor !== undefined) {
    if (!Number.isSafeInteger(expectedTotalMinor)) {
      issues.push({ field: "expectedTotalMinor", message: "must be an integer amount in minor units" })
    } else if (totallable) {
      const total = lines.reduce((sum, line, i) => sum + BigInt(lineTotalMinor(line, `orderLines.${i}`)), 0n)
      if (total !== BigInt(expectedTotalMinor)) {
        issues.push({ field: "orderLines", message: `lines total ${total} minor units but the amount is ${expectedTotalMinor}` })
      }
    }
  }
  return issues
}

function requiredText(value: unknown, max: number, report: (message: string) => void): void {
  if (typeof value !== "string" || value.trim() === "") return report("is required")
  const length = textLength(value)
  if (length > max) report(`must be at most ${max} characters, counted in UTF-16 units (is ${length})`)
}
