/**
 * What an order still waits to be paid (Medusa's own pending difference, read when money moves),
 * and the payment collection it is paid into: the order's unpaid collection (Medusa opens one for
 * the difference of an order edit, claim or exchange) brought to that difference, or a new one. Payment links and merchant-started
 * charges on a saved card both pay it, with the order's lines when they pay the whole order, else
 * one line for the amount due.
 */
import type { MedusaContainer, RemoteQueryFunction } from "@medusajs/framework/types"
import { ContainerRegistrationKeys, MedusaError } from "@medusajs/framework/utils"
import { createOrUpdateOrderPaymentCollectionWorkflow } from "@medusajs/medusa/core-flows"
import { buildOrderLines, minorToDecimal, proportionalAdjustmentLine, sourceTotalMinor, type OrderLine } from "../../altapay"
import { toMinorUnits } from "./amounts"
import { cartOrderLines, cartToLineSource } from "./cart-lines"
import { ORDER_FIELDS_FOR_LINES, type OrderForLines } from "./order-of-session"

type Amount = NonNullable<OrderForLines["total"]>

export interface DueSessionRow {
  id: string
  provider_id: string
  status: string
  amount: Amount
  currency_code: string
  payment_collection_id: string
  data?: Record<string, unknown> | null
}

export interface DueCollectionRow {
  id: string
  status: string
  amount: Amount
  currency_code: string
  payment_sessions?: Array<DueSessionRow | null> | null
}

export interface OrderWithDue extends OrderForLines {
  status?: string
  customer_id?: string | null
  summary?: { pending_difference?: Amount } | null
  payment_collections?: Array<DueCollectionRow | null> | null
}

export interface OrderDue {
  order: OrderWithDue
  /** "#12" (or the order id), for messages. */
  name: string
  /** The collection the order waits on, when Medusa opened one (its amount may be stale: see dueCollection). */
  collection?: DueCollectionRow
  /**
   * Medusa's own pending difference, in minor units, never less than 0: what the order still waits
   * for. Never a collection's amount: Medusa 2.21 leaves an unpaid collection's amount as it was when
   * a later order edit makes the difference negative (the customer is owed money then).
   */
  dueMinor: number
  /** What the customer is owed (a negative pending difference), in minor units; 0 otherwise. */
  owedMinor: number
  /**
   * A collection is authorized but not captured: Medusa's pending difference still counts that
   * money (it counts captures), so it is not due again; capturing it settles the order.
   */
  awaitingCapture: boolean
}

/** Collections an order still waits to be paid on. */
const UNPAID = new Set(["not_paid", "awaiting"])
const RESERVED = new Set(["authorized", "partially_authorized"])

export async function loadOrderDue(container: MedusaContainer, orderId: string): Promise<OrderDue> {
  return orderDue(container.resolve(ContainerRegistrationKeys.QUERY), orderId)
}

/** loadOrderDue with Medusa's `query` (a module's dependency, not the app's container). */
export async function orderDue(query: Pick<RemoteQueryFunction, "graph">, orderId: string): Promise<OrderDue> {
  const { data: orders } = await query.graph({
    entity: "order",
    fields: [
      ...ORDER_FIELDS_FOR_LINES,
      "summary",
      "payment_collections.id",
      "payment_collections.status",
      "payment_collections.amount",
      "payment_collections.currency_code",
      "payment_collections.payment_sessions.id",
      "payment_collections.payment_sessions.provider_id",
      "payment_collections.payment_sessions.status",
      "payment_collections.payment_sessions.amount",
      "payment_collections.payment_sessions.currency_code",
      "payment_collections.payment_sessions.payment_collection_id",
      "payment_collections.payment_sessions.data",
    ],
    filters: { id: orderId },
  })
  const order = orders[0] as OrderWithDue | undefined
  if (!order) throw new MedusaError(MedusaError.Types.NOT_FOUND, `Order ${orderId} was not found.`)
  const collections = (order.payment_collections ?? []).filter((c): c is DueCollectionRow => !!c)
  const collection = collections.find((c) => UNPAID.has(c.status))
  const pendingMinor = toMinorUnits(order.summary?.pending_difference ?? 0, order.currency_code)
  return {
    order,
    name: order.display_id ? `#${order.display_id}` : order.id,
    collection,
    dueMinor: Math.max(pendingMinor, 0),
    owedMinor: Math.max(-pendingMinor, 0),
    awaitingCapture: !collection && collections.some((c) => RESERVED.has(c.status)),
  }
}

