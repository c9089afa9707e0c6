/**
 * An order edit before anything is captured, for an invoice payment (Klarna). Medusa, confirming an
 * edit that changes the total of an order whose payment is authorized, cancels that payment and asks
 * a new payment collection for the edited total (core-flows createOrUpdateOrderPaymentCollection;
 * medusajs/medusa#14984): left alone, the provider's cancel releases the reservation and the customer
 * must pay again. For an invoice reservation the plugin keeps it true to the order instead:
 *
 * 1. the provider's cancel, when it is that edit's (orderEditBehindCancel), lowers the reservation to
 *    the edited order's total and lines with AltaPay's updateOrder (its updateOrder page: the new
 *    gross amount and the order lines, which replace the reserved ones; "only relevant for invoice
 *    payment methods such as KlarnaPayments"), through the money door, and keeps it (`order_edit.kept`);
 * 2. on `order-edit.confirmed` the kept reservation becomes the payment of Medusa's new collection
 *    (carryKeptReservations): a session naming the canceled payment, authorized by Medusa's
 *    processPaymentWorkflow once the provider has checked AltaPay's record (providers/altapay/order-edit.ts);
 * 3. should the merchant cancel the order instead, `order.canceled` releases what an edit kept
 *    (kept-on-canceled-order.ts).
 *
 * Card reservations are left to Medusa (released; the customer pays the new total, e.g. a payment link).
 */
import type { Logger, MedusaContainer, RemoteQueryFunction } from "@medusajs/framework/types"
import { ContainerRegistrationKeys, PaymentActions } from "@medusajs/framework/utils"
import { createPaymentSessionsWorkflow, processPaymentWorkflow } from "@medusajs/medusa/core-flows"
import { buildOrderLineSet, type OrderLine } from "../../altapay"
import { toMinorUnits } from "../medusa-mapping/amounts"
import { cartToLineSource } from "../medusa-mapping/cart-lines"
import { medusaSession } from "../medusa-mapping/medusa-session"
import { orderOfCollection, type OrderForLines } from "../medusa-mapping/order-of-session"
import { openPaymentData, provenSessionData } from "../payment-data/data"
import { altapayFromConfig, altapayProviderIds } from "../registrations/from-config"
import { serverKeys } from "../registrations/server-keys"
import { paymentOf, sessionsOf } from "../saved-cards/merchant-charge/record"
import type { SharedStore } from "../scale-out/shared-state"
import { AttemptBook } from "../money-door/attempts"

type Query = Pick<RemoteQueryFunction, "graph">

/** How long after an edit's confirmation a cancel of the order's payment counts as Medusa's answer to it. */
const EDIT_WINDOW_MS = 10 * 60 * 1000
/** How long the follow-up's mark may outlive its cancel (a crash between): a merchant's cancel after it releases. */
const FINISHING_TTL_SECONDS = 120

const finishingKey = (transactionId: string) => `altapay:order-edit-finishing:${transactionId}`

/**
 * Runs `cancel` (Medusa's cancel of the payment holding `transactionId`) as the follow-up's completion
 * of an order edit whose reservation update failed (lib/follow-up/uncertain-order-edit.ts): the
 * provider keeps the reservation for an edit to `totalMinor` however long ago it was confirmed. Any
 * other cancel past the window (the merchant's cancel of the order) releases it.
 */
export async function whileFinishingEdit<T>(cache: SharedStore | undefined, transactionId: string, totalMinor: number, cancel: () => Promise<T>): Promise<T> {
  const store = markStore(cache)
  await store.set(finishingKey(transactionId), totalMinor, FINISHING_TTL_SECONDS)
  try {
    return await cancel()
  } finally {
    await store.delete(finishingKey(transactionId)).catch(() => undefined)
  }
}

/** The edited total the follow-up's cancel of `transactionId` completes, while it runs (whileFinishingEdit). */
export const finishingEditTotal = (cache: SharedStore | undefined, transactionId: string): Promise<number | undefined> => markStore(cache).get<number>(finishingKey(transactionId))

