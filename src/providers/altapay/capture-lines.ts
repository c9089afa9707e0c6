/**
 * The lines a capture sends. Best first: the lines an item capture left for exactly this amount
 * (pending_capture); the reservation's own lines for a capture of everything; the reserved lines
 * of the items the amount is exactly worth; else, for card payments, one proportional line.
 * Invoice payments (Klarna) accept only reserved lines, so an amount that is not whole items is
 * refused before anything reaches AltaPay, with the way that works.
 */
import { MedusaError } from "@medusajs/framework/utils"
import { matchCaptureAmount, minorToDecimal, proportionalAdjustmentLine, type OrderLine } from "../../altapay"
import { insteadOfItemCapture, itemCaptureBasis, wholeItemsOnly } from "../../lib/item-captures/basis"
import { loadOrderOfSession } from "../../lib/medusa-mapping/order-of-session"
import type { AltaPayPaymentData, TrackingInfo } from "../../lib/payment-data/data"
import { sessionIdFromOrderId } from "../../lib/medusa-mapping/shop-order-id"
import type { ProviderContext } from "./context"

export interface CaptureLines {
  lines: OrderLine[]
  items?: Array<{ line_item_id: string; quantity: number }>
  fulfillmentId?: string
  trackingInfo?: TrackingInfo[]
  /** True when the lines came from pending_capture (then cleared). */
  fromPending: boolean
}

export async function captureLines(ctx: ProviderContext, data: AltaPayPaymentData, amountMinor: number): Promise<CaptureLines> {
  const pending = data.pending_capture
  if (pending && pending.amount_minor === amountMinor) {
    return { lines: pending.order_lines, items: pending.items, fulfillmentId: pending.fulfillment_id, trackingInfo: pending.tracking_info, fromPending: true }
  }
  const alreadyCaptured = data.captured_minor ?? 0
  if (alreadyCaptured === 0 && amountMinor === data.amount_minor) return { lines: data.order_lines, fromPending: false }

  const invoice = wholeItemsOnly(data, ctx.options)
  const order = ctx.query ? await loadOrderOfSession(ctx.query, sessionIdFromOrderId(data.order_id)).catch(() => undefined) : undefined
  const basis = itemCaptureBasis(order, data)
  let why = basis.ok ? "" : basis.reason
  if (basis.ok) {
    const match = matchCaptureAmount(basis.map, basis.captured, amountMinor, data.currency)
    if (match.kind === "items") return { lines: match.plan.lines, items: match.plan.items, fromPending: false }
    why =
      match.kind === "ambiguous"
        ? `it is the price of ${match.sets.length === 3 ? "several" : "two"} different sets of the order's items, so which were shipped cannot be told`
        : "it is not the price of whole items of the order"
  }
  if (invoice) {
    const amount = `${minorToDecimal(amountMinor, data.currency)} ${data.currency}`
    const instead =
      insteadOfItemCapture(basis, data, invoice) || `Use "Capture items" on the order page, capture on fulfillment (option captureOn), or capture everything that is left.`
    throw new MedusaError(
      MedusaError.Types.NOT_ALLOWED,
      `AltaPay: this payment (invoice, e.g. Klarna) can only be captured with its order lines exactly as reserved, and a capture of ${amount} cannot be: ${why}. Nothing was sent to AltaPay. ${instead}`
    )
  }
  return {
    lines: proportionalAdjustmentLine(data.order_lines, amountMinor, {
      itemId: alreadyCaptured === 0 ? "capture" : "capture-remaining",
      description: alreadyCaptured === 0 ? "Partial capture" : "Remaining capture",
    }),
    fromPending: false,
  }
}
