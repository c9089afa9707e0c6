/**
 * An order's own payment still under way, read before the merchant charges the order on a saved
 * card: a pending bank or Klarna payment, a payment link sent and still payable, a payment AltaPay
 * has that Medusa has not recorded yet. A charge on top of it would be a second payment for the same
 * amount, and recording the charge deletes the collection's other payment sessions.
 */
import type { MedusaContainer } from "@medusajs/framework/types"
import { DECLINED_STATUSES, RELEASED_STATUSES, statusIn } from "../../altapay"
import { provenSessionData } from "../payment-data/data"
import { altapayRegistrations } from "../registrations/registrations"
import type { SharedStore } from "../scale-out/shared-state"
import type { OrderDue } from "./amount-due"
import { toMedusaError } from "./errors"

/** Statuses of a Medusa payment session that may still be paid. */
const PAYABLE = new Set(["pending", "requires_more"])

const linkKey = (paymentSessionId: string) => `altapay:payment-link:${paymentSessionId}`

/** Notes a payment link sent for a payment session, for as long as it can be paid. */
export async function notePaymentLink(store: SharedStore, paymentSessionId: string, expiresAt: Date): Promise<void> {
  const ttlSeconds = Math.ceil((expiresAt.getTime() - Date.now()) / 1000)
  if (ttlSeconds > 0) await store.set(linkKey(paymentSessionId), { expires_at: expiresAt.toISOString() }, ttlSeconds)
}

/** Why a payment of the order is under way (undefined: none is). Asks AltaPay for each payable AltaPay session. */
export async function openPaymentOf(container: MedusaContainer, due: OrderDue, now = Date.now()): Promise<string | undefined> {
  const registrations = new Map(altapayRegistrations(container).map((r) => [r.providerId, r]))
  for (const collection of due.order.payment_collections ?? []) {
    for (const session of collection?.payment_sessions ?? []) {
      if (!session || !PAYABLE.has(session.status)) continue
      const registration = registrations.get(session.provider_id)
      const data = registration ? provenSessionData(session, registration.keys) : undefined
      if (!registration || !data || data.agreement?.mode === "merchant_charge") continue
      const link = await registration.store.get<{ expires_at: string }>(linkKey(session.id))
      if (link && Date.parse(link.expires_at) > now) return `a payment link sent for it can be paid until ${link.expires_at} (payment session ${session.id})`
      const transactions = await registration.client.gateway.payments({ shopOrderId: data.order_id }).catch((error: unknown) => {
        throw toMedusaError(error, "check of the order's payments")
      })
      const live = transactions.find((t) => !statusIn(t.transactionStatus, [...DECLINED_STATUSES, ...RELEASED_STATUSES]))
      if (live) return `AltaPay has payment ${live.transactionId} (${live.transactionStatus ?? "status not stated"}) for it (payment session ${session.id})`
    }
  }
  return undefined
}
