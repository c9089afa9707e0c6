/**
 * What the admin sees of an AltaPay payment: AltaPay's live transaction (state, amounts, card,
 * fraud score, reconciliation identifiers) beside the refunds we recorded, open ones marked, and
 * what can still be refunded item by item. Pure: the route fetches, this shapes.
 */
import {
  keptReturnFeesMinor,
  lineTotalMinor,
  minorToDecimal,
  orderLinesTotalMinor,
  refundedQuantities,
  reservedLines,
  type GatewayAmount,
  type GatewayTransaction,
  type RefundedItem,
} from "../../../../altapay"
import { refundableEntries } from "../../../../lib/medusa-mapping/cart-lines"
import { capturedUnitsToRefund, itemCaptureBasis, wholeItemsOnly } from "../../../../lib/item-captures/basis"
import { withTransaction } from "../../../../lib/payment-data/transaction-state"
import type { AltaPayOptions } from "../../../../lib/registrations/options"
import type { MovementPayout } from "../../../../modules/altapay-payouts/types"
import type { AltaPayPayment } from "./altapay-payment"
import { reservationLeft, type ReservationLeft } from "./reservation-left"
import { reviewOf, type AdminAltaPayReview } from "./review-view"

export interface Money {
  /** Integer minor units. */
  minor: number
  /** Exact decimal text, e.g. "96.66". */
  decimal: string
  /** ISO 4217, upper case. */
  currency: string
}

export interface AdminAltaPayRefund {
  /** Medusa's refund id; null for a refund made outside Medusa (seen only at AltaPay). */
  refund_id: string | null
  reconciliation_identifier: string
  amount: Money
  status: "succeeded" | "open" | "failed"
  /** AltaPay answered Open: the money has not moved yet. */
  open: boolean
  /** Why a refund AltaPay answered Open is recorded as failed. */
  failure_reason: string | null
  created_at: string
  note: string | null
  items: Array<RefundedItem & { title: string }>
  /** A return fee the shop kept (Klarna): AltaPay deducted it, `amount` is the goods less it. */
  return_fee: { amount: Money; tax_percent: number } | null
  source: "medusa" | "altapay"
}

export interface AdminAltaPayPayment {
  id: string
  /** The AltaPay registration the payment was made with, pp_altapay_<id>. */
  provider_id: string
  currency_code: string
  order_id: string | null
  order_display_id: number | null
  /** Medusa's own records of this payment. */
  medusa: { amount: Money; captured: Money; refunded: Money; canceled_at: string | null }
  altapay: {
    /** False when AltaPay could not be reached: the values are the last ones stored. */
    live: boolean
    error: string | null
    transaction_id: string | null
    payment_id: string | null
    shop_order_id: string
    session_id: string
    status: string | null
    terminal: string | null
    auto_capture: boolean
    reserved: Money | null
    captured: Money | null
    refunded: Money | null
    card: { scheme: string | null; masked_pan: string | null; expiry: string | null; issuing_country: string | null }
    fraud: { score: string | null; explanation: string | null }
    payment_nature: string | null
    reconciliation_identifiers: Array<{ id: string; type: string; amount: Money | null; date: string | null }>
    created_at: string | null
    updated_at: string | null
  }
  refunds: AdminAltaPayRefund[]
  open_refunds: number
  refundable: {
    /** Captured and not yet refunded, by Medusa's records, less the return fees kept (the shop's). */
    amount: Money
    /** Whether an item refund may keep a return fee: Klarna and other invoice payments, as AltaPay documents it. */
    return_fees: boolean
    items: Array<{ line_item_id: string; title: string; sku: string | null; quantity: number; refunded_quantity: number; refundable_quantity: number }>
    shipping: Array<{ id: string; name: string; amount: Money; refunded: boolean }>
  }
  /** Captures AltaPay answered Open and has not settled, or that never completed. */
  unsettled_captures: Array<{ reconciliation_identifier: string; amount: Money; status: "open" | "failed"; failure_reason: string | null; created_at: string }>
  /** When the payment was last checked against AltaPay, and by what (its callback, the customer's return, the follow-up job). */
  reconciled: { at: string; by: "callback" | "return" | "job" } | null
  /** Chargeback events AltaPay notified (status ChargebackEvent), oldest first. */
  chargebacks: Array<{
    key: string
    date: string
    type: string
    reason_code: string | null
    reason: string | null
    amount: Money
    acquirer_transaction_id: string | null
    received_at: string
  }>
  /**
   * Part captured, the rest still reserved at AltaPay: AltaPay cannot release part of a
   * reservation, so it stays until captured or until it lapses (see ./reservation-left). `amount`
   * is what can still be captured, no more than the order still owes; `not_owed` the rest, which
   * only lapses. Abandoned (the payment or order canceled, or nothing owed): `amount` only lapses.
   */
  reservation_left: (Omit<ReservationLeft, "amount_minor" | "not_owed_minor"> & { amount: Money; not_owed?: Money }) | null
  /** The fraud check (a hold waits for approval), the reservation's expiry and a surcharge (./review-view). */
  review: AdminAltaPayReview
  /** Lines waiting for the next refund of their amount (an item refund in progress, or one that failed). */
  pending_refund: { amount: Money; requested_at: string; items: RefundedItem[] } | null
  /** Each capture and refund Medusa recorded, and the AltaPay payout (funding file) it went into, if any yet. */
  payouts: MovementPayout[]
  /** Why the payouts could not be read (then `payouts` is empty). */
  payouts_error: string | null
}

