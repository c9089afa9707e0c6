#!/usr/bin/env node
// The Medusa-backed tests as `npm test` runs them: two jest processes at once, one per core, each
// running its specs one at a time (--runInBand) on its own embedded Postgres (global-setup.ts).
// Most of a spec's time is Medusa booting and waiting on callbacks, so two lanes nearly halve the
// wall time on 2 cores (docs/development.md has the measurements).
//
// Lane "builds" holds every spec that builds or packs the plugin (.medusa/server): they must never
// run beside each other. Lane "stores" takes every other spec, new ones included, and every spec
// that builds the admin UI (their build cache is shared). The specs in ALONE run after both. The
// oldest supported Medusa's check (scripts/test-medusa-version.js, with the tarball the install spec
// packed) runs beside them from the moment the install spec has passed. Each lane's output goes to its own log; the "stores" and "alone" lanes are printed
// as they run, the others when they end; then each spec file's time and the slowest tests.
// Extra arguments: path patterns narrow the run to the specs they match, flags (`--flag=value`) go to
// jest; either skips the oldest Medusa's check. `--with-unit` and `--with-typecheck` (`npm test`
// passes both) run the unit tests (on one jest worker) and the type-check (at a lower CPU priority)
// beside the lanes, in the CPU the lanes' specs leave idle while they wait on Medusa and callbacks
// (before, they ran first on both cores: about three minutes of CI's 20).
"use strict"
const { spawn } = require("node:child_process")
const fs = require("node:fs")
const os = require("node:os")
const path = require("node:path")

const root = path.resolve(__dirname, "..")
const jestBin = require.resolve("jest/bin/jest")
/** Jest's order, with the install spec first (see that file). */
const sequencer = path.join(__dirname, "integration-sequencer.js")

/**
 * Every spec that builds or packs the plugin (.medusa/server: install, multi-instance, demo), plus
 * others to even the lanes (CI times of 22caca3, less what the groups saved-cards-store and
 * verified-redirect-store saved the other lane; item captures since 692b011, when the default
 * store's group grew by four suites and the other lane ran 919 s against this one's 664 s; the second
 * default-options group since its five new suites would have made the other lane about 960 s; the
 * Swish store's group of app payments, balancing the suites both lanes got on 2026-11-30; fraud review
 * and the languages moved to the money group on 2026-12-01, the stores lane being 60 s longer). The
 * admin UI's build cache is shared by the specs that open the admin in Chromium: all of them stay
 * in the other lane.
 */
