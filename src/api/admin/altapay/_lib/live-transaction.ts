/** AltaPay's current record of a payment, for display: a failure to read it is shown, not thrown. */
import type { AltaPayClient } from "../../../../altapay"
import type { AltaPayPaymentData } from "../../../../lib/payment-data/data"
import { pickTransaction } from "../../../../lib/medusa-mapping/status"
import type { LiveTransaction } from "./payment-view"

export async function readLiveTransaction(client: AltaPayClient, data: AltaPayPaymentData): Promise<LiveTransaction> {
  try {
    const transactions = await client.gateway.payments(data.transaction_id ? { transactionId: data.transaction_id } : { shopOrderId: data.order_id })
    return { transaction: pickTransaction(transactions) }
  } catch (error) {
    return { error: `AltaPay could not be reached to read the payment: ${error instanceof Error ? error.message : String(error)}` }
  }
}
