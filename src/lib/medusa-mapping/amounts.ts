/**
 * Medusa hands amounts over in major units as numbers, strings or BigNumber objects (a refund
 * arrives as `{ value: "10.25", precision: 20 }`) and keeps them exact (a cart total of 11.2725).
 * These convert them to integer minor units and back, rounding half up to the currency's ISO 4217
 * exponent as Medusa's own roundToCurrencyPrecision does, and keep sums of amounts consistent.
 */
import { BigNumber, MathBN, MedusaError } from "@medusajs/framework/utils"
import type { BigNumberInput } from "@medusajs/framework/types"
import { currencyExponent, decimalToMinor, MAX_MINOR_UNITS, minorToDecimal } from "../../altapay"

const ROUND_HALF_UP = 4 // bignumber.js ROUND_HALF_UP

/**
 * The amount as Medusa stores it: BigNumber's raw value keeps DEFAULT_PRECISION (20) significant
 * digits. A total Medusa computes in memory carries more (a cart of 8,002.5 yen comes to
 * 8002.499999999999999999989), while the payment collection Medusa makes of it holds the stored
 * 8002.5: rounded apart, the cart would come to 8,002 yen and its payment to 8,003.
 */
function asStored(amount: BigNumberInput) {
  return MathBN.convert(amount).precision(BigNumber.DEFAULT_PRECISION, ROUND_HALF_UP)
}

/**
 * `amount` in minor units as AltaPay is asked for it: as Medusa stores it (asStored), then half up
 * to the currency's exponent. A stored amount rounds the same whether read raw or computed.
 */
export function toMinorUnits(amount: BigNumberInput, currency: string): number {
  return decimalToMinor(decimalText(amount, currency), currency)
}

/**
 * `amount` in minor units for a new payment (toMinorUnits), or a 400 when it is more than this
 * package sends AltaPay in one payment (MAX_MINOR_UNITS): no retry changes that, so the merchant
 * is told the limit, with `subject` ("Cart cart_…") saying what is too large.
 */
export function payableMinorUnits(amount: BigNumberInput, currency: string, subject: string): number {
  if (!withinOnePayment(amount, currency)) {
    const code = currency.toUpperCase()
    throw new MedusaError(
      MedusaError.Types.INVALID_DATA,
      `${subject} comes to ${decimalText(amount, currency)} ${code}, more than one AltaPay payment takes (at most ${minorToDecimal(MAX_MINOR_UNITS, currency)} ${code}). Nothing was sent to AltaPay.`
    )
  }
  return toMinorUnits(amount, currency)
}

/** Whether `amount`, rounded as AltaPay is asked for it, is within one payment (MAX_MINOR_UNITS). */
export function withinOnePayment(amount: BigNumberInput, currency: string): boolean {
  return asStored(amount).decimalPlaces(currencyExponent(currency), ROUND_HALF_UP).shiftedBy(currencyExponent(currency)).abs().lte(MAX_MINOR_UNITS)
}

/** `amount` rounded as AltaPay is asked for it, as decimal text of the currency ("1234.50"), however large. */
export function decimalText(amount: BigNumberInput, currency: string): string {
  return asStored(amount).toFixed(currencyExponent(currency), ROUND_HALF_UP)
}

export function toBigNumber(minor: number, currency: string): BigNumber {
  return new BigNumber(minorToDecimal(minor, currency))
}

/**
 * An exact amount in minor units as decimal text, never rounded: 7.728 DKK -> "772.8". Computed
 * amounts keep every digit Medusa computed, so the line builder rounds each item as Medusa does.
 */
export function exactMinorText(amount: BigNumberInput, currency: string): string {
  return MathBN.convert(amount).shiftedBy(currencyExponent(currency)).toFixed()
}

/** True when `amount` has no digits beyond the currency's exponent (10.005 DKK has). */
export function isWholeMinor(amount: BigNumberInput, currency: string): boolean {
  return MathBN.convert(amount).shiftedBy(currencyExponent(currency)).isInteger()
}

/**
 * Minor units to move for `amount` after `before` (both exact): the rounded running total after,
 * less the rounded running total before. Parts of a total rounded this way always add up to the
 * total rounded once, so AltaPay's sum of captures (or refunds) is Medusa's sum rounded half up.
 */
export function roundedIncrement(before: BigNumberInput, amount: BigNumberInput, currency: string): number {
  return toMinorUnits(MathBN.add(before, amount), currency) - toMinorUnits(before, currency)
}
