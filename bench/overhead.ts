/**
 * Overhead of the provider (and of the bare client) over a bare undici request carrying the same
 * bytes to the same sandbox, with a pre-issued token / the same Basic header, through a keep-alive
 * Pool: p50 and p99 of sequential calls, and throughput at 64 concurrent operations.
 */
import type { AltaPayPaymentData } from "../src/lib/payment-data/data"
import {
  barePool,
  CART_LINES,
  CART_TOTAL,
  clientOf,
  createProvider,
  fixedId,
  initiate,
  providerOptions,
  recordWire,
  refundRig,
  sendBare,
  substitute,
  type WireRequest,
} from "./lib/fixtures"
import type { Row } from "./lib/report"
import type { RemoteSandbox } from "./lib/sandbox-process"
import { interleaved, median, medianRatio, sequentialLatencies, summarise, throughput, type LatencySummary, type Op } from "./lib/timing"

const CONCURRENCY = 64

/** Builds the operation for one round of `count` calls; whatever it prepares is not timed. */
type Variant = (count: number) => Op

interface Measured {
  latency: Record<string, LatencySummary[]>
  throughput: Record<string, number[]>
  /** CPU µs per operation during the throughput rounds, in this process and in the sandbox's. */
  cpu: Record<string, Array<{ client: number; sandbox: number }>>
}

async function measure(
  sandbox: RemoteSandbox,
  variants: Record<string, Variant>,
  o: { latencyRounds: number; latencyCount: number; tputRounds: number; tputCount: number; log: (m: string) => void; label: string }
): Promise<Measured> {
  const names = Object.keys(variants)
  // Warm-up: connections, JIT.
  for (const name of names) await throughput(200, CONCURRENCY, variants[name](200))
  o.log(`${o.label}: latency, ${o.latencyRounds} rounds x ${o.latencyCount} sequential calls per variant (${names.join(", ")})`)
  const latency = await interleaved(names, o.latencyRounds, async (name) => summarise(await sequentialLatencies(o.latencyCount, variants[name](o.latencyCount))))
  o.log(`${o.label}: throughput, ${o.tputRounds} rounds x ${o.tputCount} calls at ${CONCURRENCY} in flight`)
  const cpu: Measured["cpu"] = Object.fromEntries(names.map((n) => [n, []]))
  const tput = await interleaved(names, o.tputRounds, async (name) => {
    const op = variants[name](o.tputCount)
    const [client0, sandbox0] = [clientCpuMicros(), await sandbox.cpuMicros()]
    const rate = await throughput(o.tputCount, CONCURRENCY, op)
    const [client1, sandbox1] = [clientCpuMicros(), await sandbox.cpuMicros()]
    cpu[name].push({ client: (client1 - client0) / o.tputCount, sandbox: (sandbox1 - sandbox0) / o.tputCount })
    return rate
  })
  return { latency, throughput: tput, cpu }
}

function clientCpuMicros(): number {
  const { user, system } = process.cpuUsage()
  return user + system
}

/** CPU per operation, median over the throughput rounds: where the time goes when the machine is busy. */
function cpuRow(m: Measured, label: string): Row {
  const parts = Object.entries(m.cpu).map(([name, rounds]) => {
    const client = median(rounds.map((r) => r.client))
    const sandbox = median(rounds.map((r) => r.sandbox))
    return `${name} ${Math.round(client)} + ${Math.round(sandbox)}`
  })
  return { figure: `${label}: CPU µs per operation (this process + sandbox process)`, measured: parts.join("; "), target: "-", status: "info" }
}

const us = (ms: number): string => `${Math.round(ms * 1000)} µs`

function ratioRows(m: Measured, subject: string, baseline: string, label: string, what: string): Row[] {
  const a = m.latency[subject]
  const b = m.latency[baseline]
  const p50 = medianRatio(
    a.map((s) => s.p50),
    b.map((s) => s.p50)
  )
  const p99 = medianRatio(
    a.map((s) => s.p99),
    b.map((s) => s.p99)
  )
  const tput = medianRatio(m.throughput[subject], m.throughput[baseline])
  const p50s = `${us(median(a.map((s) => s.p50)))} vs ${us(median(b.map((s) => s.p50)))}`
  const p99s = `${us(median(a.map((s) => s.p99)))} vs ${us(median(b.map((s) => s.p99)))}`
  const tputs = `${Math.round(median(m.throughput[subject]))}/s vs ${Math.round(median(m.throughput[baseline]))}/s`
  return [
    { figure: `${label}: p50 ${what}`, measured: `${p50.toFixed(2)} (${p50s})`, target: "<= 1.2", status: p50 <= 1.2 ? "pass" : "miss" },
    { figure: `${label}: p99 ${what}`, measured: `${p99.toFixed(2)} (${p99s})`, target: "<= 1.5", status: p99 <= 1.5 ? "pass" : "miss" },
    { figure: `${label}: throughput at ${CONCURRENCY} ${what}`, measured: `${tput.toFixed(2)} (${tputs})`, target: ">= 0.85", status: tput >= 0.85 ? "pass" : "miss" },
  ]
}

