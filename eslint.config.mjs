// `npm run lint`. ESLint's and typescript-eslint's recommended rules, plus the layering rules the
// folder tree promises (README: Development): the AltaPay client knows nothing of Medusa, and
// routes, workflows, the shared library and the admin never reach into the provider's folder.
import js from "@eslint/js"
import globals from "globals"
import tseslint from "typescript-eslint"

const medusaFree = { group: ["@medusajs/*"], message: "src/altapay is a framework-free AltaPay client: Medusa belongs in src/providers, src/lib or src/api." }
const offProviderInternals = { regex: "(^|/)providers/altapay(/|$)", message: "Only the provider uses src/providers; move what is shared to src/lib." }
// The tests' setup is theirs: what the plugin, the demo or a tool shares with the tests lives in tools/.
const offTestSetup = { regex: "(^|/)integration-tests(/|$)", message: "Only tests import integration-tests/; move what is shared to tools/." }
// The package ships src/ only (package.json "files"): src/ importing tools/ would break when installed.
const offTools = { regex: "^(\\.\\./)+tools(/|$)", message: "The package ships src/ only; src/ may not import tools/." }

export default tseslint.config(
  // What .gitignore ignores (build output, caches, data), which flat config does not read.
  { ignores: ["**/node_modules/", ".medusa/", "**/.medusa/", ".cache/", ".tmp/", "demo/.data/", "test-artifacts/", "coverage/"] },
  js.configs.recommended,
  tseslint.configs.recommended,
  {
    rules: {
      // Medusa's query results and test runners are untyped; `any` marks those edges.
      "@typescript-eslint/no-explicit-any": "off",
      "@typescript-eslint/no-unused-vars": ["error", { args: "none", varsIgnorePattern: "^_", caughtErrors: "none", ignoreRestSiblings: true }],
      // package.json reads and optional packages (playwright-core) are required where they are used.
      "@typescript-eslint/no-require-imports": ["error", { allow: ["/package\\.json$", "^playwright-core$"] }],
    },
  },
  {
    // The plugin logs through Medusa's logger (which the store configures); only the CLI prints.
    files: ["src/**"],
    ignores: ["src/sandbox/cli.ts"],
    rules: { "no-console": "error" },
  },
  {
    // One file one job: no source file over 400 lines (test/lint/file-size.test.ts checks it too).
    files: ["src/**"],
    rules: { "max-lines": ["error", { max: 400 }] },
  },
  {
    // Tests and tools may run longer (a spec's cases share one store), but not without bound.
    files: ["test/**", "integration-tests/**", "bench/**", "demo/**", "scripts/**", "tools/**"],
    rules: { "max-lines": ["error", { max: 600 }] },
  },
  {
    // XML 1.0 forbids these control characters: the sandbox's escaper matches them on purpose.
    files: ["src/sandbox/gateway/xml.ts"],
    rules: { "no-control-regex": "off" },
  },
  {
    files: ["**/*.js"],
    languageOptions: { sourceType: "commonjs", globals: globals.node },
    rules: { "@typescript-eslint/no-require-imports": "off" },
  },
  {
    // Scripts that drive a browser pass functions that run in the page.
    files: ["storefronts/**/*.js"],
    languageOptions: { globals: { ...globals.node, ...globals.browser } },
  },
  {
    // Tests and tools rethrow with what the reader needs; the original error is in the message.
    // Specs may print (some still say so with no-console directives, harmless here).
    files: ["test/**", "integration-tests/**", "demo/**", "bench/**", "scripts/**", "tools/**"],
    linterOptions: { reportUnusedDisableDirectives: "off" },
    rules: { "preserve-caught-error": "off" },
  },
  {
    // The benchmark loads the test store late on purpose: test-utils reads the database settings
    // from process.env when it loads, and the notes are read when the run ends.
    files: ["bench/**"],
    rules: { "@typescript-eslint/no-require-imports": "off" },
  },
  // One no-restricted-imports per file (a later block replaces an earlier one's options), so each
  // block lists every pattern that applies to its files.
  { files: ["demo/**", "bench/**", "tools/**", "scripts/**", "bin/**", "storefronts/**"], rules: { "no-restricted-imports": ["error", { patterns: [offTestSetup] }] } },
  { files: ["src/**"], rules: { "no-restricted-imports": ["error", { patterns: [offTestSetup, offTools] }] } },
  { files: ["src/altapay/**"], rules: { "no-restricted-imports": ["error", { patterns: [medusaFree, offTestSetup, offTools] }] } },
  {
    files: ["src/api/**", "src/workflows/**", "src/lib/**", "src/admin/**"],
    rules: { "no-restricted-imports": ["error", { patterns: [offProviderInternals, offTestSetup, offTools] }] },
  },
  {
    // A spec boots through storeTestRunner/storeSuites: the migrated database it keeps makes later boots quick.
    files: ["integration-tests/**"],
    rules: {
      "no-restricted-imports": [
        "error",
        {
          paths: [
            {
              name: "@medusajs/test-utils",
              importNames: ["medusaIntegrationTestRunner"],
              message: "Use storeTestRunner or storeSuites (tools/test-store/store-app/runner.ts): they reuse the migrated database.",
            },
          ],
        },
      ],
    },
  }
)
