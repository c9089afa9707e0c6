/**
 * CPU per capture and per refund through the money door, 64 in flight, against the floor: a bare
 * request with the provider's bytes plus fast-xml-parser's parse of each answer. CPU time of this
 * process's main thread (the sandbox answers in its own process; the compiler's and collector's
 * helper threads set no queue), so the figure hardly moves with the machine's load, unlike the
 * latency table's, which it explains: at 64 in flight the thread's CPU per call is what sets the
 * queue. `BENCH_DOOR_PROFILE=<file>` also writes a CPU profile of the provider's
 * rounds (node:inspector, the measured calls only).
 */
import { writeFileSync } from "node:fs"
import { Session } from "node:inspector"
import { XMLParser } from "fast-xml-parser"
import { parserOptions } from "../src/altapay/xml"
import type { AltaPayPaymentData } from "../src/lib/payment-data/data"
import {
  authorizedSupply,
  barePool,
  capturedPayments,
  createProvider,
  fixedId,
  medusaCopies,
  providerOptions,
  recordedCapture,
  recordWire,
  refundAsMedusa,
  sendBare,
  substitute,
  type WireRequest,
} from "./lib/fixtures"
import type { Row } from "./lib/report"
import type { RemoteSandbox } from "./lib/sandbox-process"
import { interleaved, mainThreadCpuPerCall, median, throughput, type Op } from "./lib/timing"

const CONCURRENCY = 64
const ROUNDS = 5
const CALLS = 384
/** Calls per variant before the measured rounds (as many as the latency step's: the process settles over them). */
const WARM_UP = 1024
const VARIANTS = ["provider", "floor"] as const

/** CPU milliseconds of the main thread per call, for `count` calls of `op` kept 64 in flight. */
const cpuPerCall = async (count: number, op: Op): Promise<number> => (await mainThreadCpuPerCall(count, CONCURRENCY, op)) / 1000

/** Runs `job` under the inspector's CPU profiler when `file` is set, and writes the profile there. */
async function profiled<T>(file: string | undefined, job: () => Promise<T>): Promise<T> {
  if (!file) return job()
  const session = new Session()
  session.connect()
  const post = (method: string, params?: object) =>
    new Promise<unknown>((resolve, reject) => session.post(method, params ?? {}, (error, result) => (error ? reject(error) : resolve(result))))
  await post("Profiler.enable")
  await post("Profiler.setSamplingInterval", { interval: 100 })
  await post("Profiler.start")
  try {
    return await job()
  } finally {
    const { profile } = (await post("Profiler.stop")) as { profile: unknown }
    writeFileSync(file, JSON.stringify(profile))
    session.disconnect()
  }
}

export async function doorCpuRows(sandbox: RemoteSandbox, log: (m: string) => void): Promise<Row[]> {
  const provider = createProvider(providerOptions(sandbox, "storefront"))
  const parser = new XMLParser(parserOptions)
  const pool = barePool(sandbox.url)
  const profile = process.env.BENCH_DOOR_PROFILE

  const needed = (ROUNDS + 1) * CALLS * VARIANTS.length + WARM_UP * VARIANTS.length + 1
  log(`door cpu: ${needed} authorized payments, 400 captured`)
  const take = await authorizedSupply(needed, provider, sandbox)
  const first = take()
  const { request: captureRequest, key: firstKey } = await recordedCapture(provider, first)
  const captured = await capturedPayments(400, 32, provider, sandbox)
  const copies = medusaCopies()
  const refund = refundAsMedusa(provider, copies)
  const refundKey = fixedId("ref")
  const refundRequests = await recordWire(() => refund(captured[0], refundKey))
  let turn = 0
  const nextCaptured = (): AltaPayPaymentData => captured[turn++ % captured.length]
  await sandbox.clearLedger()

  const floor =
    (requests: () => WireRequest[]): Op =>
    async () => {
      for (const request of requests()) parser.parse(await sendBare(pool, request))
    }
  const ops: Record<"capture" | "refund", Record<(typeof VARIANTS)[number], Op>> = {
    capture: {
      provider: () => provider.capturePayment({ data: take() as never, context: { idempotency_key: fixedId("capt") } }),
      floor: floor(() => [substitute(captureRequest, { [first.transaction_id!]: take().transaction_id!, [firstKey]: fixedId("capt") })]),
    },
    refund: {
      provider: () => refund(nextCaptured()),
      floor: floor(() => {
        const p = nextCaptured()
        const key = fixedId("ref")
        return refundRequests.map((r) => substitute(r, { [captured[0].transaction_id!]: p.transaction_id!, [refundKey]: key }))
      }),
    },
  }

  const rows: Row[] = []
  for (const operation of ["capture", "refund"] as const) {
    for (const variant of VARIANTS) await throughput(WARM_UP, CONCURRENCY, ops[operation][variant]) // JIT, connections
    log(`door cpu: ${operation}, ${ROUNDS} rounds x ${CALLS} calls at ${CONCURRENCY} in flight per variant`)
    const samples = await interleaved(VARIANTS, ROUNDS, (variant) => cpuPerCall(CALLS, ops[operation][variant]))
    if (profile) {
      const file = profile.replace(/(\.cpuprofile)?$/, `-${operation}.cpuprofile`)
      await profiled(file, () => cpuPerCall(CALLS, ops[operation].provider))
      log(`door cpu: profile of ${CALLS} provider ${operation}s in ${file}`)
    }
    const p = median(samples.provider)
    const f = median(samples.floor)
    rows.push({
      figure: `CPU per ${operation} at ${CONCURRENCY} in flight, main thread: provider (through the money door) / floor (bare request + XML parse)`,
      measured: `${(p / f).toFixed(2)} (${p.toFixed(2)} ms vs ${f.toFixed(2)} ms; rounds ${samples.provider.map((v) => v.toFixed(2)).join(", ")}; floor ${samples.floor.map((v) => v.toFixed(2)).join(", ")})`,
      target: "report",
      status: "info",
    })
  }
  await pool.close()
  await sandbox.clearLedger()
  return rows
}
