/** Medusa's cache module contract (what the in-memory and Redis modules both offer), shared by every "server" of a test and surviving a provider restart. */
import type { ICacheService } from "@medusajs/framework/types"

export function sharedCache(): ICacheService {
  const values = new Map<string, { value: unknown; until: number }>()
  return {
    get: async <T>(key: string) => {
      const entry = values.get(key)
      return entry && entry.until > Date.now() ? (structuredClone(entry.value) as T) : null
    },
    set: async (key: string, value: unknown, ttl = 3600) => void values.set(key, { value: structuredClone(value), until: Date.now() + ttl * 1000 }),
    invalidate: async (key: string) => void values.delete(key),
  }
}
