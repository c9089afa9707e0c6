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
  agreementOrderId?: string
  /** The kept reservation an order edit's session carries: AltaPay's shop_orderid it is listed under, and its transaction. */
  carried?: { altapayOrderId: string; transactionId: string }
}

export async function sessionPayment(client: AltaPayClient, session: SessionAtAltaPay): Promise<GatewayTransaction | undefined> {
  if (session.carried) {
    const { altapayOrderId, transactionId } = session.carried
    return (await client.gateway.payments({ shopOrderId: altapayOrderId })).find((t) => t.transactionId === transactionId && t.shopOrderId === altapayOrderId)
  }
  if (session.agreementOrderId) return chargeForSession(session.sessionId, await client.gateway.payments({ shopOrderId: session.agreementOrderId }))
  return transactionForOrder(session.sessionId, await client.gateway.payments({ shopOrderId: session.shopOrderId }))
}

/**
 * Where to ask for a session Medusa still has, from its data. Unsealed data only says where to ask
 * (what comes back must name the session); a carried reservation names another session's payment,
 * so it is asked for only when the provider provably wrote that data for this very session.
 */
export function sessionAtAltaPay(session: { id: string; data?: Record<string, unknown> | null }, keys: ServerKeys): SessionAtAltaPay {
  const asked: SessionAtAltaPay = {
    sessionId: session.id,
    shopOrderId: shopOrderIdToAsk(session.id, session.data?.order_id),
    agreementOrderId: savedCardAgreementOrder(session.data),
  }
  const carried = session.data?.order_edit ? provenSessionData(session, keys) : undefined
  const from = carried?.order_edit?.carried
  return from && carried.transaction_id ? { ...asked, carried: { altapayOrderId: from.altapay_order_id, transactionId: carried.transaction_id } } : asked
}

/** Where a saved card's charge for the session is listed (its agreement's shop_orderid), once authorization tried it. */
function savedCardAgreementOrder(data: Record<string, unknown> | null | undefined): string | undefined {
  const agreement = data?.agreement as { mode?: unknown; agreement_order_id?: unknown } | undefined
  return agreement?.mode === "saved_card" && typeof agreement.agreement_order_id === "string" ? agreement.agreement_order_id : undefined
}

/** The shop_orderid of an agreement's set-up (its id is the set-up transaction's), or undefined when AltaPay has no such agreement. */
export async function agreementOrderIdOf(client: AltaPayClient, agreementId: string): Promise<string | undefined> {
  return (await client.gateway.payments({ transactionId: agreementId })).find((t) => t.transactionId === agreementId)?.shopOrderId
}
