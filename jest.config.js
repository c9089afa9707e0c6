// Unit tests live in test/ (so `medusa plugin:build` never ships them); Medusa-backed tests in integration-tests/.
module.exports = {
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
  testMatch: ["<rootDir>/test/**/*.test.ts", "<rootDir>/integration-tests/**/*.spec.ts"],
  modulePathIgnorePatterns: ["<rootDir>/.medusa/", "<rootDir>/demo/"],
}