export async function sessionOverhead(sandbox: RemoteSandbox, log: (m: string) => void): Promise<{ rows: Row[]; template: WireRequest }> {
  const provider = createProvider(providerOptions(sandbox, "storefront"))
  const pool = barePool(sandbox.url)
  await initiate(provider) // warm token
  const id = fixedId("payses")
  const [template, ...extra] = await recordWire(() => initiate(provider, id))
  if (!template || extra.length > 0 || !template.path.endsWith("/session")) throw new Error("expected exactly one POST /session from a warm storefront initiate")

  const client = clientOf(providerOptions(sandbox, "storefront"))
  const variants: Record<string, Variant> = {
    provider: () => () => initiate(provider),
    // The same session through the client alone (what the provider sends, minus its own mapping).
    client: () => () => {
      const orderId = fixedId("payses")
      return client.checkout.createSession({
        orderId,
        amountMinor: CART_TOTAL * 100,
        currency: "DKK",
        orderLines: CART_LINES,
        transactionInfo: { medusa_payment_session_id: orderId },
        callbacks: { notification: "http://127.0.0.1:9/hooks/payment/altapay_altapay" },
        configuration: { autoCapture: false, language: "en" },
      })
    },
    bare: (count) => {
      const requests = Array.from({ length: count }, () => substitute(template, { [id]: fixedId("payses") }))
      let i = 0
      return () => sendBare(pool, requests[i++])
    },
  }
  const m = await measure(sandbox, variants, { latencyRounds: 9, latencyCount: 200, tputRounds: 5, tputCount: 1000, log, label: "session creation" })
  await pool.close()
  await sandbox.clearLedger()
  return {
    rows: [
      ...ratioRows(m, "provider", "bare", "session creation", "provider / bare"),
      ...ratioRows(m, "client", "bare", "session creation", "client createSession / bare"),
      cpuRow(m, "session creation"),
    ],
    template,
  }
}

export async function refundOverhead(sandbox: RemoteSandbox, log: (m: string) => void, payments: AltaPayPaymentData[]): Promise<Row[]> {
  const { provider, pool, nextPayment, providerRefund, clientRefund } = refundRig(sandbox, payments)

  const key0 = fixedId("ref")
  const first = nextPayment()
  const wire = await recordWire(() => provider.refundPayment({ data: first as never, amount: 1, context: { idempotency_key: key0 } }))
  const lookup = wire.find((r) => r.path.includes("/payments?"))
  const refund = wire.find((r) => r.path.endsWith("/refundCapturedReservation"))
  if (wire.length !== 2 || !lookup || !refund) throw new Error(`expected a payments look-up and a refund, saw ${wire.map((r) => r.path).join(", ")}`)
  const t0 = first.transaction_id!
  const replay = (template: WireRequest, p: AltaPayPaymentData, key: string): WireRequest => substitute(template, { [t0]: p.transaction_id!, [key0]: key })
  const prebuilt = (count: number, build: (p: AltaPayPaymentData, key: string) => WireRequest[]): Op => {
    const batches = Array.from({ length: count }, () => build(nextPayment(), fixedId("ref")))
    let i = 0
    return async () => {
      for (const request of batches[i++]) await sendBare(pool, request)
    }
  }

  const variants: Record<string, Variant> = {
    provider: () => providerRefund,
    client: () => () => clientRefund(),
    bare: (count) => prebuilt(count, (p, key) => [replay(refund, p, key)]),
    "bare look-up + refund": (count) => prebuilt(count, (p, key) => [replay(lookup, p, key), replay(refund, p, key)]),
  }
  const m = await measure(sandbox, variants, { latencyRounds: 9, latencyCount: 150, tputRounds: 5, tputCount: 500, log, label: "refund" })
  await pool.close()
  await sandbox.clearLedger()
  return [
    ...ratioRows(m, "provider", "bare", "refund", "provider (2 round trips) / bare refund (1)"),
    ...ratioRows(m, "provider", "bare look-up + refund", "refund", "provider / bare look-up + refund (same 2 requests)"),
    ...ratioRows(m, "client", "bare", "refund", "client refundCapturedReservation / bare refund"),
    cpuRow(m, "refund"),
  ]
}