export interface LiveTransaction {
  transaction?: GatewayTransaction
  /** Why AltaPay's state could not be read. */
  error?: string
}

/** The payment's captures and refunds and their payouts (./payment-payouts reads them). */
export interface PaymentPayouts {
  payouts: MovementPayout[]
  /** Why the payouts could not be read. */
  error: string | null
}

/**
 * `registration`: the payment's registration options the view reads (which terminals are invoice
 * methods). `owedMinor`: what the payment's order still owes (`orderOwesMinor`), which caps what the
 * view offers as capturable; undefined: not read, no cap.
 */
export function adminAltaPayPayment(
  payment: AltaPayPayment,
  live: LiveTransaction,
  payouts: PaymentPayouts = { payouts: [], error: null },
  registration: Pick<AltaPayOptions, "invoiceTerminals"> = {},
  owedMinor?: number
): AdminAltaPayPayment {
  const currency = payment.currency_code.toUpperCase()
  const money = (minor: number): Money => ({ minor, decimal: minorToDecimal(minor, currency), currency })
  const fromGateway = (amount: GatewayAmount | undefined): Money | null => (amount ? { minor: amount.minor, decimal: amount.decimal, currency: amount.currency || currency } : null)
  const stored = (minor: number | null): Money | null => (minor === null ? null : money(minor))

  const data = withTransaction(payment.data, live.transaction)
  const tx = live.transaction
  const entries = payment.order ? safeEntries(payment) : undefined
  const titles = new Map<string, string>()
  for (const item of entries?.items ?? []) titles.set(item.id, item.title)
  for (const method of entries?.shipping ?? []) titles.set(method.id, method.name)

  const medusaRefundIds = new Set(payment.medusa_refunds.map((r) => r.id))
  const refunds: AdminAltaPayRefund[] = data.refunds.map((r) => ({
    refund_id: r.refund_id,
    reconciliation_identifier: r.reconciliation_identifier,
    amount: money(r.amount_minor),
    status: r.status,
    open: r.status === "open",
    failure_reason: r.failure_reason ?? null,
    created_at: r.created_at,
    note: r.note ?? null,
    items: (r.items ?? []).map((item) => ({ ...item, title: titles.get(item.line_item_id) ?? item.line_item_id })),
    return_fee: r.return_fee ? { amount: money(lineTotalMinor(r.return_fee)), tax_percent: r.return_fee.taxPercent } : null,
    source: r.refund_id && medusaRefundIds.has(r.refund_id) ? "medusa" : "altapay",
  }))

  const refunded = refundedQuantities(payment.data.refunds)
  // Captured in part, by item: only the units captured can be refunded (the refunds route refuses the others).
  const capturedUnits = capturedUnitsToRefund(payment.data, payment.captured_minor)
  const expiry = tx?.cardInformation?.expiry ?? tx?.creditCardExpiry
  const reserved = fromGateway(tx?.reservedAmount) ?? stored(data.reserved_minor)
  const captured = fromGateway(tx?.capturedAmount) ?? stored(data.captured_minor)
  const invoiceLike = wholeItemsOnly({ terminal: data.terminal, payment_nature: tx?.paymentNature ?? data.payment_nature }, registration)
  const left = reservationLeft({
    reservedMinor: reserved?.minor ?? null,
    capturedMinor: captured?.minor ?? null,
    status: data.transaction_status,
    reservedAt: tx?.createdDate?.toISOString() ?? data.authorized_at ?? null,
    invoiceLike,
    canceled: !!payment.canceled_at || payment.order?.status === "canceled",
    owedMinor,
  })
  return {
    id: payment.id,
    provider_id: payment.provider_id,
    currency_code: payment.currency_code,
    order_id: payment.order?.id ?? null,
    order_display_id: payment.order?.display_id ?? null,
    medusa: { amount: money(payment.amount_minor), captured: money(payment.captured_minor), refunded: money(payment.refunded_minor), canceled_at: payment.canceled_at },
    altapay: {
      live: !!tx,
      error: live.error ?? null,
      transaction_id: data.transaction_id,
      payment_id: data.payment_id,
      shop_order_id: data.order_id,
      session_id: data.altapay_session_id,
      status: data.transaction_status,
      terminal: data.terminal,
      auto_capture: data.auto_capture,
      reserved,
      captured,
      refunded: fromGateway(tx?.refundedAmount) ?? stored(data.refunded_minor),
      card: {
        scheme: data.card_scheme,
        masked_pan: data.masked_pan,
        expiry: expiry?.month && expiry.year ? `${expiry.month}/${expiry.year}` : null,
        issuing_country: tx?.cardInformation?.issuingCountry ?? null,
      },
      fraud: { score: tx?.fraudRiskScore ?? null, explanation: tx?.fraudExplanation ?? null },
      payment_nature: tx?.paymentNature ?? null,
      reconciliation_identifiers: (tx?.reconciliationIdentifiers ?? []).map((r) => ({
        id: r.id,
        type: r.type,
        amount: fromGateway(r.amount),
        date: r.date?.toISOString() ?? null,
      })),
      created_at: tx?.createdDate?.toISOString() ?? null,
      updated_at: tx?.updatedDate?.toISOString() ?? null,
    },
    refunds,
    open_refunds: refunds.filter((r) => r.open).length,
    unsettled_captures: data.captures.flatMap((c) =>
      c.status
        ? [
            {
              reconciliation_identifier: c.reconciliation_identifier,
              amount: money(c.amount_minor),
              status: c.status,
              failure_reason: c.failure_reason ?? null,
              created_at: c.created_at,
            },
          ]
        : []
    ),
    reconciled: data.reconciled ?? null,
    chargebacks: (data.chargebacks ?? []).map((c) => ({
      key: c.key,
      date: c.date,
      type: c.type,
      reason_code: c.reason_code,
      reason: c.reason,
      amount: { minor: c.amount_minor, decimal: minorToDecimal(c.amount_minor, c.currency), currency: c.currency },
      acquirer_transaction_id: c.acquirer_transaction_id,
      received_at: c.received_at,
    })),
    refundable: {
      // What Medusa's records leave, and never more than AltaPay holds (a refund made in its merchant interface counts).
      amount: money(Math.max(Math.min(payment.captured_minor - payment.refunded_minor, heldAtAltaPay(tx) ?? Infinity) - keptReturnFeesMinor(payment.data.refunds), 0)),
      return_fees: invoiceLike,
      items: (entries?.items ?? []).map((item) => {
        const done = refunded.get(item.id) ?? 0
        const captured = capturedUnits ? (capturedUnits.get(item.id) ?? 0) : item.quantity
        return { line_item_id: item.id, title: item.title, sku: item.sku, quantity: item.quantity, refunded_quantity: done, refundable_quantity: Math.max(captured - done, 0) }
      }),
      shipping: (entries?.shipping ?? []).map((method) => ({ id: method.id, name: method.name, amount: money(method.amountMinor), refunded: refunded.has(method.id) })),
    },
    reservation_left: left ? { ...withoutAmount(left), amount: money(left.amount_minor), ...(left.not_owed_minor ? { not_owed: money(left.not_owed_minor) } : {}) } : null,
    review: reviewOf(data, tx),
    pending_refund: data.pending_refund
      ? { amount: money(data.pending_refund.amount_minor), requested_at: data.pending_refund.requested_at, items: data.pending_refund.items ?? [] }
      : null,
    payouts: payouts.payouts,
    payouts_error: payouts.error,
  }
}

