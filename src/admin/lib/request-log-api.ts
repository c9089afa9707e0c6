/** The payment's request log route (what the plugin said to AltaPay), typed by the server's response. */
import type { AdminAltaPayRequestLogResponse } from "../../api/admin/altapay/payments/[id]/requests/route"
import { adminFetch } from "./admin-fetch"
import { altapayQueryKey } from "./altapay-api"

export type AdminRequestLog = AdminAltaPayRequestLogResponse["request_log"]
export type AdminRequestLogEntry = AdminRequestLog["entries"][number]

// Under the panel's payment key: a capture or refund through the panel (which refreshes that key) refreshes the log too.
export const requestLogQueryKey = (paymentId: string) => [...altapayQueryKey(paymentId), "requests"] as const

export const getRequestLog = (paymentId: string) =>
  adminFetch<AdminAltaPayRequestLogResponse>(`/admin/altapay/payments/${encodeURIComponent(paymentId)}/requests`).then((r) => r.request_log)
