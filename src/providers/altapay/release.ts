/** cancelPayment: releases the reservation at AltaPay, through the money door; a captured payment is refunded, never released. */
import { MedusaError } from "@medusajs/framework/utils"
import { toMedusaError } from "../../lib/medusa-mapping/errors"
import { releaseThroughDoor } from "../../lib/money-door/release"
import type { AltaPayPaymentData } from "../../lib/payment-data/data"
import { withTransaction } from "../../lib/payment-data/transaction-state"
import type { ProviderContext } from "./context"

export async function releaseReservation(ctx: ProviderContext, data: AltaPayPaymentData, transactionId: string): Promise<AltaPayPaymentData> {
  if ((data.captured_minor ?? 0) > 0) throw capturedCannotCancel(data)
  try {
    const transaction = await releaseThroughDoor(ctx.door, ctx.client, {
      transactionId,
      amountMinor: data.reserved_minor ?? data.amount_minor,
      currency: data.currency,
      captured: () => capturedCannotCancel(data),
      data,
    })
    return withTransaction(data, transaction)
  } catch (error) {
    throw toMedusaError(error, "release", ctx.logger)
  }
}

function capturedCannotCancel(data: AltaPayPaymentData): MedusaError {
  return new MedusaError(
    MedusaError.Types.NOT_ALLOWED,
    `AltaPay cancel: payment ${data.order_id} (transaction ${data.transaction_id}) is captured, so the reservation cannot be released. Refund it instead.`
  )
}
