/**
 * The suites that post to the store "from elsewhere" (through a listed proxy) on one Medusa app:
 * this machine may post callbacks, and is listed as the proxy in front of Medusa, so the
 * X-Forwarded-For it adds is the sender. Reservations lapse into the health page's window 10 days
 * ahead.
 */
import { STORE_APP_DIR, useAltaPayStore } from "../../tools/test-store/store-app/altapay-store"
import { storeSuites } from "../../tools/test-store/store-app/runner"
import chargebacks from "../admin/chargebacks.suite"
import operatorHealth from "../admin/operator-health.suite"
import reach from "../check/reach.suite"

jest.setTimeout(180_000)

useAltaPayStore({ callbackSources: ["127.0.0.1", "::1"], callbackProxies: ["127.0.0.1", "::1"], jobs: { expiryNoticeDays: 10 } as never })

storeSuites({
  cwd: STORE_APP_DIR,
  // Operator health first: it counts the posts the app has seen (kept in Medusa's cache, which a
  // database restore leaves alone), and the other suites post too.
  suites: { "operator health": operatorHealth, chargebacks, "altapay-check --reach": reach },
})
