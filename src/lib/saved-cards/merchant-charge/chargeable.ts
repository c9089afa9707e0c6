/**
 * What the admin could charge on an order now: the amount it still waits for, and the customer's
 * saved cards on AltaPay registrations with saved cards on, in the order's currency. Reads only:
 * no payment collection is made until a charge is.
 */
import type { MedusaContainer } from "@medusajs/framework/types"
import { loadOrderDue, refusedNewPayment } from "../../medusa-mapping/amount-due"
import { altapayOptionsFromConfig, altapayProviderIds } from "../../registrations/from-config"
import { customerSavedCards } from "../customer-cards"
import type { SavedCardRecord } from "../../../modules/altapay-saved-cards/types"

export interface ChargeableOrder {
  order_id: string
  customer_id: string | null
  currency: string
  /** What a charge would take now, in minor units (0: nothing to charge). */
  outstanding_minor: number
  /** The collection it would pay, when Medusa has opened one. */
  payment_collection_id: string | null
  /** Why nothing can be charged now, when nothing can. */
  reason: string | null
  cards: Array<{ card: SavedCardRecord; auto_capture: boolean }>
}

export async function chargeableOrder(container: MedusaContainer, orderId: string): Promise<ChargeableOrder> {
  const due = await loadOrderDue(container, orderId)
  const { order } = due
  const currency = order.currency_code.toUpperCase()
  const autoCapture = new Map<string, boolean>()
  for (const providerId of altapayProviderIds(container)) {
    const { options } = altapayOptionsFromConfig(container, providerId)
    if (options.savedCards.enabled) autoCapture.set(providerId, options.autoCapture)
  }
  const saved = order.customer_id ? await customerSavedCards(container, order.customer_id) : []
  const cards = saved
    .filter((card) => autoCapture.has(card.provider_id) && card.currency.toUpperCase() === currency)
    .map((card) => ({ card, auto_capture: autoCapture.get(card.provider_id)! }))
  const reason =
    refusedNewPayment(due) ??
    (autoCapture.size === 0
      ? "No AltaPay registration of this store has saved cards enabled (option savedCards.enabled)."
      : cards.length === 0
        ? `The customer has no saved card in ${currency} on a registration with saved cards enabled.`
        : null)
  return {
    order_id: order.id,
    customer_id: order.customer_id ?? null,
    currency,
    outstanding_minor: order.status === "canceled" || due.awaitingCapture ? 0 : due.dueMinor,
    payment_collection_id: due.dueMinor > 0 ? (due.collection?.id ?? null) : null,
    reason,
    cards,
  }
}
