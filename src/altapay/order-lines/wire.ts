/**
 * Order lines on the wire: JSON numbers for the Checkout API, form fields of decimal text for the
 * gateway, and Checkout-API-shaped lines read back into minor units. Every encoder validates first.
 * taxPercent goes out with at most 4 decimals (a rate computed as 0.0725 * 100 is sent as 7.25).
 */
import { z } from "zod"
import { AltaPayValidationError, type ValidationIssue } from "../errors"
import { assertWireAmounts, decimalToMinor, divRound, minorToWireDecimal, minorToWireNumber } from "../money"
import { GOODS_TYPES, type GoodsType, type OrderLine } from "../types"
import { decimalOf, decimalText, plainNumberText, pow10, roundedNumber } from "./exact"
import { validationError } from "./problems"
import { validateOrderLines } from "./validation"

/** Decimals of taxPercent on the wire. */
export const TAX_PERCENT_DECIMALS = 4

/** One order line as the Checkout API's session body carries it (amounts as JSON numbers). */
export interface CheckoutOrderLine {
  description: string
  itemId: string
  quantity: number
  unitPrice: number
  taxAmount: number
  taxPercent: number
  goodsType?: GoodsType
  discount?: number
  unitCode?: string
  imageUrl?: string
  productUrl?: string
}

/**
 * Each line's amounts as `[field, minor units]`, for assertWireAmounts: a line's unit price and tax
 * must fit AltaPay's 2 decimals like the amount they add up to.
 */
export function orderLineWireAmounts(lines: readonly OrderLine[], prefix = "orderLines"): Array<[string, number]> {
  return lines.flatMap((line, i): Array<[string, number]> => [
    [`${prefix}.${i}.unitPrice`, line.unitPriceMinor],
    [`${prefix}.${i}.taxAmount`, line.taxAmountMinor],
  ])
}

/** Lines for `order.orderLines` of a Checkout API session. Validates first, amounts included (2 decimals). */
export function toCheckoutOrderLines(lines: readonly OrderLine[], currency: string): CheckoutOrderLine[] {
  validateOrderLines(lines, { currency })
  assertWireAmounts(orderLineWireAmounts(lines), currency)
  return lines.map((line) => {
    const out: CheckoutOrderLine = {
      description: line.description,
      itemId: line.itemId,
      quantity: line.quantity,
      unitPrice: minorToWireNumber(line.unitPriceMinor, currency),
      taxAmount: minorToWireNumber(line.taxAmountMinor, currency),
      taxPercent: roundedNumber(line.taxPercent, TAX_PERCENT_DECIMALS),
    }
    if (line.goodsType !== undefined) out.goodsType = line.goodsType
    if (line.discountPercent !== undefined) out.discount = line.discountPercent
    if (line.unitCode !== undefined) out.unitCode = line.unitCode
    if (line.imageUrl !== undefined) out.imageUrl = line.imageUrl
    if (line.productUrl !== undefined) out.productUrl = line.productUrl
    return out
  })
}

/**
 * Lines as the gateway's form fields (`orderLines[0][unitPrice]` = "9.66"): amounts as decimal text
 * with the currency's exponent up to 2 (minorToWireDecimal), other numbers as plain decimal text
 * (never exponent notation). Validates first, amounts included.
 */
export function toGatewayOrderLineFields(lines: readonly OrderLine[], currency: string): Record<string, string> {
  validateOrderLines(lines, { currency })
  assertWireAmounts(orderLineWireAmounts(lines), currency)
  return gatewayOrderLineFields(lines, currency)
}

/**
 * toGatewayOrderLineFields without its checks, for a caller that has just made them
 * (validateOrderLines and assertWireAmounts on the same lines and currency).
 * @internal
 */
