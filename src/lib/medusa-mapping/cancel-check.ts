/**
 * Whether Medusa's Cancel of an order would leave AltaPay holding the customer's money. Cancel
 * refunds what Medusa recorded as captured and not refunded, and releases a payment with nothing
 * captured; a refund or release the provider refuses is only logged by Medusa's steps, and the
 * order is canceled all the same. When AltaPay holds another amount than Medusa recorded (a capture
 * or refund made in AltaPay's merchant interface), the order would end canceled with money kept:
 * 343.00 DKK captured at AltaPay on an order Medusa showed as canceled. AltaPay is asked for each
 * AltaPay payment of the order, as the cancel itself would; one it cannot ask refuses too, since
 * the cancel's refunds would fail the same way.
 */
import type { MedusaContainer } from "@medusajs/framework/types"
import { minorToDecimal } from "../../altapay"
import { altapayFromConfig, altapayProviderIds } from "../registrations/from-config"
import { loadAltaPayPayment } from "./altapay-payment"
import { liveOrderPayments } from "./order-payments"
import { pickTransaction } from "./status"

/** Why the order must not be canceled yet, with what to do first; undefined: cancel away. */
export async function cancelRefusal(container: MedusaContainer, orderId: string): Promise<string | undefined> {
  const { name, payments: live } = await liveOrderPayments(container, orderId)
  const altapay = new Set(altapayProviderIds(container))
  const payments = live.filter((p) => altapay.has(p.provider_id))
  for (const row of payments) {
    const payment = await loadAltaPayPayment(container, row.id)
    const transactionId = payment.data.transaction_id
    if (!transactionId) continue
    const fmt = (minor: number) => `${minorToDecimal(minor, payment.currency_code)} ${payment.currency_code.toUpperCase()}`
    let transaction
    try {
      transaction = pickTransaction(await altapayFromConfig(container, payment.provider_id).client.gateway.payments({ transactionId }))
    } catch (error) {
      return `Order ${name} was not canceled: AltaPay could not be asked about payment ${payment.id} (${error instanceof Error ? error.message : String(error)}), and the cancel's refund or release would fail the same way. Try again in a moment.`
    }
    if (!transaction) continue
    const heldAtAltaPay = (transaction.capturedAmount?.minor ?? 0) - (transaction.refundedAmount?.minor ?? 0)
    const heldInMedusa = payment.captured_minor - payment.refunded_minor
    if (heldAtAltaPay === heldInMedusa || heldAtAltaPay <= 0) continue
    const differs = `AltaPay holds ${fmt(heldAtAltaPay)} captured of payment ${payment.id}, where Medusa has recorded ${fmt(heldInMedusa)}`
    return heldAtAltaPay > heldInMedusa
      ? `Order ${name} was not canceled: ${differs} (a capture made in AltaPay's merchant interface?), and the cancel would keep the difference. Press Capture on the payment first (the plugin records AltaPay's capture; nothing is captured again), then cancel: the cancel refunds it.`
      : `Order ${name} was not canceled: ${differs} (a refund made in AltaPay's merchant interface?), and AltaPay would refuse the cancel's refund of ${fmt(heldInMedusa)}. Refund the ${fmt(heldAtAltaPay)} AltaPay holds with Medusa's Refund first, then cancel.`
  }
  return undefined
}
