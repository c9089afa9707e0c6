/**
 * A medusa-config example file evaluated as Medusa loads one (it reads process.env when it is
 * evaluated), with exactly the environment a test gives: every store variable the examples read
 * is cleared first and restored after.
 */
import path from "node:path"

export const REPO = path.join(__dirname, "..", "..")

/** The store variables the example configs read (NODE_ENV too: production needs STORE_URL). */
const ENV_KEYS = [
  "ALTAPAY_CHECKOUT_URL",
  "ALTAPAY_GATEWAY_URL",
  "ALTAPAY_ALLOW_INSECURE_URLS",
  "ALTAPAY_USERNAME",
  "ALTAPAY_PASSWORD",
  "ALTAPAY_TERMINAL",
  "ALTAPAY_MOBILEPAY_TERMINAL",
  "ALTAPAY_CARD_TERMINAL",
  "ALTAPAY_CALLBACK_SECRET",
  "ALTAPAY_PAYMENT_DATA_SECRET",
  "ALTAPAY_LANGUAGE",
  "ALTAPAY_COUNTRY",
  "MEDUSA_BACKEND_URL",
  "STORE_URL",
  "NODE_ENV",
]

/** The local sandbox (`npx altapay-sandbox --port 8787`) and its two terminals, as the README's sandbox lines set the env. */
export const SANDBOX_ENV = {
  ALTAPAY_CHECKOUT_URL: "http://127.0.0.1:8787",
  ALTAPAY_ALLOW_INSECURE_URLS: "true",
  ALTAPAY_USERNAME: "sandbox",
  ALTAPAY_PASSWORD: "sandbox",
  ALTAPAY_TERMINAL: "AltaPay Sandbox Test Terminal",
  ALTAPAY_MOBILEPAY_TERMINAL: "MobilePay Sandbox Terminal",
  ALTAPAY_CALLBACK_SECRET: "sandbox-callback-secret",
  MEDUSA_BACKEND_URL: "http://localhost:9000",
  STORE_URL: "http://localhost:8000",
}

export interface ProviderEntry {
  resolve: string
  id?: string
  options: Record<string, unknown>
}

export interface ExampleConfig {
  plugins?: unknown[]
  /** defineConfig keys the modules by name. */
  modules?: Record<string, { resolve?: string; options?: { providers?: ProviderEntry[] } }>
}

/** What the examples import: Medusa's utils, which read the environment only when called (defineConfig, loadEnv). */
const MEDUSA_UTILS = "@medusajs/framework/utils"

/**
 * `file` (relative to the repository) evaluated afresh with exactly `env` of the store variables.
 * Medusa's utils are the test file's one copy, not evaluated again with the file (that took about a
 * second a load): they read the environment when called, and the file calls them afresh.
 */
export function loadExampleConfig(file: string, env: Record<string, string>): ExampleConfig {
  const saved = Object.fromEntries(ENV_KEYS.map((key) => [key, process.env[key]]))
  for (const key of ENV_KEYS) delete process.env[key]
  Object.assign(process.env, env)
  // eslint-disable-next-line @typescript-eslint/no-require-imports
  const utils: unknown = require(MEDUSA_UTILS)
  try {
    let config: ExampleConfig = {}
    jest.isolateModules(() => {
      jest.doMock(MEDUSA_UTILS, () => utils)
      // eslint-disable-next-line @typescript-eslint/no-require-imports
      config = require(path.join(REPO, file))
    })
    return config
  } finally {
    jest.dontMock(MEDUSA_UTILS)
    for (const key of ENV_KEYS) {
      if (saved[key] === undefined) delete process.env[key]
      else process.env[key] = saved[key]
    }
  }
}

/** The config's AltaPay provider entries in the Payment module. */
export function altapayEntries(config: ExampleConfig): ProviderEntry[] {
  const payment = Object.values(config.modules ?? {}).find((module) => module.resolve === "@medusajs/medusa/payment")
  return (payment?.options?.providers ?? []).filter((p) => p.resolve === "medusa-payment-altapay/providers/altapay")
}
