/**
 * Capturing an order's items (the admin's "Capture items", and captures on fulfillment): the
 * items' lines as AltaPay reserved them, captured through Medusa's capture workflow so that
 * Medusa's captured total and AltaPay's agree. Planned and run under the payment's lock, so each
 * capture sees what the one before took.
 */
import type { MedusaContainer } from "@medusajs/framework/types"
import { MedusaError } from "@medusajs/framework/utils"
import { AltaPayValidationError, ItemCaptureError, minorToDecimal, orderLinesTotalMinor, planItemCapture, reservedLines, type ItemCapturePlan, type OrderLine } from "../../altapay"
import { captureAltaPayItemsWorkflow } from "../../workflows/capture-altapay-items"
import { loadAltaPayPayment, type AltaPayPayment } from "../medusa-mapping/altapay-payment"
import { loadOrderDue, nothingDue } from "../medusa-mapping/amount-due"
import type { TrackingInfo } from "../payment-data/data"
import { newestPaymentData, paymentDataAccess, withPaymentLock } from "../payment-data/writer"
import { altapayFromConfig } from "../registrations/from-config"
import { insteadOfItemCapture, itemCaptureBasis, wholeItemsOnly } from "./basis"

export interface ItemCaptureRequest {
  items: Array<{ line_item_id: string; quantity: number }>
  shipping?: boolean
}

export interface ItemCapturePreview {
  amount_minor: number
  currency_code: string
  order_lines: OrderLine[]
  items: Array<{ line_item_id: string; quantity: number }>
  /** True when this capture takes everything left of the reservation. */
  final: boolean
}

/** What can be captured by item now (for the admin's drawer). */
export interface ItemCaptureState {
  /** False when item captures cannot be used for this payment; `reason` says why and what to do instead. */
  available: boolean
  reason?: string
  /** Invoice-like payments (Klarna, invoice): only whole order lines can be captured (no partial quantities). */
  whole_items_only: boolean
  items: Array<{ line_item_id: string; title: string; quantity: number; captured_quantity: number }>
  shipping: { captured: boolean; amount_minor: number } | null
  /** What is left to capture: the payment's uncaptured amount, no more than its order still owes. */
  remaining_minor: number
}

export interface ItemCaptureOptions {
  capturedBy?: string
  /** The Medusa fulfillment the capture is for: a fulfillment is captured once, ever. */
  fulfillmentId?: string
  trackingInfo?: TrackingInfo[]
}

/**
 * What the payment's order still owes (Medusa's pending difference, never less than 0, as
 * amount-due.ts reads it), in minor units: no more than this is offered for capture. Undefined for
 * a payment of no order.
 */
export async function orderOwesMinor(scope: MedusaContainer, payment: Pick<AltaPayPayment, "order">): Promise<number | undefined> {
  return payment.order ? (await loadOrderDue(scope, payment.order.id)).dueMinor : undefined
}

export async function itemCaptureState(scope: MedusaContainer, paymentId: string): Promise<ItemCaptureState> {
  const payment = await loadAltaPayPayment(scope, paymentId)
  const { options } = altapayFromConfig(scope, payment.provider_id)
  const whole = wholeItemsOnly(payment.data, options)
  const due = payment.order ? await loadOrderDue(scope, payment.order.id) : undefined
  // No more than the order still owes: after an edit lowered it, the rest of the reservation is not to be captured.
  const remaining = Math.min(Math.max(payment.data.amount_minor - payment.captured_minor, 0), due?.dueMinor ?? Infinity)
  const refusal =
    stateRefusal(payment) ??
    (due && due.dueMinor <= 0 ? `${nothingDue(due)} Nothing more is to be captured on payment ${payment.id}; what AltaPay still reserves lapses by itself.` : undefined)
  const basis = itemCaptureBasis(payment.order, payment.data)
  if (!basis.ok || refusal) {
    const reason = refusal ?? (basis.ok ? "" : `${sentence(basis.reason)} ${insteadOfItemCapture(basis, payment.data, whole)}`.trim())
    return { available: false, reason, whole_items_only: whole, items: [], shipping: null, remaining_minor: remaining }
  }
  const shipping = basis.map.entries.filter((e) => e.kind === "shipping")
  return {
    available: true,
    whole_items_only: whole,
    items: basis.map.entries
      .filter((e) => e.kind === "item")
      .map((e) => ({ line_item_id: e.id, title: e.title, quantity: e.quantity, captured_quantity: basis.captured.units.get(e.id) ?? 0 })),
    shipping:
      shipping.length === 0
        ? null
        : {
            captured: shipping.every((e) => (basis.captured.units.get(e.id) ?? 0) > 0),
            amount_minor: orderLinesTotalMinor(shipping.flatMap(reservedLines)),
          },
    remaining_minor: remaining,
  }
}

export async function previewAltaPayItemCapture(scope: MedusaContainer, paymentId: string, request: ItemCaptureRequest): Promise<ItemCapturePreview> {
  const payment = await loadAltaPayPayment(scope, paymentId)
  return preview(payment, planFor(scope, payment, request))
}

