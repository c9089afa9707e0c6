/**
 * What the plugin keeps per payment in a long-running server's memory is bounded by time and
 * count, not by how many checkouts it has served: the initiate cache holds the last ten minutes'
 * sessions, the process store drops expired values as new ones arrive (also those behind a
 * longer-lived key), and refunds of uncertain outcome are dropped after their age.
 */
import { IdempotencyCache } from "../../src/providers/altapay/idempotency"
import { AttemptBook, type Attempt } from "../../src/lib/money-door/attempts"
import type { ICacheService } from "@medusajs/framework/types"
import { Modules } from "@medusajs/framework/utils"
import fc from "fast-check"
import { jsonCopy, processStore, processStoreHoldings, scaleOutFrom } from "../../src/lib/scale-out/shared-state"

it("the initiate cache holds only the last ten minutes of checkouts, however many a server has served", () => {
  let now = 0
  const cache = new IdempotencyCache<string>(undefined, undefined, () => now)
  // 20,000 checkouts, one every 2 seconds (11 hours).
  for (let i = 0; i < 20_000; i++) {
    now += 2_000
    cache.set(`payses_${i}`, "session data")
  }
  expect(cache.size).toBe(300)
  expect(cache.get("payses_19999")).toBe("session data")
  expect(cache.get("payses_19000")).toBeUndefined()
})

it("the initiate cache never holds more than its bound, even within ten minutes", () => {
  const cache = new IdempotencyCache<string>(undefined, undefined, () => 0)
  for (let i = 0; i < 5_000; i++) cache.set(`payses_${i}`, "session data")
  expect(cache.size).toBe(2_000)
})

it("the process store drops expired values at its front as new ones arrive", async () => {
  const store = processStore()
  const realNow = Date.now
  let now = realNow()
  Date.now = () => now
  try {
    await store.set("bounded-test:old", { a: 1 }, 1)
    now += 2_000
    await store.set("bounded-test:new", { b: 2 }, 60)
    // Read without going through get (which would drop it anyway): gone from the map itself.
    now -= 2_000
    expect(await store.get("bounded-test:old")).toBeUndefined()
    expect(await store.get("bounded-test:new")).toEqual({ b: 2 })
  } finally {
    Date.now = realNow
  }
})

it("the process store drops expired values behind a longer-lived one (its keys live ten minutes to thirty days)", async () => {
  const store = processStore()
  const held = () => processStoreHoldings().filter((h) => h.key.startsWith("sweep-test:"))
  const realNow = Date.now
  let now = realNow()
  Date.now = () => now
  try {
    // A follow-up note kept for thirty days, then an hour of payments' journal entries.
    await store.set("sweep-test:follow-up", { tries: 1 }, 30 * 24 * 60 * 60)
    for (let i = 0; i < 100; i++) {
      now += 30_000
      await store.set(`sweep-test:payment-data:${i}`, { revision: i }, 60 * 60)
    }
    // Two hours later every journal entry has expired; the next writes must drop them.
    now += 2 * 60 * 60 * 1000
    await store.set("sweep-test:payment-data:new", { revision: 0 }, 60 * 60)
    expect(held().map((h) => h.key)).toEqual(["sweep-test:follow-up", "sweep-test:payment-data:new"])
  } finally {
    Date.now = realNow
  }
})

it("money attempts, without a cache module, are dropped after their age, the uncertain ones after days, never by count", async () => {
  const realNow = Date.now
  let now = realNow()
  Date.now = () => now
  try {
    const book = new AttemptBook()
    const attempt = (id: string, uncertain: boolean): Attempt => ({
      kind: "refund",
      id,
      amountMinor: 100,
      currency: "DKK",
      at: now,
      key: null,
      ...(uncertain ? { uncertain } : {}),
    })
    await book.save("bounded:tx-1", [attempt("r1", false)])
    await book.save("bounded:tx-2", [attempt("r2", true)])
    for (let i = 0; i < 10_050; i++) await book.save(`bounded:many-${i}`, [attempt(`m${i}`, false)])
    // Over the process store's 10,000 entries: an uncertain attempt is still there.
    expect(await book.list("bounded:tx-2")).toEqual([expect.objectContaining({ id: "r2" })])
    now += 2 * 60 * 60 * 1000
    expect(await book.list("bounded:tx-1")).toEqual([])
    expect(await book.list("bounded:tx-2")).toEqual([expect.objectContaining({ id: "r2" })])
    now += 8 * 24 * 60 * 60 * 1000
    expect(await book.list("bounded:tx-2")).toEqual([])
  } finally {
    Date.now = realNow
  }
})

it("a 30-day note stays in Medusa's in-memory cache module, whose timers cannot count that far", async () => {
  // The cache module Medusa loads by default before its Caching module (2.12): a key expires by a
  // timer, and a timer of over 2^31 - 1 ms fires after 1 ms.
  const { default: cacheModule } = (await import("@medusajs/cache-inmemory")) as unknown as { default: { service: new (...args: unknown[]) => ICacheService } }
  const cache = new cacheModule.service({}, {})
  const { store } = scaleOutFrom(<T>(name: string) => (name === Modules.CACHE ? (cache as T) : undefined))
  const thirtyDays = 30 * 24 * 60 * 60
  const warnings: string[] = []
  const onWarning = (warning: Error) => warnings.push(warning.name)
  process.on("warning", onWarning)
  try {
    await store!.set("bounded-test:follow-up", { tries: 2 }, thirtyDays)
    await new Promise((resolve) => setTimeout(resolve, 20))
    expect(await store!.get("bounded-test:follow-up")).toEqual({ tries: 2 })
    expect(warnings).not.toContain("TimeoutOverflowWarning")
  } finally {
    process.off("warning", onWarning)
    await store!.delete("bounded-test:follow-up")
  }
})

it("the process store hands back -0 as 0, as JSON does (fast-check found it with seed 888231655)", () => {
  const copy = jsonCopy({ "": [[[-0]]], amount: -0 }) as { "": number[][][]; amount: number }
  expect(Object.is(copy.amount, 0)).toBe(true)
  expect(Object.is(copy[""][0][0][0], 0)).toBe(true)
})

it("the process store hands back what a JSON round trip would, without encoding its strings", () => {
  const member = fc.oneof(fc.jsonValue(), fc.constant(undefined), fc.constant(Number.NaN), fc.constant(Number.POSITIVE_INFINITY), fc.date({ noInvalidDate: true }))
  const value = fc.oneof(
    member,
    fc.array(member),
    fc.dictionary(fc.string(), member),
    fc.record({ revision: fc.nat(), json: fc.string(), detail: fc.dictionary(fc.string(), member) }),
    fc.constant(JSON.parse('{"__proto__":{"a":1}}') as unknown)
  )
  fc.assert(
    fc.property(value, (v) => {
      const copy = jsonCopy(v)
      expect(copy).toEqual(v === undefined ? undefined : JSON.parse(JSON.stringify(v)))
      // A copy: changing what was stored does not change what is read.
      if (copy && typeof copy === "object") expect(copy).not.toBe(v)
    })
  )
})
