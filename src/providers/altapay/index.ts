import { ModuleProvider, Modules } from "@medusajs/framework/utils"
import validateAltaPayOptions from "./options-loader"
import { AltaPayProviderService } from "./service"

export { AltaPayProviderService }
export type { AltaPayOptions, AltaPayOptionsInput } from "../../lib/registrations/options"
export type { AltaPayPaymentData } from "../../lib/payment-data/data"

export default ModuleProvider(Modules.PAYMENT, { services: [AltaPayProviderService], loaders: [validateAltaPayOptions] })
