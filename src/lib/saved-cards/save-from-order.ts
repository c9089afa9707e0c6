/**
 * Keeps the card a customer saved while paying (issue 32): once Medusa placed the order, each of its
 * AltaPay payments whose sealed data says the hosted page set an agreement up for a customer gets a
 * saved-card row, from AltaPay's own record of the set-up transaction (masked card, expiry, scheme,
 * terminal, currency). The token AltaPay sends is never read into it. Saved once per agreement: a
 * repeated event finds the row.
 */
import type { Logger, MedusaContainer } from "@medusajs/framework/types"
import { ContainerRegistrationKeys } from "@medusajs/framework/utils"
import { openPaymentData } from "../payment-data/data"
import { altapayFromConfig } from "../registrations/from-config"
import { serverKeys } from "../registrations/server-keys"
import { keepAgreementCard } from "./keep-card"
import { registeredSavedCardsModule } from "./module"

interface OrderPayments {
  customer_id?: string | null
  payment_collections?: Array<{ payments?: Array<{ id: string; provider_id: string; data?: Record<string, unknown> | null } | null> | null } | null> | null
}

/** Saves the cards the order's payments set up; answers how many were new. */
export async function saveCardsOfOrder(container: MedusaContainer, orderId: string, logger?: Pick<Logger, "warn" | "info">): Promise<number> {
  const savedCards = registeredSavedCardsModule(container)
  if (!savedCards) return 0
  const query = container.resolve(ContainerRegistrationKeys.QUERY)
  const { data } = await query.graph({
    entity: "order",
    fields: ["id", "customer_id", "payment_collections.payments.id", "payment_collections.payments.provider_id", "payment_collections.payments.data"],
    filters: { id: orderId },
  })
  const order = (data as OrderPayments[])[0]
  let saved = 0
  for (const payment of (order?.payment_collections ?? []).flatMap((c) => c?.payments ?? [])) {
    if (!payment?.provider_id.startsWith("pp_altapay_")) continue
    let registration: ReturnType<typeof altapayFromConfig>
    try {
      registration = altapayFromConfig(container, payment.provider_id)
    } catch {
      continue
    }
    if (!registration.options.savedCards.enabled) continue
    const opened = openPaymentData(payment.data, serverKeys(registration.options, "payment-data-seal"))
    const sealed = opened.sealed ? opened.data : undefined
    const agreement = sealed?.agreement
    // The customer the session was created for, and only while it is still the order's.
    if (!sealed || agreement?.mode !== "setup" || !agreement.agreement_id || agreement.customer_id !== order?.customer_id) continue
    const [setUp] = (await registration.client.gateway.payments({ transactionId: agreement.agreement_id })).filter((t) => t.transactionId === agreement.agreement_id)
    if (!setUp) continue
    const kept = await keepAgreementCard(
      savedCards,
      { customerId: agreement.customer_id, providerId: payment.provider_id, setUp, fallback: { terminal: sealed.terminal, currency: sealed.currency } },
      logger
    )
    if (kept?.created) saved++
  }
  return saved
}
