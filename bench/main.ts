/**
 * `npm run bench`: the provider against the local sandbox (in its own process), with AltaPay 30
 * and 80 ms away, and a whole Medusa store; every figure a ratio measured in this run. Prints
 * progress and the tables (targets, met or missed), and writes bench/results.md.
 */
import { readFileSync, writeFileSync } from "node:fs"
import path from "node:path"
import { request } from "undici"
import { naiveBaseline } from "./naive-baseline"
import { capturePartsRows } from "./capture-parts"
import { cpuRows, refundCpuRows } from "./cpu"
import { doorCpuRows } from "./door-cpu"
import { capturedPayment, capturedPayments, clientOf, createProvider, fixedId, providerOptions } from "./lib/fixtures"
import { fundingsBench } from "./fundings"
import { consoleTable, machine, markdownTable, replaceSection, type Section } from "./lib/report"
import { PASSWORD, RemoteSandbox, USER } from "./lib/sandbox-process"
import { LATENCIES_MS, latencyRows } from "./latency"
import { memory } from "./memory"
import { profileNote, profileRefunds } from "./profile"
import { refundOverhead, sessionOverhead } from "./overhead"
import { roundTrips } from "./round-trips"
import { storeBench } from "./store"
import { nowNs, nsToMs } from "./lib/timing"

const PAYMENTS = 600

/**
 * `npm run bench -- --only=profile,latency` (or `npm run bench -- profile latency`) runs some steps
 * and leaves results.md alone, except the latency, payouts import and capture parts tables when
 * "latency", "fundings" or "capture-parts" runs (each with the machine and date it was measured on).
 */
const STEPS = ["round-trips", "overhead", "cpu", "refund-cpu", "memory", "profile", "door-cpu", "capture-parts", "latency", "fundings", "store"] as const
type Step = (typeof STEPS)[number]
const FUNDINGS_TITLE = "Payouts import: funding files over HTTP into Postgres (the payouts module's SQL)"
const CAPTURE_PARTS_TITLE = "What a capture's CPU is made of, one call at a time, against the floor's parse"
const LATENCY_TITLE = "AltaPay 30 and 80 ms away: provider against a bare request to the same endpoints"
/** The tables a partial run writes into results.md on their own, each with the machine it ran on. */
const OWN_TABLES: ReadonlyArray<{ step: Step; title: string }> = [
  { step: "latency", title: LATENCY_TITLE },
  { step: "fundings", title: FUNDINGS_TITLE },
  { step: "capture-parts", title: CAPTURE_PARTS_TITLE },
]
function selectedSteps(): Set<Step> {
  const only = process.argv.find((a) => a.startsWith("--only="))?.slice("--only=".length)
  const named = process.argv.slice(2).filter((a) => !a.startsWith("-"))
  if (!only && named.length === 0) return new Set(STEPS)
  const names = [...(only ?? "").split(","), ...named].map((s) => s.trim()).filter(Boolean)
  const unknown = names.filter((n) => !(STEPS as readonly string[]).includes(n))
  if (unknown.length) throw new Error(`unknown bench step(s) ${unknown.join(", ")}; steps: ${STEPS.join(", ")}`)
  return new Set(names as Step[])
}

/**
 * After a step that keeps the event loop busy for seconds: lets the pools see the connections the
 * sandbox closed meanwhile (idle keep-alive), or the next request meets a closed socket.
 */
const settle = (): Promise<void> => new Promise((resolve) => setTimeout(resolve, 500))

