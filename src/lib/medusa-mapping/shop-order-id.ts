/**
 * AltaPay's shop_orderid for a Medusa payment session, and back.
 *
 * The Merchant API types shop_orderid `[a-zA-Z0-9-]{1,100}` (createPaymentRequest,
 * createInvoiceReservation, callback_form; reservation takes 50 characters at most), and AltaPay's
 * own plugins send their shop's order number, which fits (Magento's increment id, WooCommerce's
 * order id). Medusa's payment session id is `payses_<ULID>`: a ULID has only letters and digits, so
 * the one `_` becomes `-` (`payses-01J...`, 33 characters) and the mapping is reversible (Medusa
 * never makes an id with `payses-`). An id that already fits is sent as it is.
 *
 * Sessions created before this mapping sent the id unchanged (`payses_01J...`): their sealed data's
 * `order_id` holds that form, AltaPay is asked by it, and callbacks and returns naming it still map
 * to the session. Every place that sends, asks or reads a shop_orderid goes through this module.
 */

/** What the Merchant API pages allow, within the reservation page's 50 characters. */
const SHOP_ORDER_ID = /^[A-Za-z0-9-]{1,50}$/
/** Medusa's payment session id, and the same id as a shop_orderid. */
const SESSION_ID = /^payses_([A-Za-z0-9]+)$/
const MAPPED_SESSION_ID = /^payses-([A-Za-z0-9]+)$/

/**
 * The shop_orderid a new AltaPay session gets for a Medusa payment session id: `payses_01J...` ->
 * `payses-01J...`; an id that already fits `[a-zA-Z0-9-]{1,50}` stays as it is. Throws for any
 * other id (nothing is sent then).
 */
export function shopOrderIdFor(sessionId: string): string {
  const match = SESSION_ID.exec(sessionId)
  const mapped = match ? `payses-${match[1]}` : sessionId
  if (!SHOP_ORDER_ID.test(mapped)) {
    throw new Error(
      `payment session id "${sessionId.slice(0, 60)}" cannot be AltaPay's shop_orderid, which takes 1-50 letters, digits and '-' (Medusa's payses_<id> is sent as payses-<id>).`
    )
  }
  return mapped
}

/**
 * The Medusa payment session id a shop_orderid names, in either form: `payses-01J...` (sent since
 * this mapping) and `payses_01J...` (sessions created before it); any other id as it is.
 */
export function sessionIdFromOrderId(shopOrderId: string): string {
  const match = MAPPED_SESSION_ID.exec(shopOrderId)
  return match ? `payses_${match[1]}` : shopOrderId
}

/**
 * Whether AltaPay's shop_orderid (either form) names this Medusa payment session (given as its id or
 * as its shop_orderid).
 */
export function namesSession(shopOrderId: string | undefined | null, sessionId: string): boolean {
  return typeof shopOrderId === "string" && sessionIdFromOrderId(shopOrderId) === sessionIdFromOrderId(sessionId)
}

/**
 * The shop_orderid to ask AltaPay by for a session: the form its data says it was created with when
 * that names the session (`order_id`, either form), otherwise today's form. Safe on unsealed data:
 * whatever comes back is matched against the session with namesSession.
 */
export function shopOrderIdToAsk(sessionId: string, recordedOrderId?: unknown): string {
  if (typeof recordedOrderId === "string" && namesSession(recordedOrderId, sessionId)) return recordedOrderId
  try {
    return shopOrderIdFor(sessionId)
  } catch {
    return sessionId
  }
}
