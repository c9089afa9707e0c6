/**
 * What lets several Medusa servers share AltaPay state: the MERCHANT token in Medusa's cache
 * module (Redis in production) with its issuance under Medusa's locking module, and one lock per
 * payment so captures, refunds, releases and pending-refund writes of one payment never overlap.
 * With Medusa's in-memory modules (or none) everything still works within one process.
 */
import { AsyncLocalStorage } from "node:async_hooks"
import type { ICacheService, ICachingModuleService, ILockingModule } from "@medusajs/framework/types"
import { MedusaError, Modules } from "@medusajs/framework/utils"
import type { TokenStore } from "../../altapay"

export type Lock = <T>(key: string, job: () => Promise<T>) => Promise<T>

/** JSON values with a time to live, shared by every server on the same cache module. */
export interface SharedStore {
  get<T>(key: string): Promise<T | undefined>
  set<T>(key: string, value: T, ttlSeconds: number): Promise<void>
  delete(key: string): Promise<void>
}

export interface ScaleOut {
  tokenStore?: TokenStore
  /** Medusa's cache module as a key-value store, when the Payment module has one. */
  store?: SharedStore
  lock?: Lock
  /**
   * The lock of one payment, in every configuration: this process's keyed lock, plus Medusa's
   * locking module when there is one (then across servers too).
   */
  paymentLock: Lock
  /** Names the Medusa modules behind these, so callers with the same modules share one client. */
  key: string
}

const LOCK_TIMEOUT_SECONDS = 60

export function scaleOutFrom(resolve: <T>(name: string) => T | undefined): ScaleOut {
  const cache = resolve<ICacheService>(Modules.CACHE)
  const caching = resolve<ICachingModuleService>(Modules.CACHING)
  const locking = resolve<ILockingModule>(Modules.LOCKING)
  const store = cache ? cacheStore(cache) : caching ? cachingStore(caching) : undefined
  return {
    tokenStore: store ? tokenStoreOn(store) : undefined,
    store,
    lock: locking ? (key, job) => locking.execute(key, job, { timeout: LOCK_TIMEOUT_SECONDS }) : undefined,
    paymentLock: paymentLockOn(locking),
    key: cache || caching || locking ? [cache ?? caching, locking].map(identity).join(":") : "",
  }
}

const identities = new WeakMap<object, number>()
let nextIdentity = 1

function identity(value: object | undefined): number {
  if (!value) return 0
  let id = identities.get(value)
  if (!id) identities.set(value, (id = nextIdentity++))
  return id
}

const PROCESS_STORE = Symbol.for("medusa-payment-altapay.process-store")
const MAX_PROCESS_ENTRIES = 10_000
const SWEEP_EVERY_MS = 60_000

/** What a memory store holds: each key with the length of its value's JSON and whether it has expired. */
export type Holdings = Array<{ key: string; bytes: number; expired: boolean }>

export interface MemoryStore extends SharedStore {
  /** For the bench's memory report and the tests; the plugin never reads it. */
  holdings(): Holdings
}

/**
 * A copy of a JSON value as a JSON round trip gives it (undefined members left out, a non-finite
 * number as null, -0 as 0), without encoding and decoding its strings: a payment data's journal entry is
 * one 2 KB string, which JSON.stringify escaped and JSON.parse unescaped on every capture and refund.
 * Anything but plain objects, arrays and JSON's own values (a Date) takes the round trip itself.
 */
export function jsonCopy(value: unknown): unknown {
  if (value === null) return null
  switch (typeof value) {
    case "string":
    case "boolean":
      return value
    case "number":
      // JSON writes -0 as 0, and a non-finite number as null.
      if (value === 0) return 0
      return Number.isFinite(value) ? value : null
    case "object":
      break
    default:
      return undefined
  }
  if (Array.isArray(value)) {
    const out: unknown[] = new Array(value.length)
    for (let i = 0; i < value.length; i++) out[i] = jsonCopy(value[i]) ?? null
    return out
  }
  if (Object.getPrototypeOf(value) !== Object.prototype) return JSON.parse(JSON.stringify(value)) as unknown
  const record = value as Record<string, unknown>
  const out: Record<string, unknown> = {}
  for (const key of Object.keys(record)) {
    const member = jsonCopy(record[key])
    if (member === undefined) continue
    // An own "__proto__" as JSON.parse makes it; assigned, it would set the copy's prototype.
    if (key === "__proto__") Object.defineProperty(out, key, { value: member, enumerable: true, writable: true, configurable: true })
    else out[key] = member
  }
  return out
}

/**
 * JSON values with a time to live in this process's memory, copied in and out as a cache would.
 * Expired values go as new ones arrive: those at the front (the oldest writes) on every write, and
 * every other expired one at most a minute later, since keys live from ten minutes to thirty days
 * and one behind a longer-lived key would otherwise stay until that key expires. Over `maxEntries`,
 * the oldest writes go.
 */
export function memoryStore(maxEntries = Number.POSITIVE_INFINITY): MemoryStore {
  const values = new Map<string, { value: unknown; until: number }>()
  let nextSweep = 0
  return {
    get: async <T>(key: string) => {
      const entry = values.get(key)
      if (!entry) return undefined
      if (entry.until <= Date.now()) {
        values.delete(key)
        return undefined
      }
      return jsonCopy(entry.value) as T
    },
    set: async (key, value, ttlSeconds) => {
      values.delete(key)
      const now = Date.now()
      values.set(key, { value: jsonCopy(value), until: now + ttlSeconds * 1000 })
      if (now >= nextSweep) {
        nextSweep = now + SWEEP_EVERY_MS
        for (const [other, entry] of values) if (entry.until <= now) values.delete(other)
      }
      // Maps iterate in insertion order: the first key is the oldest write.
      for (const [oldest, entry] of values) {
        if (entry.until > now && values.size <= maxEntries) break
        values.delete(oldest)
      }
    },
    delete: async (key) => void values.delete(key),
    holdings: () => {
      const now = Date.now()
      return [...values].map(([key, entry]) => ({ key, bytes: JSON.stringify(entry.value).length, expired: entry.until <= now }))
    },
  }
}

