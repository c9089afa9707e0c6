/**
 * The customer-return tests' registration: the sandbox with a callback secret, the registration's
 * options as the plugin parses them, and its anonymous look-ups under a budget on a clock that
 * stands still. Started before a file's tests and closed after them.
 */
import { anonymousLookUps, type AnonymousLookUps } from "../../src/lib/customer-return/confirm"
import { LookUpBudget, type ReturnLookUpLimits } from "../../src/lib/customer-return/look-up-budget"
import { parseAltaPayOptions, type AltaPayOptions } from "../../src/lib/registrations/options"
import { sharedAltaPayClient } from "../../src/lib/registrations/shared-client"
import { CALLBACK_SECRET, SANDBOX_PASSWORD, SANDBOX_USER, startSandboxAndClient, type SandboxPair } from "./sandbox"

export interface ReturnTestBed {
  pair: SandboxPair
  registration: { providerId: string; options: AltaPayOptions; scaleOut: { key: string } }
  /** What the return's signature is checked with. */
  options: { callbackSecret: string; callbackToleranceSeconds: number }
  /** Anonymous look-ups on the production client (no retries, its own connections), roomy limits unless given. */
  anonymous(limits?: Partial<ReturnLookUpLimits>): AnonymousLookUps
}

export function useReturnTestBed(providerId: string): ReturnTestBed {
  const bed = {
    options: { callbackSecret: CALLBACK_SECRET, callbackToleranceSeconds: 300 },
    anonymous(limits: Partial<ReturnLookUpLimits> = {}): AnonymousLookUps {
      const now = Date.now()
      return {
        budget: new LookUpBudget({ name: providerId, limits: { perSessionPerMinute: 100, perSecond: 1_000, concurrent: 64, ...limits }, now: () => now }),
        client: anonymousLookUps(bed.registration).client,
      }
    },
  } as ReturnTestBed
  beforeAll(async () => {
    bed.pair = await startSandboxAndClient()
    const parsed = parseAltaPayOptions({
      checkoutUrl: bed.pair.sandbox.checkoutUrl,
      gatewayUrl: bed.pair.sandbox.gatewayUrl,
      username: SANDBOX_USER,
      password: SANDBOX_PASSWORD,
      backendUrl: "https://shop.example",
      allowInsecureUrls: true,
      callbackSecret: CALLBACK_SECRET,
    })
    if (!("options" in parsed)) throw new Error(parsed.problems.join("; "))
    bed.registration = { providerId, options: parsed.options, scaleOut: { key: "" } }
  })
  afterAll(async () => {
    await Promise.all([anonymousLookUps(bed.registration).client.close(), sharedAltaPayClient(bed.registration.options).close()])
    await bed.pair.close()
  })
  return bed
}
