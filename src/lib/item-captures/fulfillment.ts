/**
 * Capture on fulfillment or shipment (registration option captureOn): what a Medusa fulfillment
 * took out of the warehouse is captured by item, with shipping on the first capture and the
 * fulfillment's tracking labels as AltaPay trackingInfo. Invoice payments (Klarna) capture an item
 * once all its units are fulfilled: their captures take whole reserved lines only.
 */
import type { Logger, MedusaContainer } from "@medusajs/framework/types"
import { ContainerRegistrationKeys, MathBN } from "@medusajs/framework/utils"
import type { BigNumberInput } from "@medusajs/framework/types"
import { loadAltaPayPayment, type AltaPayPayment } from "../medusa-mapping/altapay-payment"
import type { TrackingInfo } from "../payment-data/data"
import { altapayFromConfig, altapayProviderIds } from "../registrations/from-config"
import type { AltaPayOptions } from "../registrations/options"
import { heldForReview } from "../fraud/policy"
import { changingOrderMoney, ORDER_MONEY_WAIT_MS } from "../follow-up/medusa-lock"
import { capturedSoFar, itemCaptureBasis, wholeItemsOnly } from "./basis"
import { captureAltaPayItems, type ItemCaptureRequest } from "./capture-items"

export type CaptureTrigger = Exclude<AltaPayOptions["captureOn"], "manual">

interface FulfillmentRow {
  id: string
  canceled_at?: string | Date | null
  provider_id?: string | null
  items?: Array<{ line_item_id?: string | null; quantity?: BigNumberInput | null } | null> | null
  labels?: Array<{ tracking_number?: string | null; tracking_url?: string | null } | null> | null
}

interface OrderRow {
  id: string
  items?: Array<{ id: string; quantity?: BigNumberInput | null; detail?: { fulfilled_quantity?: BigNumberInput | null } | null } | null> | null
  payment_collections?: Array<{ payments?: Array<{ id: string; provider_id: string; canceled_at?: unknown } | null> | null } | null> | null
}

/** Captures what fulfillment `fulfillmentId` sent, on each AltaPay payment of its order whose registration captures on `trigger`. */
export async function captureFulfillment(container: MedusaContainer, fulfillmentId: string, trigger: CaptureTrigger, logger?: Logger): Promise<void> {
  const query = container.resolve(ContainerRegistrationKeys.QUERY)
  const altapay = new Set(altapayProviderIds(container))
  const { data: links } = await query.graph({ entity: "order_fulfillment", fields: ["order_id"], filters: { fulfillment_id: fulfillmentId } })
  const orderId = (links[0] as { order_id?: string } | undefined)?.order_id
  if (!orderId || altapay.size === 0) return
  const { data: orders } = await query.graph({
    entity: "order",
    fields: [
      "id",
      "items.id",
      "items.quantity",
      "items.detail.fulfilled_quantity",
      "items.detail.quantity",
      "payment_collections.payments.id",
      "payment_collections.payments.provider_id",
      "payment_collections.payments.canceled_at",
    ],
    filters: { id: orderId },
  })
  const order = orders[0] as OrderRow | undefined
  // Only payments whose registration captures on this trigger: the others take no lock and wait for nothing.
  const payments = (order?.payment_collections ?? [])
    .flatMap((c) => c?.payments ?? [])
    .filter((p): p is { id: string; provider_id: string } => !!p && altapay.has(p.provider_id) && !p.canceled_at)
    .flatMap((p) => {
      const { options } = altapayFromConfig(container, p.provider_id)
      return options.captureOn === trigger && !options.autoCapture ? [{ id: p.id, options }] : []
    })
  if (!order || payments.length === 0) return
  const { data: fulfillments } = await query.graph({
    entity: "fulfillment",
    fields: ["id", "canceled_at", "provider_id", "items.line_item_id", "items.quantity", "labels.tracking_number", "labels.tracking_url"],
    filters: { id: fulfillmentId },
  })
  const fulfillment = fulfillments[0] as FulfillmentRow | undefined
  if (!fulfillment || fulfillment.canceled_at) return

  // One change of the order's money at a time: a Capture pressed meanwhile waits, and books its own amount (order-money-lock.ts).
  const captureEach = async () => {
    for (const { id, options } of payments) await captureOnPayment(container, { id, options, order, fulfillment, logger })
    return true
  }
  if (!(await changingOrderMoney(container, orderId, captureEach, false))) {
    logger?.warn(
      `AltaPay: fulfillment ${fulfillmentId} of order ${orderId} was not captured: another capture, refund or cancel of the order was still running after ${ORDER_MONEY_WAIT_MS / 1000} s. Capture it from the order page ("Capture items").`
    )
  }
}