export async function main(): Promise<void> {
  const started = nowNs()
  const log = (message: string): void => console.log(`[bench ${(nsToMs(nowNs() - started) / 1000).toFixed(1).padStart(5)} s] ${message}`)
  const host = machine()
  for (const line of host) log(line)

  const steps = selectedSteps()
  const sandbox = await RemoteSandbox.start()
  log(`sandbox process at ${sandbox.url}`)
  const sections: Section[] = []
  let headline = 0
  const notes: string[] = []
  try {
    if (steps.has("round-trips")) {
      log("round trips per operation (sandbox ledger)")
      sections.push({ title: "Round trips to AltaPay per Medusa operation (sandbox ledger)", rows: await roundTrips(sandbox) })
    }

    const provider = createProvider(providerOptions(sandbox, "storefront"))
    if (steps.has("overhead")) {
      log("session creation overhead")
      const session = await sessionOverhead(sandbox, log)
      log("naive baseline")
      const naive = await naiveBaseline(sandbox, session.template, log)

      log(`creating ${PAYMENTS} captured payments (449 DKK each) to refund 1 DKK at a time`)
      const payments = await capturedPayments(PAYMENTS, 32, provider, sandbox)
      await sandbox.clearLedger()
      log("refund overhead")
      const refunds = await refundOverhead(sandbox, log, payments)
      sections.push({
        title: "Overhead over a bare undici request with the same bytes (keep-alive Pool, pre-issued token / same Basic header)",
        rows: [...session.rows, ...refunds],
      })
      sections.push({ title: "Against a naive integration", rows: naive })
    }

    // A payment with one capture and one refund, as AltaPay lists it.
    const one = await capturedPayment(provider, sandbox)
    await provider.refundPayment({ data: one as never, amount: 1, context: { idempotency_key: fixedId("ref") } })
    const res = await request(`${sandbox.url}/merchant/API/payments?transaction_id=${one.transaction_id}`, {
      headers: { authorization: `Basic ${Buffer.from(`${USER}:${PASSWORD}`).toString("base64")}` },
    })
    const oneTransaction = await res.body.text()
    if (steps.has("cpu")) {
      sections.push({ title: "CPU", rows: await cpuRows(oneTransaction, log) })
      await settle()
    }

    if (steps.has("refund-cpu")) {
      log("refund CPU: 600 captured payments")
      const payments = await capturedPayments(PAYMENTS, 32, provider, sandbox)
      sections.push({ title: "CPU per refund against a bare request", rows: await refundCpuRows(sandbox, payments, log) })
      await sandbox.clearLedger()
    }

    if (steps.has("profile")) {
      const payments = await capturedPayments(200, 32, provider, sandbox)
      const profile = await profileRefunds(sandbox.url, payments, log)
      sections.push({ title: "Where a refund's CPU goes (node --cpu-prof)", rows: profile.rows })
      notes.push(profileNote(profile))
      await sandbox.clearLedger()
    }

    if (steps.has("door-cpu")) {
      sections.push({ title: "CPU per capture and refund through the money door", rows: await doorCpuRows(sandbox, log) })
      await settle()
    }

    if (steps.has("capture-parts")) {
      sections.push({ title: CAPTURE_PARTS_TITLE, rows: await capturePartsRows(sandbox, log) })
      await settle()
    }

    if (steps.has("latency")) {
      log(`latency: AltaPay ${LATENCIES_MS.join(" and ")} ms away (the sandbox's latency fault)`)
      sections.splice(headline++, 0, { title: LATENCY_TITLE, rows: await latencyRows(sandbox, log) })
    }

    // Before Medusa is loaded into this process.
    if (steps.has("memory")) {
      const total = Number(process.env.BENCH_MEMORY_OPS ?? 100_000)
      log(`memory: ${total.toLocaleString("en")} operations`)
      sections.push({ title: "Memory", rows: await memory(clientOf(providerOptions(sandbox, "storefront")), oneTransaction, log, total) })
      await settle()
    }

    if (steps.has("fundings")) {
      log("payouts: funding files through the sandbox, the client and the payouts module's SQL")
      sections.push({ title: FUNDINGS_TITLE, rows: await fundingsBench(sandbox, log) })
      await settle()
    }

    if (steps.has("store")) {
      log("store: Medusa on embedded Postgres, checkouts through its routes")
      const store = await storeBench(sandbox, log)
      // The two tables merchants feel first (after the latency one), then the rest.
      sections.splice(headline++, 0, { title: "A whole checkout in a Medusa store (embedded Postgres, Medusa's routes)", rows: store.rows })
      sections.push({ title: "Memory of a long run of whole-store checkouts", rows: store.memory })
    }
  } finally {
    await sandbox.close()
  }

  const seconds = nsToMs(nowNs() - started) / 1000
  console.log(`\n${consoleTable(sections)}\n`)
  const markdown = [
    "# Benchmark results",
    "",
    "Produced by `npm run bench` (bench/run.js). Every figure is measured against the local sandbox, which runs in its own",
    "process on the same machine; ratios compare variants measured in the same run, in interleaved rounds, and are the",
    "median of the per-round ratios, except where a row says otherwise. The first two tables are the ones merchants feel:",
    "AltaPay 30 and 80 ms away (the sandbox's latency fault) and a whole checkout in a Medusa store.",
    "",
    "## Machine",
    "",
    ...host.map((l) => `- ${l}`),
    `- Run time: ${seconds.toFixed(0)} s`,
    "",
    "## Results",
    "",
    markdownTable(sections),
    // Loaded now, not at start: the notes can be edited while a long run is under way.
    (require("./lib/notes") as typeof import("./lib/notes")).NOTES,
    ...notes,
  ].join("\n")
  const resultsPath = path.join(__dirname, "results.md")
  if (steps.size < STEPS.length) {
    for (const { step, title } of OWN_TABLES) {
      const section = sections.find((s) => s.title === title)
      if (!section) continue
      // Its own table only, with the machine it ran on: the other tables keep their full run's.
      const table = markdownTable([section]).trimEnd()
      const where = `Measured by \`npm run bench -- ${step}\` in ${seconds.toFixed(0)} s on: ${host.join("; ")}.`
      writeFileSync(resultsPath, replaceSection(readFileSync(resultsPath, "utf8"), title, `${table}\n\n${where}\n`))
      log(`wrote the ${step} table into bench/results.md`)
    }
    log(`some steps only: the rest of bench/results.md left as it was (${seconds.toFixed(0)} s in all)`)
    for (const note of notes) console.log(note)
    return
  }
  writeFileSync(resultsPath, markdown)
  log(`wrote bench/results.md (${seconds.toFixed(0)} s in all)`)
}
