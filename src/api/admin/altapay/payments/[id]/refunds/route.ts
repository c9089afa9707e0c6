/**
 * POST /admin/altapay/payments/:id/refunds  { items: [{ line_item_id, quantity }], shipping?, note?, return_fee? }
 *
 * Refunds order items through AltaPay with their exact lines (their tax, their share of
 * promotions) and through Medusa's refund workflow, so Medusa's refund and order records match.
 * On a Klarna (invoice) payment the shop may keep a return fee, as AltaPay documents it: AltaPay
 * deducts it from the goods, and Medusa records what the customer gets back, the goods less the fee.
 * The whole request runs under the payment's lock (the provider's own captures, refunds and
 * releases take the same one): each refund sees what the previous one refunded, and no other
 * refund can take this one's lines.
 */
import type { AuthenticatedMedusaRequest, MedusaResponse } from "@medusajs/framework/http"
import { MedusaError } from "@medusajs/framework/utils"
import { z } from "zod"
import {
  AltaPayValidationError,
  ItemRefundError,
  decimalToMinor,
  keptReturnFeesMinor,
  minorToDecimal,
  planItemRefund,
  planReservedRefund,
  refundedQuantities,
  withReturnFee,
  type CapturedSoFar,
  type ItemRefundPlan,
  type PairedReservation,
  type ReturnFeeLine,
  type OrderLine,
  type ReservedRefundInput,
} from "../../../../../../altapay"
import { capturedUnitsToRefund, itemCaptureBasis, pairedReservationBasis, wholeItemsOnly } from "../../../../../../lib/item-captures/basis"
import { orderOwesMinor } from "../../../../../../lib/item-captures/capture-items"
import { altapayFromConfig } from "../../../../../../lib/registrations/from-config"
import { cartLineField, cartToLineSource } from "../../../../../../lib/medusa-mapping/cart-lines"
import { liveOrderPayments } from "../../../../../../lib/medusa-mapping/order-payments"
import { newestPaymentData, paymentDataAccess, withPaymentLock } from "../../../../../../lib/payment-data/writer"
import { loadAltaPayPayment, type AltaPayPayment, type OrderForLines } from "../../../_lib/altapay-payment"
import { itemQuantities } from "../../../_lib/item-quantities"
import { readLiveTransaction } from "../../../_lib/live-transaction"
import { parseBody } from "../../../_lib/parse-body"
import { adminAltaPayPayment, type AdminAltaPayPayment, type AdminAltaPayRefund } from "../../../_lib/payment-view"
import { refundAltaPayItemsWorkflow } from "../../../../../../workflows/refund-altapay-items"

const AdminAltaPayItemRefund = z
  .object({
    items: itemQuantities,
    /** Also refund the order's shipping (each shipping method once). */
    shipping: z.boolean().optional(),
    note: z.string().trim().max(1000).optional(),
    /** A return fee the shop keeps (Klarna and other invoice payments only). */
    return_fee: z
      .object({
        /** Tax included, in the payment's currency, as decimal text ("6.40"). */
        amount: z.string().regex(/^\d+(\.\d+)?$/, 'must be a decimal amount such as "6.40"'),
        /** Percent; default: the refunded items' rate. */
        tax_rate: z.number().min(0).max(100).optional(),
      })
      .strict()
      .optional(),
  })
  .strict()

export interface AdminAltaPayItemRefundResponse {
  refund: AdminAltaPayRefund & { order_lines: OrderLine[] }
  altapay_payment: AdminAltaPayPayment
}

