/**
 * The suites of the redirect flow with AltaPay's verify post on and a short callback tolerance, on
 * one Medusa app. verifyOrder: AltaPay asks the store before it charges (verify-order). A 2 s
 * callbackToleranceSeconds, shorter than Medusa's 5 s processing delay: a callback passes only if
 * it is judged on when it arrived (store-attacks); a verify post a test signs itself is signed as it is sent.
 */
import { STORE_APP_DIR, useAltaPayStore } from "../../tools/test-store/store-app/altapay-store"
import { storeSuites } from "../../tools/test-store/store-app/runner"
import storeAttacks from "../storefront/store-attacks.suite"
import verifyOrder from "../storefront/verify-order.suite"

jest.setTimeout(180_000)

useAltaPayStore({ flow: "redirect", verifyOrder: true, callbackToleranceSeconds: 2 })

storeSuites({
  cwd: STORE_APP_DIR,
  // The verify post first: its first test expects AltaPay's only verify post so far.
  suites: { "AltaPay's verify post": verifyOrder, "a second customer's attacks": storeAttacks },
})
