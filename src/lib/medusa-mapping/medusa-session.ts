/**
 * What Medusa's own records say of one payment session: whether Medusa has it, what it pays for,
 * and whether a Medusa payment came of it. Read before anything is done for a session id that
 * came from outside (a callback, a customer's return, AltaPay's shop_orderid): Medusa's
 * processPaymentWorkflow, given a session id Medusa does not have, looks the cart up with an
 * undefined payment collection id, which matches every row, and would complete a stranger's cart.
 */
import type { RemoteQueryFunction } from "@medusajs/framework/types"

type Query = Pick<RemoteQueryFunction, "graph">

export interface MedusaSession {
  id: string
  status: string | null
  collectionId: string | null
  cartId: string | null
  /** The order a payment link's collection belongs to (no cart). */
  orderId: string | null
  paymentId: string | null
  /** The AltaPay transaction that payment holds (its data, as the provider's authorize wrote it). */
  paymentTransactionId: string | null
}

interface SessionRow {
  id: string
  status?: string | null
  payment?: { id?: string; data?: { transaction_id?: unknown } | null } | null
  payment_collection?: { id?: string; cart?: { id?: string } | null; order?: { id?: string } | null } | null
}

/** The session as Medusa has it, or undefined when Medusa has no such session (never had, or deleted). */
export async function medusaSession(query: Query, sessionId: string): Promise<MedusaSession | undefined> {
  const { data } = await query.graph({
    entity: "payment_session",
    fields: ["id", "status", "payment.id", "payment.data", "payment_collection.id", "payment_collection.cart.id", "payment_collection.order.id"],
    filters: { id: sessionId },
  })
  const row = data[0] as SessionRow | undefined
  if (!row || row.id !== sessionId) return undefined
  const collection = row.payment_collection
  return {
    id: row.id,
    status: row.status ?? null,
    collectionId: collection?.id ?? null,
    cartId: collection?.cart?.id ?? null,
    orderId: collection?.cart?.id ? null : (collection?.order?.id ?? null),
    paymentId: row.payment?.id ?? null,
    paymentTransactionId: typeof row.payment?.data?.transaction_id === "string" ? row.payment.data.transaction_id : null,
  }
}

/** The Medusa payment made from the session (not canceled), also after Medusa deleted the session itself. */
export async function paymentOfSession(query: Query, sessionId: string): Promise<{ id: string; collectionId: string | null } | undefined> {
  const { data } = await query.graph({
    entity: "payment",
    fields: ["id", "payment_session_id", "payment_collection_id", "canceled_at"],
    filters: { payment_session_id: sessionId },
  })
  const row = (data as Array<{ id: string; payment_session_id?: string; payment_collection_id?: string | null; canceled_at?: unknown }>).find(
    (p) => p.payment_session_id === sessionId && !p.canceled_at
  )
  return row ? { id: row.id, collectionId: row.payment_collection_id ?? null } : undefined
}

/** The order a cart became, if it did. */
export async function orderOfCart(query: Query, cartId: string): Promise<string | undefined> {
  const { data } = await query.graph({ entity: "order_cart", fields: ["order_id"], filters: { cart_id: cartId } })
  return (data[0] as { order_id?: string } | undefined)?.order_id ?? undefined
}

/** The customer of the cart a payment session pays for now (a cart may change hands), or null. */
export async function cartCustomerOfSession(query: Query, sessionId: string): Promise<string | null> {
  const { data } = await query.graph({ entity: "payment_session", fields: ["id", "payment_collection.cart.customer_id"], filters: { id: sessionId } })
  const row = data[0] as { id?: string; payment_collection?: { cart?: { customer_id?: string | null } | null } | null } | undefined
  return row?.id === sessionId ? (row.payment_collection?.cart?.customer_id ?? null) : null
}
