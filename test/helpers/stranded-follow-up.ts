/** The retired-session follow-up over a bare Medusa: its `query`, locks always had, a logger; no notification module. */
import type { Logger } from "@medusajs/framework/types"
import { ContainerRegistrationKeys, Modules } from "@medusajs/framework/utils"
import type { AltaPayClient } from "../../src/altapay"
import { RunReport } from "../../src/lib/follow-up/run-report"
import { followUpStrandedSessions } from "../../src/lib/follow-up/stranded-follow-up"
import { parseAltaPayOptions } from "../../src/lib/registrations/options"
import type { AltaPayRegistration } from "../../src/lib/registrations/registrations"
import { serverKeys } from "../../src/lib/registrations/server-keys"
import { paymentLockOn, processStore } from "../../src/lib/scale-out/shared-state"

/** One run an hour from now (past its grace period), for the registration `rawOptions` make with `client`. */
export async function strandedFollowUpAnHourLater(client: AltaPayClient, rawOptions: unknown, query: unknown, logger: Pick<Logger, "warn" | "error">, name: string): Promise<void> {
  const parsed = parseAltaPayOptions(rawOptions)
  if (!("options" in parsed)) throw new Error(parsed.problems.join("; "))
  const registration: AltaPayRegistration = {
    providerId: "pp_altapay_altapay",
    options: parsed.options,
    client,
    scaleOut: { paymentLock: paymentLockOn(undefined), key: name },
    store: processStore(),
    keys: serverKeys(parsed.options, "payment-data-seal"),
  }
  const services: Record<string, unknown> = {
    [ContainerRegistrationKeys.QUERY]: query,
    [Modules.LOCKING]: { acquire: async () => {}, release: async () => {} },
    [ContainerRegistrationKeys.LOGGER]: logger,
  }
  const container = { resolve: (key: string) => services[key], hasRegistration: () => false }
  await followUpStrandedSessions(container as never, registration, new Date(Date.now() + 60 * 60_000), new RunReport(name, logger as Logger))
}
