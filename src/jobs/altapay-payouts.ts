/**
 * Scheduled: AltaPay's funding files (payouts) imported and matched with Medusa's captures and
 * refunds, for the admin's payout reports. See src/lib/payouts/run.ts.
 */
import type { Logger, MedusaContainer } from "@medusajs/framework/types"
import { ContainerRegistrationKeys } from "@medusajs/framework/utils"
import { registeredPayoutsModule } from "../lib/payouts/module"
import { payoutsSchedule, runPayoutImport, type PayoutRunSummary } from "../lib/payouts/run"

let toldMissingModule = false

export default async function altapayPayoutsJob(container: MedusaContainer): Promise<PayoutRunSummary | undefined> {
  const payouts = registeredPayoutsModule(container)
  if (!payouts) {
    if (!toldMissingModule) {
      toldMissingModule = true
      container
        .resolve<Logger>(ContainerRegistrationKeys.LOGGER)
        .warn("AltaPay payouts: the plugin's payouts module is not registered in this store (it comes with the plugin in medusa-config's plugins); no funding files are imported.")
    }
    return undefined
  }
  return runPayoutImport(container, payouts)
}

export const config = { name: "altapay-payouts", schedule: payoutsSchedule() }
