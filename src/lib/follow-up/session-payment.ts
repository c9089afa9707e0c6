/**
 * Where AltaPay lists a Medusa payment session's payment, for both follow-ups (payment-sessions.ts,
 * stranded-follow-up.ts): under the session's own shop_orderid, or, for a purchase with a saved card,
 * under its agreement's set-up shop_orderid, which every charge on the agreement keeps (api-php
 * reservesubscription.xml); there only the charge whose transaction_info names the session counts.
 * A session carrying an order edit's kept reservation (providers/altapay/order-edit.ts) has no
 * payment of its own: AltaPay keeps that reservation under the original session's shop_orderid, and
 * only the carried transaction counts.
 */
import type { AltaPayClient, GatewayTransaction } from "../../altapay"
import { provenSessionData } from "../payment-data/data"
import type { ServerKeys } from "../registrations/server-keys"
import { shopOrderIdToAsk } from "../medusa-mapping/shop-order-id"
import { chargeForSession, transactionForOrder } from "../medusa-mapping/status"

export interface SessionAtAltaPay {
  sessionId: string
  /** The shop_orderid the session was created with. */
  shopOrderId: string
  /** A saved card's agreement set-up shop_orderid, when the session pays with one. */
  agreementOrderId?: string | undefined
  /** A saved card's agreement, when its shop_orderid is not known yet (the charge's answer was lost): AltaPay is asked for it. */
  agreementId?: string | undefined
  /** The kept reservation an order edit's session carries: AltaPay's shop_orderid it is listed under, and its transaction. */
  carried?: { altapayOrderId: string; transactionId: string }
}

export async function sessionPayment(client: AltaPayClient, session: SessionAtAltaPay): Promise<GatewayTransaction | undefined> {
  if (session.carried) {
    const { altapayOrderId, transactionId } = session.carried
    return (await client.gateway.payments({ shopOrderId: altapayOrderId })).find((t) => t.transactionId === transactionId && t.shopOrderId === altapayOrderId)
  }
  const agreementOrderId = session.agreementOrderId ?? (session.agreementId ? await agreementOrderIdOf(client, session.agreementId) : undefined)
  // A saved card's session whose agreement AltaPay no longer has: nothing can have been charged on it.
  if (session.agreementId && !agreementOrderId) return undefined
  if (agreementOrderId) return chargeForSession(session.sessionId, await client.gateway.payments({ shopOrderId: agreementOrderId }))
  return transactionForOrder(session.sessionId, await client.gateway.payments({ shopOrderId: session.shopOrderId }))
}

/**
 * Where to ask for a session Medusa still has, from its data. Unsealed data only says where to ask
 * (what comes back must name the session); a carried reservation names another session's payment,
 * so it is asked for only when the provider provably wrote that data for this very session.
 */
export function sessionAtAltaPay(session: { id: string; data?: Record<string, unknown> | null }, keys: ServerKeys): SessionAtAltaPay {
  const asked: SessionAtAltaPay = { sessionId: session.id, shopOrderId: shopOrderIdToAsk(session.id, session.data?.order_id), ...savedCardAgreement(session.data) }
  const carried = session.data?.order_edit ? provenSessionData(session, keys) : undefined
  const from = carried?.order_edit?.carried
  return from && carried.transaction_id ? { ...asked, carried: { altapayOrderId: from.altapay_order_id, transactionId: carried.transaction_id } } : asked
}

/**
 * Where a saved card's charge for the session is listed: its agreement's shop_orderid once
 * authorization learnt it, else the agreement to ask it of (the data initiatePayment wrote, kept
 * when the charge's answer was lost and authorization threw).
 */
function savedCardAgreement(data: Record<string, unknown> | null | undefined): Pick<SessionAtAltaPay, "agreementOrderId" | "agreementId"> {
  const agreement = data?.agreement as { mode?: unknown; agreement_order_id?: unknown; agreement_id?: unknown } | undefined
  if (agreement?.mode !== "saved_card") return {}
  if (typeof agreement.agreement_order_id === "string") return { agreementOrderId: agreement.agreement_order_id }
  return typeof agreement.agreement_id === "string" ? { agreementId: agreement.agreement_id } : {}
}

/** The shop_orderid of an agreement's set-up (its id is the set-up transaction's), or undefined when AltaPay has no such agreement. */
async function agreementOrderIdOf(client: AltaPayClient, agreementId: string): Promise<string | undefined> {
  return (await client.gateway.payments({ transactionId: agreementId })).find((t) => t.transactionId === agreementId)?.shopOrderId
}
