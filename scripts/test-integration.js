#!/usr/bin/env node
// The Medusa-backed tests as `npm test` runs them: two jest processes at once, one per core, each
// running its specs one at a time (--runInBand) on its own embedded Postgres (global-setup.ts).
// Most of a spec's time is Medusa booting and waiting on callbacks, so two lanes nearly halve the
// wall time on 2 cores (docs/development.md has the measurements).
//
// Lane "builds" holds every spec that builds or packs the plugin (.medusa/server): they must never
// run beside each other. Lane "stores" takes every other spec, new ones included, and every spec
// that builds the admin UI (their build cache is shared). The specs in ALONE run after both, alone. Each lane's
// output goes to its own log; the "stores" lane is printed as it runs, the other when it ends.
// Extra arguments (e.g. a path pattern) go to both lanes.
"use strict"
const { spawn } = require("node:child_process")
const fs = require("node:fs")
const os = require("node:os")
const path = require("node:path")

const root = path.resolve(__dirname, "..")
const jestBin = require.resolve("jest/bin/jest")

/**
 * Every spec that builds or packs the plugin (.medusa/server: install, multi-instance, demo), plus
 * others to even the lanes (CI times of 5334f34). The admin UI's build cache is shared by the specs
 * that open the admin in Chromium: all of them stay in the other lane.
 */
const BUILDS_LANE = [
  "integration-tests/install/",
  "integration-tests/multi-instance/",
  "integration-tests/demo/",
  "integration-tests/storefront/redirect-flow.spec.ts",
  "integration-tests/storefront/storefront-return.spec.ts",
  "integration-tests/storefront/altapay-checkout.spec.ts",
  "integration-tests/storefront/return-endpoint.spec.ts",
  "integration-tests/admin/refund-records.spec.ts",
  "integration-tests/admin/chargebacks.spec.ts",
  "integration-tests/providers/",
  "integration-tests/payouts/module.spec.ts",
]

/**
 * Run alone once both lanes are done: the follow-up jobs' spec waits on Medusa's locks and
 * workflows with fixed budgets, and beside another Medusa on 2 cores it once ran past them.
 */
const ALONE = ["integration-tests/jobs/"]

function listSpecs(dir) {
  return fs.readdirSync(path.join(root, dir), { withFileTypes: true }).flatMap((entry) => {
    const rel = `${dir}/${entry.name}`
    if (entry.isDirectory()) return listSpecs(rel)
    return entry.name.endsWith(".spec.ts") ? [rel] : []
  })
}

const specs = listSpecs("integration-tests")
const under = (prefixes) => (spec) => prefixes.some((prefix) => spec === prefix || spec.startsWith(prefix))
const alone = specs.filter(under(ALONE))
const together = specs.filter((spec) => !under(ALONE)(spec))
const lanes = [
  { name: "builds", specs: together.filter(under(BUILDS_LANE)), print: "at end" },
  { name: "stores", specs: together.filter((spec) => !under(BUILDS_LANE)(spec)), print: "live" },
]
const extra = process.argv.slice(2)
const logDir = fs.mkdtempSync(path.join(os.tmpdir(), "altapay-integration-"))

function run(lane) {
  const started = Date.now()
  const log = path.join(logDir, `${lane.name}.log`)
  const out = fs.openSync(log, "w")
  // Each spec as an anchored path, so a lane runs exactly its files.
  const pattern = lane.specs.map((spec) => `${spec.replace(/[.*+?^${}()|[\]\\]/g, "\\$&")}$`).join("|")
  const args = [jestBin, "--selectProjects", "integration", "--runInBand", "--forceExit", "--testPathPattern", pattern, ...extra]
  console.log(`[integration] lane ${lane.name}: ${lane.specs.length} spec files, log ${log}`)
  const child = spawn(process.execPath, args, { cwd: root, env: { ...process.env, NODE_OPTIONS: "--experimental-vm-modules" }, stdio: ["ignore", "pipe", "pipe"] })
  for (const stream of [child.stdout, child.stderr]) {
    stream.on("data", (chunk) => {
      fs.writeSync(out, chunk)
      if (lane.print === "live") process.stdout.write(chunk)
    })
  }
  return new Promise((resolve) =>
    child.on("exit", (code) => {
      fs.closeSync(out)
      const seconds = ((Date.now() - started) / 1000).toFixed(0)
      if (lane.print !== "live") process.stdout.write(fs.readFileSync(log))
      console.log(`[integration] lane ${lane.name}: ${code === 0 ? "passed" : `FAILED (exit ${code})`} in ${seconds} s`)
      resolve(code === 0)
    })
  )
}

if (specs.length === 0) {
  console.error("[integration] no spec files under integration-tests/")
  process.exit(1)
}
async function main() {
  const results = await Promise.all(lanes.filter((lane) => lane.specs.length > 0).map(run))
  if (alone.length > 0) results.push(await run({ name: "alone", specs: alone, print: "live" }))
  process.exit(results.every(Boolean) ? 0 : 1)
}

main()