/** Where the mark is kept: the door's store, Medusa's cache (every server) or, without one, this process's. */
const markStore = (cache: SharedStore | undefined): SharedStore => new AttemptBook(cache).store

/** Medusa's collection statuses that still wait for a payment. */
const AWAITING = new Set(["not_paid", "awaiting"])

export interface EditBehindCancel {
  order: OrderForLines & { id: string }
  /** The collection Medusa created for the edited total. */
  collectionId: string
  totalMinor: number
}

const time = (value: unknown): number => (value ? new Date(value as string).getTime() : NaN)

/**
 * Whether Medusa cancels the payment of session `sessionId` because an edit of its order was just
 * confirmed: the order (not canceled) has an edit confirmed within the last minutes, and another
 * collection, made since, waiting for exactly the order's new total. A merchant's cancel of the order
 * has neither. Past the window it counts only for the follow-up completing that edit, when the order's
 * new total is `finishingTotal` (whileFinishingEdit).
 */
export async function orderEditBehindCancel(
  query: Query,
  sessionId: string,
  currency: string,
  { now = Date.now(), finishingTotal }: { now?: number; finishingTotal?: number } = {}
): Promise<EditBehindCancel | undefined> {
  const session = await medusaSession(query, sessionId)
  if (!session?.collectionId) return undefined
  const order = await orderOfCollection(query, session.collectionId)
  if (!order?.id || order.status === "canceled") return undefined
  const { data: changes } = await query.graph({
    entity: "order_change",
    fields: ["id", "confirmed_at"],
    filters: { order_id: order.id, change_type: "edit", status: "confirmed" },
  })
  const confirmedAt = Math.max(-Infinity, ...(changes as Array<{ confirmed_at?: unknown }>).map((c) => time(c.confirmed_at)).filter(Number.isFinite))
  const late = now - confirmedAt > EDIT_WINDOW_MS
  if (!Number.isFinite(confirmedAt) || (late && finishingTotal === undefined)) return undefined
  const { data: links } = await query.graph({ entity: "order_payment_collection", fields: ["payment_collection_id"], filters: { order_id: order.id } })
  const others = (links as Array<{ payment_collection_id?: string }>).map((l) => l.payment_collection_id).filter((id): id is string => !!id && id !== session.collectionId)
  if (others.length === 0) return undefined
  const { data: collections } = await query.graph({ entity: "payment_collection", fields: ["id", "status", "amount", "created_at"], filters: { id: others } })
  const totalMinor = toMinorUnits(order.total ?? 0, currency)
  if (late && finishingTotal !== totalMinor) return undefined
  const fresh = (collections as Array<{ id: string; status: string; amount: Parameters<typeof toMinorUnits>[0]; created_at?: unknown }>).find(
    (c) => AWAITING.has(c.status) && toMinorUnits(c.amount, currency) === totalMinor && time(c.created_at) >= confirmedAt - 60_000
  )
  return fresh && totalMinor > 0 ? { order: order as EditBehindCancel["order"], collectionId: fresh.id, totalMinor } : undefined
}

/** The edited order's lines, for AltaPay's updateOrder: its items still ordered, its shipping, for exactly `totalMinor`. */
export function editedOrderLines(order: OrderForLines, totalMinor: number, productUrlTemplate?: string): OrderLine[] {
  const ordered = { ...order, items: (order.items ?? []).filter((item) => item && Number(item.quantity) > 0) }
  return buildOrderLineSet(cartToLineSource(ordered, totalMinor, { productUrlTemplate })).lines
}

/** The context of the session that carries a kept reservation: the payment it came from (a browser cannot set a session's context). */
export const carriedReservationContext = (fromPaymentId: string) => ({ altapay: { carried_reservation: { payment_id: fromPaymentId } } })

/** `context.altapay.carried_reservation.payment_id`, when the session carries a kept reservation. */
export function carriedReservationIn(context: unknown): string | undefined {
  const id = (context as { altapay?: { carried_reservation?: { payment_id?: unknown } } } | undefined)?.altapay?.carried_reservation?.payment_id
  return typeof id === "string" && id ? id : undefined
}

