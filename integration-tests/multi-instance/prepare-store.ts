/**
 * Child-process helper of two-servers.spec.ts (jest's modulePathIgnorePatterns hides demo/ from
 * specs, so the demo's own code runs here, outside jest):
 *
 *   node --require demo/register-ts.js integration-tests/multi-instance/prepare-store.ts <out.json>
 *
 * Does what `npm run demo` does before it boots Medusa, with the demo's own functions: builds the
 * plugin when stale, links it into demo/node_modules, runs `medusa db:migrate` and the demo seed
 * (`medusa exec ./src/scripts/seed.ts`) in demo/. Then writes `{ seed, env }` to <out.json>: the
 * seed (publishable key, region, admin login...) and the environment demo/medusa-config.ts reads,
 * which the spec reuses for its two `medusa start` servers.
 *
 * Reads: DEMO_DATA_DIR (logs, seed file), DATABASE_URL (an existing, empty database),
 * ALTAPAY_SANDBOX_URL, REDIS_URL (passed through to Medusa: Redis modules).
 * Medusa's output goes to <DEMO_DATA_DIR>/medusa.log.
 */
import fs from "node:fs"
import { installPluginIntoDemo } from "../../demo/lib/install"
import { readSeed } from "../../demo/lib/database"
import { medusaEnv, runMedusa } from "../../demo/lib/medusa"
import { pluginBuildIsFresh } from "../../demo/lib/plugin-build"
import { DEMO_DIR, REPO_ROOT, readSettings } from "../../demo/lib/settings"

export interface PreparedStore {
  seed: NonNullable<ReturnType<typeof readSeed>>
  env: Record<string, string>
  timings: Record<string, number>
}

function required(name: string): string {
  const value = process.env[name]
  if (!value) throw new Error(`prepare-store: ${name} is not set.`)
  return value
}

async function timed(timings: Record<string, number>, name: string, job: () => Promise<void>): Promise<void> {
  const started = Date.now()
  await job()
  timings[name] = Date.now() - started
}

async function main(out: string | undefined): Promise<void> {
  if (!out) throw new Error("usage: prepare-store.ts <out.json>")
  const settings = readSettings([])
  const databaseUrl = required("DATABASE_URL")
  const sandboxUrl = required("ALTAPAY_SANDBOX_URL")
  required("REDIS_URL")
  fs.mkdirSync(settings.dataDir, { recursive: true })
  const timings: Record<string, number> = {}

  if (!pluginBuildIsFresh()) await timed(timings, "pluginBuild", () => runMedusa(["plugin:build"], { cwd: REPO_ROOT, env: process.env, settings }))
  installPluginIntoDemo()

  const env = medusaEnv({ settings, databaseUrl, sandboxUrl })
  const inDemo = { cwd: DEMO_DIR, env, settings }
  await timed(timings, "migrate", () => runMedusa(["db:migrate"], inDemo))
  await timed(timings, "seed", () => runMedusa(["exec", "./src/scripts/seed.ts"], inDemo))
  const seed = readSeed(settings.dataDir)
  if (!seed) throw new Error(`The demo seed wrote no seed file; see ${settings.dataDir}/medusa.log.`)

  const defined = Object.fromEntries(Object.entries(env).filter((entry): entry is [string, string] => typeof entry[1] === "string"))
  const prepared: PreparedStore = { seed, env: defined, timings }
  fs.writeFileSync(out, JSON.stringify(prepared))
}

main(process.argv[2]).then(
  () => process.exit(0),
  (error: unknown) => {
    console.error(error instanceof Error ? error.message : String(error))
    process.exit(1)
  }
)
