/**
 * The order a payment pays for, with the fields the line builder reads: through the payment
 * collection (a cart's, once it became an order, or a payment link's).
 */
import type { RemoteQueryFunction } from "@medusajs/framework/types"
import { CART_FIELDS_FOR_LINES, type CartForLines } from "./cart-lines"
import { medusaSession } from "./medusa-session"

type Query = Pick<RemoteQueryFunction, "graph">

/** Orders carry items, shipping methods and credit lines under the same names as carts. */
// Medusa 2.12 returns order items.quantity only with items.detail.quantity; status tells a canceled order.
export const ORDER_FIELDS_FOR_LINES = [...CART_FIELDS_FOR_LINES, "display_id", "status", "items.detail.quantity"]

export interface OrderForLines extends CartForLines {
  display_id?: number | null
  email?: string | null
  /** "canceled" once the order is canceled. */
  status?: string | null
}

export async function orderOfCollection(query: Query, paymentCollectionId: string): Promise<OrderForLines | undefined> {
  const { data: links } = await query.graph({ entity: "order_payment_collection", fields: ["order_id"], filters: { payment_collection_id: paymentCollectionId } })
  const orderId = (links[0] as { order_id?: string } | undefined)?.order_id
  if (!orderId) return undefined
  const { data: orders } = await query.graph({ entity: "order", fields: ORDER_FIELDS_FOR_LINES, filters: { id: orderId } })
  return orders[0] as OrderForLines | undefined
}

/** The order of payment session `sessionId`, or undefined (no such session, or no order yet). */
export async function loadOrderOfSession(query: Query, sessionId: string): Promise<OrderForLines | undefined> {
  const session = await medusaSession(query, sessionId)
  return session?.collectionId ? orderOfCollection(query, session.collectionId) : undefined
}
