/**
 * What an order still waits to be paid, and the payment collection it is paid into: the order's
 * unpaid collection (Medusa opens one for the difference of an order edit, claim or exchange), or
 * a new one for the order summary's pending difference. Payment links and merchant-started
 * charges on a saved card both pay it, with the order's lines when they pay the whole order, else
 * one line for the amount due.
 */
import type { MedusaContainer } from "@medusajs/framework/types"
import { ContainerRegistrationKeys, MedusaError } from "@medusajs/framework/utils"
import { createOrderPaymentCollectionWorkflow } from "@medusajs/medusa/core-flows"
import { minorToNumber, proportionalAdjustmentLine, type OrderLine } from "../../altapay"
import { toMinorUnits } from "./amounts"
import { cartOrderLines } from "./cart-lines"
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
  /** The collection the order waits on, when Medusa opened one. */
  collection?: DueCollectionRow
  /** Its amount, else the summary's pending difference (0 when nothing is due), in minor units. */
  dueMinor: number
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
  const query = container.resolve(ContainerRegistrationKeys.QUERY)
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
  const dueMinor = collection ? toMinorUnits(collection.amount, order.currency_code) : Math.max(toMinorUnits(order.summary?.pending_difference ?? 0, order.currency_code), 0)
  return {
    order,
    name: order.display_id ? `#${order.display_id}` : order.id,
    collection,
    dueMinor,
    awaitingCapture: !collection && collections.some((c) => RESERVED.has(c.status)),
  }
}

/** The order's unpaid collection, or a new one for the amount due (which must be more than 0). */
export async function dueCollection(container: MedusaContainer, due: OrderDue): Promise<DueCollectionRow> {
  if (due.collection) return due.collection
  const { order } = due
  const { result } = await createOrderPaymentCollectionWorkflow(container).run({ input: { order_id: order.id, amount: minorToNumber(due.dueMinor, order.currency_code) } })
  const created = result[0]
  return { id: created.id, status: created.status, amount: created.amount as Amount, currency_code: created.currency_code, payment_sessions: [] }
}

/** The whole order's lines when the payment is for the whole order, else one line for the amount due, split like the order's net and tax. */
export function dueOrderLines(order: OrderForLines, amountMinor: number, options: { productUrlTemplate?: string }): OrderLine[] {
  const name = order.display_id ? `#${order.display_id}` : order.id
  const totalMinor = toMinorUnits(order.total ?? 0, order.currency_code)
  const lines = cartOrderLines(order, { productUrlTemplate: options.productUrlTemplate }, Math.max(totalMinor, 0))
  if (totalMinor === amountMinor) return lines
  return proportionalAdjustmentLine(lines, amountMinor, { itemId: `due-${order.display_id ?? order.id}`, description: `Amount due on order ${name}` })
}
