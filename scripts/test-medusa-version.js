#!/usr/bin/env node
// `npm run test:medusa-version [-- <version>]`: the plugin against another Medusa version
// (default: the oldest one supported, the floor of peerDependencies["@medusajs/framework"]).
//   1. integration-tests/install: packs the plugin and installs it into a scratch Medusa <version>
//      store, which migrates, builds, boots and takes a whole checkout; the store is kept.
//   2. integration-tests/providers: the provider spec with every @medusajs import taken from that
//      store (ALTAPAY_TEST_MEDUSA_DIR, see integration-tests/install/medusa-version-resolver.js).
// `npm test` runs both against the version the repository develops with; CI runs this as well.
"use strict"
const { spawnSync } = require("node:child_process")
const fs = require("node:fs")
const os = require("node:os")
const path = require("node:path")

const root = path.resolve(__dirname, "..")
const pkg = JSON.parse(fs.readFileSync(path.join(root, "package.json"), "utf8"))
const version = process.argv[2] || pkg.peerDependencies["@medusajs/framework"].replace(/^[\^~>=]+/, "")
const work = fs.mkdtempSync(path.join(os.tmpdir(), `altapay-medusa-${version}-`))
const store = path.join(work, "store")

function jest(spec, env) {
  const started = Date.now()
  const args = [require.resolve("jest/bin/jest"), "--selectProjects", "integration", "--runInBand", "--forceExit", spec]
  const result = spawnSync(process.execPath, args, {
    cwd: root,
    stdio: "inherit",
    env: { ...process.env, NODE_OPTIONS: "--experimental-vm-modules", ...env },
  })
  console.log(`[medusa ${version}] ${spec}: ${result.status === 0 ? "passed" : "FAILED"} in ${((Date.now() - started) / 1000).toFixed(0)} s`)
  return result.status === 0
}

console.log(`[medusa ${version}] scratch store in ${store}`)
const passed =
  jest("integration-tests/install", { ALTAPAY_TEST_MEDUSA_VERSION: version, ALTAPAY_TEST_STORE_DIR: store }) &&
  // The fault run's figures stand on the developed version's 300 payments (`npm test`); here it
  // shows the door holds with this version's Payment module, which 60 payments on every road do.
  jest("integration-tests/providers", { ALTAPAY_TEST_MEDUSA_DIR: store, ALTAPAY_FAULT_RUN_PAYMENTS: process.env.ALTAPAY_FAULT_RUN_PAYMENTS ?? "60" })
if (passed) fs.rmSync(work, { recursive: true, force: true })
else console.error(`[medusa ${version}] failed; the scratch store is kept in ${store}`)
process.exit(passed ? 0 : 1)
