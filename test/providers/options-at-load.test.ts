/**
 * Invalid provider options stop `medusa db:migrate`, not only `medusa start`: Medusa plans
 * migrations with a partial load of the Payment module that never calls the provider's static
 * validateOptions, but runs the provider's own loaders. This drives Medusa's own migration entry
 * point (`MedusaAppMigrateUp`, what `medusa db:migrate` runs) with the provider from its sources.
 */
import { MedusaAppMigrateUp, MedusaModule } from "@medusajs/framework/modules-sdk"
import { ContainerRegistrationKeys, createMedusaContainer } from "@medusajs/framework/utils"
import { asValue } from "@medusajs/framework/awilix"
import path from "node:path"

const provider = path.join(__dirname, "..", "..", "src", "providers", "altapay", "index.ts")

function migrateWith(options: Record<string, unknown>): Promise<void> {
  const container = createMedusaContainer()
  const logged: string[] = []
  const log = (message: unknown): void => void logged.push(String(message))
  container.register(ContainerRegistrationKeys.LOGGER, asValue({ error: log, warn: log, info: log, debug: log, log }))
  return MedusaAppMigrateUp({
    sharedContainer: container,
    // Nothing listens here: a run that got past loading the modules fails on the connection instead.
    sharedResourcesConfig: { database: { clientUrl: "postgres://nobody@127.0.0.1:9/none", driverOptions: { connection: { connectTimeout: 500 } } } },
    modulesConfig: {
      payment: { resolve: "@medusajs/medusa/payment", options: { providers: [{ resolve: provider, id: "altapay", options }] } },
    },
  }).finally(() => MedusaModule.clearInstances())
}

describe("invalid provider options at migration time", () => {
  it("stop Medusa's migrations with the list of problems, before any database work", async () => {
    // Medusa rejects with a plain { name, message } object (ModuleProviderError), not an Error, and
    // also rejects its module's cached loading promise, which nothing awaits (`medusa db:migrate`
    // exits 1 before that matters). Handled here so that jest does not count it against the test.
    const loading = (MedusaModule as unknown as { loading_: Map<string, Promise<unknown>> }).loading_
    const set = loading.set
    loading.set = function (key, promise) {
      promise.catch(() => undefined)
      return set.call(this, key, promise)
    }
    let failure: { message?: string } | undefined
    try {
      failure = await migrateWith({ checkoutUrl: "https://altapay.example", username: "u" }).then(
        () => undefined,
        (error: unknown) => error as { message?: string }
      )
    } finally {
      loading.set = set
    }
    expect(failure?.message).toMatch(/AltaPay provider options are invalid:[\s\S]*- gatewayUrl[\s\S]*- password/)
  }, 30_000)
})
