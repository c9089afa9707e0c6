#!/usr/bin/env node
// `npm run docs:screenshots`: the admin pictures of docs/merchant.md (docs/images/admin-*.png), taken
// by the browser specs that check what they show (integration-tests/admin/*browser*.spec.ts, each
// `docScreenshot(target, "name")` call), with ALTAPAY_SCREENSHOTS=1. Needs what those specs need
// (Debian's chromium, npm ci); boots Medusa, so on a shared machine run it alone. Fails when a spec
// fails or a picture was not written (a skipped spec: no Chromium).
"use strict"
const { spawnSync } = require("node:child_process")
const fs = require("node:fs")
const path = require("node:path")

const ROOT = path.resolve(__dirname, "..")
const SPECS_DIR = "integration-tests/admin"
const IMAGES = path.join(ROOT, "docs/images")

const specs = fs
  .readdirSync(path.join(ROOT, SPECS_DIR))
  .filter((file) => /browser.*\.spec\.ts$/.test(file))
  .map((file) => `${SPECS_DIR}/${file}`)
const names = specs.flatMap((spec) => [...fs.readFileSync(path.join(ROOT, spec), "utf8").matchAll(/docScreenshot\([^,]+,\s*"([\w-]+)"/g)].map((m) => m[1]))

const started = Date.now()
console.log(`docs:screenshots: ${names.length} pictures from ${specs.join(", ")}`)
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
