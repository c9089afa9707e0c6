/**
 * DELETE /admin/altapay/saved-cards/:id
 *
 * Deletes a customer's saved card from the customer page (404 when there is none).
 */
import type { AuthenticatedMedusaRequest, MedusaResponse } from "@medusajs/framework/http"
import { savedCardDeleted, type SavedCardDeleted } from "../../../../../lib/saved-cards/views"
import { deleteCustomerSavedCard, savedCardById } from "../../../../../lib/saved-cards/customer-cards"

export const DELETE = async (req: AuthenticatedMedusaRequest, res: MedusaResponse<SavedCardDeleted>) => {
  const id = req.params.id
  const card = await savedCardById(req.scope, id)
  await deleteCustomerSavedCard(req.scope, card.customer_id, id)
  res.json(savedCardDeleted(id))
}