interface CaptureOnPayment {
  id: string
  options: AltaPayOptions
  order: OrderRow
  fulfillment: FulfillmentRow
  logger?: Logger
}

/** Captures what the fulfillment sent on payment `id`, read under the order's lock; a failure is logged with what to do. */
async function captureOnPayment(container: MedusaContainer, { id, options, order, fulfillment, logger }: CaptureOnPayment): Promise<void> {
  const fulfillmentId = fulfillment.id
  const payment = await loadAltaPayPayment(container, id)
  if (payment.data.captures.some((c) => c.fulfillment_id === fulfillmentId && c.status !== "failed")) return // a repeated event
  const held = heldForReview(payment.data)
  if (held) {
    logger?.warn(
      `AltaPay: fulfillment ${fulfillmentId} of order ${order.id} was not captured on payment ${id}: the payment is held for review (${held}). Approve it in the order's AltaPay panel, then capture what was sent ("Capture items").`
    )
    return
  }
  const request = requestFor(payment, order, fulfillment, wholeItemsOnly(payment.data, options))
  if (!request) return
  try {
    const capture = await captureAltaPayItems(container, id, request, { fulfillmentId, trackingInfo: trackingOf(fulfillment) })
    logger?.info(`AltaPay: captured ${capture.amount_minor} minor units of payment ${id} for fulfillment ${fulfillmentId} (order ${order.id}).`)
  } catch (error) {
    // A payment that cannot be captured by item says what to do instead in the error itself.
    const advice = itemCaptureBasis(payment.order, payment.data).ok ? ' Capture it from the order page ("Capture items").' : ""
    logger?.warn(`AltaPay: fulfillment ${fulfillmentId} of order ${order.id} was not captured on payment ${id}: ${error instanceof Error ? error.message : String(error)}${advice}`)
  }
}

/** The units to capture: the fulfillment's, less what was captured; invoice payments only items now wholly fulfilled. */
function requestFor(payment: AltaPayPayment, order: OrderRow, fulfillment: FulfillmentRow, wholeOnly: boolean): ItemCaptureRequest | undefined {
  const captured = capturedSoFar(payment.data)
  if (typeof captured === "string" || payment.canceled_at || payment.captured_minor >= payment.data.amount_minor) return undefined
  const orderItems = new Map((order.items ?? []).flatMap((item) => (item ? [[item.id, item] as const] : [])))
  const units = (value: BigNumberInput | null | undefined) => Number(MathBN.convert(value ?? 0).toFixed(0))
  const items: ItemCaptureRequest["items"] = []
  for (const row of fulfillment.items ?? []) {
    const item = row?.line_item_id ? orderItems.get(row.line_item_id) : undefined
    if (!row || !item) continue
    const ordered = units(item.quantity)
    const left = ordered - (captured.units.get(item.id) ?? 0)
    if (left <= 0) continue
    if (wholeOnly) {
      // Klarna takes an item's reserved lines whole: it waits until all its units are fulfilled.
      if (left === ordered && units(item.detail?.fulfilled_quantity) >= ordered) items.push({ line_item_id: item.id, quantity: ordered })
    } else items.push({ line_item_id: item.id, quantity: Math.min(units(row.quantity), left) })
  }
  const merged = mergeItems(items)
  return merged.length > 0 ? { items: merged, shipping: true } : undefined
}

/** A fulfillment can list one item on several rows (from several locations). */
function mergeItems(items: ItemCaptureRequest["items"]): ItemCaptureRequest["items"] {
  const total = new Map<string, number>()
  for (const { line_item_id, quantity } of items) total.set(line_item_id, (total.get(line_item_id) ?? 0) + quantity)
  return [...total].map(([line_item_id, quantity]) => ({ line_item_id, quantity }))
}

function trackingOf(fulfillment: FulfillmentRow): TrackingInfo[] {
  return (fulfillment.labels ?? []).flatMap((label) =>
    label?.tracking_number || label?.tracking_url
      ? [
          {
            ...(label.tracking_number ? { trackingNumber: label.tracking_number } : {}),
            ...(label.tracking_url ? { trackingUri: label.tracking_url } : {}),
            ...(fulfillment.provider_id ? { companyName: fulfillment.provider_id } : {}),
          },
        ]
      : []
  )
}
