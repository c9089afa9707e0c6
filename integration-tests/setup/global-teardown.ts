/** jest globalTeardown of the "integration" project: stops Postgres and removes its data dir. */
import { MIGRATED_TEMPLATE_PREFIX, maintenanceClient } from "../../tools/test-store/store-app/runner"

/** On an external Postgres (the embedded one goes whole): this process's migrated templates. */
async function dropMigratedTemplates(): Promise<void> {
  const client = await maintenanceClient()
  try {
    const { rows } = await client.query("SELECT datname FROM pg_database WHERE datname LIKE $1", [`${MIGRATED_TEMPLATE_PREFIX}${process.pid}-%`])
    for (const { datname } of rows as Array<{ datname: string }>) await client.query(`DROP DATABASE IF EXISTS "${datname}"`)
  } finally {
    await client.end()
  }
}

export default async function globalTeardown(): Promise<void> {
  const pg = globalThis.__ALTAPAY_IT_POSTGRES__
  globalThis.__ALTAPAY_IT_POSTGRES__ = undefined
  if (!pg) return
  try {
    if (process.env.ALTAPAY_TEST_DATABASE === "external") await dropMigratedTemplates()
    await pg.stop()
  } catch (e) {
    // eslint-disable-next-line no-console
    console.warn(`[integration-tests] stopping the test Postgres failed: ${(e as Error)?.message ?? e}`)
  }
}
