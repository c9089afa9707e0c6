/**
 * Lines for an amount that is not the whole order: a partial capture or refund without item
 * lines (one line splitting the amount like the order's net and tax), and the compensation line
 * for callers whose own lines do not total the amount.
 */
import { currencyInfo } from "../money"
import type { OrderLine } from "../types"
import { splitInProportion } from "./allocation"
import { divRound } from "../money"
import { decimalText, fromInteger } from "./exact"
import { isCreditLine } from "./build"
import { toSafeMinor, validationError } from "./problems"
import { ORDER_LINE_LIMITS, claimItemId, truncateText } from "./text"
import { lineTaxMinor, lineTotalMinor, orderLinesTotalMinor } from "./totals"
import { orderLineIssues } from "./validation"

/**
 * Appends a `handling` line for the difference between the lines' total and `amountMinor`, so
 * AltaPay (and invoice providers that compare both) see exactly the amount captured or refunded.
 * No line is added when they already agree.
 */
export function withCompensationLine(lines: readonly OrderLine[], amountMinor: number, currency: string): OrderLine[] {
  currencyInfo(currency)
  if (!Number.isSafeInteger(amountMinor)) {
    throw validationError("Invalid amount", [{ field: "amount", message: "must be an integer amount in minor units" }])
  }
  const diff = toSafeMinor(BigInt(amountMinor) - BigInt(orderLinesTotalMinor(lines)), "amount")
  if (diff === 0) return [...lines]
  const taken = new Set(lines.map((line) => line.itemId))
  return [
    ...lines,
    { itemId: claimItemId("rounding", taken), description: "Rounding adjustment", goodsType: "handling", quantity: 1, unitPriceMinor: diff, taxAmountMinor: 0, taxPercent: 0 },
  ]
}

/**
 * One `item` line worth exactly `amountMinor`, for a partial capture or refund when no item-level
 * lines are given: its net and tax split the amount in the proportion of the goods' net and tax in
 * `lines` (largest remainder, exact); taxPercent is the lines' rate, or their effective rate to 4
 * decimals when they have several.
 * Credit lines (store credit, gift cards) paid part of the bill, not part of the goods, so they do
 * not shift the split: a refund of an order paid partly by store credit keeps the order's rate.
 */
export function proportionalAdjustmentLine(lines: readonly OrderLine[], amountMinor: number, opts: { itemId?: string; description?: string } = {}): OrderLine[] {
  if (!Number.isSafeInteger(amountMinor) || amountMinor <= 0) {
    throw validationError("Invalid amount", [{ field: "amount", message: "must be an integer amount greater than zero" }])
  }
  let netWeight = 0n
  let taxWeight = 0n
  const rates = new Set<number>()
  lines.forEach((line, i) => {
    if (isCreditLine(line)) return
    const total = BigInt(lineTotalMinor(line, `orderLines.${i}`))
    const tax = BigInt(lineTaxMinor(line, `orderLines.${i}`))
    netWeight += total - tax
    taxWeight += tax
    if (total !== 0n) rates.add(line.taxPercent)
  })
  // Promotions can only shrink a part; a part cannot go below nothing.
  if (netWeight < 0n) netWeight = 0n
  if (taxWeight < 0n) taxWeight = 0n
  const [netPart, taxPart] = splitInProportion([fromInteger(netWeight), fromInteger(taxWeight)], BigInt(amountMinor))
  // An `item` line needs a positive unit price; move a minor unit from tax when the split gave none.
  const unitPriceMinor = netPart > 0n ? netPart : 1n
  const taxAmountMinor = taxPart - (unitPriceMinor - netPart)
  // One rate on every line is the rate; mixed rates give the effective one (rounded tax / net).
  const tenThousandths = rates.size === 1 ? undefined : netWeight > 0n ? divRound(taxWeight * 1_000_000n, netWeight) : 0n
  const line: OrderLine = {
    description: truncateText(opts.description ?? "Partial refund", ORDER_LINE_LIMITS.description) || "Partial refund",
    itemId: truncateText(opts.itemId ?? "partial-refund", ORDER_LINE_LIMITS.itemId) || "partial-refund",
    quantity: 1,
    unitPriceMinor: toSafeMinor(unitPriceMinor, "amount"),
    taxAmountMinor: toSafeMinor(taxAmountMinor, "amount"),
    taxPercent: tenThousandths === undefined ? [...rates][0] : Number(decimalText({ units: tenThousandths, scale: 4 })),
    goodsType: "item",
  }
  const issues = orderLineIssues([line], amountMinor)
  if (issues.length > 0) throw validationError("Cannot build the adjustment line", issues)
  return [line]
}
