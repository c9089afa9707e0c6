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
import type { Logger, MedusaContainer } from "@medusajs/framework/types"
import { ContainerRegistrationKeys } from "@medusajs/framework/utils"
import { minorToDecimal, type GatewayTransaction } from "../../altapay"
import { postFeedNotice } from "../follow-up/merchant-notice"
import { altapayFromConfig, altapayProviderIds } from "../registrations/from-config"
import { loadAltaPayPayment, type AltaPayPayment } from "./altapay-payment"
import { liveOrderPayments } from "./order-payments"
import { pickTransaction } from "./status"

/** Each AltaPay payment of the order with a transaction, and AltaPay's live record of it (or why it could not be read). */
async function* askedAltaPay(container: MedusaContainer, orderId: string) {
  const { name, payments: live } = await liveOrderPayments(container, orderId)
  const altapay = new Set(altapayProviderIds(container))
  for (const row of live.filter((p) => altapay.has(p.provider_id))) {
    const payment = await loadAltaPayPayment(container, row.id)
    const transactionId = payment.data.transaction_id
    if (!transactionId) continue
    const fmt = (minor: number) => `${minorToDecimal(minor, payment.currency_code)} ${payment.currency_code.toUpperCase()}`
    let transaction: GatewayTransaction | undefined
    try {
      transaction = pickTransaction(await altapayFromConfig(container, payment.provider_id).client.gateway.payments({ transactionId }))
    } catch (error) {
      yield { name, payment, fmt, unreadable: error instanceof Error ? error.message : String(error) }
      continue
    }
    if (transaction) yield { name, payment, fmt, heldMinor: (transaction.capturedAmount?.minor ?? 0) - (transaction.refundedAmount?.minor ?? 0) }
  }
}

/** Why the order must not be canceled yet, with what to do first; undefined: cancel away. */
export async function cancelRefusal(container: MedusaContainer, orderId: string): Promise<string | undefined> {
  for await (const { name, payment, fmt, unreadable, heldMinor } of askedAltaPay(container, orderId)) {
    if (unreadable !== undefined) {
      return `Order ${name} was not canceled: AltaPay could not be asked about payment ${payment.id} (${unreadable}), and the cancel's refund or release would fail the same way. Try again in a moment.`
    }
    const heldAtAltaPay = heldMinor ?? 0
    const heldInMedusa = payment.captured_minor - payment.refunded_minor
    if (heldAtAltaPay === heldInMedusa || heldAtAltaPay <= 0) continue
    const differs = `AltaPay holds ${fmt(heldAtAltaPay)} captured of payment ${payment.id}, where Medusa has recorded ${fmt(heldInMedusa)}`
    return heldAtAltaPay > heldInMedusa
      ? `Order ${name} was not canceled: ${differs} (a capture made in AltaPay's merchant interface?), and the cancel would keep the difference. Press Capture on the payment first (the plugin records AltaPay's capture; nothing is captured again), then cancel: the cancel refunds it.`
      : `Order ${name} was not canceled: ${differs} (a refund made in AltaPay's merchant interface?), and AltaPay would refuse the cancel's refund of ${fmt(heldInMedusa)}. Refund the ${fmt(heldAtAltaPay)} AltaPay holds with Medusa's Refund first, then cancel.`
  }
  return undefined
}

/**
 * After Medusa's Cancel: money AltaPay still holds captured of the order's payments is told to the
 * merchant. The check above cannot foresee a refund AltaPay refuses or cannot be reached for while
 * the cancel runs; Medusa's step only logs it, and the order shows canceled with the money kept.
 */
export async function tellOfMoneyKeptByCancel(container: MedusaContainer, orderId: string): Promise<void> {
  const logger = container.resolve<Logger>(ContainerRegistrationKeys.LOGGER)
  for await (const { name, payment, fmt, unreadable, heldMinor } of askedAltaPay(container, orderId)) {
    if (unreadable !== undefined) {
      logger.warn(
        `AltaPay: order ${name} was canceled, and AltaPay could not be asked whether payment ${payment.id} still holds money (${unreadable}). Check it on the order's AltaPay panel.`
      )
      continue
    }
    if (!heldMinor || heldMinor <= 0) continue
    const notice = keptNotice(name, payment, fmt(heldMinor))
    logger.warn(`${notice.title}: ${notice.description}`)
    await postFeedNotice(container, `altapay-cancel-kept-${payment.id}-${heldMinor}`, notice, `payment ${payment.id}`)
  }
}

function keptNotice(name: string, payment: AltaPayPayment, held: string): { title: string; description: string } {
  return {
    title: `AltaPay: canceled order ${name} still has ${held} captured`,
    description: `Order ${name} was canceled, but AltaPay did not refund ${held} of payment ${payment.id} (the cancel's refund failed; Medusa canceled the order all the same and shows the refund on it). The customer has not had it back: press Refund on the payment (the plugin refunds it at AltaPay and records it on the payment).`,
  }
}
