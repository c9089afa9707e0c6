/**
 * The plugin's saved-cards module in a container, or undefined where the store does not have it
 * (the provider registered without the plugin entry). The routes answer 404 then: no cards.
 */
import type { MedusaContainer } from "@medusajs/framework/types"
import { ALTAPAY_SAVED_CARDS_MODULE } from "../../modules/altapay-saved-cards"
import type AltaPaySavedCardsService from "../../modules/altapay-saved-cards/service"

export function registeredSavedCardsModule(scope: MedusaContainer): AltaPaySavedCardsService | undefined {
  return scope.resolve<AltaPaySavedCardsService | undefined>(ALTAPAY_SAVED_CARDS_MODULE, { allowUnregistered: true })
}
