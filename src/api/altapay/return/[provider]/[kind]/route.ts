/**
 * POST /altapay/return/:provider/success and /altapay/return/:provider/failure
 *
 * The success and failure URLs the provider gives AltaPay (callback_ok / callback_fail). AltaPay's
 * gateway POSTs its signed callback form here, server to server, and redirects the customer to the
 * 303 this answers: the storefront's landing page (lib/customer-return/handle.ts).
 *
 * GET (a browser that opens the URL, or AltaPay set up to send the customer here directly) is
 * treated as an unsigned post: AltaPay is asked, and nothing changes without its confirmation.
 */
import type { MedusaRequest, MedusaResponse } from "@medusajs/framework/http"
import { SIGNATURE_HEADER } from "../../../../../altapay"
import { handleCustomerReturn, type ReturnAnswer, type ReturnKind, type ReturnRequest } from "../../../../../lib/customer-return/handle"

const KINDS: ReadonlySet<string> = new Set(["success", "failure"])

function send(res: MedusaResponse, answer: ReturnAnswer): void {
  res.setHeader("cache-control", "no-store")
  if ("location" in answer) {
    res.redirect(303, answer.location)
    return
  }
  res.status(answer.status).type("text/plain").send(answer.text)
}

const text = (value: unknown): string | undefined => (typeof value === "string" ? value : undefined)

type Posted = Pick<ReturnRequest, "shopOrderId" | "transactionId" | "rawBody" | "signatureHeader">

async function answer(req: MedusaRequest, res: MedusaResponse, posted: Posted): Promise<void> {
  const { provider, kind } = req.params as { provider: string; kind: string }
  if (!KINDS.has(kind)) return send(res, { status: 404, text: "Not found." })
  send(res, await handleCustomerReturn({ scope: req.scope, registration: provider, kind: kind as ReturnKind, ...posted }))
}

export const POST = (req: MedusaRequest, res: MedusaResponse): Promise<void> => {
  const raw = (req as MedusaRequest & { rawBody?: unknown }).rawBody
  const body = (req.body ?? {}) as Record<string, unknown>
  return answer(req, res, {
    shopOrderId: text(body.shop_orderid),
    // Only a saved card's charge needs it (its shop_orderid names another session).
    transactionId: body.type === "subscription_payment" ? text(body.transaction_id) : undefined,
    rawBody: Buffer.isBuffer(raw) ? raw : undefined,
    signatureHeader: text(req.headers[SIGNATURE_HEADER]),
  })
}

export const GET = (req: MedusaRequest, res: MedusaResponse): Promise<void> =>
  answer(req, res, { shopOrderId: text(req.query.shop_orderid), transactionId: text(req.query.transaction_id) })
