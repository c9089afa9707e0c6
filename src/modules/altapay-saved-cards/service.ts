/**
 * The saved-cards module: Medusa's generated CRUD over altapay_saved_card, plus the two reads and
 * the delete the routes use, each scoped to a customer so that one customer's request can never
 * reach another's card.
 */
import { MedusaService } from "@medusajs/framework/utils"
import { AltapaySavedCard } from "./models"
import type { SavedCardRecord } from "./types"

// Keyed by the model's own name: query.graph's entity altapay_saved_card calls listAltapaySavedCards.
class AltaPaySavedCardsService extends MedusaService({ AltapaySavedCard }) {
  /** A customer's cards (all registrations, or one), newest first. */
  async listCustomerCards(customerId: string, providerId?: string): Promise<SavedCardRecord[]> {
    const filters = providerId ? { customer_id: customerId, provider_id: providerId } : { customer_id: customerId }
    return (await this.listAltapaySavedCards(filters, { order: { created_at: "DESC" } })) as SavedCardRecord[]
  }

  /** The card when it is this customer's; undefined for another customer's or none (callers answer 404 for both). */
  async customerCard(customerId: string, cardId: string): Promise<SavedCardRecord | undefined> {
    const [card] = await this.listAltapaySavedCards({ id: cardId, customer_id: customerId }, { take: 1 })
    return card as SavedCardRecord | undefined
  }

  /** Soft-deletes the card if it is this customer's; false (and nothing changed) otherwise. */
  async deleteCustomerCard(customerId: string, cardId: string): Promise<boolean> {
    if (!(await this.customerCard(customerId, cardId))) return false
    await this.softDeleteAltapaySavedCards([cardId])
    return true
  }
}

export default AltaPaySavedCardsService
