/**
 * Smoke test of `npm run demo -- --once`: a real Medusa store (plugin build, migrations, seed,
 * `medusa develop`) takes a whole AltaPay checkout, an item capture, the rest captured and two
 * refunds, then exits 0.
 * Runs in its own data folder and on free ports, so it never meets a demo left running.
 */
import { spawn } from "node:child_process"
import fs from "node:fs"
import os from "node:os"
import path from "node:path"
import { findFreePort } from "../../tools/test-store/postgres"

const REPO = path.resolve(__dirname, "../..")

it("npm run demo -- --once: a whole AltaPay checkout on a real Medusa store", async () => {
  const dataDir = fs.mkdtempSync(path.join(os.tmpdir(), "altapay-demo-"))
  const env = {
    ...process.env,
    DEMO_DATA_DIR: dataDir,
    DEMO_MEDUSA_PORT: String(await findFreePort()),
    DEMO_POSTGRES_PORT: String(await findFreePort()),
    DEMO_SANDBOX_PORT: String(await findFreePort()),
  }
  try {
    const { code, output } = await new Promise<{ code: number | null; output: string }>((resolve) => {
      const child = spawn(process.execPath, ["demo/run.js", "--once"], { cwd: REPO, env })
      let output = ""
      child.stdout.on("data", (d: Buffer) => (output += d.toString()))
      child.stderr.on("data", (d: Buffer) => (output += d.toString()))
      child.on("exit", (exitCode) => resolve({ code: exitCode, output }))
    })
    if (code !== 0) console.log(output)
    expect(code).toBe(0)
    expect(output).toMatch(/captured 1 × .+: [\d.]+ DKK, its \d+ reserved AltaPay line\(s\) \(POST \/admin\/altapay\/payments\/:id\/captures\)/)
    expect(output).toContain("refunded 25.00 DKK")
    // The payout: both captures (one item, then the rest) and both refunds, all matched to the order.
    expect(output).toMatch(/net -?[\d.]+ [A-Z]{3}; 4 of 4 lines matched to Medusa/)
  } finally {
    fs.rmSync(dataDir, { recursive: true, force: true })
  }
}, 400_000)
