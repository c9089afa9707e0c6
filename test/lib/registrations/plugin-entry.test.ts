/**
 * The plugin entry (`plugins: [...]` in medusa-config) brings the customer return endpoint, the
 * saved-card return, the admin routes and the jobs; the provider is a `modules` entry and loads
 * without it. Issue 33: with successUrl set and no plugin, AltaPay's return post got a 404 after
 * the customer paid. The provider's loader now asks Medusa's own getResolvedPlugins, from the
 * directory Medusa starts in, whether a plugin (or the store's own src) holds the return endpoint:
 * refused at start-up when the registration gives AltaPay that endpoint (or has saved cards on),
 * a warning otherwise.
 *
 * The stores here are folders made for the test: a store without the plugin, one with a package
 * named medusa-payment-altapay laid out as `medusa plugin:build` lays it out, and this repository
 * (whose own src holds the routes, as in the integration tests' app folders).
 */
import { MedusaAppMigrateUp, MedusaModule } from "@medusajs/framework/modules-sdk"
import type { ConfigModule } from "@medusajs/framework/types"
import { ContainerRegistrationKeys, createMedusaContainer } from "@medusajs/framework/utils"
import { asValue } from "@medusajs/framework/awilix"
import fs from "node:fs"
import os from "node:os"
import path from "node:path"
import { findPluginRoutes, needsOfPlugin, RETURN_ROUTE } from "../../../src/lib/registrations/plugin-entry"
import { parseAltaPayOptions, type AltaPayOptions } from "../../../src/lib/registrations/options"

const REPO = path.join(__dirname, "..", "..", "..")
const PROVIDER = path.join(REPO, "src", "providers", "altapay", "index.ts")

const base = (extra: Record<string, unknown> = {}): Record<string, unknown> => ({
  checkoutUrl: "https://testgateway.altapaysecure.com",
  gatewayUrl: "https://testgateway.altapaysecure.com",
  username: "shop-api-user",
  password: "shop-api-password",
  backendUrl: "https://shop.example",
  paymentDataSecret: "plugin-entry-test-payment-data-secret-0123456789",
  ...extra,
})
const RETURNS = { successUrl: "https://store.example/landing?outcome={outcome}", failureUrl: "https://store.example/landing?outcome={outcome}" }

const config = (plugins: unknown[]): ConfigModule => ({ projectConfig: {}, plugins, modules: {} }) as unknown as ConfigModule
const parsed = (raw: Record<string, unknown>): AltaPayOptions => (parseAltaPayOptions(raw) as { options: AltaPayOptions }).options

let tmp: string
/** A store folder without the plugin; its node_modules is this repository's, so Medusa resolves from it. */
let bareStore: string
/** A store folder with the plugin installed as a package, built (and Medusa's packages). */
let storeWithPlugin: string

beforeAll(() => {
  tmp = fs.mkdtempSync(path.join(os.tmpdir(), "altapay-plugin-entry-"))
  bareStore = path.join(tmp, "bare")
  fs.mkdirSync(bareStore)
  fs.symlinkSync(path.join(REPO, "node_modules"), path.join(bareStore, "node_modules"), "dir")
  storeWithPlugin = path.join(tmp, "with-plugin")
  const pkg = path.join(storeWithPlugin, "node_modules", "medusa-payment-altapay")
  fs.mkdirSync(path.join(pkg, ".medusa", "server", "src", RETURN_ROUTE), { recursive: true })
  fs.writeFileSync(path.join(pkg, "package.json"), JSON.stringify({ name: "medusa-payment-altapay", version: "0.0.0" }))
  fs.writeFileSync(path.join(pkg, ".medusa", "server", "src", RETURN_ROUTE, "route.js"), "")
  fs.symlinkSync(path.join(REPO, "node_modules", "@medusajs"), path.join(storeWithPlugin, "node_modules", "@medusajs"), "dir")
})
afterAll(() => fs.rmSync(tmp, { recursive: true, force: true }))

describe("where Medusa would find the plugin's return endpoint", () => {
  it("this repository's own src holds it (the route file the check looks for exists)", async () => {
    expect(fs.existsSync(path.join(REPO, "src", RETURN_ROUTE, "route.ts"))).toBe(true)
    expect(await findPluginRoutes(config([]), REPO)).toEqual({ found: true, at: path.join(REPO, "src") })
  })

  it("a store with the plugin in `plugins` (a string or an entry with options) has it from the package's build", async () => {
    const at = path.join(storeWithPlugin, "node_modules", "medusa-payment-altapay", ".medusa", "server", "src")
    expect(await findPluginRoutes(config(["medusa-payment-altapay"]), storeWithPlugin)).toEqual({ found: true, at })
    expect(await findPluginRoutes(config([{ resolve: "medusa-payment-altapay", options: {} }]), storeWithPlugin)).toEqual({ found: true, at })
  })

  it("a store without the plugin entry does not, even with the package installed", async () => {
    expect(await findPluginRoutes(config([]), storeWithPlugin)).toEqual({ found: false, searched: [path.join(storeWithPlugin, "src")] })
  })

  it("a plugin entry Medusa cannot resolve: cannot tell (Medusa itself stops on it)", async () => {
    expect(await findPluginRoutes(config(["medusa-plugin-nobody-installed"]), bareStore)).toMatchObject({ found: "unknown" })
  })
})