export const POST = async (req: AuthenticatedMedusaRequest, res: MedusaResponse<AdminAltaPayItemRefundResponse>) => {
  const body = parseBody(AdminAltaPayItemRefund, req.body)
  const paymentId = req.params.id
  const unlocked = await loadAltaPayPayment(req.scope, paymentId)
  // Everything below acts through the payment's own registration (client, seal keys, locks).
  const { client, options } = altapayFromConfig(req.scope, unlocked.provider_id)
  const access = paymentDataAccess(req.scope, unlocked.provider_id)
  if (!unlocked.data.transaction_id) throw new MedusaError(MedusaError.Types.NOT_ALLOWED, `Payment ${paymentId} has not been paid at AltaPay yet.`)

  const done = await withPaymentLock(access, unlocked.data.transaction_id, async () => {
    const loaded = await loadAltaPayPayment(req.scope, paymentId)
    // The newest refunds decide what is still refundable: Medusa may not have stored the last answer yet.
    const payment = { ...loaded, data: await newestPaymentData(access, paymentId, loaded.raw_data) }
    const others = payment.order ? (await liveOrderPayments(req.scope, payment.order.id)).payments.filter((p) => p.id !== paymentId).map((p) => p.id) : []
    const plan = planFor(req, payment, body, others)
    const before = new Set(payment.medusa_refunds.map((r) => r.id))
    await refundAltaPayItemsWorkflow(req.scope).run({
      input: {
        payment_id: paymentId,
        amount: minorToDecimal(plan.amountMinor, payment.currency_code),
        pending_refund: {
          amount_minor: plan.amountMinor,
          order_lines: plan.lines,
          items: plan.items,
          ...(plan.returnFee ? { return_fee: plan.returnFee } : {}),
          ...(body.note ? { note: body.note } : {}),
          requested_at: new Date().toISOString(),
        },
        note: body.note,
        created_by: req.auth_context?.actor_id,
      },
    })
    return { before, lines: plan.lines }
  })

  const after = await loadAltaPayPayment(req.scope, paymentId)
  const [live, owed] = await Promise.all([readLiveTransaction(client, after.data), orderOwesMinor(req.scope, after)])
  const view = adminAltaPayPayment(after, live, undefined, options, owed)
  const refund = [...view.refunds].reverse().find((r) => r.refund_id && !done.before.has(r.refund_id) && r.source === "medusa")
  if (!refund) throw new MedusaError(MedusaError.Types.UNEXPECTED_STATE, `The refund of payment ${paymentId} went through but its record was not found; reload the order.`)
  res.status(200).json({ refund: { ...refund, order_lines: done.lines }, altapay_payment: view })
}

function planOrRefuse<P>(order: OrderForLines, plan: () => P): P {
  try {
    return plan()
  } catch (error) {
    if (error instanceof ItemRefundError) throw new MedusaError(MedusaError.Types.INVALID_DATA, error.message)
    // The order's own data cannot be turned into AltaPay lines (e.g. a tax rate that is not a number):
    // a 400 that names the order's field, not Medusa's "An unknown error occurred".
    if (error instanceof AltaPayValidationError) {
      const fields = [...new Set(error.issues.map((i) => cartLineField(order, i.field)))]
      throw new MedusaError(
        MedusaError.Types.INVALID_DATA,
        `Order ${order.id} cannot be refunded by item: ${fields.join(", ")} ${error.issues.length === 1 ? error.issues[0].message : "are not usable"}.`
      )
    }
    throw error
  }
}

/**
 * Why a payment's items are refunded with the lines it reserved: it is a Klarna or invoice payment
 * (AltaPay documents that such refunds relate to the reservation's lines), other payments of its
 * order pay for the order too (an edit paid by a payment link), so its own capture cannot value the
 * whole order's items, and each payment refunds only the items it paid for; or it was captured by
 * item and not in full (and holds no store credit), so each item refunds what its capture took, and
 * an item not captured is not refunded (valued as a share of the captured amount, a mug captured for 84.96 came back at 19.39).
 */
type ReservedBy = { invoice: true } | { invoice: false; others: string[] } | { invoice: false; byItem: true }

type ReservedRefundBasis = Omit<ReservedRefundInput, "request" | "currency"> & { unpaired: PairedReservation["unpaired"]; by: ReservedBy }

/**
 * The payment's reservation by item, to refund items with their reserved lines, never valued as a
 * share of the captured amount; undefined for a card payment that alone pays its order, unless it
 * was captured in part by item (capturedUnitsToRefund). Where the
 * order no longer matches the reservation as a whole (an order edit, an edit paid by another
 * payment), the items and shipping that still pair with reserved lines (pairedReservationBasis),
 * valued as reserved and as captured by item, and the entries that do not (`unpaired`, refused by
 * refuseUnpaired). A 400 when the reservation cannot be refunded by item at all.
 */
