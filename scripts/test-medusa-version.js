#!/usr/bin/env node
// `npm run test:medusa-version [-- <version>...]`: the plugin against other Medusa versions
// (default: the oldest one supported, the floor of peerDependencies["@medusajs/framework"]).
// `-- --every-minor`: the newest release of every minor from that floor up to the one before the
// minor the repository develops with (which `npm test` covers), as the npm registry lists them.
// For each version:
//   1. integration-tests/install: packs the plugin and installs it into a scratch Medusa <version>
//      store, which migrates, builds, boots and takes a whole checkout; the store is kept.
//   2. integration-tests/providers: the provider spec with every @medusajs import taken from that
//      store (ALTAPAY_TEST_MEDUSA_DIR, see integration-tests/install/medusa-version-resolver.js).
// With several versions the first packs and the rest install that same tarball; a version that
// fails does not stop the others, and a table of every version's result ends the run.
// `npm test` runs both against the version the repository develops with; CI runs this as well.
"use strict"
const { spawnSync } = require("node:child_process")
const fs = require("node:fs")
const os = require("node:os")
const path = require("node:path")

const root = path.resolve(__dirname, "..")
const STABLE = /^(\d+)\.(\d+)\.(\d+)$/

/**
 * The newest release of each minor from `floor`'s to the one before `developed`'s, oldest first
 * (the developed minor is `npm test`'s); pre-releases are left out. `published` is the registry's
 * list of versions.
 */
function newestOfEachMinor(published, floor, developed) {
  const parse = (version) => STABLE.exec(version)?.slice(1).map(Number)
  const [low, high] = [parse(floor), parse(developed)]
  if (!low || !high) throw new Error(`not plain versions: ${floor}, ${developed}`)
  const order = (a, b) => a[0] - b[0] || a[1] - b[1] || a[2] - b[2]
  const newest = new Map()
  for (const version of published) {
    const parts = parse(version)
    if (!parts || order(parts, low) < 0 || order([parts[0], parts[1], 0], [high[0], high[1], 0]) >= 0) continue
    const minor = `${parts[0]}.${parts[1]}`
    if (!newest.has(minor) || order(parts, newest.get(minor)) > 0) newest.set(minor, parts)
  }
  return [...newest.values()].sort(order).map((parts) => parts.join("."))
}

function publishedVersions() {
  const view = spawnSync("npm", ["view", "@medusajs/framework", "versions", "--json"], { encoding: "utf8" })
  if (view.status !== 0) throw new Error(`npm view @medusajs/framework versions failed (is the npm registry reachable?): ${view.stderr.trim()}`)
  return JSON.parse(view.stdout)
}

/** Runs one integration folder against `version`; whether it passed, and how long it took. */
function jest(version, spec, env) {
  const started = Date.now()
  const args = [require.resolve("jest/bin/jest"), "--selectProjects", "integration", "--runInBand", "--forceExit", spec]
  const result = spawnSync(process.execPath, args, {
    cwd: root,
    stdio: "inherit",
    env: { ...process.env, NODE_OPTIONS: "--experimental-vm-modules", ...env },
  })
  const seconds = Math.round((Date.now() - started) / 1000)
  console.log(`[medusa ${version}] ${spec}: ${result.status === 0 ? "passed" : "FAILED"} in ${seconds} s`)
  return { passed: result.status === 0, seconds }
}

/**
 * @medusajs/test-utils 2.16 and 2.17 require pg-god without declaring it (Medusa's CLI brought it
 * in up to 2.15). The provider spec runs that test-utils from the store, so pg-god is installed
 * beside the store, never into it (the install spec proved the store as a merchant has it), and
 * the spec's resolver takes it from there (ALTAPAY_TEST_EXTRA_MODULES).
 */
