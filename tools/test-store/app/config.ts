/**
 * Builds the medusa-config of the whole-app test store (medusaIntegrationTestRunner).
 *
 * Everything runs in-process: in-memory cache, event bus, workflow engine and locking (no Redis),
 * local file/notification providers, admin disabled (the runner forces that anyway). The database
 * URL is overwritten by the runner with its own per-suite database on the embedded Postgres.
 *
 * To add our plugin / provider (see integration-tests/setup/README.md):
 *   createTestAppConfig({
 *     paymentProviders: [{ resolve: ALTAPAY_PROVIDER_SOURCE, id: "altapay", options: {...} }],
 *     paymentDependencies: [ContainerRegistrationKeys.QUERY],   // optional, design §2 (B)
 *     plugins: [{ resolve: REPO_ROOT, options: {...} }],        // needs `npm run build` first
 *   })
 */
import path from "node:path"
import { defineConfig } from "@medusajs/framework/utils"

/** Repository root (the medusa-payment-altapay package). */
export const REPO_ROOT = path.resolve(__dirname, "../../..")

/**
 * The AltaPay provider's TypeScript source. jest's @swc/jest transform loads it directly, so
 * provider tests need no build. (Medusa resolves a provider `resolve` path with require().)
 */
export const ALTAPAY_PROVIDER_SOURCE = path.join(REPO_ROOT, "src/providers/altapay")

type ModuleProviderEntry = { resolve: string; id: string; options?: Record<string, unknown> }
type PluginEntry = string | { resolve: string; options?: Record<string, unknown> }
type ModuleEntry = { resolve?: string; key?: string; options?: Record<string, unknown>; [k: string]: unknown }

export interface TestAppOptions {
  /** Extra Payment module providers; Medusa's `pp_system_default` is always there. */
  paymentProviders?: ModuleProviderEntry[]
  /** Payment module `dependencies` (e.g. ContainerRegistrationKeys.QUERY for design §2 (B)). */
  paymentDependencies?: string[]
  /** Extra/overriding modules, merged after the defaults (the last entry for a module wins). */
  modules?: ModuleEntry[]
  /**
   * Plugins (routes, subscribers, workflows, links, admin). Medusa loads a plugin from its
   * `.medusa/server/src` build output, so `{ resolve: REPO_ROOT }` needs `npm run build` first.
   */
  plugins?: PluginEntry[]
  /** Extra projectConfig.http settings (CORS etc.). */
  http?: Record<string, unknown>
}

const APP_DIR = __dirname

/**
 * defineConfig() always adds Medusa's default plugin `@medusajs/draft-order`, and the runner
 * resolves plugins from the app folder. In this repo npm installed it NESTED
 * (node_modules/@medusajs/medusa/node_modules/@medusajs/draft-order, an @medusajs/ui version
 * conflict), so from here it fails with: Unable to resolve plugin "@medusajs/draft-order".
 * Point such default plugins at their real folder (absolute paths are fine for Medusa), or drop
 * them with a warning if they are not installed at all.
 */
function fixDefaultPluginResolution(plugins: PluginEntry[]): PluginEntry[] {
  const out: PluginEntry[] = []
  for (const plugin of plugins) {
    const entry = typeof plugin === "string" ? { resolve: plugin, options: {} } : plugin
    if (!entry.resolve.startsWith("@medusajs/")) {
      out.push(plugin)
      continue
    }
    const searchFrom = [APP_DIR, path.dirname(require.resolve("@medusajs/medusa/package.json"))]
    const found = searchFrom
      .map((from) => {
        try {
          return path.dirname(require.resolve(`${entry.resolve}/package.json`, { paths: [from] }))
        } catch {
          return null
        }
      })
      .find(Boolean)
    if (found) {
      out.push({ ...entry, resolve: found })
    } else {
      // eslint-disable-next-line no-console
      console.warn(`[test app] default plugin ${entry.resolve} is not installed; leaving it out`)
    }
  }
  return out
}

export function createTestAppConfig(opts: TestAppOptions = {}) {
  const paymentModule = {
    resolve: "@medusajs/medusa/payment",
    ...(opts.paymentDependencies ? { dependencies: opts.paymentDependencies } : {}),
    options: { providers: opts.paymentProviders ?? [] },
  }

  const config = defineConfig({
    projectConfig: {
      // placeholder: medusaIntegrationTestRunner replaces it with its own database URL
      databaseUrl: process.env.DATABASE_URL ?? "postgres://localhost/medusa-test-placeholder",
      http: {
        jwtSecret: "test-jwt-secret",
        cookieSecret: "test-cookie-secret",
        storeCors: "*",
        adminCors: "*",
        authCors: "*",
        ...opts.http,
      } as any,
    },
    admin: { disable: true },
    // ---- modules: defaults of defineConfig() + these (array form; last entry wins) ----------
    modules: [paymentModule, ...(opts.modules ?? [])] as any,
    // ---- plugins ------------------------------------------------------------------------
    plugins: (opts.plugins ?? []) as any,
  })
  config.plugins = fixDefaultPluginResolution(config.plugins as PluginEntry[]) as any
  return config
}
