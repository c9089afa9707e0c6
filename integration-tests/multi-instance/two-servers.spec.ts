/**
 * Many Medusa instances (issue #8): two `medusa start` servers of the demo store on one Postgres,
 * one Redis (Debian's redis-server, started here) and one AltaPay sandbox, with Medusa's Redis
 * cache, locking, event bus and workflow engine (demo/medusa-config.ts switches to them when
 * REDIS_URL is set; the Payment module has dependencies [QUERY, CACHE, LOCKING]).
 *
 *   1. cold start: 20 concurrent AltaPay sessions, split over both servers, cost exactly ONE
 *      MERCHANT authenticate: the token is issued under the Redis lock and shared through the
 *      Redis cache;
 *   2. six concurrent refunds of 25 % of one captured payment, three to each server: AltaPay
 *      never refunds more than was captured, AltaPay and Medusa record the same refunds, every
 *      refund either succeeds or fails with a clear error, and the AltaPay calls of the refunds
 *      never overlap (the per-transaction lock holds across the two processes).
 *
 * The sandbox slows the first authenticate (2 s) and every refund (0.7 s) so that both races are
 * really run: with Medusa's in-memory locking instead of locking-redis this spec fails (two
 * MERCHANT authenticates; refund calls interleave at AltaPay), though even then no more is
 * refunded than was captured: Medusa's refundPayment_ checks the amount under a Postgres row lock.
 *
 * Needs `redis-server` on the PATH (apt-get install -y redis-server). Logs of Medusa (migrate,
 * seed, both servers) and Redis are kept in a temporary folder, printed when something fails.
 * Set ALTAPAY_TEST_KEEP=1 to keep that folder.
 */
import { spawn, spawnSync, type ChildProcess } from "node:child_process"
import fs from "node:fs"
import os from "node:os"
import path from "node:path"
import Redis from "ioredis"
import { Client } from "pg"
import { startSandbox, type LedgerEntry, type Sandbox } from "../../src/sandbox"
import { findFreePort } from "../../tools/test-store/postgres"
import type { PreparedStore } from "./prepare-store"
import { REDIS_SERVER, describeNeeding } from "../setup/system-programs"

const REPO = path.resolve(__dirname, "../..")
const DEMO_DIR = path.join(REPO, "demo")
const REGISTER_TS = path.join(DEMO_DIR, "register-ts.js")
const MEDUSA_CLI = path.join(path.dirname(require.resolve("@medusajs/cli/package.json")), "cli.js")
const DATABASE = "altapay_multi_instance"
const CHECKOUTS = 20
const REFUNDS = 6
const REFUND_SHARE = 0.25
const TOKEN_LATENCY_MS = 2_000
const REFUND_LATENCY_MS = 700
/** Medusa refused the refund before AltaPay was asked: nothing moved. */
const REFUSED = /refund more than what is captured|not allowed to refund more than the captured amount|still refundable/i
/** Medusa refunded (AltaPay too), then failed to book the refund on the order. */
const ORDER_CHANGE_CONFLICT = /already has an existing active order change|Order Change cannot be modified/i
const ADDRESS = { first_name: "Karen", last_name: "Blixen", address_1: "Strandvejen 111", city: "Rungsted", postal_code: "2960", country_code: "dk", phone: "+4512345678" }

jest.setTimeout(400_000)

// ---------------------------------------------------------------------------------------------
// Processes

interface RedisServer {
  url: string
  stop(): Promise<void>
}

function stopProcess(child: ChildProcess, group: boolean): Promise<void> {
  if (child.exitCode !== null || child.signalCode !== null || !child.pid) return Promise.resolve()
  const exited = new Promise<void>((resolve) => child.once("exit", () => resolve()))
  const signal = (name: NodeJS.Signals) => {
    try {
      if (group) process.kill(-child.pid!, name)
      else child.kill(name)
    } catch {
      // already gone
    }
  }
  signal("SIGTERM")
  const forced = setTimeout(() => signal("SIGKILL"), 10_000)
  return exited.finally(() => clearTimeout(forced))
}

