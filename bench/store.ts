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
import { CALLBACK_SECRET, PASSWORD, USER, type LedgerLine, type RemoteSandbox } from "./lib/sandbox-process"
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
  /**
   * `counted: false` skips reading the sandbox's ledger (checkouts running side by side);
   * `callback: true` has AltaPay also send its notification callback (AltaPay variants).
   */
  checkout(variant: Variant, counted?: boolean, callback?: boolean): Promise<Checkout>
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
      Object.assign(storeAltaPay.options, { checkoutUrl: sandbox.url, gatewayUrl: sandbox.url, username: USER, password: PASSWORD, callbackSecret: CALLBACK_SECRET })
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

/** How the store answered AltaPay's callbacks in the bench's checkouts: status -> count. */
const callbackStatuses: Record<string, number> = {}

function checkoutWith(store: Pick<Store, "api" | "container" | "seed" | "admin">, sandbox: RemoteSandbox): Store["checkout"] {
  const helpers = require("../tools/test-store/store") as typeof import("../tools/test-store/store")
  const { api, container, seed, admin } = store
  const knex = container.resolve(ContainerRegistrationKeys.PG_CONNECTION) as { on(event: "query", fn: () => void): void }
  let queries = 0
  knex.on("query", () => queries++)
  // The helpers pay through a Sandbox; this one is in another process. The callback, when asked
  // for, reaches the store as AltaPay's would (Medusa processes it after its webhook delay).
  const remote = (callback: boolean) =>
    ({
      simulatePayment: async (sessionId: string) => {
        const paid = (await sandbox.simulatePayment(sessionId, callback)) as { callbackStatus?: number }
        if (callback) callbackStatuses[String(paid.callbackStatus)] = (callbackStatuses[String(paid.callbackStatus)] ?? 0) + 1
        return paid
      },
    }) as unknown as Sandbox
  const serverCalls = (lines: LedgerLine[]): number => lines.filter((l) => l.operation !== "payment.simulate" && l.auth !== "bearer:CUSTOMER").length
  const headers = { headers: helpers.storeHeaders(seed) }
  const asAdmin = { headers: admin }

  return async (variant, counted = true, callback = false) => {
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
      await helpers.payWithAltaPay(session, { sandbox: remote(callback), callback: false })
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

type MemoryVariant = "altapay 0 ms" | "manual"

/**
 * Heap after GC after every batch of `every` checkouts, batches alternating between AltaPay (0 ms;
 * every other checkout also gets AltaPay's notification callback) and Medusa's manual provider,
 * at `concurrency` in flight, for `seconds` or `max` checkouts. What a batch adds to the heap
 * counts for its variant: Medusa's own growth shows in the manual batches, the plugin's share is
 * what AltaPay batches add beyond that. Every `BENCH_STORE_MEMORY_SAMPLE_SECONDS` (300) the heap
 * and what the plugin holds per cache are logged and kept as a series; the growth of the batches
 * that started after `BENCH_STORE_MEMORY_STEADY_AFTER` seconds (3,660: past the longest bound,
 * the journal's hour) is reported on its own, as the steady state.
 */
async function memoryRun(store: Store, log: (m: string) => void, seconds: number, max = 10_000, concurrency = 2): Promise<Row[]> {
  const every = Number(process.env.BENCH_STORE_MEMORY_BATCH ?? 50)
  const sampleSeconds = Number(process.env.BENCH_STORE_MEMORY_SAMPLE_SECONDS ?? 300)
  const steadyAfter = Number(process.env.BENCH_STORE_MEMORY_STEADY_AFTER ?? 3_660)
  const { pluginHoldings, holdingsText } = require("./lib/holdings") as typeof import("./lib/holdings")
  const variants: MemoryVariant[] = ["altapay 0 ms", "manual"]
  const batches: Array<{ variant: MemoryVariant; startedAt: number; checkouts: number; bytes: number }> = []
  const series: Row[] = []
  const rss0 = process.memoryUsage().rss
  const first = heapAfterGc()
  let heap = first
  const deadline = nowNs() + BigInt(Math.round(seconds * 1e9))
  let done = 0
  let callbacks = 0
  const t0 = nowNs()
  const elapsed = (): number => nsToMs(nowNs() - t0) / 1000
  const grownSoFar = (v: MemoryVariant, from = 0): { checkouts: number; bytes: number } =>
    batches
      .filter((b) => b.variant === v && b.startedAt >= from)
      .reduce((sum, b) => ({ checkouts: sum.checkouts + b.checkouts, bytes: sum.bytes + b.bytes }), { checkouts: 0, bytes: 0 })
  const per10k = (g: { checkouts: number; bytes: number }): number => (g.checkouts ? (g.bytes / g.checkouts) * 10_000 : 0) / MB
  const sample = async (): Promise<void> => {
    const holdings = await pluginHoldings(store.container)
    const a = grownSoFar("altapay 0 ms")
    const m = grownSoFar("manual")
    const at = `${(elapsed() / 60).toFixed(0)} min`
    const text = holdingsText(holdings.filter((h) => h.entries > 0 && !h.name.includes("not the provider's") && !h.name.includes("Medusa's own")))
    log(
      `store memory series ${at}: callbacks answered ${JSON.stringify(callbackStatuses)}; ${done} checkouts, heap ${(heap / MB).toFixed(1)} MB; added by AltaPay batches ${(a.bytes / MB).toFixed(1)} MB, manual ${(m.bytes / MB).toFixed(1)} MB; ${text}`
    )
    series.push({
      figure: `heap after GC at ${at}: ${done.toLocaleString("en")} checkouts`,
      measured: `${(heap / MB).toFixed(1)} MB; added so far by AltaPay batches ${(a.bytes / MB).toFixed(1)} MB (${a.checkouts}), manual ${(m.bytes / MB).toFixed(1)} MB (${m.checkouts}); plugin holds ${text}`,
      target: "report",
      status: "info",
    })
  }
  log(
    `store memory: batches of ${every} AltaPay (every other one with AltaPay's callback) and manual checkouts in turn, ${concurrency} in flight, for up to ${seconds} s or ${max.toLocaleString("en")} checkouts; a sample every ${sampleSeconds} s`
  )
  await sample()
  let nextSample = sampleSeconds
  for (let i = 0; done < max && nowNs() < deadline; i++) {
    const variant = variants[i % 2]
    const startedAt = elapsed()
    let started = 0
    const batch = Math.min(every, max - done)
    await Promise.all(
      Array.from({ length: concurrency }, async () => {
        while (started < batch) {
          const callback = variant !== "manual" && started % 2 === 0
          started++
          if (callback) callbacks++
          await store.checkout(variant, false, callback)
        }
      })
    )
    done += batch
    const now = heapAfterGc()
    // The first pair of batches fills caches (Medusa's and ours): not counted.
    if (i >= 2) batches.push({ variant, startedAt, checkouts: batch, bytes: now - heap })
    heap = now
    log(`store memory: ${done} checkouts in ${elapsed().toFixed(0)} s, heap ${(heap / MB).toFixed(1)} MB (${variant} batch)`)
    if (elapsed() >= nextSample) {
      await sample()
      while (nextSample <= elapsed()) nextSample += sampleSeconds
    }
  }
  // Medusa processes a callback after its webhook delay: let the last ones land before the last look.
  await new Promise((resolve) => setTimeout(resolve, 10_000))
  heap = heapAfterGc()
  const seconds_ = elapsed()
  await sample()
  const holdings = await pluginHoldings(store.container)
  const altapay = per10k(grownSoFar("altapay 0 ms"))
  const manual = per10k(grownSoFar("manual"))
  const share = altapay > 0 ? Math.max(0, altapay - manual) / altapay : 0
  const steadyA = grownSoFar("altapay 0 ms", steadyAfter)
  const steadyM = grownSoFar("manual", steadyAfter)
  const holdingRows: Row[] = holdings.map((h) => ({
    figure: `held at the end: ${h.name}`,
    measured: `${h.entries.toLocaleString("en")} entries${h.expired ? ` (${h.expired} past their time to live)` : ""}, ${(h.bytes / 1024).toFixed(0)} KB of JSON and keys`,
    target: "report",
    status: "info",
  }))
  return [
    {
      figure: `heap after GC over ${done.toLocaleString("en")} whole-store checkouts in ${(seconds_ / 60).toFixed(0)} min, AltaPay (${callbacks} with a callback) and manual in turn (Medusa, provider and the bench in one process; ${(done / seconds_).toFixed(1)} checkouts/s at ${concurrency} in flight)`,
      measured: `${(first / MB).toFixed(1)} -> ${(heap / MB).toFixed(1)} MB; RSS ${(rss0 / MB).toFixed(0)} -> ${(process.memoryUsage().rss / MB).toFixed(0)} MB`,
      target: "report",
      status: "info",
    },
    {
      figure: `heap growth per 10,000 checkouts, extrapolated from ${grownSoFar("altapay 0 ms").checkouts} AltaPay and ${grownSoFar("manual").checkouts} manual checkouts (what their batches added, whole run)`,
      measured: `AltaPay ${altapay.toFixed(1)} MB, manual ${manual.toFixed(1)} MB: the plugin's share ${(share * 100).toFixed(0)} % (AltaPay / manual ${manual > 0 ? (altapay / manual).toFixed(2) : "n/a"})`,
      target: "report",
      status: "info",
    },
    {
      figure: `heap growth per 10,000 checkouts after ${steadyAfter} s (past every bound), from ${steadyA.checkouts} AltaPay and ${steadyM.checkouts} manual checkouts`,
      measured: steadyA.checkouts && steadyM.checkouts ? `AltaPay ${per10k(steadyA).toFixed(1)} MB, manual ${per10k(steadyM).toFixed(1)} MB` : "none: the run ended before",
      target: "report",
      status: "info",
    },
    ...series,
    ...holdingRows,
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
