/**
 * The customer's return from the 3-D Secure page of a purchase with a saved card. AltaPay posts it
 * to the agreement's set-up return URL with the charge, and a charge keeps the agreement's
 * shop_orderid, which names the session that saved the card, not the one paying now. The session
 * paying now is in the charge's transaction_info (set by our charge). Only AltaPay's record of that
 * transaction decides (looked up by its id, within the anonymous look-ups' budget): what the post
 * says never names a session.
 */
import type { Logger } from "@medusajs/framework/types"
import { chargedSession } from "../medusa-mapping/status"
import { namesSession, sessionIdFromOrderId, shopOrderIdFor } from "../medusa-mapping/shop-order-id"
import { confirmedActionFor } from "../callbacks/confirmed-action"
import { anonymousLookUps, type ConfirmedReturn } from "./confirm"
import type { altapayFromConfig } from "../registrations/from-config"

const TRANSACTION_ID = /^[0-9a-f]{1,32}$/

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
  if (!registration.options.savedCards.enabled || !post.transactionId || !TRANSACTION_ID.test(post.transactionId)) return undefined
  const anonymous = anonymousLookUps(registration, logger)
  const looked = await anonymous.budget.run(post.shopOrderId, () => anonymous.client.gateway.payments({ transactionId: post.transactionId }))
  if (!looked.admitted) return undefined
  const charge = looked.value.find((t) => t.transactionId === post.transactionId)
  const sessionId = charge && chargedSession(charge)
  if (!charge || !sessionId || !namesSession(charge.shopOrderId, post.shopOrderId) || sessionId === sessionIdFromOrderId(post.shopOrderId)) return undefined
  // The charge as the paying session's payment, for the same decision every return makes.
  const asSession = { ...charge, shopOrderId: shopOrderIdFor(sessionId) }
  return { sessionId, confirmed: { result: confirmedActionFor(asSession.shopOrderId, [asSession]), by: "look-up" } }
}
