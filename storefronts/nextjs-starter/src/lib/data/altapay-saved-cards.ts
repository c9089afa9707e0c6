"use server"

import { sdk } from "@lib/config"
import { AltaPayText } from "@lib/util/altapay-i18n"
import { AltaPaySavedCard } from "@lib/util/altapay-saved-card"
import { getAuthHeaders } from "./cookies"

/**
 * The signed-in customer's saved cards, newest first (medusa-payment-altapay storefront kit):
 * none for a guest, null when the store could not be asked. Read fresh: a card deleted in
 * another tab must not be offered.
 */
export async function listAltaPaySavedCards(): Promise<
  AltaPaySavedCard[] | null
> {
  const headers = await getAuthHeaders()
  if (!("authorization" in headers)) {
    return []
  }
  return sdk.client
    .fetch<{ saved_cards: AltaPaySavedCard[] }>("/store/altapay/saved-cards", {
      headers,
      cache: "no-store",
    })
    .then(({ saved_cards }) => saved_cards)
    .catch((error) => {
      console.error(
        "AltaPay: the customer's saved cards could not be listed:",
        error
      )
      return null
    })
}

/**
 * Deletes one of the signed-in customer's saved cards. The store answers 404 for a card that is
 * not (or no longer) theirs: gone either way, so that counts as deleted. The error is shown in
 * the page's language.
 */
export async function deleteAltaPaySavedCard(
  id: string
): Promise<{ error?: AltaPayText }> {
  const headers = await getAuthHeaders()
  return sdk.client
    .fetch(`/store/altapay/saved-cards/${encodeURIComponent(id)}`, {
      method: "DELETE",
      headers,
    })
    .then(() => ({}))
    .catch((error: { status?: number }) => {
      if (error?.status === 404) {
        return {}
      }
      console.error(`AltaPay: saved card ${id} could not be deleted:`, error)
      return { error: { key: "deleteFailed" } }
    })
}
