/**
 * POST (and GET) /altapay/saved-card-return/:provider/success | failure | notification
 *
 * Where AltaPay posts when a customer added a card from their account page (callback_ok,
 * callback_fail, callback_notification of the set-up): the card is kept as AltaPay's own record
 * of the set-up shows it, and the customer is sent on to the registration's savedCards.returnUrl
 * (lib/saved-cards/account-setup.ts). The post only names the transaction to look up.
 *
 * A later purchase with that card that asked for 3-D Secure comes back here too: AltaPay returns a
 * charge's challenge to the agreement's set-up callbacks (a `subscription_payment` post). That is
 * the customer's return from paying, handled as every return is (lib/customer-return/handle.ts):
 * the order placed and the customer sent to its confirmation, not to the cards page.
 */
import type { MedusaRequest, MedusaResponse } from "@medusajs/framework/http"
import { SIGNATURE_HEADER } from "../../../../../altapay"
import { handleCustomerReturn } from "../../../../../lib/customer-return/handle"
import { CARD_RETURN_KINDS, handleCardReturn, type CardReturnAnswer, type CardReturnKind } from "../../../../../lib/saved-cards/account-setup"

const text = (value: unknown): string | undefined => (typeof value === "string" ? value : undefined)

function send(res: MedusaResponse, result: CardReturnAnswer): void {
  res.setHeader("cache-control", "no-store")
  if ("location" in result) return res.redirect(303, result.location)
  res.status(result.status).type("text/plain").send(result.text)
}

async function answer(req: MedusaRequest, res: MedusaResponse, transactionId: string | undefined): Promise<void> {
  const { provider, kind } = req.params as { provider: string; kind: string }
  const result: CardReturnAnswer = (CARD_RETURN_KINDS as readonly string[]).includes(kind)
    ? await handleCardReturn(req.scope, { providerId: provider, kind: kind as CardReturnKind, transactionId })
    : { status: 404, text: "Not found." }
  send(res, result)
}

/** A charge's return after its 3-D Secure page: the purchase's return, and its notification. */
async function chargeReturn(req: MedusaRequest, res: MedusaResponse, body: Record<string, unknown>): Promise<void> {
  const { provider, kind } = req.params as { provider: string; kind: string }
  if (!(CARD_RETURN_KINDS as readonly string[]).includes(kind)) return send(res, { status: 404, text: "Not found." })
  const raw = (req as MedusaRequest & { rawBody?: unknown }).rawBody
  const result = await handleCustomerReturn({
    scope: req.scope,
    registration: provider,
    kind: kind === "failure" ? "failure" : "success",
    shopOrderId: text(body.shop_orderid),
    transactionId: text(body.transaction_id),
    rawBody: Buffer.isBuffer(raw) ? raw : undefined,
    signatureHeader: text(req.headers[SIGNATURE_HEADER]),
  })
  // AltaPay discards the notification's answer: the order is placed all the same.
  send(res, kind === "notification" ? { status: 200, text: "OK" } : result)
}

export const POST = (req: MedusaRequest, res: MedusaResponse): Promise<void> => {
  const body = (req.body ?? {}) as Record<string, unknown>
  if (body.type === "subscription_payment") return chargeReturn(req, res, body)
  return answer(req, res, text(body.transaction_id))
}

export const GET = (req: MedusaRequest, res: MedusaResponse) => answer(req, res, text(req.query.transaction_id))
