/**
 * The plugin's payouts module in a container, or undefined where the store does not have it (the
 * provider registered without the plugin, or a container of another module). Each caller decides
 * what its absence means: the job skips, the order page shows no payouts, the payouts routes refuse.
 */
import type { MedusaContainer } from "@medusajs/framework/types"
import { ALTAPAY_PAYOUTS_MODULE } from "../../modules/altapay-payouts"
import type AltaPayPayoutsService from "../../modules/altapay-payouts/service"

export function registeredPayoutsModule(scope: MedusaContainer): AltaPayPayoutsService | undefined {
  return scope.resolve<AltaPayPayoutsService | undefined>(ALTAPAY_PAYOUTS_MODULE, { allowUnregistered: true })
}
