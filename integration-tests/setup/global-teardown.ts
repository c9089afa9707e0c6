/** jest globalTeardown of the "integration" project: stops Postgres and removes its data dir. */
export default async function globalTeardown(): Promise<void> {
  const pg = globalThis.__ALTAPAY_IT_POSTGRES__
  globalThis.__ALTAPAY_IT_POSTGRES__ = undefined
  if (!pg) return
  try {
    await pg.stop()
  } catch (e) {
    // eslint-disable-next-line no-console
    console.warn(`[integration-tests] stopping the test Postgres failed: ${(e as Error)?.message ?? e}`)
  }
}
