/**
 * Everything the demo can be told through its command line and environment, resolved once.
 * The Medusa app gets the same values through its environment (see medusaEnv in ./medusa.ts).
 */
import path from "node:path"

export const DEMO_DIR = path.resolve(__dirname, "..")
export const REPO_ROOT = path.resolve(DEMO_DIR, "..")

export interface DemoSettings {
  /** Exit (code 0) after the checkout flow instead of serving the store. */
  once: boolean
  /** Throw the data folder away first (new database, new seed). */
  fresh: boolean
  /** Print Medusa's own output instead of keeping it in <dataDir>/medusa.log. */
  verbose: boolean
  /** Holds Postgres' data, the seed's result and the logs (git-ignored). */
  dataDir: string
  ports: { medusa: number; postgres: number; sandbox: number }
  /** The storefront AltaPay sends customers back to (successUrl / failureUrl base). */
  storeUrl: string
  /** Serve the admin UI (/app). Off with --once unless DEMO_ADMIN=true. */
  admin: boolean
  altapay: { username: string; password: string; callbackSecret: string; terminal: string }
  adminLogin: { email: string; password: string }
}

const USAGE = `Usage: npm run demo [-- --once] [-- --fresh] [-- --verbose]
  --once     run the checkout flow once, then stop everything and exit
  --fresh    start from an empty database (deletes demo/.data)
  --verbose  show Medusa's output (otherwise in demo/.data/medusa.log)
Environment: DEMO_MEDUSA_PORT (9000), DEMO_POSTGRES_PORT (5433), DEMO_SANDBOX_PORT (8787),
  DEMO_DATA_DIR (demo/.data), DEMO_ADMIN (true unless --once),
  STORE_URL (http://localhost:8000: the storefront AltaPay sends customers back to)`

export class UsageError extends Error {}

function port(env: NodeJS.ProcessEnv, name: string, fallback: number): number {
  const raw = env[name]
  if (raw === undefined || raw === "") return fallback
  const value = Number(raw)
  if (!Number.isInteger(value) || value < 1 || value > 65535) throw new UsageError(`${name}=${raw} is not a port number (1-65535).`)
  return value
}

export function readSettings(argv: string[], env: NodeJS.ProcessEnv = process.env): DemoSettings {
  const flags = new Set(argv)
  for (const flag of flags) {
    if (flag === "--help" || flag === "-h") throw new UsageError(USAGE)
    if (!["--once", "--fresh", "--verbose"].includes(flag)) throw new UsageError(`Unknown option ${flag}.\n${USAGE}`)
  }
  const once = flags.has("--once")
  return {
    once,
    fresh: flags.has("--fresh"),
    verbose: flags.has("--verbose"),
    dataDir: path.resolve(env.DEMO_DATA_DIR || path.join(DEMO_DIR, ".data")),
    ports: {
      medusa: port(env, "DEMO_MEDUSA_PORT", 9000),
      postgres: port(env, "DEMO_POSTGRES_PORT", 5433),
      sandbox: port(env, "DEMO_SANDBOX_PORT", 8787),
    },
    storeUrl: (env.STORE_URL || "http://localhost:8000").replace(/\/$/, ""),
    admin: env.DEMO_ADMIN ? env.DEMO_ADMIN !== "false" : !once,
    altapay: {
      username: "demo-shop@altapay.demo",
      password: "demo-sandbox-password",
      callbackSecret: "demo-callback-secret-0123456789",
      terminal: "AltaPay Sandbox Test Terminal",
    },
    adminLogin: { email: "admin@altapay.demo", password: "altapay-demo" },
  }
}
