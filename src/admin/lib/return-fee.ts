/**
 * The return fee of Refund items (Klarna and other invoice payments): what the admin typed, as
 * the route takes it, and how the panel shows a fee kept. The server checks the fee again (its
 * currency's decimals, less than the goods).
 */
import type { AdminAltaPayRefund } from "../../api/admin/altapay/_lib/payment-view"
import type { AdminT } from "../i18n/catalogues"
import { formatMoney } from "./format"

export interface ChosenReturnFee {
  /** Absent: no fee (both boxes empty). */
  return_fee?: { amount: string; tax_rate?: number }
  /** The amount is not a decimal above zero, or the rate not a percentage; or a rate without an amount. */
  invalid: boolean
}

const DECIMAL = /^\d+(\.\d+)?$/

/** `amount` gross in the payment's currency ("6.40"); `taxRate` in percent, empty for the refunded items' rate. */
export function chosenReturnFee(amount: string, taxRate: string): ChosenReturnFee {
  const text = amount.trim()
  const rateText = taxRate.trim()
  if (!text) return { invalid: rateText !== "" }
  if (!DECIMAL.test(text) || !/[1-9]/.test(text)) return { invalid: true }
  if (!rateText) return { return_fee: { amount: text }, invalid: false }
  const rate = Number(rateText)
  if (!DECIMAL.test(rateText) || rate > 100) return { invalid: true }
  return { return_fee: { amount: text, tax_rate: rate }, invalid: false }
}

/** "Return fee kept: 6.40 DKK (25 % tax)" in the admin's language, or null for a refund that kept none. */
export function returnFeeText(t: AdminT, fee: AdminAltaPayRefund["return_fee"]): string | null {
  return fee ? t("panel.returnFeeKept", { amount: formatMoney(fee.amount), percent: fee.tax_percent }) : null
}
