/**
 * A whole store: Medusa on embedded Postgres (the integration tests' store app, seed and helpers,
 * booted by Medusa's own test runner outside jest), N checkouts through Medusa's routes with
 * AltaPay (sandbox at 0 ms and 30 ms) and with Medusa's manual provider (pp_system_default), in
 * interleaved rounds. Then the memory of a long run of AltaPay checkouts.
 */
import type { MedusaContainer } from "@medusajs/framework/types"
import { ContainerRegistrationKeys } from "@medusajs/framework/utils"
import type { Sandbox } from "../src/sandbox"
import type { Api } from "../tools/test-store/store"
import type { SeededStore } from "../tools/store/seed"
import type { Row } from "./lib/report"
import { heapAfterGc } from "./memory"
import { PASSWORD, USER, type LedgerLine, type RemoteSandbox } from "./lib/sandbox-process"
import { TestHooks } from "./lib/test-hooks"
import { interleaved, median, nowNs, nsToMs } from "./lib/timing"

const ROUNDS = Number(process.env.BENCH_STORE_ROUNDS ?? 15)
const WARMUP_ROUNDS = 2
const TARGET = 1.3
const STEPS = ["cart", "session", "complete", "capture", "refund"] as const
type Step = (typeof STEPS)[number]
type Variant = "altapay 0 ms" | "altapay 30 ms" | "manual"
const VARIANTS: Variant[] = ["altapay 0 ms", "altapay 30 ms", "manual"]

interface Checkout {
  /** Wall ms per step (Medusa routes only). */
  ms: Record<Step, number>
  /** SQL queries per step. */
  queries: Record<Step, number>
  /** Requests the store's server made to AltaPay per step (the shopper's own calls to AltaPay excluded). */
  altapay: Record<Step, number>
  /** Untimed: the shopper paying on AltaPay's page (AltaPay variants). */
  payMs: number
}

export interface StoreBench {
  rows: Row[]
  memory: Row[]
}

interface Store {
  api: Api
  container: MedusaContainer
  seed: SeededStore
  admin: Record<string, string>
  /** `counted: false` skips reading the sandbox's ledger (checkouts running side by side). */
  checkout(variant: Variant, counted?: boolean): Promise<Checkout>
  close(): Promise<void>
}

/** Boots the store app against the bench's sandbox process. */
async function startStore(sandbox: RemoteSandbox, log: (m: string) => void): Promise<Store> {
  process.env.MEDUSA_DISABLE_TELEMETRY ??= "true"
  process.env.LOG_LEVEL ??= "error"
  const { startPostgres } = require("../tools/test-store/postgres") as typeof import("../tools/test-store/postgres")
  const postgres = await startPostgres()
  log(`store: embedded Postgres on port ${postgres.port}`)

  const hooks = new TestHooks()
  hooks.install()
  let options!: { api: Api; getContainer: () => MedusaContainer }
  try {
    // The integration tests' setup file: quiets knex's expected "Connection ended" after each restore.
    require("../tools/test-store/jest.setup")
    // Loaded now: test-utils reads the database settings from process.env when it loads.
    const { medusaIntegrationTestRunner } = require("@medusajs/test-utils") as typeof import("@medusajs/test-utils")
    const { STORE_APP_DIR, useAltaPayStore, storeAltaPay } = require("../tools/test-store/store-app/altapay-store") as typeof import("../tools/test-store/store-app/altapay-store")
    useAltaPayStore()
    // Point the store at the sandbox process (its CPU stays out of the store's process, as AltaPay's would).
    beforeAll(() => {
      Object.assign(storeAltaPay.options, { checkoutUrl: sandbox.url, gatewayUrl: sandbox.url, username: USER, password: PASSWORD })
    })
    medusaIntegrationTestRunner({ cwd: STORE_APP_DIR, testSuite: (o) => (options = o as never) })
  } finally {
    hooks.uninstall()
  }
  const started = nowNs()
  await hooks.beforeAll()
  await hooks.beforeEach()
  log(`store: Medusa app up in ${(nsToMs(nowNs() - started) / 1000).toFixed(0)} s`)

  const { seedStore, createAdminUser } = require("../tools/test-store/store") as typeof import("../tools/test-store/store")
  const container = options.getContainer()
  const seed = await seedStore(container)
  const admin = (await createAdminUser(options.api, container)).headers
  const store = { api: options.api, container, seed, admin }
  return {
    ...store,
    checkout: checkoutWith(store, sandbox),
    close: async () => {
      await hooks.afterEach()
      await hooks.afterAll()
      await postgres.stop()
    },
  }
}

