#!/usr/bin/env node
// `npm run docs:screenshots`: the admin pictures of docs/merchant.md (docs/images/admin-*.png), taken
// by the browser suites that check what they show (integration-tests/admin/*browser*.suite.ts, each
// `docScreenshot(target, "name")` call), with ALTAPAY_SCREENSHOTS=1: their group spec runs, its
// other suites too (they share one app). Needs what those suites need (Debian's chromium, npm ci);
// boots Medusa, so on a shared machine run it alone. Fails when a test fails or a picture was not
// written (a skipped suite: no Chromium).
"use strict"
const { spawnSync } = require("node:child_process")
const fs = require("node:fs")
const path = require("node:path")

const ROOT = path.resolve(__dirname, "..")
const SUITES_DIR = "integration-tests/admin"
/** The group spec that runs the browser suites. */
const specs = ["integration-tests/groups/saved-cards-store.spec.ts"]
const IMAGES = path.join(ROOT, "docs/images")

const suites = fs
  .readdirSync(path.join(ROOT, SUITES_DIR))
  .filter((file) => /browser.*\.suite\.ts$/.test(file))
  .map((file) => `${SUITES_DIR}/${file}`)
const names = suites.flatMap((suite) => [...fs.readFileSync(path.join(ROOT, suite), "utf8").matchAll(/docScreenshot\([^,]+,\s*"([\w-]+)"/g)].map((m) => m[1]))

const started = Date.now()
console.log(`docs:screenshots: ${names.length} pictures from ${suites.join(", ")} (${specs.join(", ")})`)
const jest = spawnSync(process.execPath, [require.resolve("jest/bin/jest"), "--selectProjects", "integration", "--runInBand", "--forceExit", ...specs], {
  cwd: ROOT,
  stdio: "inherit",
  env: { ...process.env, ALTAPAY_SCREENSHOTS: "1", NODE_OPTIONS: `${process.env.NODE_OPTIONS ?? ""} --experimental-vm-modules`.trim() },
})
const stale = names.filter((name) => {
  const file = path.join(IMAGES, `${name}.png`)
  return !fs.existsSync(file) || fs.statSync(file).mtimeMs < started
})
if (stale.length > 0) console.error(`docs:screenshots: not written: ${stale.map((name) => `docs/images/${name}.png`).join(", ")}`)
else console.log(`docs:screenshots: wrote ${names.map((name) => `docs/images/${name}.png`).join(", ")}`)
process.exit(jest.status !== 0 || stale.length > 0 ? 1 : 0)
