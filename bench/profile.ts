/**
 * Where a refund's CPU goes: provider refunds at 64 in flight in a child process started with
 * `node --cpu-prof`, then the profile read back and its samples (those taken while the refunds
 * ran, not module loading) attributed to what they were doing.
 */
import { spawn } from "node:child_process"
import { mkdtempSync, readdirSync, readFileSync, rmSync, writeFileSync } from "node:fs"
import os from "node:os"
import path from "node:path"
import type { AltaPayPaymentData } from "../src/lib/payment-data/data"
import { createProvider, medusaCopies, refundAsMedusa } from "./lib/fixtures"
import type { Row } from "./lib/report"
import { PASSWORD, USER } from "./lib/sandbox-process"
import { throughput } from "./lib/timing"

const REFUNDS = 2_000
const CONCURRENCY = 64

interface ProfileNode {
  id: number
  callFrame: { functionName: string; url: string; lineNumber: number }
  children?: number[]
}
interface CpuProfile {
  nodes: ProfileNode[]
  startTime: number
  samples: number[]
  timeDeltas: number[]
}

/** Child side (`bench/run.js --profile-child <payments.json> <sandbox url> <window.json>`). */
export async function runProfileChild(paymentsFile: string, url: string, windowFile: string): Promise<void> {
  const payments = JSON.parse(readFileSync(paymentsFile, "utf8")) as AltaPayPaymentData[]
  const provider = createProvider({
    checkoutUrl: url,
    gatewayUrl: url,
    username: USER,
    password: PASSWORD,
    backendUrl: "http://127.0.0.1:9",
    flow: "storefront",
    allowInsecureUrls: true,
  })
  let turn = 0
  const refundOne = refundAsMedusa(provider, medusaCopies())
  const refund = () => refundOne(payments[turn++ % payments.length])
  await throughput(300, CONCURRENCY, refund) // warm-up: JIT, connections
  const start = Number(process.hrtime.bigint() / 1000n)
  await throughput(REFUNDS, CONCURRENCY, refund)
  const end = Number(process.hrtime.bigint() / 1000n)
  writeFileSync(windowFile, JSON.stringify({ start, end }))
}

/** What a sample was doing, judged from its whole stack (innermost match first). */
const CATEGORIES: Array<{ name: string; test: (frame: ProfileNode["callFrame"]) => boolean }> = [
  { name: "garbage collection", test: (f) => f.functionName === "(garbage collector)" },
  { name: "fast-xml-parser (parse)", test: (f) => f.url.includes("/fast-xml-parser/") },
  { name: "zod (response and data checks)", test: (f) => f.url.includes("/zod/") },
  {
    name: "undici + sockets (HTTP)",
    test: (f) =>
      f.url.includes("/undici/") || f.url.startsWith("node:net") || f.url.startsWith("node:internal/stream") || f.functionName === "writeUtf8String" || f.functionName === "writev",
  },
  { name: "client: XML answer to typed records (xml.ts)", test: (f) => f.url.endsWith("src/altapay/xml.ts") },
  { name: "client: order lines (validate, format)", test: (f) => f.url.includes("src/altapay/order-lines/") || f.url.endsWith("src/altapay/money.ts") },
  { name: "client: other (gateway.ts, http.ts)", test: (f) => f.url.includes("src/altapay/") },
  { name: "provider and lib (refund flow, payment data)", test: (f) => f.url.includes("src/providers/") || f.url.includes("src/lib/") },
]

export interface ProfileSummary {
  rows: Row[]
  /** The hottest functions by self time, for the notes. */
  top: string[]
  file: string
}

