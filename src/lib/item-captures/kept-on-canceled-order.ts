/**
 * A reservation the provider kept for an order edit (order-edit.ts) on an order the merchant then
 * canceled. Within the edit's minutes Medusa's Cancel of the order reaches the provider's cancel as
 * the edit's own (cancelOrderWorkflow cancels the payments before it marks the order canceled), so an
 * edit whose reservation update had failed gets it made and kept; and a reservation an edit kept but
 * its new collection never took (carryKeptReservations failed) has no live payment for Cancel to
 * release. After `order.canceled`, each such reservation AltaPay still holds is released through the
 * money door; one with money captured, or one AltaPay cannot be asked about, is told to the merchant.
 */
import type { Logger, MedusaContainer } from "@medusajs/framework/types"
import { ContainerRegistrationKeys } from "@medusajs/framework/utils"
import { minorToDecimal, RELEASED_STATUSES, statusIn } from "../../altapay"
import { postFeedNotice } from "../follow-up/merchant-notice"
import { releaseReservation } from "../follow-up/release"
import { pickTransaction } from "../medusa-mapping/status"
import { openPaymentData } from "../payment-data/data"
import { altapayRegistrations } from "../registrations/registrations"

interface PaymentRow {
  id: string
  provider_id: string
  canceled_at?: unknown
  data?: Record<string, unknown> | null
}

interface CanceledOrder {
  display_id?: number
  status?: string
  payment_collections?: Array<{ payments?: Array<PaymentRow | null> | null } | null> | null
}

/** Releases the edit-kept reservations of canceled order `orderId`; returns how many were released. */
export async function releaseEditReservationsOfCanceledOrder(container: MedusaContainer, orderId: string): Promise<number> {
  const query = container.resolve(ContainerRegistrationKeys.QUERY)
  const logger = container.resolve<Logger>(ContainerRegistrationKeys.LOGGER)
  const { data } = await query.graph({
    entity: "order",
    fields: [
      "display_id",
      "status",
      "payment_collections.payments.id",
      "payment_collections.payments.provider_id",
      "payment_collections.payments.canceled_at",
      "payment_collections.payments.data",
    ],
    filters: { id: orderId },
  })
  const order = data[0] as CanceledOrder | undefined
  if (order?.status !== "canceled") return 0
  const name = order.display_id ? `#${order.display_id}` : orderId
  const registrations = new Map(altapayRegistrations(container).map((r) => [r.providerId, r]))
  const payments = (order.payment_collections ?? [])
    .flatMap((c) => c?.payments ?? [])
    .flatMap((payment) => {
      const registration = payment && registrations.get(payment.provider_id)
      if (!payment || !registration) return []
      const opened = openPaymentData(payment.data, registration.keys)
      return [{ payment, registration, data: opened.sealed ? opened.data : undefined }]
    })
  // A live payment on the same transaction (one Cancel refunded) is that payment's own business.
  const handled = new Set(payments.filter(({ payment }) => !payment.canceled_at).map(({ data }) => data?.transaction_id))
  let released = 0
  for (const { payment, registration, data: kept } of payments) {
    const transactionId = kept?.transaction_id
    if (!payment.canceled_at || !kept?.order_edit?.kept || !transactionId || handled.has(transactionId)) continue
    handled.add(transactionId)
    const tell = async (title: string, description: string) => {
      logger.warn(`${title}: ${description}`)
      await postFeedNotice(container, `altapay-edit-kept-on-cancel-${transactionId}`, { title, description }, `payment ${payment.id}`)
    }
    try {
      const transaction = pickTransaction(await registration.client.gateway.payments({ transactionId }))
      if (!transaction || statusIn(transaction.transactionStatus, RELEASED_STATUSES)) continue
      const captured = transaction.capturedAmount?.minor ?? 0
      if (captured > 0) {
        const amount = `${minorToDecimal(captured, kept.currency)} ${kept.currency.toUpperCase()}`
        await tell(
          `AltaPay: canceled order ${name} has ${amount} captured on a reservation kept for its edit`,
          `Order ${name} was canceled, but AltaPay transaction ${transactionId} (kept for an order edit, payment ${payment.id}) has ${amount} captured. Refund it and release the rest in AltaPay's merchant interface.`
        )
        continue
      }
      await releaseReservation(registration, transaction)
      released++
      logger.info(`AltaPay: order ${name} was canceled; reservation ${transactionId}, kept for an order edit (payment ${payment.id}), is released.`)
    } catch (error) {
      await tell(
        `AltaPay: canceled order ${name} still has a reservation kept for its edit`,
        `Order ${name} was canceled, but AltaPay transaction ${transactionId} (kept for an order edit, payment ${payment.id}) could not be released (${error instanceof Error ? error.message : String(error)}). Release it in AltaPay's merchant interface.`
      )
    }
  }
  return released
}
