/**
 * medusaIntegrationTestRunner with one migrated database per app folder and jest process.
 *
 * Migrating a fresh database (every module, links, search indexes) is about half of each spec's
 * Medusa boot. The first spec of a jest process that boots an app folder keeps its database, as
 * it stands after the boot, as a Postgres template; every later spec of that folder starts from a
 * copy of it, so Medusa finds every migration applied and every link in place. Medusa still runs
 * its migration and link checks on that copy: a migration missing from the template (a module
 * only one config has) is applied as on a fresh database.
 *
 * The template's name carries the process id: two lanes sharing one external Postgres
 * (ALTAPAY_TEST_DATABASE=external) never share a template; global-teardown.ts drops this
 * process's templates.
 */
import { medusaIntegrationTestRunner } from "@medusajs/test-utils"
import { createPostgresDatabaseTemplate } from "@medusajs/test-utils/dist/medusa-test-runner-utils/postgres-template"
import { createHash, randomUUID } from "node:crypto"
import fs from "node:fs"
import { Client } from "@medusajs/framework/pg"
import { eventsSettled, watchEvents } from "./events-settled"

type RunnerConfig = Parameters<typeof medusaIntegrationTestRunner>[0]

/** Every template this module makes starts with this, then the jest process id. */
export const MIGRATED_TEMPLATE_PREFIX = "altapay-migrated-"

/** The template of an app folder in this process (Postgres names: at most 63 bytes). */
export function migratedTemplateName(cwd: string, pid = process.pid): string {
  return `${MIGRATED_TEMPLATE_PREFIX}${pid}-${createHash("sha256").update(cwd).digest("hex").slice(0, 16)}`
}

/** A client on the maintenance database, as test-utils connects when it creates databases. */
export async function maintenanceClient(): Promise<Client> {
  const client = new Client({
    host: process.env.DB_HOST ?? "localhost",
    port: Number(process.env.DB_PORT ?? 5432),
    user: process.env.DB_USERNAME ?? "postgres",
    password: process.env.DB_PASSWORD || undefined,
    database: process.env.DB_WAITINGROOM_DATABASE ?? "postgres",
  })
  await client.connect()
  return client
}

const quoted = (name: string) => `"${name.replace(/"/g, '""')}"`

/** Creates `database` as a copy of `template` when the template exists; says whether it did. */
async function copyTemplate(database: string, template: string): Promise<boolean> {
  const client = await maintenanceClient()
  try {
    const { rowCount } = await client.query("SELECT 1 FROM pg_database WHERE datname = $1", [template])
    if (!rowCount) return false
    await client.query(`CREATE DATABASE ${quoted(database)} WITH TEMPLATE ${quoted(template)}`)
    return true
  } finally {
    await client.end()
  }
}

/**
 * Use instead of medusaIntegrationTestRunner, with the same options. The suite sees the runner's
 * own options; its beforeAll hooks run after the template is kept and eventsSettled() counts the
 * app's webhook runs.
 */
export function storeTestRunner(config: RunnerConfig): ReturnType<typeof medusaIntegrationTestRunner> {
  const cwd = config.cwd ?? process.cwd()
  const template = migratedTemplateName(cwd)
  const dbName = config.dbName ?? `medusa-altapay-${randomUUID().slice(0, 8)}-integration`
  let copied = false
  return medusaIntegrationTestRunner({
    ...config,
    dbName,
    hooks: {
      ...config.hooks,
      beforeServerStart: async (container) => {
        copied = await copyTemplate(dbName, template)
        await config.hooks?.beforeServerStart?.(container)
      },
    },
    testSuite: (options) => {
      beforeAll(async () => {
        watchEvents(options.getContainer())
        if (!copied) await createPostgresDatabaseTemplate({ databaseName: dbName, templateName: template })
      })
      config.testSuite(options)
    },
  })
}

/** A suite that a group spec runs on its shared app: a `*.suite.ts` module's default export. */
export interface StoreSuite {
  testSuite: RunnerConfig["testSuite"]
}

/** Declares a suite module (kept in the shape of a runner call, so a spec moves into a group unchanged). */
export function storeSuite(suite: StoreSuite): StoreSuite {
  return suite
}

/**
 * With ALTAPAY_SUITE_TIMES set (scripts/test-integration.js sets it), appends a suite's seconds (its
 * restore, set-up and tests) to that file, one JSON line each: a group spec's time is split by suite.
 */
function recordSuiteTime(suite: string, ms: number): void {
  const file = process.env.ALTAPAY_SUITE_TIMES
  if (file) fs.appendFileSync(file, `${JSON.stringify({ spec: expect.getState().testPath, suite, seconds: ms / 1000 })}\n`)
}

/**
 * Several suites on one Medusa app: every spec whose store has the same options shares one boot.
 * Each suite starts from the migrated database as the boot left it, runs its own beforeAll set-up
 * (admin, seed), and the runner keeps that as the template its tests start from, as it does for a
 * spec of its own. What the app keeps in memory (the cache module, the sandbox's ledger) carries
 * over from suite to suite, as it does from test to test.
 */
export function storeSuites(config: Omit<RunnerConfig, "testSuite"> & { suites: Record<string, StoreSuite> }): ReturnType<typeof medusaIntegrationTestRunner> {
  const { suites, ...runnerConfig } = config
  const blank = migratedTemplateName(config.cwd ?? process.cwd())
  return storeTestRunner({
    ...runnerConfig,
    testSuite: (options) => {
      for (const [name, suite] of Object.entries(suites)) {
        describe(name, () => {
          let started = 0
          beforeAll(() => {
            started = Date.now()
            return options.dbUtils.restore({ templateName: blank })
          })
          suite.testSuite(options)
          // Registered after the suite's own beforeAll hooks, so it runs after them.
          beforeAll(() => options.dbUtils.snapshot())
          // What the suite's callbacks and subscribers still do belongs to it, not to the next suite.
          afterAll(async () => {
            await eventsSettled(options.getContainer())
            recordSuiteTime(name, Date.now() - started)
          })
        })
      }
    },
  })
}