async function startRedis(dir: string): Promise<RedisServer> {
  const probe = spawnSync("redis-server", ["--version"], { encoding: "utf8" })
  if (probe.error || probe.status !== 0) {
    throw new Error("redis-server is not installed (this test starts a real Redis). Install it with: apt-get install -y redis-server")
  }
  const port = await findFreePort()
  const log = fs.openSync(path.join(dir, "redis.log"), "a")
  const child = spawn("redis-server", ["--port", String(port), "--bind", "127.0.0.1", "--save", "", "--appendonly", "no", "--dir", dir], {
    stdio: ["ignore", log, log],
  })
  fs.closeSync(log)
  const url = `redis://127.0.0.1:${port}`
  const deadline = Date.now() + 15_000
  for (;;) {
    if (child.exitCode !== null) throw new Error(`redis-server exited at once (code ${child.exitCode}); see ${dir}/redis.log`)
    const client = new Redis(url, { lazyConnect: true, maxRetriesPerRequest: 0, retryStrategy: () => null })
    client.on("error", () => undefined)
    const ok = await client
      .connect()
      .then(() => client.ping())
      .then((pong) => pong === "PONG")
      .catch(() => false)
    client.disconnect()
    if (ok) break
    if (Date.now() > deadline) {
      await stopProcess(child, false)
      throw new Error(`redis-server did not answer on ${url} within 15 s; see ${dir}/redis.log`)
    }
    await sleep(100)
  }
  return { url, stop: () => stopProcess(child, false) }
}

/** A fresh database on the run's embedded Postgres (integration-tests/setup/global-setup.ts). */
async function freshDatabase(): Promise<string> {
  const { DB_HOST = "localhost", DB_PORT, DB_USERNAME = "postgres", DB_PASSWORD = "postgres" } = process.env
  if (!DB_PORT) throw new Error("DB_PORT is not set: run this spec through jest (integration-tests/setup/global-setup.ts starts Postgres).")
  const client = new Client({ host: DB_HOST, port: Number(DB_PORT), user: DB_USERNAME, password: DB_PASSWORD, database: process.env.DB_WAITINGROOM_DATABASE ?? "postgres" })
  await client.connect()
  try {
    await client.query(`DROP DATABASE IF EXISTS ${DATABASE} WITH (FORCE)`)
    await client.query(`CREATE DATABASE ${DATABASE}`)
  } finally {
    await client.end()
  }
  return `postgres://${DB_USERNAME}:${DB_PASSWORD}@${DB_HOST}:${DB_PORT}/${DATABASE}`
}

function tail(file: string, lines = 60): string {
  try {
    return fs.readFileSync(file, "utf8").trimEnd().split("\n").slice(-lines).join("\n")
  } catch {
    return "(no log)"
  }
}

/** Environment for Medusa children: the spec's own, without jest's NODE_ENV/NODE_OPTIONS. */
function childEnv(extra: Record<string, string>): NodeJS.ProcessEnv {
  const { NODE_OPTIONS: _jestNodeOptions, JEST_WORKER_ID: _worker, ...own } = process.env
  return { ...own, NODE_ENV: "development", LOG_LEVEL: process.env.ALTAPAY_TEST_DEBUG ? "debug" : "info", ...extra }
}

/** Build, link, migrate and seed the demo store (demo/lib, run outside jest: prepare-store.ts). */
async function prepareStore(dataDir: string, databaseUrl: string, sandboxUrl: string, redisUrl: string): Promise<PreparedStore> {
  const out = path.join(dataDir, "prepared.json")
  const env = childEnv({ DEMO_DATA_DIR: dataDir, DEMO_ADMIN: "false", DATABASE_URL: databaseUrl, ALTAPAY_SANDBOX_URL: sandboxUrl, REDIS_URL: redisUrl })
  const { code, output } = await new Promise<{ code: number | null; output: string }>((resolve) => {
    const child = spawn(process.execPath, ["--require", REGISTER_TS, path.join(__dirname, "prepare-store.ts"), out], { cwd: REPO, env })
    let text = ""
    child.stdout.on("data", (d: Buffer) => (text += d.toString()))
    child.stderr.on("data", (d: Buffer) => (text += d.toString()))
    child.on("exit", (exitCode) => resolve({ code: exitCode, output: text }))
  })
  if (code !== 0) throw new Error(`Preparing the demo store failed (exit ${code}):\n${output}\n--- ${dataDir}/medusa.log ---\n${tail(path.join(dataDir, "medusa.log"))}`)
  return JSON.parse(fs.readFileSync(out, "utf8")) as PreparedStore
}

