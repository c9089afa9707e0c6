/**
 * The saved-cards module: Medusa's generated CRUD over altapay_saved_card, plus the two reads and
 * the delete the routes use, each scoped to a customer so that one customer's request can never
 * reach another's card, and the card on an agreement, deleted ones included (their tombstones).
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

  /**
   * The live card on an agreement; "deleted" when the agreement's card was deleted. Every delete is
   * a soft delete, so a deleted card's row stays as its tombstone: what was deleted stays deleted,
   * whoever posts AltaPay's set-up again (issue 39, item 7).
   */
  async cardOnAgreement(providerId: string, agreementId: string): Promise<SavedCardRecord | "deleted" | undefined> {
    const rows = (await this.listAltapaySavedCards({ provider_id: providerId, agreement_id: agreementId }, { withDeleted: true })) as Array<
      SavedCardRecord & { deleted_at?: Date | string | null }
    >
    return rows.find((row) => !row.deleted_at) ?? (rows.length > 0 ? "deleted" : undefined)
  }

  /** Soft-deletes the card if it is this customer's; false (and nothing changed) otherwise. */
  async deleteCustomerCard(customerId: string, cardId: string): Promise<boolean> {
    if (!(await this.customerCard(customerId, cardId))) return false
    await this.softDeleteAltapaySavedCards([cardId])
    return true
  }
}

export default AltaPaySavedCardsService