function testUtilsExtras(version, store, work) {
  const database = path.join(store, "node_modules/@medusajs/test-utils/dist/database.js")
  if (!fs.existsSync(database) || !fs.readFileSync(database, "utf8").includes('require("pg-god")')) return {}
  try {
    require.resolve("pg-god", { paths: [path.dirname(database)] })
    return {}
  } catch {
    // not in the store: installed beside it
  }
  console.log(`[medusa ${version}] its @medusajs/test-utils requires pg-god, which it does not declare: installing pg-god beside the store for the provider spec`)
  const extras = path.join(work, "test-utils-extras")
  fs.mkdirSync(extras, { recursive: true })
  fs.writeFileSync(path.join(extras, "package.json"), JSON.stringify({ private: true }))
  const install = spawnSync("npm", ["install", "--no-audit", "--no-fund", "--prefer-offline", "pg-god@^1.0.12"], { cwd: extras, stdio: "inherit" })
  if (install.status !== 0) throw new Error(`npm install pg-god failed in ${extras}`)
  return { ALTAPAY_TEST_EXTRA_MODULES: extras }
}

/** The provider spec on the store's Medusa; a failure to prepare it fails it, and the other versions still run. */
function providerSpec(version, store, work) {
  let extras
  try {
    extras = testUtilsExtras(version, store, work)
  } catch (error) {
    console.error(`[medusa ${version}] integration-tests/providers: not run: ${error.message}`)
    return { passed: false, seconds: 0 }
  }
  // The fault run's figures stand on the developed version's 300 payments (`npm test`); here it
  // shows the door holds with this version's Payment module, which 60 payments on every road do.
  return jest(version, "integration-tests/providers", {
    ALTAPAY_TEST_MEDUSA_DIR: store,
    ALTAPAY_FAULT_RUN_PAYMENTS: process.env.ALTAPAY_FAULT_RUN_PAYMENTS ?? "60",
    ...extras,
  })
}

/** The install spec, then (when it passed) the provider spec, on a scratch store of `version`. */
function testVersion(version, tarball) {
  const work = fs.mkdtempSync(path.join(os.tmpdir(), `altapay-medusa-${version}-`))
  const store = path.join(work, "store")
  console.log(`[medusa ${version}] scratch store in ${store}`)
  // A tarball an earlier version's install kept is installed as it is; otherwise this one packs and keeps it.
  const packing = tarball && !fs.existsSync(tarball) ? { ALTAPAY_TEST_KEEP_TARBALL: tarball } : tarball ? { ALTAPAY_TEST_TARBALL: tarball } : {}
  const install = jest(version, "integration-tests/install", { ALTAPAY_TEST_MEDUSA_VERSION: version, ALTAPAY_TEST_STORE_DIR: store, ...packing })
  const provider = install.passed ? providerSpec(version, store, work) : undefined
  const passed = install.passed && provider.passed
  if (passed) fs.rmSync(work, { recursive: true, force: true })
  else console.error(`[medusa ${version}] failed; the scratch store is kept in ${store}`)
  return { version, passed, install, provider }
}

function main() {
  const pkg = JSON.parse(fs.readFileSync(path.join(root, "package.json"), "utf8"))
  const floor = pkg.peerDependencies["@medusajs/framework"].replace(/^[\^~>=]+/, "")
  const args = process.argv.slice(2)
  const versions = args.includes("--every-minor") ? newestOfEachMinor(publishedVersions(), floor, pkg.devDependencies["@medusajs/framework"]) : args.length > 0 ? args : [floor]
  if (versions.length === 1) {
    process.exit(testVersion(versions[0], process.env.ALTAPAY_TEST_TARBALL).passed ? 0 : 1)
  }
  console.log(`[medusa] ${versions.length} versions, one after the other: ${versions.join(", ")}`)
  const tarball = process.env.ALTAPAY_TEST_TARBALL ?? path.join(fs.mkdtempSync(path.join(os.tmpdir(), "altapay-medusa-tarball-")), "plugin.tgz")
  const results = versions.map((version) => testVersion(version, tarball))
  const cell = (run) => (run ? `${run.passed ? "passed" : "FAILED"} in ${run.seconds} s` : "not run")
  console.log("\n| Medusa | install spec | provider spec |\n|---|---|---|")
  for (const r of results) console.log(`| ${r.version} | ${cell(r.install)} | ${cell(r.provider)} |`)
  const failed = results.filter((r) => !r.passed).map((r) => r.version)
  console.log(failed.length === 0 ? `\n[medusa] all ${results.length} versions passed` : `\n[medusa] FAILED on ${failed.join(", ")}`)
  process.exit(failed.length === 0 ? 0 : 1)
}

if (require.main === module) main()
module.exports = { newestOfEachMinor }
