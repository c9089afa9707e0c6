/**
 * jest globalSetup of the "integration" project: starts ONE embedded Postgres for the whole run
 * and publishes DB_HOST/DB_PORT/DB_USERNAME/DB_PASSWORD through process.env (inherited by the
 * test environment and by any jest workers, which are spawned after this runs).
 *
 * Jest only runs a project's globalSetup when that project has test files in the run, so
 * `npx jest test/altapay/xml.test.ts` never starts Postgres.
 */
import { startPostgres, type RunningPostgres } from "../../tools/test-store/postgres"

declare global {
  // shared with global-teardown.ts (same process)
  // eslint-disable-next-line no-var
  var __ALTAPAY_IT_POSTGRES__: RunningPostgres | undefined
}

export default async function globalSetup(): Promise<void> {
  if (globalThis.__ALTAPAY_IT_POSTGRES__) return // watch mode re-runs
  // no analytics banner / telemetry calls from test runs
  process.env.MEDUSA_DISABLE_TELEMETRY ??= "true"
  // Medusa's logger (winston) defaults to "http": ~550 info lines per app boot (every migration).
  // Run with LOG_LEVEL=info (or debug) to see them.
  process.env.LOG_LEVEL ??= "error"
  try {
    globalThis.__ALTAPAY_IT_POSTGRES__ = await startPostgres()
  } catch (e) {
    const msg = e instanceof Error ? e.message : String(e)
    // eslint-disable-next-line no-console
    console.error(`\n[integration-tests] Could not start the test Postgres, so no integration test can run.\n${msg}\n`)
    throw e
  }
}
