/**
 * A return fee kept on an item refund, as AltaPay's "Refund a Klarna payment" documents it: the
 * goods lines go out as planned and the fee as a positive `handling` line that AltaPay deducts, so
 * the customer gets the goods less the fee (11.00 of goods less a 6.40 fee refunds 4.60). The fee
 * is given gross, as the shop keeps it; its net and tax are split at its rate and add up to it.
 */
import { assertWireAmounts, divRound, minorToDecimal } from "../money"
import type { OrderLine } from "../types"
import { decimalOf, pow10 } from "./exact"
import { ItemRefundError, type ItemRefundPlan } from "./item-refunds"
import { lineTotalMinor } from "./totals"
import { orderLineWireAmounts } from "./wire"

/** The fee's line: AltaPay's example sends it after the goods, with its own itemId. */
export const RETURN_FEE_ITEM_ID = "return-fee"

export interface ReturnFeeRequest {
  /** What the shop keeps, tax included, in minor units. */
  grossMinor: number
  /** The fee's tax rate in percent; undefined: the one rate of the refunded lines. */
  taxPercent?: number
  currency: string
}

/** A return fee's line (the gateway's `returnFee`): goodsType is always `handling`, set when sent. */
export type ReturnFeeLine = Omit<OrderLine, "goodsType">

/** An item refund that keeps a fee: `amountMinor` is what the customer gets back, the goods less the fee. */
export interface ItemRefundWithFee extends ItemRefundPlan {
  goodsMinor: number
  returnFee: ReturnFeeLine
}

/** `plan` with the fee kept; an ItemRefundError when the fee is not less than the goods or its rate is not known. */
export function withReturnFee(plan: ItemRefundPlan, fee: ReturnFeeRequest): ItemRefundWithFee {
  const money = (minor: number) => `${minorToDecimal(minor, fee.currency)} ${fee.currency}`
  if (!Number.isSafeInteger(fee.grossMinor) || fee.grossMinor <= 0) throw new ItemRefundError(["A return fee must be more than zero."])
  if (fee.grossMinor >= plan.amountMinor) {
    throw new ItemRefundError([
      `The return fee of ${money(fee.grossMinor)} is not less than the ${money(plan.amountMinor)} of goods refunded, so the customer would get nothing back: lower the fee or refund more items.`,
    ])
  }
  const taxPercent = fee.taxPercent ?? refundedRate(plan.lines)
  const netMinor = netOf(fee.grossMinor, taxPercent)
  const returnFee: ReturnFeeLine = {
    description: "Return fee",
    itemId: RETURN_FEE_ITEM_ID,
    quantity: 1,
    unitPriceMinor: netMinor,
    taxAmountMinor: fee.grossMinor - netMinor,
    taxPercent,
  }
  // AltaPay takes 2 decimals: a 3-decimal currency's fee must split into amounts it can carry.
  assertWireAmounts(orderLineWireAmounts([returnFee], "returnFee"), fee.currency)
  return { ...plan, amountMinor: plan.amountMinor - fee.grossMinor, goodsMinor: plan.amountMinor, returnFee }
}

/** What the shop kept as return fees on these refunds (failed refunds kept nothing). */
export function keptReturnFeesMinor(refunds: ReadonlyArray<{ status?: string; return_fee?: ReturnFeeLine | null }>): number {
  return refunds.reduce((sum, r) => sum + (r.return_fee && r.status !== "failed" ? lineTotalMinor(r.return_fee, "returnFee") : 0), 0)
}

/** The refunded lines' tax rate, when they have one (lines of no amount aside). */
function refundedRate(lines: readonly OrderLine[]): number {
  const rates = [...new Set(lines.filter((line) => lineTotalMinor(line) !== 0).map((line) => line.taxPercent))]
  if (rates.length === 1) return rates[0]
  throw new ItemRefundError([`The refunded lines have ${rates.length ? `tax rates ${rates.map((r) => `${r} %`).join(", ")}` : "no tax rate"}: give the return fee's tax rate.`])
}

/** The fee before tax, half up: gross / (1 + rate / 100), exactly. */
function netOf(grossMinor: number, taxPercent: number): number {
  const rate = decimalOf(taxPercent)
  if (!rate || rate.units < 0n) throw new ItemRefundError([`The return fee's tax rate ${taxPercent} is not a percentage.`])
  const scale = pow10(rate.scale)
  return Number(divRound(BigInt(grossMinor) * 100n * scale, 100n * scale + rate.units))
}