export function summariseProfile(
  profile: CpuProfile,
  window?: { start: number; end: number }
): { shares: Array<[string, number]>; top: Array<[string, number]>; sampledMs: number } {
  const byId = new Map(profile.nodes.map((n) => [n.id, n]))
  const parent = new Map<number, number>()
  for (const n of profile.nodes) for (const c of n.children ?? []) parent.set(c, n.id)
  const category = new Map<number, string>()
  const categoryOf = (id: number): string => {
    const known = category.get(id)
    if (known) return known
    const node = byId.get(id)!
    const own = CATEGORIES.find((c) => c.test(node.callFrame))?.name
    const up = parent.get(id)
    const result = own ?? (up === undefined ? "other (node internals, bench driver)" : categoryOf(up))
    category.set(id, result)
    return result
  }
  const totals = new Map<string, number>()
  const self = new Map<string, number>()
  let t = profile.startTime
  let sampled = 0
  for (let i = 0; i < profile.samples.length; i++) {
    t += profile.timeDeltas[i]
    const dt = profile.timeDeltas[i + 1] ?? 0
    if (window && (t < window.start || t > window.end)) continue
    const node = byId.get(profile.samples[i])!
    if (node.callFrame.functionName === "(idle)" || node.callFrame.functionName === "(program)") continue
    sampled += dt
    const name = categoryOf(node.id)
    totals.set(name, (totals.get(name) ?? 0) + dt)
    const where = `${node.callFrame.functionName || "(anonymous)"} ${shortUrl(node.callFrame.url)}:${node.callFrame.lineNumber + 1}`
    self.set(where, (self.get(where) ?? 0) + dt)
  }
  const share = (m: Map<string, number>): Array<[string, number]> => [...m.entries()].sort((a, b) => b[1] - a[1]).map(([k, v]) => [k, sampled ? v / sampled : 0])
  return { shares: share(totals), top: share(self).slice(0, 12), sampledMs: sampled / 1000 }
}

const shortUrl = (url: string): string => {
  const nm = url.lastIndexOf("/node_modules/")
  if (nm >= 0) return url.slice(nm + "/node_modules/".length)
  const src = url.indexOf("/src/")
  return src >= 0 ? url.slice(src + 1) : url.replace(/^file:\/\//, "")
}

/** Parent side: runs the child under --cpu-prof and reads its profile. */
export async function profileRefunds(sandboxUrl: string, payments: AltaPayPaymentData[], log: (m: string) => void): Promise<ProfileSummary> {
  const dir = mkdtempSync(path.join(os.tmpdir(), "altapay-bench-prof-"))
  const paymentsFile = path.join(dir, "payments.json")
  const windowFile = path.join(dir, "window.json")
  writeFileSync(paymentsFile, JSON.stringify(payments))
  log(`cpu profile: ${REFUNDS} provider refunds at ${CONCURRENCY} in flight under node --cpu-prof`)
  await new Promise<void>((resolve, reject) => {
    const child = spawn(process.execPath, ["--cpu-prof", `--cpu-prof-dir=${dir}`, path.join(__dirname, "run.js"), "--profile-child", paymentsFile, sandboxUrl, windowFile], {
      stdio: "inherit",
    })
    child.on("error", reject)
    child.on("exit", (code) => (code === 0 ? resolve() : reject(new Error(`the profiling child exited with ${code}`))))
  })
  const file = readdirSync(dir).find((f) => f.endsWith(".cpuprofile"))
  if (!file) throw new Error(`no .cpuprofile in ${dir}`)
  const profile = JSON.parse(readFileSync(path.join(dir, file), "utf8")) as CpuProfile
  const window = JSON.parse(readFileSync(windowFile, "utf8")) as { start: number; end: number }
  const { shares, top, sampledMs } = summariseProfile(profile, window)
  const kept = path.join(os.tmpdir(), "altapay-bench-refund.cpuprofile")
  writeFileSync(kept, JSON.stringify(profile))
  rmSync(dir, { recursive: true, force: true })
  const pct = (v: number): string => `${(v * 100).toFixed(0)}%`
  return {
    rows: [
      {
        figure: `refund CPU profile (${REFUNDS} provider refunds at ${CONCURRENCY} in flight, ${Math.round(sampledMs)} ms sampled, ${Math.round((sampledMs * 1000) / REFUNDS)} µs per refund)`,
        measured: shares.map(([name, v]) => `${name} ${pct(v)}`).join("; "),
        target: "report",
        status: "info",
      },
    ],
    top: top.map(([where, v]) => `${pct(v)} ${where}`),
    file: kept,
  }
}

/** The profile's hottest functions, for bench/results.md. */
export function profileNote(profile: ProfileSummary): string {
  return [
    "### The refund profile's hottest functions (self time, share of the sampled CPU)",
    "",
    `From this run's profile (kept at ${profile.file}; open it in Chrome DevTools):`,
    "",
    ...profile.top.map((line) => `- ${line}`),
    "",
  ].join("\n")
}