const BUILDS_LANE = [
  "integration-tests/install/",
  "integration-tests/multi-instance/",
  "integration-tests/demo/",
  "integration-tests/storefront/storefront-return.spec.ts",
  "integration-tests/groups/redirect-store.spec.ts",
  "integration-tests/groups/callback-proxy-store.spec.ts",
  "integration-tests/providers/",
  "integration-tests/payouts/module.spec.ts",
  "integration-tests/admin/item-captures.spec.ts",
  "integration-tests/groups/default-store-money.spec.ts",
  "integration-tests/groups/app-payments-store.spec.ts",
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

/**
 * Extra arguments: path patterns narrow the run to the specs they match (given to jest beside a
 * lane's own pattern, they would add to it: jest ORs its path patterns); flags (`--flag=value`) go
 * to jest. Either skips the oldest Medusa's check.
 */
const WITH_UNIT = "--with-unit"
const WITH_TYPECHECK = "--with-typecheck"
const withUnit = process.argv.includes(WITH_UNIT)
const withTypecheck = process.argv.includes(WITH_TYPECHECK)
const extra = process.argv.slice(2).filter((arg) => arg !== WITH_UNIT && arg !== WITH_TYPECHECK)
const pathPatterns = extra.filter((arg) => !arg.startsWith("-")).map((pattern) => new RegExp(pattern))
const jestFlags = extra.filter((arg) => arg.startsWith("-"))
const specs = listSpecs("integration-tests").filter((spec) => pathPatterns.length === 0 || pathPatterns.some((pattern) => pattern.test(spec)))
const under = (prefixes) => (spec) => prefixes.some((prefix) => spec === prefix || spec.startsWith(prefix))
const alone = specs.filter(under(ALONE))
const together = specs.filter((spec) => !under(ALONE)(spec))
const lanes = [
  { name: "builds", specs: together.filter(under(BUILDS_LANE)), print: "at end" },
  { name: "stores", specs: together.filter((spec) => !under(BUILDS_LANE)(spec)), print: "live" },
]
const logDir = fs.mkdtempSync(path.join(os.tmpdir(), "altapay-integration-"))

/** Where storeSuites() notes each group suite's seconds (tools/test-store/store-app/runner.ts). */
const suiteTimes = path.join(logDir, "suites.jsonl")

/** The unit lane's jest report: read for its failures, left out of the lanes' timings. */
const UNIT_REPORT = "unit.json"

/** The developed version's packed tarball, kept by the install spec for the oldest version's install. */
const tarball = path.join(logDir, "medusa-payment-altapay.tgz")

function run(lane) {
  // Each spec as an anchored path, so a lane runs exactly its files.
  const pattern = lane.specs.map((spec) => `${spec.replace(/[.*+?^${}()|[\]\\]/g, "\\$&")}$`).join("|")
  const report = path.join(logDir, `${lane.name}.json`)
  const args = [
    jestBin,
    "--selectProjects",
    "integration",
    "--runInBand",
    "--forceExit",
    "--json",
    "--outputFile",
    report,
    "--testSequencer",
    sequencer,
    "--testPathPattern",
    pattern,
    ...jestFlags,
  ]
  console.log(`[integration] lane ${lane.name}: ${lane.specs.length} spec files, log ${log(lane)}`)
  return runLogged(lane, args, { NODE_OPTIONS: "--experimental-vm-modules", ALTAPAY_TEST_KEEP_TARBALL: tarball, ALTAPAY_SUITE_TIMES: suiteTimes })
}

/**
 * The unit tests (test/), on one worker: beside two lanes of Medusa a second worker would take
 * CPU the lanes need. Its report is kept apart from the lanes' timings (printTimes).
 */
function runUnit() {
  // At the lanes' priority: tests with timeouts (servers, child processes) fail when starved of CPU.
  const lane = { name: "unit", print: "at end" }
  console.log(`[integration] lane unit: the unit tests (test/) on one worker, log ${log(lane)}`)
  return runLogged(lane, [jestBin, "--selectProjects", "unit", "--forceExit", "--maxWorkers=1", "--json", "--outputFile", path.join(logDir, UNIT_REPORT)], {})
}

/** The type-check (scripts/typecheck.js: three tsc at once), beside the lanes like the unit tests. */
function runTypecheck() {
  const lane = { name: "typecheck", print: "at end", nice: true }
  console.log(`[integration] lane typecheck: scripts/typecheck.js, log ${log(lane)}`)
  return runLogged(lane, [path.join(__dirname, "typecheck.js")], {})
}

/**
 * The priority of a lane with no timeouts that runs beside the Medusa lanes (the type-check): lower,
 * so that it takes only the CPU they leave idle and never lengthens them (the lanes are the run's
 * critical path). Its children (tsc) inherit it.
 */
const BESIDE_PRIORITY = 10

const log = (lane) => path.join(logDir, `${lane.name}.log`)

/** Runs one lane's command, its output to the lane's log (and the terminal, live or at the end). */
function runLogged(lane, args, env) {
  const started = Date.now()
  const out = fs.openSync(log(lane), "w")
  const child = spawn(process.execPath, args, { cwd: root, env: { ...process.env, ...env }, stdio: ["ignore", "pipe", "pipe"] })
  if (lane.nice) lowerPriority(child.pid)
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
      if (lane.print !== "live") process.stdout.write(fs.readFileSync(log(lane)))
      console.log(`[integration] lane ${lane.name}: ${code === 0 ? "passed" : `FAILED (exit ${code})`} in ${seconds} s`)
      resolve(code === 0)
    })
  )
}

function lowerPriority(pid) {
  try {
    os.setPriority(pid, BESIDE_PRIORITY)
  } catch (error) {
    console.log(`[integration] could not lower the priority of process ${pid} (${error.message}); it runs at the lanes' priority`)
  }
}

if (specs.length === 0) {
  console.error(`[integration] no spec files under integration-tests/${pathPatterns.length > 0 ? ` match ${pathPatterns.join(", ")}` : ""}`)
  process.exit(1)
}
/**
 * Where the time went: each spec file's seconds (a group spec's split into its suites and the rest:
 * the app's boot and shutdown) and the slowest tests, from the lanes' jest reports.
 */
function printTimes() {
  const files = []
  const tests = []
  for (const name of fs.readdirSync(logDir).filter((file) => file.endsWith(".json") && file !== UNIT_REPORT)) {
    const report = JSON.parse(fs.readFileSync(path.join(logDir, name), "utf8"))
    for (const result of report.testResults) {
      const file = path.relative(root, result.name)
      files.push({ file, seconds: (result.endTime - result.startTime) / 1000 })
      for (const test of result.assertionResults) tests.push({ file, title: test.title, seconds: (test.duration ?? 0) / 1000 })
    }
  }
  const line = ({ seconds, file, title }) => `  ${seconds.toFixed(1).padStart(6)} s  ${file}${title ? `: ${title}` : ""}`
  const suites = fs.existsSync(suiteTimes)
    ? fs
        .readFileSync(suiteTimes, "utf8")
        .split("\n")
        .filter(Boolean)
        .map((text) => JSON.parse(text))
    : []
  const suiteLines = (file) => {
    const own = suites.filter((suite) => path.relative(root, suite.spec) === file.file)
    if (own.length === 0) return []
    const rest = { seconds: file.seconds - own.reduce((sum, suite) => sum + suite.seconds, 0), title: "the app's boot and shutdown" }
    return [...own, rest].map(({ seconds, suite, title }) => `    ${seconds.toFixed(1).padStart(6)} s  ${suite ?? title}`)
  }
  console.log(
    `[integration] seconds per spec file:\n${files
      .sort((a, b) => b.seconds - a.seconds)
      .flatMap((file) => [line(file), ...suiteLines(file)])
      .join("\n")}`
  )
  console.log(
    `[integration] slowest tests:\n${tests
      .sort((a, b) => b.seconds - a.seconds)
      .slice(0, 25)
      .map(line)
      .join("\n")}`
  )
}

