/**
 * What a capture by item starts from: the reservation's lines paired with the order's items, what
 * was captured by item before, and whether the payment method takes only whole reserved lines.
 */
import { buildOrderLineSet, isCreditLine, mapReservation, pairReservation, sourceTotalMinor, type CapturedSoFar, type PairedReservation, type ReservationMap } from "../../altapay"
import type { AltaPayPaymentData } from "../payment-data/data"
import type { AltaPayOptions } from "../registrations/options"
import { cartToLineSource, type CartForLines } from "../medusa-mapping/cart-lines"

/** `advised`: the reason itself says what to do instead (capture the rest by amount). */
export type ItemCaptureBasis = { ok: true; map: ReservationMap; captured: CapturedSoFar } | { ok: false; reason: string; advised?: true }
export type PairedReservationBasis = { ok: true; map: PairedReservation; captured: CapturedSoFar } | { ok: false; reason: string }

const SUMMARY_RESERVATION = "AltaPay reserved one summary line for this payment, not its items"

/** AltaPay's PaymentNature of invoice payments (Klarna and other invoice methods). */
export const INVOICE_NATURE = "Invoice"

/** True when captures and refunds of this payment must carry its reserved lines as they are. */
export function wholeItemsOnly(data: Pick<AltaPayPaymentData, "terminal" | "payment_nature">, options: Pick<AltaPayOptions, "invoiceTerminals">): boolean {
  return data.payment_nature === INVOICE_NATURE || (!!data.terminal && (options.invoiceTerminals ?? []).includes(data.terminal))
}

/**
 * The reservation's lines paired with the order's items, or why they cannot be. The order's lines
 * are rebuilt without the credit lines Medusa added after the order was placed that AltaPay did not
 * reserve (cartToLineSource's creditsReservedIn): the one refundPaymentWorkflow books for a refund
 * of an order not paid in full is money counted as refunded, not store credit the customer paid with.
 */
export function itemCaptureBasis(order: CartForLines | undefined, data: AltaPayPaymentData): ItemCaptureBasis {
  if (!order) return { ok: false, reason: "the payment belongs to no order" }
  if (data.order_lines_source === "summary") return { ok: false, reason: SUMMARY_RESERVATION }
  let map: ReservationMap | undefined
  try {
    map = mapReservation(data.order_lines, buildOrderLineSet(cartToLineSource(order, data.amount_minor, { creditsReservedIn: data.order_lines })))
  } catch {
    map = undefined
  }
  if (!map) return { ok: false, reason: "the order's items no longer match the lines AltaPay reserved (the order was edited, or items exchanged or claimed, after payment)" }
  const captured = capturedSoFar(data)
  return typeof captured === "string" ? { ok: false, reason: captured, advised: true } : { ok: true, map, captured }
}

/**
 * What the merchant can do instead when a payment cannot be captured by item (itemCaptureBasis not
 * ok). An invoice payment captured in part before its order changed can capture nothing more: its
 * reserved lines no longer pair with the order's, Medusa counts only what was captured as paid (it
 * asks for the rest as an amount due), and AltaPay cannot release part of a reservation
 * (reservation-left.ts), so the rest lapses.
 */
export function insteadOfItemCapture(basis: ItemCaptureBasis, data: Pick<AltaPayPaymentData, "captured_minor">, invoice: boolean): string {
  if (basis.ok || basis.advised) return ""
  if (!invoice) return "Capture it by amount instead (Medusa's Capture on the order page)."
  if ((data.captured_minor ?? 0) === 0)
    return "Capture all of it instead (Medusa's Capture of the whole amount): an invoice payment (Klarna) is captured only with its lines as reserved."
  return (
    "Nothing more can be captured on it: an invoice payment (Klarna) is captured only with its lines as reserved, and part of it was captured before the order changed. " +
    "Collect what the order still owes, if anything, with a payment link from the order's AltaPay panel; AltaPay cannot release part of a reservation, so the rest lapses by itself."
  )
}

/**
 * For an order that no longer matches its reservation as a whole (an order edit after a partial
 * capture): the reserved lines of the items and shipping the edit left as they were, and the
 * entries it changed (pairReservation). The order's lines are built for its own current total, as
 * amount-due.ts builds them, less the credit lines itemCaptureBasis leaves out. Throws
 * AltaPayValidationError for an order the line builder refuses.
 */
export function pairedReservationBasis(order: CartForLines, data: AltaPayPaymentData): PairedReservationBasis {
  if (data.order_lines_source === "summary") return { ok: false, reason: SUMMARY_RESERVATION }
  const source = cartToLineSource(order, 0, { creditsReservedIn: data.order_lines })
  const map = pairReservation(data.order_lines, buildOrderLineSet({ ...source, totalMinor: sourceTotalMinor(source) }))
  const captured = capturedSoFar(data)
  return typeof captured === "string" ? { ok: false, reason: captured } : { ok: true, map, captured }
}

/** Units captured by item so far, or why captures so far cannot be counted by item. */
export function capturedSoFar(data: Pick<AltaPayPaymentData, "captures" | "amount_minor">): CapturedSoFar | string {
  const units = new Map<string, number>()
  let creditsCaptured = false
  for (const capture of data.captures) {
    if (capture.status === "failed") continue
    if (!capture.items) return "part of the payment was captured by amount, not by item: capture the rest by amount"
    for (const item of capture.items) units.set(item.line_item_id, (units.get(item.line_item_id) ?? 0) + item.quantity)
    if (capture.order_lines?.some(isCreditLine)) creditsCaptured = true
  }
  return { units, creditsCaptured }
}

/**
 * Units captured, when a card payment refunds its items as their captures took them: captured so
 * far only by item (Capture items, capture on shipment), not in full, and with no store credit or
 * gift card among its reserved lines (those lower every item alike, so item-refunds.ts values such
 * items as a share of the captured amount). Undefined otherwise.
 */
export function capturedUnitsToRefund(data: Pick<AltaPayPaymentData, "captures" | "amount_minor" | "order_lines">, capturedMinor: number): ReadonlyMap<string, number> | undefined {
  if (capturedMinor >= data.amount_minor || data.order_lines.some(isCreditLine)) return undefined
  if (!data.captures.some((c) => c.status !== "failed")) return undefined
  const captured = capturedSoFar(data)
  return typeof captured === "string" ? undefined : captured.units
}
