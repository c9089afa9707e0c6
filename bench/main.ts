/**
 * `npm run bench`: the provider against the local sandbox (in its own process), every figure a
 * ratio measured in this run. Prints progress and a table, and writes bench/results.md.
 */
import { writeFileSync } from "node:fs"
import path from "node:path"
import { request } from "undici"
import { naiveBaseline } from "./naive-baseline"
import { cpuRows } from "./cpu"
import { capturedPayment, capturedPayments, clientOf, createProvider, fixedId, providerOptions } from "./lib/fixtures"
import { NOTES } from "./lib/notes"
import { consoleTable, machine, markdownTable, type Section } from "./lib/report"
import { PASSWORD, RemoteSandbox, USER } from "./lib/sandbox-process"
import { memory } from "./memory"
import { refundOverhead, sessionOverhead } from "./overhead"
import { roundTrips } from "./round-trips"
import { nowNs, nsToMs } from "./lib/timing"

const PAYMENTS = 600

export async function main(): Promise<void> {
  const started = nowNs()
  const log = (message: string): void => console.log(`[bench ${(nsToMs(nowNs() - started) / 1000).toFixed(1).padStart(5)} s] ${message}`)
  const host = machine()
  for (const line of host) log(line)

  const sandbox = await RemoteSandbox.start()
  log(`sandbox process at ${sandbox.url}`)
  const sections: Section[] = []
  try {
    log("round trips per operation (sandbox ledger)")
    sections.push({ title: "Round trips to AltaPay per Medusa operation (sandbox ledger)", rows: await roundTrips(sandbox) })

    log("session creation overhead")
    const session = await sessionOverhead(sandbox, log)
    log("naive baseline")
    const naive = await naiveBaseline(sandbox, session.template, log)

    log(`creating ${PAYMENTS} captured payments (449 DKK each) to refund 1 DKK at a time`)
    const provider = createProvider(providerOptions(sandbox, "storefront"))
    const payments = await capturedPayments(PAYMENTS, 32, provider, sandbox)
    await sandbox.clearLedger()
    log("refund overhead")
    const refunds = await refundOverhead(sandbox, log, payments)
    sections.push({ title: "Overhead over a bare undici request with the same bytes (keep-alive Pool, pre-issued token / same Basic header)", rows: [...session.rows, ...refunds] })
    sections.push({ title: "Against a naive integration", rows: naive })

    // A payment with one capture and one refund, as AltaPay lists it.
    const one = await capturedPayment(provider, sandbox)
    await provider.refundPayment({ data: one as never, amount: 1, context: { idempotency_key: fixedId("ref") } })
    const res = await request(`${sandbox.url}/merchant/API/payments?transaction_id=${one.transaction_id}`, {
      headers: { authorization: `Basic ${Buffer.from(`${USER}:${PASSWORD}`).toString("base64")}` },
    })
    const oneTransaction = await res.body.text()
    sections.push({ title: "CPU", rows: await cpuRows(oneTransaction, log) })

    const total = Number(process.env.BENCH_MEMORY_OPS ?? 100_000)
    log(`memory: ${total.toLocaleString("en")} operations`)
    sections.push({ title: "Memory", rows: await memory(clientOf(providerOptions(sandbox, "storefront")), oneTransaction, log, total) })
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
    "median of the per-round ratios. Latencies are of sequential calls; throughput keeps 64 operations in flight.",
    "",
    "## Machine",
    "",
    ...host.map((l) => `- ${l}`),
    `- Run time: ${seconds.toFixed(0)} s`,
    "",
    "## Results",
    "",
    markdownTable(sections),
    NOTES,
  ].join("\n")
  writeFileSync(path.join(__dirname, "results.md"), markdown)
  log(`wrote bench/results.md (${seconds.toFixed(0)} s in all)`)
}
