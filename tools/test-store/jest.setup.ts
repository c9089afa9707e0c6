// setupFilesAfterEnv of the "integration" project.

// Medusa runners boot modules, run migrations and copy template databases, so hooks and tests
// need far more than jest's 5 s default. A --testTimeout on the command line still wins.
const DEFAULT_INTEGRATION_TIMEOUT_MS = 120_000
if (!process.argv.some((a) => a.startsWith("--testTimeout"))) {
  jest.setTimeout(DEFAULT_INTEGRATION_TIMEOUT_MS)
}

// medusaIntegrationTestRunner restores the database from a template before every test, which
// terminates the app's pooled connections; knex then logs (console.log, via Logger#warn) one
// "Connection Error: Connection ended unexpectedly" per dropped connection. That is expected
// and harmless (the pool reconnects), so drop exactly that warning unless ALTAPAY_TEST_DEBUG is
// set. Patched on knex's Logger (this test file's module registry), not on console.log, so jest
// still shows the real origin of every other log line.
if (!process.env.ALTAPAY_TEST_DEBUG) {
  try {
    // eslint-disable-next-line @typescript-eslint/no-require-imports
    const Logger: any = require("knex/lib/logger")
    const warn = Logger.prototype.warn
    Logger.prototype.warn = function (this: unknown, message: unknown) {
      if (typeof message === "string" && message.startsWith("Connection Error: Connection ended unexpectedly")) {
        return
      }
      return warn.call(this, message)
    }
  } catch {
    // knex layout changed: just keep the noise
  }
}
