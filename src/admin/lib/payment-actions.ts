/** Which of the panel's item actions an AltaPay payment allows now (the server checks again). */
import type { AdminAltaPayPayment } from "../../api/admin/altapay/_lib/payment-view"

/** Money left on the payment and at least one item or shipping method not refunded yet. */
export function canRefundItems(payment: AdminAltaPayPayment): boolean {
  const { amount, items, shipping } = payment.refundable
  return amount.minor > 0 && (items.some((i) => i.refundable_quantity > 0) || shipping.some((s) => !s.refunded))
}

/**
 * Paid at AltaPay, neither the payment nor its order canceled, the order still owing something, and
 * Medusa has not captured all of it yet. (A canceled order keeps its partly captured payment open in
 * Medusa, and an order an edit lowered to what was captured leaves the rest reserved: `abandoned` tells.)
 */
export function canCaptureItems(payment: AdminAltaPayPayment): boolean {
  const { medusa, altapay } = payment
  const abandoned = !!medusa.canceled_at || !!payment.reservation_left?.abandoned
  return !!altapay.transaction_id && !abandoned && medusa.captured.minor < medusa.amount.minor && payment.order_id !== null
}
