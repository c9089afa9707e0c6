/**
 * What AltaPay charges for a line: (unitPrice * quantity + taxAmount) * (1 - discount/100), in
 * minor units, rounded half away from zero. Decimal quantities (allowed by the reference) are exact.
 */
import type { ValidationIssue } from "../errors"
import { divRound } from "../money"
import type { OrderLine } from "../types"
import { decimalOf, pow10, type Decimal } from "./exact"
import { toSafeMinor, validationError } from "./problems"

const NO_DISCOUNT: Decimal = { units: 0n, scale: 0 }

function lineFactors(line: OrderLine, path: string): { quantity: Decimal; discount: Decimal } {
  const issues: ValidationIssue[] = []
  if (!Number.isSafeInteger(line.unitPriceMinor)) {
    issues.push({ field: `${path}.unitPriceMinor`, message: "must be an integer amount in minor units" })
  }
  if (!Number.isSafeInteger(line.taxAmountMinor)) {
    issues.push({ field: `${path}.taxAmountMinor`, message: "must be an integer amount in minor units" })
  }
  const quantity = typeof line.quantity === "number" ? decimalOf(line.quantity) : undefined
  if (!quantity || quantity.units <= 0n) {
    issues.push({ field: `${path}.quantity`, message: "must be a number greater than zero" })
  }
  const discount = line.discountPercent === undefined ? NO_DISCOUNT : typeof line.discountPercent === "number" ? decimalOf(line.discountPercent) : undefined
  if (!discount || discount.units < 0n || discount.units > 100n * pow10(discount.scale)) {
    issues.push({ field: `${path}.discountPercent`, message: "must be a percentage from 0 to 100" })
  }
  if (issues.length > 0 || !quantity || !discount) throw validationError("Order line cannot be totalled", issues)
  return { quantity, discount }
}

export function lineTotalMinor(line: OrderLine, path = "orderLine"): number {
  const { quantity, discount } = lineFactors(line, path)
  const quantityScale = pow10(quantity.scale)
  const discountScale = pow10(discount.scale)
  const numerator = (BigInt(line.unitPriceMinor) * quantity.units + BigInt(line.taxAmountMinor) * quantityScale) * (100n * discountScale - discount.units)
  return toSafeMinor(divRound(numerator, quantityScale * 100n * discountScale), path)
}

/** The tax part of lineTotalMinor: taxAmount reduced by the line discount. */
export function lineTaxMinor(line: OrderLine, path = "orderLine"): number {
  const { discount } = lineFactors(line, path)
  const discountScale = pow10(discount.scale)
  return toSafeMinor(divRound(BigInt(line.taxAmountMinor) * (100n * discountScale - discount.units), 100n * discountScale), path)
}

export function orderLinesTotalMinor(lines: readonly OrderLine[]): number {
  let total = 0n
  lines.forEach((line, i) => {
    total += BigInt(lineTotalMinor(line, `orderLines.${i}`))
  })
  return toSafeMinor(total, "orderLines")
}
