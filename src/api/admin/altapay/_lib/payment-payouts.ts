/**
 * Which payout each capture and refund of a payment went into, from the payouts module. A store
 * without the module shows none; a failure to read is shown beside the payment, not thrown, so the
 * order page keeps AltaPay's live state when, say, the module's migration has not run yet.
 */
import type { MedusaContainer } from "@medusajs/framework/types"
import { registeredPayoutsModule } from "../../../../lib/payouts/module"
import type { PaymentPayouts } from "./payment-view"

export async function readPaymentPayouts(scope: MedusaContainer, paymentId: string): Promise<PaymentPayouts> {
  const payouts = registeredPayoutsModule(scope)
  if (!payouts) return { payouts: [], error: null }
  try {
    const byPayment = await payouts.payoutsForPayments([paymentId])
    return { payouts: byPayment[paymentId] ?? [], error: null }
  } catch (error) {
    return { payouts: [], error: `The payouts could not be read: ${error instanceof Error ? error.message : String(error)}` }
  }
}
