/** The payment's request log route (what the plugin said to AltaPay), typed by the server's response. */
import type { AdminAltaPayRequestLogResponse } from "../../api/admin/altapay/payments/[id]/requests/route"
import { adminFetch } from "./admin-fetch"

export type AdminRequestLog = AdminAltaPayRequestLogResponse["request_log"]
export type AdminRequestLogEntry = AdminRequestLog["entries"][number]

export const requestLogQueryKey = (paymentId: string) => ["altapay", "request-log", paymentId] as const

export const getRequestLog = (paymentId: string) =>
  adminFetch<AdminAltaPayRequestLogResponse>(`/admin/altapay/payments/${encodeURIComponent(paymentId)}/requests`).then((r) => r.request_log)
