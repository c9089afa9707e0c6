/**
 * Saved cards read through Medusa's `query` (the provider's way: a module provider's container
 * holds no other module unless the merchant lists it). Every column the provider needs; none of
 * them secret.
 */
import type { RemoteQueryFunction } from "@medusajs/framework/types"
import type { SavedCardRecord } from "../../modules/altapay-saved-cards/types"

const FIELDS = ["id", "customer_id", "provider_id", "agreement_id", "masked_pan", "expiry_month", "expiry_year", "scheme", "terminal", "currency", "created_at"]

/** One customer's cards on one registration (optionally one card of them); deleted cards are not read. */
export async function queryCustomerCards(
  query: Pick<RemoteQueryFunction, "graph">,
  filters: { customer_id: string; provider_id: string; id?: string }
): Promise<SavedCardRecord[]> {
  const { data } = await query.graph({ entity: "altapay_saved_card", fields: FIELDS, filters })
  return data as SavedCardRecord[]
}
