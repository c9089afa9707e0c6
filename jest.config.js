// Unit tests live in test/ (so `medusa plugin:build` never ships them); Medusa-backed tests in integration-tests/.
//
// Two jest projects share one transform:
//   unit         test/**/*.test.ts            plain jest, 5 s default timeout, no database
//   integration  integration-tests/**/*.spec.ts  Medusa test runners on an embedded Postgres that
//                integration-tests/setup/global-setup.ts starts once per run (jest runs a project's
//                globalSetup only when that project has tests in the run, so unit-only runs such
//                as `npx jest test/altapay/xml.test.ts` never start Postgres) and 120 s timeouts.
// Run everything with `npm test`; integration tests need --runInBand --forceExit and
// NODE_OPTIONS=--experimental-vm-modules (both set by scripts/test-integration.js, which `npm test`
// runs: two lanes of specs at once, see that file).
const shared = {
  rootDir: __dirname,
  testEnvironment: "node",
  transform: {
    "^.+\\.[jt]sx?$": [
      "@swc/jest",
      {
        jsc: {
          parser: { syntax: "typescript", decorators: true },
          target: "es2022",
        },
      },
    ],
  },
  moduleFileExtensions: ["js", "ts", "json"],
  modulePathIgnorePatterns: ["<rootDir>/.medusa/", "<rootDir>/demo/"],
  // ALTAPAY_TEST_MEDUSA_DIR=<folder with another Medusa version installed>: @medusajs/* from there.
  ...(process.env.ALTAPAY_TEST_MEDUSA_DIR ? { resolver: "<rootDir>/integration-tests/install/medusa-version-resolver.js" } : {}),
}

module.exports = {
  projects: [
    {
      ...shared,
      displayName: "unit",
      testMatch: ["<rootDir>/test/**/*.test.ts"],
      // Picks (or takes FC_SEED) and prints the run's fast-check seed once.
      globalSetup: "<rootDir>/test/fast-check-seed.ts",
      setupFilesAfterEnv: ["<rootDir>/test/jest.setup.ts"],
    },
    {
      ...shared,
      displayName: "integration",
      testMatch: ["<rootDir>/integration-tests/**/*.spec.ts"],
      globalSetup: "<rootDir>/integration-tests/setup/global-setup.ts",
      globalTeardown: "<rootDir>/integration-tests/setup/global-teardown.ts",
      setupFilesAfterEnv: ["<rootDir>/tools/test-store/jest.setup.ts"],
    },
  ],
}