/**
 * Why order `due` takes no new payment now, or undefined: it is canceled, or still a draft (Medusa
 * 2.21 edits a draft without an event, so a link sent before would go on asking the old amount, and
 * deletes a draft with its payments left authorized at AltaPay), a payment of it is authorized and
 * waits for its capture (a new collection would cancel that payment, and release the customer's
 * reservation), or nothing is due. `nothingTo` ends the nothing-due reason.
 */
export function refusedNewPayment(due: OrderDue, nothingTo = ""): string | undefined {
  if (due.order.status === "canceled") return `Order ${due.name} is canceled: it takes no payment.`
  if (due.order.status === "draft") {
    return `Order ${due.name} is a draft order: convert it to an order first (Convert to order), then collect the payment. A draft can still be edited or deleted, and a payment taken on it would not follow.`
  }
  if (due.awaitingCapture) return `Order ${due.name} has a payment authorized but not captured: capture it; nothing is collected on top of it.`
  if (due.dueMinor <= 0) return `${nothingDue(due)}${nothingTo ? ` ${nothingTo}` : ""}`
  return undefined
}

/**
 * Why a payment link's session for `amountMinor` no longer fits order `due` ("it is canceled", "56.88
 * DKK is due now"), or undefined: Medusa changes neither the session's amount nor its existence when
 * an order change alters what is due, so such a link is retired, and one paid meanwhile pays nothing.
 */
export function linkNoLongerFits(due: OrderDue, amountMinor: number): string | undefined {
  if (due.order.status === "canceled") return "it is canceled"
  if (due.awaitingCapture) return "a payment of it waits for its capture"
  const currency = due.order.currency_code.toUpperCase()
  return amountMinor === due.dueMinor ? undefined : `${minorToDecimal(due.dueMinor, currency)} ${currency} is due now`
}

/** Why an order with nothing due takes no payment: fully paid, or the customer is owed money. */
export function nothingDue(due: OrderDue): string {
  const currency = due.order.currency_code.toUpperCase()
  return due.owedMinor > 0
    ? `Order ${due.name} has nothing outstanding: the customer is owed ${minorToDecimal(due.owedMinor, currency)} ${currency} (refund it from the order).`
    : `Order ${due.name} has nothing outstanding.`
}

/**
 * The collection that pays what is due now (which must be more than 0): the order's unpaid
 * collection when its amount is the pending difference; else Medusa's own workflow brings the
 * unpaid collection to the pending difference, or opens one for it.
 */
export async function dueCollection(container: MedusaContainer, due: OrderDue): Promise<DueCollectionRow> {
  const { order, collection } = due
  if (collection && toMinorUnits(collection.amount, order.currency_code) === due.dueMinor) return collection
  await createOrUpdateOrderPaymentCollectionWorkflow(container).run({ input: { order_id: order.id } })
  const fresh = await loadOrderDue(container, order.id)
  if (!fresh.collection || toMinorUnits(fresh.collection.amount, order.currency_code) !== fresh.dueMinor) {
    throw new MedusaError(
      MedusaError.Types.UNEXPECTED_STATE,
      `Medusa did not open a payment collection of ${minorToDecimal(fresh.dueMinor, order.currency_code)} for order ${due.name}'s amount due.`
    )
  }
  return fresh.collection
}

/** The whole order's lines when the payment is for the whole order, else one line for the amount due, split like the order's net and tax. */
export function dueOrderLines(order: OrderForLines, amountMinor: number, options: { productUrlTemplate?: string }): OrderLine[] {
  const name = order.display_id ? `#${order.display_id}` : order.id
  const totalMinor = toMinorUnits(order.total ?? 0, order.currency_code)
  if (totalMinor === amountMinor) return cartOrderLines(order, { productUrlTemplate: options.productUrlTemplate }, Math.max(totalMinor, 0))
  // Only the split of net and tax comes from the order's items, as they add up: a received return
  // leaves its items on the order at full quantity while the order's total leaves them out.
  const source = cartToLineSource(order, 0, { productUrlTemplate: options.productUrlTemplate })
  const lines = buildOrderLines({ ...source, totalMinor: sourceTotalMinor(source) })
  return proportionalAdjustmentLine(lines, amountMinor, { itemId: `due-${order.display_id ?? order.id}`, description: `Amount due on order ${name}` })
}
