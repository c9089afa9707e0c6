/**
 * A spec that needs a program the machine lacks: skipped with one line locally, failed in CI.
 * Runs a real jest on a probe spec that needs a program nobody has.
 */
import { spawnSync } from "node:child_process"
import fs from "node:fs"
import os from "node:os"
import path from "node:path"

const ROOT = path.resolve(__dirname, "../..")
const HELPER = path.join(ROOT, "integration-tests/setup/system-programs")

function runProbe(env: NodeJS.ProcessEnv): { status: number | null; output: string } {
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), "altapay-programs-"))
  try {
    fs.writeFileSync(
      path.join(dir, "probe.spec.ts"),
      `import { describeNeeding } from ${JSON.stringify(HELPER)}\n` +
        `describeNeeding([{ command: "altapay-no-such-program", install: "apt-get install -y altapay-no-such-program" }], "a spec that needs it", () => {\n` +
        `  it("runs", () => undefined)\n})\n`
    )
    const config = { rootDir: dir, testMatch: ["<rootDir>/probe.spec.ts"], transform: { "^.+\\.ts$": [require.resolve("@swc/jest"), {}] } }
    const jest = path.join(path.dirname(require.resolve("jest/package.json")), "bin", "jest.js")
    const { CI: _ci, ...rest } = process.env
    const result = spawnSync(process.execPath, [jest, "--config", JSON.stringify(config), "--ci=false"], { cwd: ROOT, encoding: "utf8", env: { ...rest, ...env } })
    return { status: result.status, output: `${result.stdout}${result.stderr}` }
  } finally {
    fs.rmSync(dir, { recursive: true, force: true })
  }
}

test("locally, a missing program skips the spec and says what to install", () => {
  const { status, output } = runProbe({})
  expect(status).toBe(0)
  expect(output).toContain("[skipped] a spec that needs it: altapay-no-such-program is missing (install it: apt-get install -y altapay-no-such-program)")
}, 60_000)

test("in CI, a missing program fails the run instead of skipping", () => {
  const { status, output } = runProbe({ CI: "true" })
  expect(status).toBe(1)
  expect(output).toContain("cannot run: altapay-no-such-program is missing")
}, 60_000)