/**
 * The plugin on the oldest supported Medusa (scripts/test-medusa-version.js: the install spec and the
 * provider specs), with the tarball the install spec packed in this run. Only on a whole run.
 */
function oldestMedusa() {
  const env = fs.existsSync(tarball) ? { ALTAPAY_TEST_TARBALL: tarball } : {}
  console.log(`[integration] lane oldest-medusa: scripts/test-medusa-version.js, log ${log({ name: "oldest-medusa" })}`)
  return runLogged({ name: "oldest-medusa", print: "at end" }, [path.join(root, "scripts/test-medusa-version.js")], env)
}

/**
 * The oldest Medusa's check starts once the install spec has kept its tarball (it passed), beside
 * the lanes, whose specs leave a core partly idle (about 160 % of two cores over a whole run); else
 * when the lanes are done, packing its own.
 */
function oldestMedusaWhenReady(lanesDone) {
  return new Promise((resolve) => {
    const poll = setInterval(() => {
      if (fs.existsSync(tarball)) start()
    }, 2_000)
    lanesDone.then(start)
    let started = false
    function start() {
      clearInterval(poll)
      if (!started) resolve(oldestMedusa())
      started = true
    }
  })
}

/** Jest's colours in a failure message. */
const ANSI_COLOR = new RegExp(`${String.fromCharCode(27)}\\[[0-9;]*m`, "g")

/**
 * What failed, last, so that the end of a long log says it: each failed lane and its log, each
 * failed test from the jest reports with the start of its message, and the end of a failed log
 * that has no report (the oldest Medusa's check, or a lane that died before writing one).
 */
function printFailures(failed) {
  if (failed.length === 0) return
  console.log(`[integration] FAILED: ${failed.map((name) => `lane ${name} (log ${log({ name })})`).join(", ")}`)
  for (const name of failed) {
    const report = path.join(logDir, `${name}.json`)
    const tests = fs.existsSync(report)
      ? JSON.parse(fs.readFileSync(report, "utf8")).testResults.flatMap((result) => {
          const file = path.relative(root, result.name)
          const own = result.assertionResults.filter((test) => test.status === "failed")
          // A suite that failed outside its tests (a hook, a syntax error) has only its own message.
          if (own.length === 0 && result.status === "failed") return [{ file, title: "(the file itself)", message: result.message }]
          return own.map((test) => ({ file, title: test.fullName, message: test.failureMessages.join("\n") }))
        })
      : []
    if (tests.length === 0) {
      const lines = fs.readFileSync(log({ name }), "utf8").trimEnd().split("\n")
      console.log(`[integration] the end of lane ${name}'s log:\n${lines.slice(-40).join("\n")}`)
    }
    for (const test of tests) {
      const message = String(test.message ?? "")
        .replace(ANSI_COLOR, "")
        .split("\n")
        .filter(Boolean)
        .slice(0, 12)
      console.log(`  ✕ ${test.file}: ${test.title}\n${message.map((line) => `      ${line}`).join("\n")}`)
    }
  }
}

async function main() {
  const started = lanes.filter((lane) => lane.specs.length > 0)
  const unit = withUnit ? runUnit() : Promise.resolve(true)
  const typecheck = withTypecheck ? runTypecheck() : Promise.resolve(true)
  const lanesDone = Promise.all(started.map(run))
  const oldest = extra.length === 0 ? oldestMedusaWhenReady(lanesDone) : Promise.resolve(true)
  const results = (await lanesDone).map((passed, i) => ({ name: started[i].name, passed }))
  if (alone.length > 0) results.push({ name: "alone", passed: await run({ name: "alone", specs: alone, print: "live" }) })
  // resolve() took the check's own promise: this is its result.
  results.push({ name: "oldest-medusa", passed: await oldest })
  if (withUnit) results.push({ name: "unit", passed: await unit })
  if (withTypecheck) results.push({ name: "typecheck", passed: await typecheck })
  try {
    printTimes()
  } catch (error) {
    console.log(`[integration] no timings: ${error.message}`)
  }
  const failed = results.filter((result) => !result.passed).map((result) => result.name)
  try {
    printFailures(failed)
  } catch (error) {
    console.log(`[integration] failed lanes: ${failed.join(", ")} (${error.message})`)
  }
  process.exit(failed.length === 0 ? 0 : 1)
}

main()
