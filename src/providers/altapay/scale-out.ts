/**
 * What lets several Medusa servers share AltaPay state: the MERCHANT token in Medusa's cache
 * module (Redis in production) with its issuance under Medusa's locking module, and one lock per
 * AltaPay transaction so two servers never capture or refund the same payment at the same time.
 * With Medusa's in-memory modules (or none) everything still works within one process.
 */
import type { ICacheService, ICachingModuleService, ILockingModule } from "@medusajs/framework/types"
import { Modules } from "@medusajs/framework/utils"
import type { IssuedToken, TokenStore } from "../../altapay"

export type Lock = <T>(key: string, job: () => Promise<T>) => Promise<T>

export interface ScaleOut {
  tokenStore?: TokenStore
  lock?: Lock
  /** Names the Medusa modules behind these, so callers with the same modules share one client. */
  key: string
}

const LOCK_TIMEOUT_SECONDS = 60

export function scaleOutFrom(resolve: <T>(name: string) => T | undefined): ScaleOut {
  const cache = resolve<ICacheService>(Modules.CACHE)
  const caching = resolve<ICachingModuleService>(Modules.CACHING)
  const locking = resolve<ILockingModule>(Modules.LOCKING)
  return {
    tokenStore: cache ? cacheTokenStore(cache) : caching ? cachingTokenStore(caching) : undefined,
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

interface StoredToken {
  token: string
  expiresAt: string
}

const revive = (value: StoredToken | null | undefined): IssuedToken | undefined =>
  value && typeof value.token === "string" ? { token: value.token, expiresAt: new Date(value.expiresAt) } : undefined
const ttlSeconds = (token: IssuedToken) => Math.max(1, Math.floor((token.expiresAt.getTime() - Date.now()) / 1000))

function cacheTokenStore(cache: ICacheService): TokenStore {
  return {
    get: async (key) => revive(await cache.get<StoredToken>(key)),
    set: (key, token) => cache.set(key, { token: token.token, expiresAt: token.expiresAt.toISOString() }, ttlSeconds(token)),
    delete: (key) => cache.invalidate(key),
  }
}

function cachingTokenStore(caching: ICachingModuleService): TokenStore {
  return {
    get: async (key) => revive((await caching.get({ key })) as StoredToken | null),
    set: (key, token) => caching.set({ key, data: { token: token.token, expiresAt: token.expiresAt.toISOString() }, ttl: ttlSeconds(token) }),
    delete: (key) => caching.clear({ key }),
  }
}
