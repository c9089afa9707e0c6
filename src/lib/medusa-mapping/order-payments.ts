/**
 * An order's payments that are not canceled, whichever provider made them: what Cancel acts on,
 * and what tells an item refund whether one payment paid for the whole order.
 */
import type { MedusaContainer } from "@medusajs/framework/types"
import { ContainerRegistrationKeys } from "@medusajs/framework/utils"

export interface LiveOrderPayments {
  /** `#12`, or the order's id when it has no display id (or is not found). */
  name: string
  payments: Array<{ id: string; provider_id: string }>
}

type PaymentRow = { id: string; provider_id: string; canceled_at?: unknown } | null

export async function liveOrderPayments(container: MedusaContainer, orderId: string): Promise<LiveOrderPayments> {
  const query = container.resolve(ContainerRegistrationKeys.QUERY)
  const { data } = await query.graph({
    entity: "order",
    fields: ["display_id", "payment_collections.payments.id", "payment_collections.payments.provider_id", "payment_collections.payments.canceled_at"],
    filters: { id: orderId },
  })
  const order = data[0] as { display_id?: number; payment_collections?: Array<{ payments?: PaymentRow[] | null } | null> } | undefined
  const payments = (order?.payment_collections ?? []).flatMap((c) => c?.payments ?? []).flatMap((p) => (p && !p.canceled_at ? [{ id: p.id, provider_id: p.provider_id }] : []))
  return { name: order?.display_id ? `#${order.display_id}` : orderId, payments }
}