function reservedRefundBasis(req: AuthenticatedMedusaRequest, payment: AltaPayPayment, order: OrderForLines, otherPayments: string[]): ReservedRefundBasis | undefined {
  const { options } = altapayFromConfig(req.scope, payment.provider_id)
  // Captured in full: every unit is refundable, however it was captured.
  const everything = payment.captured_minor >= payment.data.amount_minor
  const by: ReservedBy | undefined = wholeItemsOnly(payment.data, options)
    ? { invoice: true }
    : otherPayments.length > 0
      ? { invoice: false, others: otherPayments }
      : capturedUnitsToRefund(payment.data, payment.captured_minor)
        ? { invoice: false, byItem: true }
        : undefined
  if (!by) return undefined
  const data = everything ? { ...payment.data, captures: [] } : payment.data
  const refunded = refundedQuantities(payment.data.refunds)
  const captured = (so: CapturedSoFar) => (everything ? {} : { captured: so.units })
  const basis = itemCaptureBasis(order, data)
  if (basis.ok) return { map: basis.map, refunded, ...captured(basis.captured), unpaired: [], by }
  const paired = planOrRefuse(order, () => pairedReservationBasis(order, data))
  if (!paired.ok) {
    const why = payment.data.order_lines_source === "summary" ? "AltaPay reserved one summary line for it, not its items" : "part of it was captured by amount, not by item"
    throw new MedusaError(
      MedusaError.Types.INVALID_DATA,
      `Payment ${payment.id} cannot be refunded by item: ${why}, and ${reservedOnly(by, order)}. Nothing was sent: refund an amount with Medusa's Refund button${by.invoice ? ", or in AltaPay's merchant interface" : ""}.`
    )
  }
  return { map: paired.map, refunded, ...captured(paired.captured), unpaired: paired.map.unpaired, by }
}

function reservedOnly(by: ReservedBy, order: OrderForLines): string {
  if (by.invoice) return "a Klarna or invoice payment refunds only lines as AltaPay reserved them"
  if ("byItem" in by) return "a payment captured by item refunds each item at what its capture took"
  return `order ${order.id} is paid by other payments too (${by.others.join(", ")}), so each payment refunds only the items it reserved`
}

/** A 400 before anything is sent when the refund asks for an item (or the shipping) the payment's reservation holds no lines for, as the order is now. */
function refuseUnpaired(payment: AltaPayPayment, order: OrderForLines, basis: ReservedRefundBasis, body: z.output<typeof AdminAltaPayItemRefund>): void {
  const unpaired = basis.unpaired.filter((e) => (e.kind === "item" ? body.items.some((i) => i.line_item_id === e.id) : !!body.shipping))
  if (unpaired.length === 0) return
  const names = unpaired.map((e) => `"${e.title}"`).join(", ")
  const one = unpaired.length === 1
  const [it, its, them] = one ? ["it", "its", "this one"] : ["them", "their", "these"]
  const why = basis.by.invoice
    ? `an order edit after payment changed ${its} lines, so AltaPay's reservation holds none for ${it} as the order is now, and ${reservedOnly(basis.by, order)}`
    : `this payment's reservation holds no lines for ${it} as the order is now (another payment paid for ${it}, or an order edit changed ${it}), and ${reservedOnly(basis.by, order)}`
  const instead = basis.by.invoice
    ? `refund ${them} from ${its} reserved lines in AltaPay's merchant interface`
    : `refund ${them} on the payment that paid for ${it}, or refund an amount with Medusa's Refund`
  throw new MedusaError(
    MedusaError.Types.INVALID_DATA,
    `${names} cannot be refunded by item on payment ${payment.id}: ${why}. Nothing was sent. Refund the order's other items here; ${instead}.`
  )
}

