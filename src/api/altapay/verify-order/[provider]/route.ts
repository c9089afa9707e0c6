/**
 * POST /altapay/verify-order/:provider
 *
 * AltaPay's last look at the cart before the money moves (option `verifyOrder`; the Merchant API's
 * callback_verify_order): AltaPay posts its signed callback form here just before it charges, and
 * goes on only when this answers 200 with `OKAY`; any other text declines the payment and is shown
 * to the customer (lib/verify-order/verify-order.ts).
 */
import type { MedusaRequest, MedusaResponse } from "@medusajs/framework/http"
import { SIGNATURE_HEADER } from "../../../../altapay"
import { verifyOrder } from "../../../../lib/verify-order/verify-order"

export const POST = async (req: MedusaRequest, res: MedusaResponse): Promise<void> => {
  const raw = (req as MedusaRequest & { rawBody?: unknown }).rawBody
  const header = req.headers[SIGNATURE_HEADER]
  const answer = await verifyOrder({
    scope: req.scope,
    registration: (req.params as { provider: string }).provider,
    rawBody: Buffer.isBuffer(raw) ? raw : undefined,
    signatureHeader: typeof header === "string" ? header : undefined,
  })
  res.setHeader("cache-control", "no-store")
  res.status(answer.status).type("text/plain").send(answer.text)
}