/** Captures the items through Medusa's capture workflow with their reserved AltaPay lines. */
export async function captureAltaPayItems(
  scope: MedusaContainer,
  paymentId: string,
  request: ItemCaptureRequest,
  opts: ItemCaptureOptions = {}
): Promise<ItemCapturePreview & { capture_id: string | null }> {
  const unlocked = await loadAltaPayPayment(scope, paymentId)
  const access = paymentDataAccess(scope, unlocked.provider_id)
  if (!unlocked.data.transaction_id) throw new MedusaError(MedusaError.Types.NOT_ALLOWED, `Payment ${paymentId} has not been paid at AltaPay yet.`)
  return withPaymentLock(access, unlocked.data.transaction_id, async () => {
    const loaded = await loadAltaPayPayment(scope, paymentId)
    // The newest captures decide what is left: Medusa may not have stored the last answer yet.
    const payment: AltaPayPayment = { ...loaded, data: await newestPaymentData(access, paymentId, loaded.raw_data) }
    if (opts.fulfillmentId && payment.data.captures.some((c) => c.fulfillment_id === opts.fulfillmentId && c.status !== "failed")) {
      throw new MedusaError(MedusaError.Types.NOT_ALLOWED, `Fulfillment ${opts.fulfillmentId} of payment ${paymentId} was captured before; nothing was sent twice.`)
    }
    const plan = planFor(scope, payment, request)
    // The capture that takes the rest asks Medusa for exactly its rest (Medusa keeps amounts beyond the currency's digits).
    const amount = plan.final ? payment.uncaptured_exact : minorToDecimal(plan.amountMinor, payment.currency_code)
    const { result } = await captureAltaPayItemsWorkflow(scope).run({
      input: {
        payment_id: paymentId,
        amount,
        pending_capture: {
          amount_minor: plan.amountMinor,
          order_lines: plan.lines,
          items: plan.items,
          ...(opts.fulfillmentId ? { fulfillment_id: opts.fulfillmentId } : {}),
          ...(opts.trackingInfo?.length ? { tracking_info: opts.trackingInfo } : {}),
          requested_at: new Date().toISOString(),
        },
        captured_by: opts.capturedBy,
      },
    })
    const captures = (result as { captures?: Array<{ id: string; created_at?: string | Date } | null> } | undefined)?.captures ?? []
    const newest = captures
      .filter((c): c is { id: string; created_at?: string | Date } => !!c)
      .sort((a, b) => String(a.created_at ?? "").localeCompare(String(b.created_at ?? "")))
      .pop()
    return { ...preview(payment, plan), capture_id: newest?.id ?? null }
  })
}

function planFor(scope: MedusaContainer, payment: AltaPayPayment, request: ItemCaptureRequest): ItemCapturePlan {
  const refusal = stateRefusal(payment)
  if (refusal) throw new MedusaError(MedusaError.Types.NOT_ALLOWED, refusal)
  const basis = itemCaptureBasis(payment.order, payment.data)
  const { options } = altapayFromConfig(scope, payment.provider_id)
  if (!basis.ok) {
    const instead = insteadOfItemCapture(basis, payment.data, wholeItemsOnly(payment.data, options))
    throw new MedusaError(MedusaError.Types.NOT_ALLOWED, `Payment ${payment.id} cannot be captured by item: ${basis.reason}. ${instead}`.trim())
  }
  try {
    const plan = planItemCapture({
      map: basis.map,
      captured: basis.captured,
      request,
      wholeItemsOnly: wholeItemsOnly(payment.data, options),
      currency: payment.currency_code.toUpperCase(),
    })
    const left = payment.data.amount_minor - payment.captured_minor
    if (plan.amountMinor > left) {
      const fmt = (minor: number) => `${minorToDecimal(minor, payment.currency_code)} ${payment.currency_code.toUpperCase()}`
      throw new MedusaError(
        MedusaError.Types.NOT_ALLOWED,
        `These items come to ${fmt(plan.amountMinor)}, more than the ${fmt(Math.max(left, 0))} left to capture on payment ${payment.id}.`
      )
    }
    return plan
  } catch (error) {
    if (error instanceof ItemCaptureError) throw new MedusaError(MedusaError.Types.INVALID_DATA, error.message)
    if (error instanceof AltaPayValidationError) throw new MedusaError(MedusaError.Types.INVALID_DATA, `Payment ${payment.id} cannot be captured by item: ${error.message}`)
    throw error
  }
}

/** Why nothing can be captured now, or undefined. */
function stateRefusal(payment: AltaPayPayment): string | undefined {
  if (!payment.data.transaction_id) return `Payment ${payment.id} has not been paid at AltaPay yet.`
  if (payment.canceled_at) return `Payment ${payment.id} was canceled.`
  if (payment.captured_minor >= payment.data.amount_minor) return `Payment ${payment.id} is captured in full.`
  return undefined
}

function preview(payment: AltaPayPayment, plan: ItemCapturePlan): ItemCapturePreview {
  return { amount_minor: plan.amountMinor, currency_code: payment.currency_code, order_lines: plan.lines, items: plan.items, final: plan.final }
}

const sentence = (text: string): string => (text ? `${text[0].toUpperCase()}${text.slice(1)}.` : text)
