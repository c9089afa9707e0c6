/**
 * AltaPay on the order page (side column): each AltaPay payment's live state, amounts, card and
 * reconciliation identifiers, its refunds (open ones marked), item-level refunds, and a payment
 * link when the order still has an amount due. Renders nothing for orders AltaPay has no part in.
 */
import { defineWidgetConfig } from "@medusajs/admin-sdk"
import type { AdminOrder, AdminPayment, DetailWidgetProps } from "@medusajs/framework/types"
import { TooltipProvider } from "@medusajs/ui"
import { AltaPayPaymentPanel } from "../components/altapay-payment-panel"
import { PaymentLinkSection } from "../components/payment-link-section"

const ALTAPAY_PROVIDER = /^pp_altapay_/

/** Collections Medusa still waits on, or an order summary that says money is due. */
function amountDue(order: AdminOrder): boolean {
  const unpaid = (order.payment_collections ?? []).some((c) => c.status === "not_paid" || c.status === "awaiting")
  const pending = Number((order.summary as { pending_difference?: number } | undefined)?.pending_difference ?? 0)
  return unpaid || pending > 0
}

/** The AltaPay registrations the order's payments were made with, oldest payment first. */
function providersByAge(payments: AdminPayment[]): string[] {
  const time = (p: AdminPayment) => new Date(p.created_at ?? 0).getTime() || 0
  return [...payments].sort((a, b) => time(a) - time(b)).map((p) => p.provider_id)
}

const AltaPayOrderPanel = ({ data: order }: DetailWidgetProps<AdminOrder>) => {
  const payments: AdminPayment[] = (order.payment_collections ?? []).flatMap((c) => c.payments ?? []).filter((p) => ALTAPAY_PROVIDER.test(p.provider_id))
  const due = amountDue(order)
  if (payments.length === 0 && !due) return null
  // Our own provider: the dashboard's may belong to another copy of @medusajs/ui (its version
  // can differ from the one this plugin resolves), and Copy's tooltip needs one from its own copy.
  return (
    <TooltipProvider>
      <div className="flex flex-col gap-y-3" data-testid="altapay-order-panel">
        {payments.map((payment) => (
          <AltaPayPaymentPanel key={payment.id} orderId={order.id} paymentId={payment.id} />
        ))}
        {due && <PaymentLinkSection orderId={order.id} paidWith={providersByAge(payments)} />}
      </div>
    </TooltipProvider>
  )
}

export const config = defineWidgetConfig({
  zone: "order.details.side",
  id: "medusa-payment-altapay:order-panel",
})

export default AltaPayOrderPanel