/**
 * An order the builder cannot read (odd data) still shows its payment, just without item refunds.
 * A shipping method AltaPay reserved lines for is shown at what those lines total, as the capture
 * drawer shows it: rounded with the whole cart, as the refund rounds it, not on its own.
 */
function safeEntries(payment: AltaPayPayment) {
  try {
    if (!payment.order) return undefined
    const entries = refundableEntries(payment.order)
    // Only the reservation's lines are wanted here, not what was captured (by amount or by item).
    const basis = itemCaptureBasis(payment.order, { ...payment.data, captures: [] })
    if (!basis.ok) return entries
    const reserved = new Map(basis.map.entries.filter((e) => e.kind === "shipping").map((e) => [e.id, orderLinesTotalMinor(reservedLines(e))]))
    return { ...entries, shipping: entries.shipping.map((method) => ({ ...method, amountMinor: reserved.get(method.id) ?? method.amountMinor })) }
  } catch {
    return undefined
  }
}

function withoutAmount({ amount_minor: _amount, not_owed_minor: _notOwed, ...rest }: ReservationLeft): Omit<ReservationLeft, "amount_minor" | "not_owed_minor"> {
  return rest
}

/** Captured less refunded at AltaPay, when AltaPay answered. */
function heldAtAltaPay(tx: GatewayTransaction | undefined): number | undefined {
  return tx?.capturedAmount ? tx.capturedAmount.minor - (tx.refundedAmount?.minor ?? 0) : undefined
}
