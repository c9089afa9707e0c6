/**
 * Where AltaPay lists a Medusa payment session's payment, for both follow-ups (payment-sessions.ts,
 * stranded-follow-up.ts): under the session's own shop_orderid, or, for a purchase with a saved card,
 * under its agreement's set-up shop_orderid, which every charge on the agreement keeps (api-php
 * reservesubscription.xml); there only the charge whose transaction_info names the session counts.
 */
import type { AltaPayClient, GatewayTransaction } from "../../altapay"
import { chargeForSession, transactionForOrder } from "../medusa-mapping/status"

export interface SessionAtAltaPay {
  sessionId: string
  /** The shop_orderid the session was created with. */
  shopOrderId: string
  /** A saved card's agreement set-up shop_orderid, when the session pays with one. */
  agreementOrderId?: string
}

export async function sessionPayment(client: AltaPayClient, session: SessionAtAltaPay): Promise<GatewayTransaction | undefined> {
  if (session.agreementOrderId) return chargeForSession(session.sessionId, await client.gateway.payments({ shopOrderId: session.agreementOrderId }))
  return transactionForOrder(session.sessionId, await client.gateway.payments({ shopOrderId: session.shopOrderId }))
}

/** The shop_orderid of an agreement's set-up (its id is the set-up transaction's), or undefined when AltaPay has no such agreement. */
export async function agreementOrderIdOf(client: AltaPayClient, agreementId: string): Promise<string | undefined> {
  return (await client.gateway.payments({ transactionId: agreementId })).find((t) => t.transactionId === agreementId)?.shopOrderId
}
