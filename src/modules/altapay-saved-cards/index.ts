import { Module } from "@medusajs/framework/utils"
import AltaPaySavedCardsService from "./service"

/** The container key of the plugin's saved-cards module. */
export const ALTAPAY_SAVED_CARDS_MODULE = "altapaySavedCards"

export default Module(ALTAPAY_SAVED_CARDS_MODULE, { service: AltaPaySavedCardsService })
