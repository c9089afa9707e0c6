/**
 * GET /admin/altapay/payments/:id/requests
 *
 * The payment's request log (issue 43): what the plugin said to AltaPay about it and what AltaPay
 * answered, oldest first, for the order page's AltaPay panel. `enabled: false` when the payment's
 * registration has not turned requestLog on (nothing was kept). Read from Medusa's cache module,
 * where the provider writes it (this process's memory without one).
 */
import type { AuthenticatedMedusaRequest, MedusaResponse } from "@medusajs/framework/http"
import { RequestLog, type RequestLogEntry } from "../../../../../../lib/observability/request-log"
import { altapayOptionsFromConfig, providerScaleOut } from "../../../../../../lib/registrations/from-config"
import { processStore } from "../../../../../../lib/scale-out/shared-state"
import { loadAltaPayPayment } from "../../../_lib/altapay-payment"

export interface AdminAltaPayRequestLogResponse {
  request_log: {
    enabled: boolean
    /** The bounds the registration keeps it in. */
    max_entries: number
    retention_days: number
    entries: RequestLogEntry[]
  }
}

export const GET = async (req: AuthenticatedMedusaRequest, res: MedusaResponse<AdminAltaPayRequestLogResponse>) => {
  const payment = await loadAltaPayPayment(req.scope, req.params.id)
  const { requestLog } = altapayOptionsFromConfig(req.scope, payment.provider_id).options
  res.setHeader("Cache-Control", "no-store")
  const bounds = { enabled: requestLog.enabled, max_entries: requestLog.maxEntries, retention_days: requestLog.retentionDays }
  if (!requestLog.enabled) return void res.json({ request_log: { ...bounds, entries: [] } })
  const { data } = payment
  const entries = await new RequestLog(providerScaleOut(req.scope).store ?? processStore(), requestLog).read({
    sessionId: data.altapay_session_id,
    shopOrderId: data.order_id,
    paymentId: data.payment_id ?? undefined,
    transactionId: data.transaction_id ?? undefined,
  })
  res.json({ request_log: { ...bounds, entries } })
}
