/**
 * Smoke test of the whole-app runner: boots a complete Medusa app (all core modules, in-memory
 * infrastructure, real HTTP server) from integration-tests/setup/app/medusa-config.ts on the
 * embedded Postgres, and calls it through the runner's axios client.
 */
import path from "node:path"
import { medusaIntegrationTestRunner } from "@medusajs/test-utils"
import { Modules } from "@medusajs/framework/utils"

const APP_DIR = path.resolve(__dirname, "../setup/app")

const suiteStart = Date.now()
let bootMs = 0
afterAll(() => {
  // eslint-disable-next-line no-console
  console.log(
    `[smoke] medusaIntegrationTestRunner: boot (db + migrations + links + app) ${bootMs} ms; ` +
      `whole file ${Date.now() - suiteStart} ms`
  )
})

medusaIntegrationTestRunner({
  cwd: APP_DIR,
  testSuite: ({ api, getContainer }) => {
    beforeAll(() => {
      bootMs = Date.now() - suiteStart
    })

    it("answers GET /health", async () => {
      const res = await api.get("/health")
      expect(res.status).toBe(200)
      expect(res.data).toBe("OK")
    })

    it("has the Payment module with the system provider", async () => {
      const payment = getContainer().resolve(Modules.PAYMENT)
      const providers = await payment.listPaymentProviders()
      expect(providers.map((p: { id: string }) => p.id)).toContain("pp_system_default")
    })

    it("serves the store API (rejects a request without a publishable key)", async () => {
      const res = await api.get("/store/regions", { validateStatus: () => true })
      expect(res.status).toBe(400)
    })
  },
})
