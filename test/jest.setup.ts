import fc from "fast-check"

// Property tests run 10,000 cases each; on a loaded 2-core CI machine one can pass jest's 5 s default.
jest.setTimeout(60_000)

// Every property test draws from the run's seed (test/fast-check-seed.ts picks and prints it).
if (process.env.FC_SEED !== undefined) fc.configureGlobal({ seed: Number(process.env.FC_SEED) })
