/**
 * The customer's return from the 3-D Secure page of a purchase with a saved card. AltaPay posts it
 * to the agreement's set-up return URL with the charge, and a charge keeps the agreement's
 * shop_orderid, which names the session that saved the card, not the one paying now. The session
 * paying now is in the charge's transaction_info (set by our charge). Only AltaPay's record of that
 * transaction decides (looked up by its id, within the anonymous look-ups' budget): what the post
 * says never names a session.
 */
import type { Logger } from "@medusajs/framework/types"
import { chargedSessionAction } from "../callbacks/confirmed-action"
import { anonymousTransaction, type ConfirmedReturn } from "./confirm"
import type { altapayFromConfig } from "../registrations/from-config"

export interface SavedCardReturn {
  sessionId: string
  confirmed: ConfirmedReturn
}

/** The session a returning charge paid, and what AltaPay says of it; undefined when the post is no such charge. */
export async function savedCardReturn(
  registration: ReturnType<typeof altapayFromConfig>,
  post: { shopOrderId: string; transactionId: string | undefined },
  logger?: Pick<Logger, "warn">
): Promise<SavedCardReturn | undefined> {
  if (!registration.options.savedCards.enabled) return undefined
  const charge = await anonymousTransaction(registration, post.shopOrderId, post.transactionId, logger)
  const paid = charge && chargedSessionAction(charge, post.shopOrderId)
  // The charge as the paying session's payment, for the same decision every return makes.
  return paid && { sessionId: paid.sessionId, confirmed: { result: paid.result, by: "look-up" } }
}
