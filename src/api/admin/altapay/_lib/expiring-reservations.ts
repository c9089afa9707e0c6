/**
 * The reservations about to lapse, for the admin's AltaPay page: what the follow-up's expiry notice
 * tells (lib/follow-up/expiring-reservations.ts), read now: payments Medusa has neither captured in
 * full nor canceled whose AltaPay authorisation expires within the registration's
 * `jobs.expiryNoticeDays`, each with its order.
 */
import type { IPaymentModuleService, MedusaContainer } from "@medusajs/framework/types"
import { ContainerRegistrationKeys, Modules } from "@medusajs/framework/utils"
import type { ExpiringReservationView } from "../../../../lib/health/views"
import { orderOfCollection } from "../../../../lib/medusa-mapping/order-of-session"
import { openPaymentData } from "../../../../lib/payment-data/data"
import { expiresSoon, reservationExpiry } from "../../../../lib/payment-data/reservation-expiry"
import type { AltaPayRegistration } from "../../../../lib/registrations/registrations"

/** The newest uncaptured payments a registration's look reads (the follow-up job reads them all, in batches). */
const MAX_PAYMENTS_READ = 500

export async function expiringReservations(scope: MedusaContainer, registrations: AltaPayRegistration[], now = new Date()): Promise<ExpiringReservationView[]> {
  const payments = scope.resolve<IPaymentModuleService>(Modules.PAYMENT)
  const query = scope.resolve(ContainerRegistrationKeys.QUERY)
  const views: ExpiringReservationView[] = []
  for (const registration of registrations) {
    const rows = await payments.listPayments({ provider_id: registration.providerId, captured_at: null, canceled_at: null } as never, {
      select: ["id", "data", "payment_collection_id"],
      take: MAX_PAYMENTS_READ,
      order: { created_at: "DESC" },
    })
    for (const row of rows) {
      const opened = openPaymentData(row.data, registration.keys)
      if (!opened.sealed) continue
      const expiry = reservationExpiry(opened.data, now)
      if (!expiresSoon(expiry, registration.options.jobs.expiryNoticeDays)) continue
      const order = row.payment_collection_id ? await orderOfCollection(query, row.payment_collection_id) : undefined
      views.push({
        paymentId: row.id,
        orderId: order?.id ?? null,
        orderDisplayId: order?.display_id ?? null,
        providerId: registration.providerId,
        uncapturedMinor: expiry.uncaptured_minor,
        currency: opened.data.currency.toUpperCase(),
        expiresAt: expiry.expires_at,
        lapsed: expiry.lapsed,
      })
    }
  }
  return views.sort((a, b) => a.expiresAt.localeCompare(b.expiresAt))
}
