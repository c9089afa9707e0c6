import { Module } from "@medusajs/framework/utils"
import AltaPayPayoutsService from "./service"

/** The container key of the plugin's payouts module. */
export const ALTAPAY_PAYOUTS_MODULE = "altapayPayouts"

export default Module(ALTAPAY_PAYOUTS_MODULE, { service: AltaPayPayoutsService })
