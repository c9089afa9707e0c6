/** The saved-cards admin routes: a customer's cards on AltaPay agreements, and deleting one. */
import type { AdminSavedCard } from "../../lib/saved-cards/views"
import { adminFetch } from "./admin-fetch"

export type { AdminSavedCard }

export const savedCardsQueryKey = (customerId: string) => ["altapay", "saved-cards", customerId] as const

export async function getCustomerSavedCards(customerId: string): Promise<AdminSavedCard[]> {
  const { saved_cards } = await adminFetch<{ saved_cards: AdminSavedCard[] }>(`/admin/altapay/customers/${encodeURIComponent(customerId)}/saved-cards`)
  return saved_cards
}

export function deleteSavedCard(cardId: string): Promise<{ id: string; deleted: true }> {
  return adminFetch(`/admin/altapay/saved-cards/${encodeURIComponent(cardId)}`, { method: "DELETE" })
}

/** "09/2028" */
export function formatExpiry({ month, year }: AdminSavedCard["expiry"]): string {
  return `${String(month).padStart(2, "0")}/${year}`
}
