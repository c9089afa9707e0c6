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
import { itemCaptureBasis, pairedReservationBasis, wholeItemsOnly } from "../../../../../../lib/item-captures/basis"
import { orderOwesMinor } from "../../../../../../lib/item-captures/capture-items"
import { altapayFromConfig } from "../../../../../../lib/registrations/from-config"
import { cartToLineSource } from "../../../../../../lib/medusa-mapping/cart-lines"
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
    const plan = planFor(req, payment, body)
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
      const fields = [...new Set(error.issues.map((i) => orderField(order, i.field)))]
      throw new MedusaError(
        MedusaError.Types.INVALID_DATA,
        `Order ${order.id} cannot be refunded by item: ${fields.join(", ")} ${error.issues.length === 1 ? error.issues[0].message : "are not usable"}.`
      )
    }
    throw error
  }
}

/** "items.0.taxRates.0.rate" -> "items[ordli_…].tax_lines[0].rate": the field as the order has it. */
function orderField(order: OrderForLines, field: string): string {
  const match = /^(items|shipping)\.(\d+)\.?(.*)$/.exec(field)
  if (!match) return field
  const [, list, index, rest] = match
  // The index is the line source's, which lists entries in content order (cart-lines.ts).
  const source = cartToLineSource(order, 0)
  const id = (list === "items" ? source.items : (source.shipping ?? []))[Number(index)]?.id ?? index
  const inner = rest
    .replace(/^taxRates\.(\d+)\.rate$/, "tax_lines[$1].rate")
    .replace(/^unitPriceMinor$/, "unit_price")
    .replace(/^amountMinor$/, "amount")
  return `${list === "items" ? "items" : "shipping_methods"}[${id}]${inner ? `.${inner}` : ""}`
}

type InvoiceReservation = Omit<ReservedRefundInput, "request" | "currency"> & { unpaired: PairedReservation["unpaired"] }

/**
 * An invoice payment's (Klarna's) reservation by item, refunded with its reserved lines: AltaPay
 * documents that such refunds relate to the reservation's lines, so these are never valued as a
 * share of the captured amount. Undefined for card payments. Where an order edit changed part of
 * the order, the items and shipping it left as reserved (pairedReservationBasis), valued as
 * reserved and as captured by item, and the entries it changed (`unpaired`, refused by
 * refuseChanged). A 400 when the reservation cannot be refunded by item at all.
 */
function invoiceReservation(req: AuthenticatedMedusaRequest, payment: AltaPayPayment, order: OrderForLines): InvoiceReservation | undefined {
  const { options } = altapayFromConfig(req.scope, payment.provider_id)
  if (!wholeItemsOnly(payment.data, options)) return undefined
  // Captured in full: every unit is refundable, however it was captured.
  const everything = payment.captured_minor >= payment.data.amount_minor
  const data = everything ? { ...payment.data, captures: [] } : payment.data
  const refunded = refundedQuantities(payment.data.refunds)
  const captured = (so: CapturedSoFar) => (everything ? {} : { captured: so.units })
  const basis = itemCaptureBasis(order, data)
  if (basis.ok) return { map: basis.map, refunded, ...captured(basis.captured), unpaired: [] }
  // The order no longer matches the reservation as a whole (an edit): what still pairs with it.
  const paired = planOrRefuse(order, () => pairedReservationBasis(order, data))
  if (!paired.ok) {
    const why = payment.data.order_lines_source === "summary" ? "AltaPay reserved one summary line for it, not its items" : "part of it was captured by amount, not by item"
    throw new MedusaError(
      MedusaError.Types.INVALID_DATA,
      `Payment ${payment.id} cannot be refunded by item: ${why}, and a Klarna or invoice payment refunds only lines as AltaPay reserved them. Nothing was sent: refund an amount with Medusa's Refund button, or in AltaPay's merchant interface.`
    )
  }
  return { map: paired.map, refunded, ...captured(paired.captured), unpaired: paired.map.unpaired }
}

/** A 400 before anything is sent when the refund asks for an item (or the shipping) whose lines an order edit changed. */
function refuseChanged(payment: AltaPayPayment, unpaired: InvoiceReservation["unpaired"], body: z.output<typeof AdminAltaPayItemRefund>): void {
  const changed = unpaired.filter((e) => (e.kind === "item" ? body.items.some((i) => i.line_item_id === e.id) : !!body.shipping))
  if (changed.length === 0) return
  const names = changed.map((e) => `"${e.title}"`).join(", ")
  const one = changed.length === 1
  throw new MedusaError(
    MedusaError.Types.INVALID_DATA,
    `${names} cannot be refunded by item on payment ${payment.id}: an order edit after payment changed ${one ? "its" : "their"} lines, so AltaPay's reservation holds none for ${one ? "it" : "them"} as the order is now, and a Klarna or invoice payment refunds only lines exactly as reserved. Nothing was sent. Refund the order's other items here; refund ${one ? "this one" : "these"} from ${one ? "its" : "their"} reserved lines in AltaPay's merchant interface.`
  )
}

/**
 * The refund's lines and amount, or a 400 saying why these items cannot be refunded now. A Klarna
 * or invoice payment's items are refunded with their reserved lines (invoiceReservation); other
 * payments' items are valued as their share of what was captured (so store credit and partial
 * captures count), and the refund that leaves nothing to refund returns exactly what is left.
 * Return fees kept before are not refundable: they are the shop's.
 */
function planFor(req: AuthenticatedMedusaRequest, payment: AltaPayPayment, body: z.output<typeof AdminAltaPayItemRefund>): ItemRefundPlan & { returnFee?: ReturnFeeLine } {
  if (!payment.order) throw new MedusaError(MedusaError.Types.NOT_ALLOWED, `Payment ${payment.id} belongs to no order, so it has no items to refund.`)
  if (!payment.data.transaction_id) throw new MedusaError(MedusaError.Types.NOT_ALLOWED, `Payment ${payment.id} has not been paid at AltaPay yet.`)
  if (payment.captured_minor === 0) throw new MedusaError(MedusaError.Types.INVALID_DATA, `Payment ${payment.id} is not captured yet: capture it before refunding.`)
  const currency = payment.currency_code.toUpperCase()
  const feeMinor = body.return_fee ? returnFeeMinor(req, payment, body.return_fee.amount) : undefined
  const keptMinor = keptReturnFeesMinor(payment.data.refunds)
  const reserved = invoiceReservation(req, payment, payment.order)
  if (reserved) refuseChanged(payment, reserved.unpaired, body)
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