interface PaymentRow {
  id: string
  provider_id: string
  canceled_at?: unknown
  data?: Record<string, unknown> | null
}

interface CollectionRow {
  id: string
  status: string
  payments?: Array<PaymentRow | null> | null
}

/**
 * After Medusa confirmed an edit of order `orderId`: each AltaPay reservation the provider kept for
 * it (a canceled payment whose data says `order_edit.kept`) is recorded as the payment of the new
 * collection. Safe to repeat: a session already carrying it is used, not another. Returns how many
 * kept reservations pay their collection now.
 */
export async function carryKeptReservations(container: MedusaContainer, orderId: string, logger?: Pick<Logger, "info" | "warn">): Promise<number> {
  const query = container.resolve(ContainerRegistrationKeys.QUERY)
  const altapay = new Set(altapayProviderIds(container))
  const { data } = await query.graph({
    entity: "order",
    fields: [
      "id",
      "payment_collections.id",
      "payment_collections.status",
      "payment_collections.payments.id",
      "payment_collections.payments.provider_id",
      "payment_collections.payments.canceled_at",
      "payment_collections.payments.data",
    ],
    filters: { id: orderId },
  })
  const collections = ((data[0] as { payment_collections?: Array<CollectionRow | null> | null } | undefined)?.payment_collections ?? []).filter((c): c is CollectionRow => !!c)
  // A reservation kept by an earlier edit was carried then; its collection no longer waits.
  const waiting = new Set(collections.filter((c) => AWAITING.has(c.status)).map((c) => c.id))
  const payments = collections.flatMap((c) => c.payments ?? []).filter((p): p is PaymentRow => !!p && altapay.has(p.provider_id) && !!p.canceled_at)
  let carried = 0
  for (const payment of payments) {
    const { options, scaleOut } = altapayFromConfig(container, payment.provider_id)
    const keys = serverKeys(options, "payment-data-seal")
    const opened = openPaymentData(payment.data, keys)
    if (!opened.sealed) continue
    const from = opened.data
    const kept = from.order_edit?.kept
    if (!kept || from.order_edit?.order_id !== orderId || !waiting.has(kept.payment_collection_id)) continue
    await scaleOut.paymentLock(`altapay:order-edit:${orderId}`, async () => {
      const sessions = await sessionsOf(container, kept.payment_collection_id)
      let session = sessions.find((s) => s.provider_id === payment.provider_id && provenSessionData(s, keys)?.order_edit?.carried?.from_payment_id === payment.id)
      if (!session) {
        const { result } = await createPaymentSessionsWorkflow(container).run({
          input: { payment_collection_id: kept.payment_collection_id, provider_id: payment.provider_id, context: carriedReservationContext(payment.id) },
        })
        session = { id: result.id, provider_id: result.provider_id, status: result.status, amount: result.amount, data: result.data }
      }
      if (await paymentOf(container, session.id)) {
        carried++
        return
      }
      const { errors } = await processPaymentWorkflow(container).run({
        input: { action: PaymentActions.AUTHORIZED, data: { session_id: session.id, amount: session.amount } },
        throwOnError: false,
      })
      const recorded = errors.length === 0 && !!(await paymentOf(container, session.id))
      const transaction = from.transaction_id
      if (recorded) {
        carried++
        logger?.info(`AltaPay order edit of ${orderId}: reservation ${transaction} (payment ${payment.id}) now pays collection ${kept.payment_collection_id}.`)
      } else
        logger?.warn(
          `AltaPay order edit of ${orderId}: reservation ${transaction} was updated to ${kept.total_minor} minor units but Medusa did not record it in collection ${kept.payment_collection_id} (${String(errors[0]?.error?.message ?? "no payment made")}). The reservation is kept at AltaPay; the follow-up job records it in that collection once AltaPay confirms it, and tells you if it cannot.`
        )
    })
  }
  return carried
}