interface MedusaServer {
  name: string
  url: string
  logFile: string
  ready(): Promise<void>
  stop(): Promise<void>
}

/** `medusa start` in demo/ (its own process group), admin UI off. */
async function launchServer(name: string, prepared: PreparedStore, dataDir: string): Promise<MedusaServer> {
  const port = await findFreePort()
  const url = `http://localhost:${port}`
  const logFile = path.join(dataDir, `medusa-${name}.log`)
  const log = fs.openSync(logFile, "a")
  // prepared.env (demo/lib/medusa.ts medusaEnv) carries NODE_OPTIONS=--require demo/register-ts.js.
  const env = childEnv({ ...prepared.env, PORT: String(port), DEMO_MEDUSA_PORT: String(port), MEDUSA_BACKEND_URL: url, DEMO_ADMIN: "false" })
  const child = spawn(process.execPath, [MEDUSA_CLI, "start"], { cwd: DEMO_DIR, env, stdio: ["ignore", log, log], detached: true })
  fs.closeSync(log)
  const ready = async (): Promise<void> => {
    const deadline = Date.now() + 180_000
    for (;;) {
      if (child.exitCode !== null || child.signalCode !== null)
        throw new Error(`Medusa ${name} exited while starting (${child.signalCode ?? child.exitCode}).\n--- ${logFile} ---\n${tail(logFile)}`)
      const healthy = await fetch(`${url}/health`, { signal: AbortSignal.timeout(2_000) })
        .then(async (res) => (await res.text(), res.ok))
        .catch(() => false)
      if (healthy) return
      if (Date.now() > deadline) throw new Error(`Medusa ${name} did not answer ${url}/health within 180 s.\n--- ${logFile} ---\n${tail(logFile)}`)
      await sleep(250)
    }
  }
  return { name, url, logFile, ready, stop: () => stopProcess(child, true) }
}

// ---------------------------------------------------------------------------------------------
// HTTP

interface Reply<T> {
  status: number
  body: T
}

async function call<T = any>(base: string, method: string, route: string, opts: { body?: unknown; token?: string; publishableKey?: string } = {}): Promise<Reply<T>> {
  const headers: Record<string, string> = { accept: "application/json" }
  if (opts.body !== undefined) headers["content-type"] = "application/json"
  if (opts.token) headers.authorization = `Bearer ${opts.token}`
  if (opts.publishableKey) headers["x-publishable-api-key"] = opts.publishableKey
  const res = await fetch(`${base}${route}`, { method, headers, body: opts.body === undefined ? undefined : JSON.stringify(opts.body), signal: AbortSignal.timeout(60_000) })
  const text = await res.text()
  let body: unknown
  try {
    body = text ? JSON.parse(text) : undefined
  } catch {
    body = text
  }
  return { status: res.status, body: body as T }
}

async function ok<T = any>(what: string, reply: Promise<Reply<T>>): Promise<T> {
  const { status, body } = await reply
  if (status < 200 || status >= 300) throw new Error(`${what}: HTTP ${status} ${JSON.stringify(body)}`)
  return body
}

const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms))
const minor = (value: unknown) => Math.round(Number(value) * 100)

// ---------------------------------------------------------------------------------------------

