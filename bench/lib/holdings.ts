/**
 * What the plugin holds in memory in the bench's store, per cache: entry counts and approximate
 * bytes (each value's JSON text plus its key, so a lower bound of its heap). Read from outside,
 * the way a heap snapshot would see them: the provider's initiate cache, the payment locks,
 * every `altapay:` key of Medusa's in-memory cache module (journal, reconciled-by notes,
 * uncertain refunds, follow-up memory, the MERCHANT token), and the process store the plugin
 * uses when the Payment module has no cache module.
 */
import type { MedusaContainer } from "@medusajs/framework/types"
import { Modules } from "@medusajs/framework/utils"
import { processStoreHoldings } from "../../src/lib/scale-out/shared-state"

export interface Holding {
  /** Where: "initiate cache", "cache module altapay:payment-data", ... */
  name: string
  entries: number
  /** Of `entries`, past their time to live but not dropped yet. */
  expired: number
  bytes: number
}

const PROVIDER_ID = "pp_altapay_altapay"

/** `altapay:payment-data:<id>` -> `altapay:payment-data`; follow-up keys keep their kind. */
function prefixOf(key: string): string {
  const parts = key.split(":")
  if (parts[0] !== "altapay") return "other (Medusa's own)"
  return parts.slice(0, parts[1] === "follow-up" ? 3 : 2).join(":")
}

const jsonLength = (value: unknown): number => {
  try {
    return JSON.stringify(value)?.length ?? 0
  } catch {
    return 0
  }
}

function optional<T>(container: MedusaContainer, name: string): T | undefined {
  try {
    return container.resolve<T>(name)
  } catch {
    return undefined
  }
}

function add(map: Map<string, Holding>, name: string, bytes: number, expired: boolean): void {
  const h = map.get(name) ?? { name, entries: 0, expired: 0, bytes: 0 }
  h.entries++
  h.bytes += bytes
  if (expired) h.expired++
  map.set(name, h)
}

interface ProviderInternals {
  initiated?: { entries?: Map<string, { value: Promise<unknown>; expiresAt: number }> }
  ctx?: { scaleOut?: { store?: unknown } }
  client?: { tokens?: { store?: { tokens?: Map<string, unknown> } } }
}

export async function pluginHoldings(container: MedusaContainer): Promise<Holding[]> {
  const found = new Map<string, Holding>()
  const now = Date.now()

  const payment = optional<{ paymentProviderService_?: { retrieveProvider(id: string): unknown } }>(container, Modules.PAYMENT)
  const provider = payment?.paymentProviderService_?.retrieveProvider(PROVIDER_ID) as ProviderInternals | undefined
  const initiated = provider?.initiated?.entries
  found.set("initiate cache (provider, 10 min / 2,000)", { name: "initiate cache (provider, 10 min / 2,000)", entries: 0, expired: 0, bytes: 0 })
  for (const [key, entry] of initiated ?? []) {
    const value = await Promise.resolve(entry.value).catch(() => undefined)
    add(found, "initiate cache (provider, 10 min / 2,000)", key.length + jsonLength(value), entry.expiresAt <= now)
  }
  const tokens = provider?.client?.tokens?.store?.tokens
  if (tokens) for (const [key, value] of tokens) add(found, "MERCHANT token (client's memory store)", key.length + jsonLength(value), false)

  const locks = (globalThis as Record<symbol, { tails?: Map<string, unknown> } | undefined>)[Symbol.for("medusa-payment-altapay.payment-locks")]
  found.set("payment locks (in process)", { name: "payment locks (in process)", entries: locks?.tails?.size ?? 0, expired: 0, bytes: 0 })

  // Medusa's in-memory cache module (its `store` map), when the store has one.
  const cache = optional<{ store?: Map<string, { data: unknown; expire: number }> }>(container, Modules.CACHE)
  if (cache?.store instanceof Map) {
    for (const [key, record] of cache.store) add(found, `cache module ${prefixOf(key)}`, key.length + jsonLength(record.data), record.expire < now)
  }
  for (const { key, bytes, expired } of processStoreHoldings()) add(found, `process store ${prefixOf(key)}`, key.length + bytes, expired)

  const usesCache = !!provider?.ctx?.scaleOut?.store
  return [...found.values()].map((h) => (h.name.startsWith(usesCache ? "process store" : "cache module") ? { ...h, name: `${h.name} (not the provider's store)` } : h))
}

const KB = 1024

export function holdingsText(holdings: Holding[]): string {
  return holdings
    .map(
      (h) =>
        `${h.name}: ${h.entries.toLocaleString("en")}${h.expired ? ` (${h.expired} expired)` : ""}, ${h.bytes >= 1024 * KB ? `${(h.bytes / KB / KB).toFixed(1)} MB` : `${(h.bytes / KB).toFixed(0)} KB`}`
    )
    .join("; ")
}
