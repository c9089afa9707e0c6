/**
 * Smoke test of the test infrastructure: the Payment module alone (moduleIntegrationTestRunner)
 * on the embedded Postgres, with Medusa's built-in system provider (`pp_system_default`).
 * No AltaPay code involved: if this fails, the problem is the runner / Postgres / migrations.
 *
 * Template for module-level provider tests: add the provider under test to
 * `moduleOptions.providers`, e.g.
 *   { resolve: path.resolve(__dirname, "../../src/providers/altapay"), id: "altapay", options: {...} }
 * (the TypeScript source is loaded through jest's @swc/jest transform; no build needed).
 */
import { moduleIntegrationTestRunner } from "@medusajs/test-utils"
import { Modules } from "@medusajs/framework/utils"
import type { IPaymentModuleService } from "@medusajs/framework/types"
import * as PaymentModels from "@medusajs/payment/dist/models"

// Timings (ms) of the runner's per-test work, measured from a top-level beforeEach, which jest runs
// before the runner's own (nested) beforeEach: setupDatabase (migrations) -> initModules.
const timings: Record<string, number[]> = { migrate: [], moduleInit: [], teardown: [] }
let t0 = 0
const suiteStart = Date.now()
beforeEach(() => {
  t0 = Date.now()
})
let testEnd = 0
afterEach(() => {
  // top-level afterEach runs after the runner's (drop schema + module shutdown)
  timings.teardown.push(Date.now() - testEnd)
})
afterAll(() => {
  // eslint-disable-next-line no-console
  console.log(`[smoke] moduleIntegrationTestRunner (Payment): ${JSON.stringify(timings)} ms; ` + `whole file ${Date.now() - suiteStart} ms`)
})
let initDone = 0

moduleIntegrationTestRunner<IPaymentModuleService>({
  moduleName: Modules.PAYMENT,
  resolve: "@medusajs/payment",
  moduleModels: Object.values(PaymentModels),
  moduleOptions: { providers: [] },
  hooks: {
    beforeModuleInit: async () => {
      initDone = Date.now()
      timings.migrate.push(initDone - t0)
    },
    afterModuleInit: async () => {
      timings.moduleInit.push(Date.now() - initDone)
    },
  },
  testSuite: ({ service }) => {
    it("lists the built-in system provider", async () => {
      const providers = await service.listPaymentProviders()
      expect(providers.map((p) => p.id)).toContain("pp_system_default")
      testEnd = Date.now()
    })

    it("creates a collection and a system session, and authorizes it", async () => {
      const collection = await service.createPaymentCollections({
        currency_code: "dkk",
        amount: 123.45,
      })
      expect(collection.id).toMatch(/^pay_col_/)

      const session = await service.createPaymentSession(collection.id, {
        provider_id: "pp_system_default",
        currency_code: "dkk",
        amount: 123.45,
        data: {},
      })
      expect(session.id).toMatch(/^payses_/)
      expect(session.status).toBe("pending")

      const payment = await service.authorizePaymentSession(session.id, {})
      expect(payment).toBeTruthy()
      expect(payment!.provider_id).toBe("pp_system_default")
      expect(Number(payment!.amount)).toBe(123.45)

      const [reloaded] = await service.listPaymentSessions({ id: session.id })
      expect(reloaded.status).toBe("authorized")
      testEnd = Date.now()
    })
  },
})
