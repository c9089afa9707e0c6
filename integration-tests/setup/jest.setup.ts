// setupFilesAfterEnv of the "integration" project.

// Medusa runners boot modules, run migrations and copy template databases, so hooks and tests
// need far more than jest's 5 s default. A --testTimeout on the command line still wins.
const DEFAULT_INTEGRATION_TIMEOUT_MS = 120_000
if (!process.argv.some((a) => a.startsWith("--testTimeout"))) {
  jest.setTimeout(DEFAULT_INTEGRATION_TIMEOUT_MS)
}

// medusaIntegrationTestRunner restores the database from a template before every test, which
// terminates the app's pooled connections; knex then console.logs one
// "Connection Error: Connection ended unexpectedly" per dropped connection. That is expected
// and harmless (the pool reconnects), so hide exactly that line unless ALTAPAY_TEST_DEBUG is set.
if (!process.env.ALTAPAY_TEST_DEBUG) {
  const original = console.log.bind(console)
  console.log = (...args: unknown[]) => {
    if (
      args.length === 1 &&
      typeof args[0] === "string" &&
      args[0].includes("Connection Error: Connection ended unexpectedly")
    ) {
      return
    }
    original(...args)
  }
}