/**
 * The refund's lines and amount, or a 400 saying why these items cannot be refunded now. A Klarna
 * or invoice payment's items, and those of a payment whose order other payments pay too, are
 * refunded with their reserved lines (reservedRefundBasis); the items of a card payment that alone
 * pays its order are valued as their share of what was captured (so store credit and partial
 * captures count), and the refund that leaves nothing to refund returns exactly what is left.
 * Return fees kept before are not refundable: they are the shop's.
 */
function planFor(
  req: AuthenticatedMedusaRequest,
  payment: AltaPayPayment,
  body: z.output<typeof AdminAltaPayItemRefund>,
  otherPayments: string[]
): ItemRefundPlan & { returnFee?: ReturnFeeLine } {
  if (!payment.order) throw new MedusaError(MedusaError.Types.NOT_ALLOWED, `Payment ${payment.id} belongs to no order, so it has no items to refund.`)
  if (!payment.data.transaction_id) throw new MedusaError(MedusaError.Types.NOT_ALLOWED, `Payment ${payment.id} has not been paid at AltaPay yet.`)
  if (payment.captured_minor === 0) throw new MedusaError(MedusaError.Types.INVALID_DATA, `Payment ${payment.id} is not captured yet: capture it before refunding.`)
  const currency = payment.currency_code.toUpperCase()
  const feeMinor = body.return_fee ? returnFeeMinor(req, payment, body.return_fee.amount) : undefined
  const keptMinor = keptReturnFeesMinor(payment.data.refunds)
  const reserved = reservedRefundBasis(req, payment, payment.order, otherPayments)
  if (reserved) refuseUnpaired(payment, payment.order, reserved, body)
  const goods = planOrRefuse(payment.order, () =>
    reserved
      ? planReservedRefund({ map: reserved.map, refunded: reserved.refunded, captured: reserved.captured, request: { items: body.items, shipping: body.shipping }, currency })
      : planItemRefund({
          source: cartToLineSource(payment.order!, 0),
          capturedMinor: payment.captured_minor,
          refundedMinor: payment.refunded_minor + keptMinor,
          previousRefunds: payment.data.refunds,
          request: { items: body.items, shipping: body.shipping },
        })
  )
  const plan = feeMinor === undefined ? goods : planOrRefuse(payment.order, () => withReturnFee(goods, { grossMinor: feeMinor, taxPercent: body.return_fee?.tax_rate, currency }))
  const refundable = payment.captured_minor - payment.refunded_minor - keptMinor
  if (plan.amountMinor > refundable) {
    const fmt = (minor: number) => `${minorToDecimal(minor, payment.currency_code)} ${payment.currency_code.toUpperCase()}`
    throw new MedusaError(
      MedusaError.Types.INVALID_DATA,
      `These items come to ${fmt(plan.amountMinor)}, more than the ${fmt(Math.max(refundable, 0))} still refundable on this payment (captured ${fmt(payment.captured_minor)}, refunded ${fmt(payment.refunded_minor)}${keptMinor ? `, return fees kept ${fmt(keptMinor)}` : ""}).`
    )
  }
  return plan
}

/**
 * A return fee's amount in minor units, or a 400: AltaPay documents return fees for Klarna refunds
 * (a handling line it deducts); a card payment's refund is simply made smaller.
 */
function returnFeeMinor(req: AuthenticatedMedusaRequest, payment: AltaPayPayment, amount: string): number {
  const { options } = altapayFromConfig(req.scope, payment.provider_id)
  if (!wholeItemsOnly(payment.data, options)) {
    throw new MedusaError(
      MedusaError.Types.INVALID_DATA,
      `Payment ${payment.id} is not a Klarna or other invoice payment, so it cannot keep a return fee: AltaPay documents return fees for Klarna refunds only. To keep part of a card payment, refund less (Medusa's Refund button takes any amount).`
    )
  }
  try {
    return decimalToMinor(amount, payment.currency_code, "return_fee.amount")
  } catch (error) {
    if (error instanceof AltaPayValidationError) throw new MedusaError(MedusaError.Types.INVALID_DATA, error.message)
    throw error
  }
}
