/**
 * POST (and GET) /altapay/saved-card-return/:provider/success | failure | notification
 *
 * Where AltaPay posts when a customer added a card from their account page (callback_ok,
 * callback_fail, callback_notification of the set-up): the card is kept as AltaPay's own record
 * of the set-up shows it, and the customer is sent on to the registration's savedCards.returnUrl
 * (lib/saved-cards/account-setup.ts). The post only names the transaction to look up.
 */
import type { MedusaRequest, MedusaResponse } from "@medusajs/framework/http"
import { CARD_RETURN_KINDS, handleCardReturn, type CardReturnAnswer, type CardReturnKind } from "../../../../../lib/saved-cards/account-setup"

const text = (value: unknown): string | undefined => (typeof value === "string" ? value : undefined)

async function answer(req: MedusaRequest, res: MedusaResponse, transactionId: string | undefined): Promise<void> {
  const { provider, kind } = req.params as { provider: string; kind: string }
  const result: CardReturnAnswer = (CARD_RETURN_KINDS as readonly string[]).includes(kind)
    ? await handleCardReturn(req.scope, { providerId: provider, kind: kind as CardReturnKind, transactionId })
    : { status: 404, text: "Not found." }
  if ("location" in result) return res.redirect(303, result.location)
  res.status(result.status).type("text/plain").send(result.text)
}

export const POST = (req: MedusaRequest, res: MedusaResponse) => answer(req, res, text((req.body as Record<string, unknown> | undefined)?.transaction_id))

export const GET = (req: MedusaRequest, res: MedusaResponse) => answer(req, res, text(req.query.transaction_id))
