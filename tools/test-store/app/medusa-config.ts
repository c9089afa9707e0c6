/**
 * medusa-config of the whole-app test store. medusaIntegrationTestRunner({ cwd: <this folder> })
 * require()s `<cwd>/medusa-config` (jest transforms the .ts), loads `<cwd>/src` as the project's
 * own extensions (there is none here), and resolves plugins from <cwd>.
 *
 * Add our provider / plugin HERE (all suites using this folder get it), or create another folder
 * with its own medusa-config.ts calling createTestAppConfig() and pass that folder as `cwd`.
 * The file is loaded in the runner's beforeAll, after the spec's top-level code ran, so options
 * may come from process.env set at the top of a spec (e.g. the sandbox URL). The runner's `env`
 * option is applied only AFTER this file is loaded, so it cannot feed options here.
 */
import { createTestAppConfig } from "./config"

export default createTestAppConfig({
  // Payment module providers, e.g.:
  //   { resolve: ALTAPAY_PROVIDER_SOURCE, id: "altapay", options: { ... } }  -> pp_altapay_altapay
  paymentProviders: [],
  // Plugins, e.g. { resolve: REPO_ROOT, options: { ... } } (needs `npm run build`).
  plugins: [],
})
