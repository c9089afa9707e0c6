/** Which of the panel's item actions an AltaPay payment allows now (the server checks again). */
import type { AdminAltaPayPayment } from "../../api/admin/altapay/_lib/payment-view"

/** Money left on the payment and at least one item or shipping method not refunded yet. */
export function canRefundItems(payment: AdminAltaPayPayment): boolean {
  const { amount, items, shipping } = payment.refundable
  return amount.minor > 0 && (items.some((i) => i.refundable_quantity > 0) || shipping.some((s) => !s.refunded))
}