function checkoutWith(store: Pick<Store, "api" | "container" | "seed" | "admin">, sandbox: RemoteSandbox): Store["checkout"] {
  const helpers = require("../tools/test-store/store") as typeof import("../tools/test-store/store")
  const { api, container, seed, admin } = store
  const knex = container.resolve(ContainerRegistrationKeys.PG_CONNECTION) as { on(event: "query", fn: () => void): void }
  let queries = 0
  knex.on("query", () => queries++)
  // The helpers pay through a Sandbox; this one is in another process.
  const remote = { simulatePayment: (sessionId: string) => sandbox.simulatePayment(sessionId) } as unknown as Sandbox
  const serverCalls = (lines: LedgerLine[]): number => lines.filter((l) => l.operation !== "payment.simulate" && l.auth !== "bearer:CUSTOMER").length
  const headers = { headers: helpers.storeHeaders(seed) }
  const asAdmin = { headers: admin }

  return async (variant, counted = true) => {
    const result: Checkout = { ms: {} as Checkout["ms"], queries: {} as Checkout["queries"], altapay: {} as Checkout["altapay"], payMs: 0 }
    const altapay = variant !== "manual"
    const ledger = altapay && counted
    if (ledger) await sandbox.clearLedger()
    let seen = 0
    const step = async <T>(name: Step, job: () => Promise<T>): Promise<T> => {
      const q0 = queries
      const t0 = nowNs()
      const value = await job()
      result.ms[name] = nsToMs(nowNs() - t0)
      result.queries[name] = queries - q0
      if (ledger) {
        const lines = await sandbox.ledger()
        result.altapay[name] = serverCalls(lines.slice(seen))
        seen = lines.length
      } else result.altapay[name] = 0
      return value
    }
    const cart = await step("cart", () => helpers.createCart(api, seed))
    if (altapay) {
      const session = await step("session", () => helpers.startSession(api, seed, cart.id))
      const t0 = nowNs()
      await helpers.payWithAltaPay(session, { sandbox: remote, callback: false })
      result.payMs = nsToMs(nowNs() - t0)
      if (ledger) seen = (await sandbox.ledger()).length
    } else {
      await step("session", async () => {
        const { data } = await api.post("/store/payment-collections", { cart_id: cart.id }, headers)
        await api.post(`/store/payment-collections/${data.payment_collection.id}/payment-sessions`, { provider_id: "pp_system_default" }, headers)
      })
    }
    const order = await step("complete", async () => {
      const { data } = await api.post(`/store/carts/${cart.id}/complete`, {}, headers)
      if (data.type !== "order") throw new Error(`cart ${cart.id} did not complete: ${JSON.stringify(data.error ?? data).slice(0, 300)}`)
      return data.order as { id: string }
    })
    const [payment] = await helpers.orderPayments(container, order.id)
    await step("capture", () => api.post(`/admin/payments/${payment.id}/capture`, {}, asAdmin))
    await step("refund", () => api.post(`/admin/payments/${payment.id}/refund`, { amount: 10 }, asAdmin))
    return result
  }
}

const total = (c: Checkout): number => STEPS.reduce((sum, s) => sum + c.ms[s], 0)

async function withLatency<T>(sandbox: RemoteSandbox, variant: Variant, job: () => Promise<T>): Promise<T> {
  if (variant !== "altapay 30 ms") return job()
  await sandbox.fault({ kind: "latency", ms: 30, times: Number.MAX_SAFE_INTEGER })
  try {
    return await job()
  } finally {
    await sandbox.clearFaults()
  }
}

function ratioRows(runs: Record<Variant, Checkout[]>): Row[] {
  const perCheckout = (v: Variant) => median(runs[v].map(total))
  const stepMedian = (v: Variant, s: Step, of: "ms" | "queries" | "altapay") => median(runs[v].map((c) => c[of][s]))
  // Per round: the AltaPay checkout over the manual one made in the same round.
  const ratio = (v: Variant) => median(runs[v].map((c, i) => total(c) / total(runs.manual[i])))
  const rows: Row[] = []
  const r0 = ratio("altapay 0 ms")
  rows.push({
    figure: `checkout through Medusa's routes (cart, session, complete, capture, refund), ${runs.manual.length} rounds: AltaPay at 0 ms / manual provider`,
    measured: `${r0.toFixed(2)}x (${perCheckout("altapay 0 ms").toFixed(0)} ms vs ${perCheckout("manual").toFixed(0)} ms per checkout)`,
    target: `<= ${TARGET}x`,
    status: r0 <= TARGET ? "pass" : "miss",
  })
  const r30 = ratio("altapay 30 ms")
  rows.push({
    figure: "checkout: AltaPay 30 ms away / manual provider",
    measured: `${r30.toFixed(2)}x (${perCheckout("altapay 30 ms").toFixed(0)} ms vs ${perCheckout("manual").toFixed(0)} ms)`,
    target: "report",
    status: "info",
  })
  for (const s of STEPS) {
    const parts = VARIANTS.map(
      (v) => `${v} ${stepMedian(v, s, "ms").toFixed(0)} ms, ${stepMedian(v, s, "queries")} SQL${v === "manual" ? "" : `, ${stepMedian(v, s, "altapay")} to AltaPay`}`
    )
    rows.push({ figure: `checkout step ${s} (median)`, measured: parts.join("; "), target: "report", status: "info" })
  }
  rows.push({
    figure: "the shopper paying on AltaPay's page (browser to AltaPay, not timed above)",
    measured: `${median(runs["altapay 0 ms"].map((c) => c.payMs)).toFixed(0)} ms at 0 ms, ${median(runs["altapay 30 ms"].map((c) => c.payMs)).toFixed(0)} ms at 30 ms`,
    target: "-",
    status: "info",
  })
  return rows
}

