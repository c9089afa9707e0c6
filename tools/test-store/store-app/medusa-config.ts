/**
 * The whole-app test store WITH AltaPay: our provider (TypeScript source, no build) as
 * pp_altapay_altapay, pointed at the spec's sandbox, and our plugin's routes.
 *
 * Routes, workflows, subscribers: the runner's `cwd` is STORE_APP_DIR (<repo>/.cache/altapay-store-app,
 * made by ./altapay-store), whose `src` is a symlink to the repository's `src` and whose
 * medusa-config.js requires this file. Medusa serves `<cwd>/src` as the project's own extensions,
 * so our routes and middlewares.ts run straight from TypeScript source through jest's transform.
 * No `medusa plugin:build` needed.
 *
 * Use: call `useAltaPayStore()` (./altapay-store) at the top of the spec, then
 *   medusaIntegrationTestRunner({ cwd: STORE_APP_DIR, testSuite: ... })
 */
import { ContainerRegistrationKeys } from "@medusajs/framework/utils"
import path from "node:path"
import { ALTAPAY_PROVIDER_SOURCE, REPO_ROOT, createTestAppConfig } from "../app/config"
import { ALTAPAY_SAVED_CARDS_MODULE } from "../../../src/modules/altapay-saved-cards"
import { storeAltaPay } from "./altapay-store"

export default createTestAppConfig({
  modules: [
    {
      resolve: "@medusajs/medusa/payment",
      // Query lets the provider load carts itself when a session is made without our route, and list
      // saved cards; the saved-cards module lets Medusa's deletePaymentMethods reach them.
      dependencies: [ContainerRegistrationKeys.QUERY, ALTAPAY_SAVED_CARDS_MODULE],
      options: {
        providers: [{ resolve: ALTAPAY_PROVIDER_SOURCE, id: "altapay", options: storeAltaPay.options }],
      },
    },
    // The plugin's modules from source (a store gets them from the plugin's build, by itself).
    { resolve: path.join(REPO_ROOT, "src/modules/altapay-payouts") },
    { resolve: path.join(REPO_ROOT, "src/modules/altapay-saved-cards") },
  ],
})