export function gatewayOrderLineFields(lines: readonly OrderLine[], currency: string): Record<string, string> {
  const fields: Record<string, string> = {}
  lines.forEach((line, i) => {
    const set = (name: string, value: string | undefined) => {
      if (value !== undefined) fields[`orderLines[${i}][${name}]`] = value
    }
    set("description", line.description)
    set("itemId", line.itemId)
    set("quantity", plainNumberText(line.quantity))
    set("unitPrice", minorToWireDecimal(line.unitPriceMinor, currency))
    set("taxAmount", minorToWireDecimal(line.taxAmountMinor, currency))
    set("taxPercent", plainNumberText(roundedNumber(line.taxPercent, TAX_PERCENT_DECIMALS)))
    set("goodsType", line.goodsType)
    set("discount", line.discountPercent === undefined ? undefined : plainNumberText(line.discountPercent))
    set("unitCode", line.unitCode)
    set("imageUrl", line.imageUrl)
    set("productUrl", line.productUrl)
  })
  return fields
}

const decimalInput = z.union([
  z.number(),
  z
    .string()
    .trim()
    .regex(/^[+-]?(\d+\.?\d*|\.\d+)$/, "must be a decimal number"),
])
const optionalDecimal = decimalInput.nullish()
const optionalText = z.string().nullish()

const checkoutOrderLineSchema = z.object({
  description: z.string(),
  itemId: z.string(),
  quantity: decimalInput,
  unitPrice: decimalInput,
  taxAmount: decimalInput,
  taxPercent: optionalDecimal,
  goodsType: z.enum(GOODS_TYPES).nullish(),
  discount: optionalDecimal,
  unitCode: optionalText,
  imageUrl: optionalText,
  productUrl: optionalText,
})

/**
 * Reads Checkout-API-shaped lines (JSON numbers or decimal strings) back into minor units, e.g.
 * lines handed over by other code. Required fields are enforced; every problem is reported at
 * once. A missing taxPercent is inferred from taxAmount / (unitPrice * quantity), to 2 decimals.
 */
export function fromCheckoutOrderLines(json: unknown, currency: string): OrderLine[] {
  const parsed = z.array(checkoutOrderLineSchema).safeParse(json)
  if (!parsed.success) {
    throw validationError(
      "Order lines are invalid",
      parsed.error.issues.map((issue) => ({
        field: ["orderLines", ...issue.path.map(String)].join("."),
        message: issue.message,
      }))
    )
  }
  const issues: ValidationIssue[] = []
  const lines = parsed.data.map((raw, i): OrderLine => {
    const p = `orderLines.${i}`
    const minor = (value: string | number, field: string): number => {
      try {
        return decimalToMinor(value, currency, `${p}.${field}`)
      } catch (error) {
        if (error instanceof AltaPayValidationError) issues.push(...error.issues)
        else throw error
        return 0
      }
    }
    const unitPriceMinor = minor(raw.unitPrice, "unitPrice")
    const taxAmountMinor = minor(raw.taxAmount, "taxAmount")
    const quantity = Number(raw.quantity)
    const line: OrderLine = {
      description: raw.description,
      itemId: raw.itemId,
      quantity,
      unitPriceMinor,
      taxAmountMinor,
      taxPercent: raw.taxPercent === undefined || raw.taxPercent === null ? inferTaxPercent(unitPriceMinor, quantity, taxAmountMinor) : Number(raw.taxPercent),
    }
    if (raw.goodsType) line.goodsType = raw.goodsType
    if (raw.discount !== undefined && raw.discount !== null) line.discountPercent = Number(raw.discount)
    if (raw.unitCode !== undefined && raw.unitCode !== null) line.unitCode = raw.unitCode
    if (raw.imageUrl !== undefined && raw.imageUrl !== null) line.imageUrl = raw.imageUrl
    if (raw.productUrl !== undefined && raw.productUrl !== null) line.productUrl = raw.productUrl
    return line
  })
  if (issues.length > 0) throw validationError("Order lines are invalid", issues)
  validateOrderLines(lines, { currency })
  return lines
}

function inferTaxPercent(unitPriceMinor: number, quantity: number, taxAmountMinor: number): number {
  const q = decimalOf(quantity)
  if (!q || q.units <= 0n || unitPriceMinor <= 0) return 0
  const hundredths = divRound(BigInt(taxAmountMinor) * 10000n * pow10(q.scale), BigInt(unitPriceMinor) * q.units)
  return hundredths < 0n ? 0 : Number(decimalText({ units: hundredths, scale: 2 }))
}
