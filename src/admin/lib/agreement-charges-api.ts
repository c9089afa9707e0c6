/** The agreement-charges admin route: what the order could be charged on a saved card, and the charge. */
import type { AdminAltaPayAgreementChargeResponse, AdminAltaPayChargeableOrder } from "../../api/admin/altapay/orders/[id]/agreement-charges/route"
import { adminFetch } from "./admin-fetch"

export type { AdminAltaPayAgreementChargeResponse, AdminAltaPayChargeableOrder }

export const agreementChargesQueryKey = (orderId: string) => ["altapay", "agreement-charges", orderId] as const

export function getChargeableOrder(orderId: string): Promise<AdminAltaPayChargeableOrder> {
  return adminFetch(`/admin/altapay/orders/${encodeURIComponent(orderId)}/agreement-charges`)
}

export function chargeSavedCard(orderId: string, body: { saved_card_id: string; capture: boolean }): Promise<AdminAltaPayAgreementChargeResponse> {
  return adminFetch(`/admin/altapay/orders/${encodeURIComponent(orderId)}/agreement-charges`, { method: "POST", body })
}
