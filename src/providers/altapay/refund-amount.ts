/** refundPayment's amount: Medusa's exact refund as AltaPay minor units, rounded as a running total. */
import type { RefundPaymentInput } from "@medusajs/framework/types"
import { MathBN } from "@medusajs/framework/utils"
import { minorToDecimal } from "../../altapay"
import { roundedIncrement } from "../../lib/medusa-mapping/amounts"
import { toMedusaError } from "../../lib/medusa-mapping/errors"
import type { DetailLog } from "../../lib/medusa-mapping/error-reference"
import type { AltaPayPaymentData } from "../../lib/payment-data/data"

/**
 * A refund's minor units. Medusa keeps refunds exact (10.005 DKK); refunds are rounded as a
 * running total, so AltaPay's refunded total is always Medusa's refunded total rounded half up.
 */
export function refundAmount(amount: RefundPaymentInput["amount"], data: AltaPayPaymentData, logger?: DetailLog): { amountMinor: number; medusaAmount: string } {
  try {
    const before = MathBN.sum(0, ...data.refunds.map((r) => r.medusa_amount ?? minorToDecimal(r.amount_minor, data.currency)))
    return { amountMinor: roundedIncrement(before, amount, data.currency), medusaAmount: MathBN.convert(amount).toFixed() }
  } catch (error) {
    throw toMedusaError(error, "refund", logger)
  }
}
