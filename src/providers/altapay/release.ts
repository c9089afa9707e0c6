/** cancelPayment: releases the reservation at AltaPay; a captured payment is refunded, never released. */
import { MedusaError } from "@medusajs/framework/utils"
import { AltaPayDeclinedError, AltaPayError, RELEASED_STATUSES, statusIn } from "../../altapay"
import { toMedusaError } from "../../lib/medusa-mapping/errors"
import type { AltaPayPaymentData } from "../../lib/payment-data/data"
import { withTransaction } from "../../lib/payment-data/transaction-state"
import type { ProviderContext } from "./context"

export async function releaseReservation(ctx: ProviderContext, data: AltaPayPaymentData, transactionId: string): Promise<AltaPayPaymentData> {
  if ((data.captured_minor ?? 0) > 0) throw capturedCannotCancel(data)
  try {
    const result = await ctx.client.gateway.releaseReservation({ transactionId })
    return withTransaction(data, result.transaction)
  } catch (error) {
    if (error instanceof AltaPayDeclinedError || (error instanceof AltaPayError && error.mayHaveReachedAltaPay)) {
      const transaction = await ctx.lookupOne(transactionId, "cancel check").catch(() => undefined)
      if (statusIn(transaction?.transactionStatus, RELEASED_STATUSES)) return withTransaction(data, transaction)
      if ((transaction?.capturedAmount?.minor ?? 0) > 0) throw capturedCannotCancel(data)
    }
    throw toMedusaError(error, "release", ctx.logger)
  }
}

function capturedCannotCancel(data: AltaPayPaymentData): MedusaError {
  return new MedusaError(
    MedusaError.Types.NOT_ALLOWED,
    `AltaPay cancel: payment ${data.order_id} (transaction ${data.transaction_id}) is captured, so the reservation cannot be released. Refund it instead.`
  )
}
