/**
 * Medusa hands amounts over in major units as numbers, strings or BigNumber objects (a refund
 * arrives as `{ value: "10.25", precision: 20 }`). These convert them exactly to integer minor
 * units and back, rounding half up to the currency's ISO 4217 exponent like Medusa does.
 */
import { BigNumber, MathBN } from "@medusajs/framework/utils"
import type { BigNumberInput } from "@medusajs/framework/types"
import { currencyExponent, decimalToMinor, minorToDecimal } from "../altapay"

const ROUND_HALF_UP = 4 // bignumber.js ROUND_HALF_UP

export function toMinorUnits(amount: BigNumberInput, currency: string): number {
  const exponent = currencyExponent(currency)
  const decimal = MathBN.convert(amount).toFixed(exponent, ROUND_HALF_UP)
  return decimalToMinor(decimal, currency)
}

export function toBigNumber(minor: number, currency: string): BigNumber {
  return new BigNumber(minorToDecimal(minor, currency))
}