const MB = 1024 * 1024

/**
 * Heap after GC after every batch of `every` checkouts, batches alternating between AltaPay (0 ms)
 * and Medusa's manual provider, at `concurrency` in flight, for `seconds` or `max` checkouts. What
 * a batch adds to the heap counts for its variant: Medusa's own growth shows in the manual
 * batches, the plugin's share is what AltaPay batches add beyond that.
 */
async function memoryRun(store: Store, log: (m: string) => void, seconds: number, max = 10_000, concurrency = 2): Promise<Row[]> {
  const every = Number(process.env.BENCH_STORE_MEMORY_BATCH ?? 50)
  const variants = ["altapay 0 ms", "manual"] as const
  const grown: Record<(typeof variants)[number], { checkouts: number; bytes: number; batches: number[] }> = {
    "altapay 0 ms": { checkouts: 0, bytes: 0, batches: [] },
    manual: { checkouts: 0, bytes: 0, batches: [] },
  }
  const rss0 = process.memoryUsage().rss
  const first = heapAfterGc()
  let heap = first
  const deadline = nowNs() + BigInt(Math.round(seconds * 1e9))
  let done = 0
  const t0 = nowNs()
  log(`store memory: batches of ${every} AltaPay and manual checkouts in turn, ${concurrency} in flight, for up to ${seconds} s or ${max.toLocaleString("en")} checkouts`)
  for (let i = 0; done < max && nowNs() < deadline; i++) {
    const variant = variants[i % 2]
    let started = 0
    const batch = Math.min(every, max - done)
    await Promise.all(
      Array.from({ length: concurrency }, async () => {
        while (started < batch) {
          started++
          await store.checkout(variant, false)
        }
      })
    )
    done += batch
    const now = heapAfterGc()
    // The first pair of batches fills caches (Medusa's and ours): not counted.
    if (i >= 2) {
      grown[variant].checkouts += batch
      grown[variant].bytes += now - heap
      grown[variant].batches.push((now - heap) / batch)
    }
    heap = now
    log(`store memory: ${done} checkouts in ${(nsToMs(nowNs() - t0) / 1000).toFixed(0)} s, heap ${(heap / MB).toFixed(1)} MB (${variant} batch)`)
  }
  const seconds_ = nsToMs(nowNs() - t0) / 1000
  const per10k = (v: (typeof variants)[number]) => (grown[v].checkouts ? (grown[v].bytes / grown[v].checkouts) * 10_000 : 0) / MB
  const altapay = per10k("altapay 0 ms")
  const manual = per10k("manual")
  const share = altapay > 0 ? Math.max(0, altapay - manual) / altapay : 0
  return [
    {
      figure: `heap after GC over ${done.toLocaleString("en")} whole-store checkouts, AltaPay and manual in turn (Medusa, provider and the bench in one process; ${(done / seconds_).toFixed(1)} checkouts/s at ${concurrency} in flight)`,
      measured: `${(first / MB).toFixed(1)} -> ${(heap / MB).toFixed(1)} MB; RSS ${(rss0 / MB).toFixed(0)} -> ${(process.memoryUsage().rss / MB).toFixed(0)} MB`,
      target: "report",
      status: "info",
    },
    {
      figure: `heap growth per 10,000 checkouts, extrapolated from ${grown["altapay 0 ms"].checkouts} AltaPay and ${grown.manual.checkouts} manual checkouts (what their batches added)`,
      measured: `AltaPay ${altapay.toFixed(1)} MB, manual ${manual.toFixed(1)} MB: the plugin's share ${(share * 100).toFixed(0)} % (AltaPay / manual ${manual > 0 ? (altapay / manual).toFixed(2) : "n/a"})`,
      target: "report",
      status: "info",
    },
  ]
}

export async function storeBench(sandbox: RemoteSandbox, log: (m: string) => void): Promise<StoreBench> {
  const store = await startStore(sandbox, log)
  try {
    log(`store: ${WARMUP_ROUNDS} warm-up rounds`)
    for (let i = 0; i < WARMUP_ROUNDS; i++) for (const v of VARIANTS) await withLatency(sandbox, v, () => store.checkout(v))
    log(`store: ${ROUNDS} rounds of one checkout per variant (${VARIANTS.join(", ")}), in turn`)
    let made = 0
    const runs = await interleaved(VARIANTS, ROUNDS, async (v) => {
      const c = await withLatency(sandbox, v, () => store.checkout(v))
      if (++made % VARIANTS.length === 0) log(`store: round ${made / VARIANTS.length} of ${ROUNDS} done`)
      return c
    })
    const rows = ratioRows(runs)
    const seconds = Number(process.env.BENCH_STORE_MEMORY_SECONDS ?? 600)
    const memory = await memoryRun(store, log, seconds, Number(process.env.BENCH_STORE_MEMORY_CHECKOUTS ?? 10_000))
    return { rows, memory }
  } finally {
    await store.close()
    await sandbox.clearLedger()
  }
}
