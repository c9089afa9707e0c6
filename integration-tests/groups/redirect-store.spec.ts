/** The suites of the redirect flow (AltaPay's hosted page, the return endpoint) on one Medusa app. */
import { STORE_APP_DIR, useAltaPayStore } from "../../tools/test-store/store-app/altapay-store"
import { storeSuites } from "../../tools/test-store/store-app/runner"
import redirectFlow from "../storefront/redirect-flow.suite"
import returnEndpoint from "../storefront/return-endpoint.suite"

jest.setTimeout(180_000)

useAltaPayStore({ flow: "redirect" })

storeSuites({
  cwd: STORE_APP_DIR,
  suites: { "redirect flow": redirectFlow, "return endpoint": returnEndpoint },
})
