import fc from "fast-check"

// Property tests run 10,000 cases each; on a loaded 2-core CI machine one can pass jest's 5 s default.
jest.setTimeout(60_000)

// Every property test draws from the run's seed (test/fast-check-seed.ts picks and prints it).
if (process.env.FC_SEED !== undefined) fc.configureGlobal({ seed: Number(process.env.FC_SEED) })

// The tests that load the provider through Medusa's migration entry point give it a database nobody
// listens on; Medusa waits this long (10 s unless set) before saying so. No unit test has a database.
process.env.MEDUSA_DB_MIGRATION_CONNECTION_TIMEOUT ??= "1000"
