/** The plugin's admin routes, typed by the server's own response types (type-only imports). */
import type { AdminAltaPayPaymentResponse } from "../../api/admin/altapay/payments/[id]/route"
import type { AdminAltaPayFraudApprovalResponse } from "../../api/admin/altapay/payments/[id]/fraud-approval/route"
import type { AdminAltaPayItemRefundResponse } from "../../api/admin/altapay/payments/[id]/refunds/route"
import type { AdminAltaPayItemCaptureResponse, AdminAltaPayItemCaptureStateResponse } from "../../api/admin/altapay/payments/[id]/captures/route"
import type { AdminAltaPayPaymentLinkResponse } from "../../api/admin/altapay/payment-links/route"
import type { AdminAltaPayProvider, AdminAltaPayProvidersResponse } from "../../api/admin/altapay/providers/route"
import { adminFetch } from "./admin-fetch"

export type { AdminAltaPayPayment, AdminAltaPayRefund, Money } from "../../api/admin/altapay/_lib/payment-view"
export type { AdminAltaPayItemRefundResponse, AdminAltaPayPaymentLinkResponse, AdminAltaPayProvider }
export type { ItemCapturePreview, ItemCaptureState } from "../../lib/item-captures/capture-items"

export interface ItemRefundInput {
  items: Array<{ line_item_id: string; quantity: number }>
  shipping?: boolean
  note?: string
}

export const altapayQueryKey = (paymentId: string) => ["altapay", "payment", paymentId] as const

export const getAltaPayPayment = (paymentId: string) =>
  adminFetch<AdminAltaPayPaymentResponse>(`/admin/altapay/payments/${encodeURIComponent(paymentId)}`).then((r) => r.altapay_payment)

/** "Approve capture" of a payment the fraud policy holds. */
export const approveAltaPayCapture = (paymentId: string) =>
  adminFetch<AdminAltaPayFraudApprovalResponse>(`/admin/altapay/payments/${encodeURIComponent(paymentId)}/fraud-approval`, { method: "POST", body: {} }).then(
    (r) => r.altapay_payment
  )

export const refundAltaPayItems = (paymentId: string, input: ItemRefundInput) =>
  adminFetch<AdminAltaPayItemRefundResponse>(`/admin/altapay/payments/${encodeURIComponent(paymentId)}/refunds`, { method: "POST", body: input })

export interface ItemCaptureInput {
  items: Array<{ line_item_id: string; quantity: number }>
  shipping?: boolean
}

/** Under the payment's key, so refreshing the payment refreshes what is left to capture too. */
export const captureStateQueryKey = (paymentId: string) => [...altapayQueryKey(paymentId), "captures"] as const

const capturesPath = (paymentId: string) => `/admin/altapay/payments/${encodeURIComponent(paymentId)}/captures`

export const getItemCaptureState = (paymentId: string) => adminFetch<AdminAltaPayItemCaptureStateResponse>(capturesPath(paymentId)).then((r) => r.capture_state)

/** The amount and lines capturing these items would send; nothing is captured. */
export const previewItemCapture = (paymentId: string, input: ItemCaptureInput) =>
  adminFetch<AdminAltaPayItemCaptureResponse>(capturesPath(paymentId), { method: "POST", body: { ...input, preview: true } }).then((r) => r.capture)

export const captureAltaPayItems = (paymentId: string, input: ItemCaptureInput) =>
  adminFetch<Extract<AdminAltaPayItemCaptureResponse, { preview: false }>>(capturesPath(paymentId), { method: "POST", body: input })

export const altapayProvidersQueryKey = ["altapay", "providers"] as const

export const getAltaPayProviders = () => adminFetch<AdminAltaPayProvidersResponse>("/admin/altapay/providers").then((r) => r.providers)

export const createAltaPayPaymentLink = (input: { order_id: string; provider_id?: string; validity_seconds?: number }) =>
  adminFetch<AdminAltaPayPaymentLinkResponse>("/admin/altapay/payment-links", { method: "POST", body: input })
