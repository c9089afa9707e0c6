/**
 * What lets several Medusa servers share AltaPay state: the MERCHANT token in Medusa's cache
 * module (Redis in production) with its issuance under Medusa's locking module, and one lock per
 * AltaPay transaction so two servers never capture or refund the same payment at the same time.
 * With Medusa's in-memory modules (or none) everything still works within one process.
 */
import type { ICacheService, ICachingModuleService, ILockingModule } from "@medusajs/framework/types"
import { Modules } from "@medusajs/framework/utils"
import type { TokenStore } from "../altapay"

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

function cacheStore(cache: ICacheService): SharedStore {
  return {
    get: async <T>(key: string) => ((await cache.get<T>(key)) ?? undefined) as T | undefined,
    set: (key, value, ttlSeconds) => cache.set(key, value, ttlSeconds),
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