describe("what a registration loses without the plugin", () => {
  it("return URLs or saved cards: refused; otherwise a warning naming the jobs and admin", () => {
    expect(needsOfPlugin(parsed(base(RETURNS))).refuse).toEqual([expect.stringMatching(/^successUrl\/failureUrl: .*answer 404 after the customer paid/)])
    expect(needsOfPlugin(parsed(base({ savedCards: { enabled: true } }))).refuse).toEqual([expect.stringMatching(/^savedCards: /)])
    const plain = needsOfPlugin(parsed(base()))
    expect(plain.refuse).toEqual([])
    expect(plain.warn.join("; ")).toMatch(/follow-up job[\s\S]*payouts import[\s\S]*admin routes/)
    expect(needsOfPlugin(parsed(base({ payouts: { enabled: false } }))).warn.join("; ")).not.toMatch(/payouts/)
  })
})

/**
 * Medusa's migration entry point started in `cwd` with a config module of `plugins`: it runs the
 * provider's loader with the store's config module. Each run's options differ (Medusa keeps a
 * module's loading by its options, failed ones included).
 */
let runs = 0
async function migrateIn(cwd: string, plugins: unknown[], options: Record<string, unknown>): Promise<{ failure?: string; warnings: string[] }> {
  const container = createMedusaContainer()
  const warnings: string[] = []
  const log = (): void => undefined
  container.register(ContainerRegistrationKeys.LOGGER, asValue({ error: log, info: log, debug: log, log, warn: (m: unknown) => void warnings.push(String(m)) }))
  container.register(ContainerRegistrationKeys.CONFIG_MODULE, asValue(config(plugins)))
  const loading = (MedusaModule as unknown as { loading_: Map<string, Promise<unknown>> }).loading_
  const set = loading.set
  loading.set = function (key, promise) {
    promise.catch(() => undefined)
    return set.call(this, key, promise)
  }
  const cwdSpy = jest.spyOn(process, "cwd").mockReturnValue(cwd)
  try {
    const failure = await MedusaAppMigrateUp({
      sharedContainer: container,
      sharedResourcesConfig: { database: { clientUrl: "postgres://nobody@127.0.0.1:9/none", driverOptions: { connection: { connectTimeout: 500 } } } },
      modulesConfig: {
        payment: { resolve: "@medusajs/medusa/payment", options: { providers: [{ resolve: PROVIDER, id: "card", options: { ...options, terminal: `run ${++runs}` } }] } },
      },
    }).then(
      () => undefined,
      (error: unknown) => (error as { message?: string }).message ?? String(error)
    )
    return { failure, warnings }
  } finally {
    cwdSpy.mockRestore()
    loading.set = set
    MedusaModule.clearInstances()
  }
}

describe("at start-up, through Medusa's loading of the provider", () => {
  jest.setTimeout(30_000)

  it("return URLs and no plugin entry: Medusa stops with a message saying what to add", async () => {
    const { failure } = await migrateIn(bareStore, [], base(RETURNS))
    expect(failure).toMatch(
      /AltaPay: pp_altapay_card needs the plugin's routes, and this store does not load them: add plugins: \[\{ resolve: "medusa-payment-altapay", options: \{\} \}\] to medusa-config[\s\S]*successUrl\/failureUrl: AltaPay posts the customer's return/
    )
  })

  it("no return URLs and no plugin entry: it starts, with a warning", async () => {
    const { failure, warnings } = await migrateIn(bareStore, [], base())
    expect(failure ?? "").not.toMatch(/AltaPay/)
    expect(warnings.join("\n")).toMatch(/AltaPay: pp_altapay_card needs the plugin's routes[\s\S]*follow-up job/)
  })

  it("with the plugin entry: neither", async () => {
    const { failure, warnings } = await migrateIn(storeWithPlugin, [{ resolve: "medusa-payment-altapay", options: {} }], base(RETURNS))
    expect(failure ?? "").not.toMatch(/AltaPay/)
    expect(warnings.join("\n")).not.toMatch(/plugin's routes/)
  })
})