describeNeeding([REDIS_SERVER], "two Medusa servers, one Redis, one AltaPay", () => {
  const dataDir = fs.mkdtempSync(path.join(os.tmpdir(), "altapay-multi-"))
  const stops: Array<() => Promise<unknown>> = []
  const timings: Record<string, number> = {}
  let failed = false
  let redis: RedisServer
  let redisClient: Redis
  let sandbox: Sandbox
  let prepared: PreparedStore
  let servers: [MedusaServer, MedusaServer]
  let adminToken: string

  const timed = async <T>(name: string, job: () => Promise<T>): Promise<T> => {
    const started = Date.now()
    try {
      return await job()
    } finally {
      timings[name] = Date.now() - started
    }
  }

  beforeAll(async () => {
    const started = Date.now()
    if (process.getuid?.() === 0) fs.chmodSync(dataDir, 0o755)
    redis = await timed("redis", () => startRedis(dataDir))
    stops.push(() => redis.stop())
    redisClient = new Redis(redis.url, { maxRetriesPerRequest: 1 })
    stops.push(() => redisClient.quit().catch(() => undefined))
    const databaseUrl = await freshDatabase()

    // The sandbox's port is chosen first: the store's config points at it, its credentials come from the demo's settings.
    const sandboxPort = await findFreePort()
    const sandboxUrl = `http://127.0.0.1:${sandboxPort}`
    prepared = await timed("prepare (build, migrate, seed)", () => prepareStore(dataDir, databaseUrl, sandboxUrl, redis.url))
    Object.assign(timings, Object.fromEntries(Object.entries(prepared.timings).map(([k, v]) => [`  ${k}`, v])))
    sandbox = await startSandbox({
      port: sandboxPort,
      username: prepared.env.ALTAPAY_USERNAME,
      password: prepared.env.ALTAPAY_PASSWORD,
      callbackSecret: prepared.env.ALTAPAY_CALLBACK_SECRET,
    })
    stops.push(() => sandbox.close())

    const a = await launchServer("a", prepared, dataDir)
    stops.push(() => a.stop())
    const b = await launchServer("b", prepared, dataDir)
    stops.push(() => b.stop())
    servers = [a, b]
    await timed("boot both servers", () => Promise.all([a.ready(), b.ready()]))

    const login = await ok<{ token: string }>(
      "admin login",
      call(a.url, "POST", "/auth/user/emailpass", { body: { email: prepared.env.DEMO_ADMIN_EMAIL, password: prepared.env.DEMO_ADMIN_PASSWORD } })
    )
    adminToken = login.token
    timings["setup total"] = Date.now() - started
  })

  afterEach(() => {
    const state = expect.getState()
    if (state.assertionCalls !== state.numPassingAsserts) failed = true
  })

  afterAll(async () => {
    while (stops.length) await stops.pop()!().catch(() => undefined)
    if (failed && servers) {
      for (const s of servers) console.log(`--- ${s.logFile} ---\n${tail(s.logFile, 80)}`)
    }
    console.log(`[multi-instance] timings (ms): ${JSON.stringify(timings, null, 1)}`)
    if (process.env.ALTAPAY_TEST_KEEP) console.log(`[multi-instance] logs kept in ${dataDir}`)
    else fs.rmSync(dataDir, { recursive: true, force: true })
  })

  const store = (i: number) => servers[i % 2]
  const publishableKey = () => prepared.seed.publishableKey

  async function cartWithShipping(server: MedusaServer, n: number): Promise<string> {
    const { cart } = await ok<{ cart: { id: string } }>(
      `create cart on ${server.name}`,
      call(server.url, "POST", "/store/carts", {
        publishableKey: publishableKey(),
        body: {
          region_id: prepared.seed.regionId,
          sales_channel_id: prepared.seed.salesChannelId,
          email: `karen+${n}@example.com`, // one guest customer per cart: concurrent carts of one new email race in Medusa
          items: [{ variant_id: prepared.seed.variantIds[n % prepared.seed.variantIds.length], quantity: 1 + (n % 3) }],
          shipping_address: ADDRESS,
          billing_address: ADDRESS,
        },
      })
    )
    await ok(
      `shipping on ${server.name}`,
      call(server.url, "POST", `/store/carts/${cart.id}/shipping-methods`, { publishableKey: publishableKey(), body: { option_id: prepared.seed.shippingOptionId } })
    )
    return cart.id
  }

  interface AltaPaySessionReply {
    payment_session_id: string
    altapay: { session_id: string; token: string }
  }
  // The demo store registers AltaPay once per terminal: the route pays on the registration named.
  const altapaySession = (server: MedusaServer, cartId: string) =>
    ok<AltaPaySessionReply>(
      `altapay-session on ${server.name}`,
      call(server.url, "POST", `/store/carts/${cartId}/altapay-session`, { publishableKey: publishableKey(), body: { provider_id: "pp_altapay_card" } })
    )

  const authenticates = (ledger: LedgerEntry[], role: "MERCHANT" | "CUSTOMER") => ledger.filter((e) => e.operation === "authenticate" && (e.params.role ?? "CUSTOMER") === role)

  it("cold start: concurrent checkouts on both servers share ONE MERCHANT token", async () => {
    const carts = await timed("create carts", () => Promise.all(Array.from({ length: CHECKOUTS }, (_, i) => cartWithShipping(store(i), i))))

    // Nothing has asked AltaPay for a token yet: neither server, nor Redis, holds one.
    expect(authenticates(sandbox.ledger(), "MERCHANT")).toHaveLength(0)
    expect(await redisClient.keys("*altapay:merchant-token*")).toEqual([])
    sandbox.clearLedger()
    // A slow first authenticate keeps the race open: both servers ask for the MERCHANT token while
    // it is being issued. Only a lock shared by the servers keeps that to one authenticate.
    sandbox.faults.add({ route: "/authenticate", kind: "latency", ms: TOKEN_LATENCY_MS, times: 1 })

    const sessions = await timed(`${CHECKOUTS} concurrent altapay-sessions`, () => Promise.all(carts.map((cartId, i) => altapaySession(store(i), cartId))))

    const ledger = sandbox.ledger()
    const merchant = authenticates(ledger, "MERCHANT")
    const customer = authenticates(ledger, "CUSTOMER")
    const created = ledger.filter((e) => e.operation === "session.create" && e.status < 300)
    console.log(
      `[multi-instance] ${CHECKOUTS} sessions over 2 servers: ${merchant.length} MERCHANT authenticate, ${customer.length} CUSTOMER authenticates, ` +
        `${created.length} session.create (${created.filter((e) => e.auth === "bearer:MERCHANT").length} with the MERCHANT token)`
    )
    expect(new Set(sessions.map((s) => s.altapay.session_id)).size).toBe(CHECKOUTS)
    expect(created).toHaveLength(CHECKOUTS)
    expect(created.every((e) => e.auth === "bearer:MERCHANT")).toBe(true)
    expect(merchant).toHaveLength(1)
    expect(customer).toHaveLength(CHECKOUTS)
    // The token lives in Medusa's Redis cache (cache-redis), the issuing lock is gone again.
    expect(await redisClient.keys("*altapay:merchant-token*")).toEqual([expect.stringMatching(/altapay:merchant-token:http:\/\/127\.0\.0\.1:\d+:demo-shop@altapay\.demo$/)])
  })

  it("concurrent refunds of one payment from both servers never refund more than was captured", async () => {
    const [a] = servers
    // One paid order: session on B, the customer pays on AltaPay (its callback goes to B), the storefront completes on A.
    const cartId = await cartWithShipping(servers[1], CHECKOUTS + 1)
    const session = await altapaySession(servers[1], cartId)
    const paid = await sandbox.simulatePayment(session.altapay.session_id)
    expect(paid.status).not.toBe("CREATED")
    const completed = await ok<{ type: string; order?: { id: string } }>(
      "complete cart",
      call(a.url, "POST", `/store/carts/${cartId}/complete`, { publishableKey: publishableKey() })
    )
    expect(completed.type).toBe("order")
    const orderId = completed.order!.id

    const { order } = await ok<{ order: { payment_collections: Array<{ payments: Array<{ id: string; amount: number }> }> } }>(
      "admin order",
      call(a.url, "GET", `/admin/orders/${orderId}?fields=id,total,*payment_collections,*payment_collections.payments`, { token: adminToken })
    )
    const paymentId = order.payment_collections[0].payments[0].id
    await ok("capture on A", call(a.url, "POST", `/admin/payments/${paymentId}/capture`, { token: adminToken, body: {} }))
    const transactionId = paid.transactionId!
    const captured = sandbox.transaction(transactionId)!
    expect(captured.capturedMinor).toBe(captured.reservedMinor)
    expect(captured.refundedMinor).toBe(0)

    // Six refunds of 25 % each (150 % in all), three to each server, all at once.
    const shareMinor = Math.floor(captured.capturedMinor * REFUND_SHARE)
    const amount = shareMinor / 100
    sandbox.clearLedger()
    // Slow refunds at AltaPay: without a lock shared by the servers, the next refund's look-up
    // and refund would run while one is still in flight.
    sandbox.faults.add({ route: "refundCapturedReservation", kind: "latency", ms: REFUND_LATENCY_MS, times: Infinity })
    const replies = await timed(`${REFUNDS} concurrent refunds`, () =>
      Promise.all(
        Array.from({ length: REFUNDS }, (_, i) =>
          call<{ payment?: unknown; message?: string; type?: string }>(store(i).url, "POST", `/admin/payments/${paymentId}/refund`, {
            token: adminToken,
            body: { amount, note: `concurrent refund ${i + 1} via ${store(i).name}` },
          }).then((reply) => ({ server: store(i).name, ...reply }))
        )
      )
    )
    sandbox.faults.clear()
    const notes = replies.map((_, i) => `concurrent refund ${i + 1} via ${store(i).name}`)
    const outcome = (r: (typeof replies)[number]) =>
      r.status === 200
        ? "refunded"
        : REFUSED.test(String(r.body?.message))
          ? "refused"
          : ORDER_CHANGE_CONFLICT.test(String(r.body?.message))
            ? "refunded, order not updated"
            : "unexpected"
    console.log(
      `[multi-instance] ${REFUNDS} × ${amount.toFixed(2)} DKK of ${(captured.capturedMinor / 100).toFixed(2)} DKK captured:\n` +
        replies.map((r) => `  ${r.server}: ${r.status} ${outcome(r)}${r.status === 200 ? "" : ` ("${r.body?.message}")`}`).join("\n")
    )

    // AltaPay never refunded more than was captured, and tells the same story as Medusa.
    const after = sandbox.transaction(transactionId)!
    const { payment } = await ok<{ payment: { refunds: Array<{ amount: number; note: string | null }>; data: { refunds?: unknown[] } } }>(
      "admin payment",
      call(a.url, "GET", `/admin/payments/${paymentId}?fields=id,amount,data,*refunds`, { token: adminToken })
    )
    const ledger = sandbox.ledger()
    const refundEffects = ledger.flatMap((e) => e.effects ?? []).filter((e) => e.type === "refund" && e.transactionId === transactionId && e.result === "Success")
    const medusaRefundedMinor = payment.refunds.reduce((sum, r) => sum + minor(r.amount), 0)
    const altapayRefundedMinor = refundEffects.reduce((sum, e) => sum + e.amountMinor, 0)
    const fit = Math.floor(captured.capturedMinor / shareMinor)
    console.log(
      `[multi-instance] refunded: AltaPay ${after.refundedMinor / 100} DKK in ${refundEffects.length} refunds, Medusa ${medusaRefundedMinor / 100} DKK in ${payment.refunds.length} refunds; ` +
        `payment.data.refunds holds ${payment.data.refunds?.length ?? 0} records`
    )
    expect(after.refundedMinor).toBeLessThanOrEqual(after.capturedMinor)
    expect(after.refundedMinor).toBe(fit * shareMinor)
    expect(refundEffects).toHaveLength(fit)
    expect(payment.refunds).toHaveLength(fit)
    expect(altapayRefundedMinor).toBe(after.refundedMinor)
    expect(medusaRefundedMinor).toBe(after.refundedMinor)

    // Every request got a clear answer, and the answer says whether money moved: the refunds
    // Medusa recorded (and AltaPay made) are exactly the 200s plus the order-change conflicts
    // (Medusa's refund workflow refunds first, then books a credit line on the order through an
    // order change, which concurrent refunds of one order trip over; the refund step has no
    // compensation). A refused refund moved nothing.
    expect(replies.filter((r) => outcome(r) === "unexpected")).toEqual([])
    const moved = replies.flatMap((r, i) => (outcome(r) === "refused" ? [] : [notes[i]])).sort()
    expect(payment.refunds.map((r) => r.note).sort()).toEqual(moved)
    expect(replies.filter((r) => outcome(r) === "refused")).toHaveLength(REFUNDS - fit)

    // The per-transaction lock held across both processes: each refund's look-up and refund at
    // AltaPay ran before the next refund's look-up started (never two refunds in flight at once).
    const gatewayCalls = ledger
      .filter((e) => e.api === "gateway" && e.params.transaction_id === transactionId)
      .map((e) => (e.operation === "refundCapturedReservation" ? "refund" : e.operation))
    console.log(`[multi-instance] AltaPay calls on the transaction, in order: ${gatewayCalls.join(" ")}`)
    expect(gatewayCalls).toEqual(Array.from({ length: fit }, () => ["payments", "refund"]).flat())
  })
})