/**
 * Without a cache module: one store for this whole process (provider and routes alike), with the
 * same time-to-live rule and a bound on its size.
 */
export function processStore(): SharedStore {
  const global = globalThis as Record<symbol, unknown>
  return ((global[PROCESS_STORE] as MemoryStore | undefined) ??= memoryStore(MAX_PROCESS_ENTRIES))
}

/** What the process store holds now (the bench's memory report reads it; the plugin does not). */
export function processStoreHoldings(): Holdings {
  return (processStore() as MemoryStore).holdings()
}

/**
 * The longest time to live the cache module keeps: Medusa's in-memory cache (the default before the
 * Caching module, e.g. on 2.12) expires each key with a timer, and Node fires a timer of over
 * 2^31 - 1 ms after 1 ms instead: a 30-day key was gone at once (a TimeoutOverflowWarning in the log).
 */
const CACHE_MODULE_MAX_TTL_SECONDS = Math.floor((2 ** 31 - 1) / 1000)

function cacheStore(cache: ICacheService): SharedStore {
  return {
    get: async <T>(key: string) => ((await cache.get<T>(key)) ?? undefined) as T | undefined,
    set: (key, value, ttlSeconds) => cache.set(key, value, Math.min(ttlSeconds, CACHE_MODULE_MAX_TTL_SECONDS)),
    delete: (key) => cache.invalidate(key),
  }
}

function cachingStore(caching: ICachingModuleService): SharedStore {
  return {
    get: async <T>(key: string) => ((await caching.get({ key })) ?? undefined) as T | undefined,
    set: (key, value, ttlSeconds) => caching.set({ key, data: value as object, ttl: ttlSeconds }),
    delete: (key) => caching.clear({ key }),
  }
}

interface StoredToken {
  token: string
  expiresAt: string
}

function tokenStoreOn(store: SharedStore): TokenStore {
  return {
    get: async (key) => {
      const value = await store.get<StoredToken>(key)
      return value && typeof value.token === "string" ? { token: value.token, expiresAt: new Date(value.expiresAt) } : undefined
    },
    set: (key, token) =>
      store.set<StoredToken>(key, { token: token.token, expiresAt: token.expiresAt.toISOString() }, Math.max(1, Math.floor((token.expiresAt.getTime() - Date.now()) / 1000))),
    delete: (key) => store.delete(key),
  }
}

/** The lock key of one AltaPay payment (its transaction): the provider's hooks and the routes use the same. */
export function paymentLockKey(transactionId: string): string {
  return `altapay:transaction:${transactionId}`
}

interface LockRegistry {
  /** The payment locks the current async flow holds: a job under a lock may call code that takes it again. */
  held: AsyncLocalStorage<ReadonlySet<string>>
  /** Per key, the promise the next waiter waits for. */
  tails: Map<string, Promise<void>>
}

// On globalThis: the provider and the routes may load this file through different paths.
const REGISTRY = Symbol.for("medusa-payment-altapay.payment-locks")
const registry: LockRegistry =
  ((globalThis as Record<symbol, unknown>)[REGISTRY] as LockRegistry | undefined) ??
  ((globalThis as Record<symbol, unknown>)[REGISTRY] = { held: new AsyncLocalStorage<ReadonlySet<string>>(), tails: new Map() } satisfies LockRegistry)

/**
 * Re-entrant within one async flow: the item-refund route holds the payment's lock across
 * Medusa's refund workflow, whose call into the provider's refundPayment then runs inside it.
 */
export function paymentLockOn(locking: ILockingModule | undefined, timeoutSeconds = LOCK_TIMEOUT_SECONDS): Lock {
  return async <T>(key: string, job: () => Promise<T>): Promise<T> => {
    const held = registry.held.getStore()
    if (held?.has(key)) return job()
    let started = false
    const run = () => {
      started = true
      return registry.held.run(new Set([...(held ?? []), key]), job)
    }
    try {
      return await inProcessLock(key, timeoutSeconds, () => (locking ? locking.execute(key, run, { timeout: timeoutSeconds }) : run()))
    } catch (error) {
      if (started) throw error
      throw new MedusaError(
        MedusaError.Types.NOT_ALLOWED,
        `Another capture, refund or release of this AltaPay payment has been running for over ${timeoutSeconds} s; nothing was sent. Try again in a moment.`
      )
    }
  }
}

async function inProcessLock<T>(key: string, timeoutSeconds: number, job: () => Promise<T>): Promise<T> {
  const previous = registry.tails.get(key)
  let release!: () => void
  const mine = new Promise<void>((resolve) => (release = resolve))
  // Waiters queue behind everyone before them, also behind a caller that gave up waiting.
  const tail = previous ? previous.then(() => mine) : mine
  registry.tails.set(key, tail)
  let timer: NodeJS.Timeout | undefined
  try {
    // Nobody before: no wait, so no timer (the usual case, on every capture and refund).
    if (previous) {
      await Promise.race([
        previous,
        new Promise<never>((_, reject) => {
          timer = setTimeout(() => reject(new Error(`Timed out waiting for lock ${key}`)), timeoutSeconds * 1000)
          timer.unref?.()
        }),
      ])
      clearTimeout(timer)
    }
    return await job()
  } finally {
    clearTimeout(timer)
    release()
    if (registry.tails.get(key) === tail) registry.tails.delete(key)
  }
}
