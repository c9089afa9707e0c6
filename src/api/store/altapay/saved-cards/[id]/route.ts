/**
 * DELETE /store/altapay/saved-cards/:id
 *
 * Deletes one of the signed-in customer's saved cards. Another customer's card answers 404, as an
 * id that does not exist does, and is left as it was.
 */
import type { AuthenticatedMedusaRequest, MedusaResponse } from "@medusajs/framework/http"
import { savedCardDeleted, type SavedCardDeleted } from "../../../../../lib/saved-cards/views"
import { deleteCustomerSavedCard } from "../../../../../lib/saved-cards/customer-cards"

export const DELETE = async (req: AuthenticatedMedusaRequest, res: MedusaResponse<SavedCardDeleted>) => {
  const id = req.params.id
  await deleteCustomerSavedCard(req.scope, req.auth_context.actor_id, id)
  res.json(savedCardDeleted(id))
}
