/**
 * The budget of anonymous return look-ups (issue 29): per session, per registration and second,
 * in flight; shared by servers through one store (Medusa's cache). A clock the tests move by hand:
 * nothing here depends on how fast the machine is.
 */
import { LookUpBudget, type ReturnLookUpLimits } from "../../../src/lib/customer-return/look-up-budget"
import { parseAltaPayOptions } from "../../../src/lib/registrations/options"
import type { SharedStore } from "../../../src/lib/scale-out/shared-state"
import { MINIMAL_OPTIONS } from "../../helpers/options"

const LIMITS: ReturnLookUpLimits = { perSessionPerMinute: 3, perSecond: 5, concurrent: 4 }

/** A cache module as the servers of one store share it: JSON values with a time to live on the test's clock. */
function sharedCache(now: () => number): SharedStore & { keys(): string[] } {
  const values = new Map<string, { json: string; until: number }>()
  return {
    get: async <T>(key: string) => {
      const entry = values.get(key)
      return entry && entry.until > now() ? (JSON.parse(entry.json) as T) : undefined
    },
    set: async (key, value, ttlSeconds) => void values.set(key, { json: JSON.stringify(value), until: now() + ttlSeconds * 1000 }),
    delete: async (key) => void values.delete(key),
    keys: () => [...values.keys()],
  }
}

/** A look-up that answers when the test says so, counting how many were made. */
function heldLookUps() {
  const releases: Array<() => void> = []
  let made = 0
  return {
    lookUp: () => {
      made++
      return new Promise<string>((resolve) => releases.push(() => resolve("answer")))
    },
    releaseAll: () => releases.splice(0).forEach((release) => release()),
    made: () => made,
  }
}

let clock: number
const now = () => clock
beforeEach(() => {
  clock = Date.UTC(2025, 0, 1, 12, 0, 0)
})

const quick = async () => "answer"
const outcomes = (results: Array<{ admitted: boolean; reason?: string }>) => results.map((r) => (r.admitted ? "admitted" : r.reason))

describe("per session", () => {
  it("requests for a session whose look-up is running share its answer: one look-up", async () => {
    const budget = new LookUpBudget({ name: "pp_altapay_card", limits: LIMITS, now })
    const held = heldLookUps()
    const answers = Array.from({ length: 50 }, () => budget.run("payses_1", held.lookUp))
    await new Promise((resolve) => setImmediate(resolve))
    held.releaseAll()
    expect(outcomes(await Promise.all(answers))).toEqual(Array(50).fill("admitted"))
    expect(held.made()).toBe(1)
  })

  it("at most perSessionPerMinute look-ups per session a minute; other sessions unaffected; the next minute again", async () => {
    const budget = new LookUpBudget({ name: "pp_altapay_card", limits: { ...LIMITS, perSecond: 100 }, now })
    let made = 0
    const lookUp = async () => void made++
    const first = []
    for (let i = 0; i < 10; i++) {
      first.push(await budget.run("payses_1", lookUp))
      clock += 1_000
    }
    expect(outcomes(first)).toEqual([...Array(3).fill("admitted"), ...Array(7).fill("session")])
    expect(made).toBe(3)
    expect((await budget.run("payses_2", lookUp)).admitted).toBe(true)

    clock += 60_000
    expect((await budget.run("payses_1", lookUp)).admitted).toBe(true)
    expect(made).toBe(5)
  })

  it("a spent session does not use up the registration's second", async () => {
    const budget = new LookUpBudget({ name: "pp_altapay_card", limits: { ...LIMITS, perSessionPerMinute: 1, perSecond: 2 }, now })
    const results = []
    for (let i = 0; i < 20; i++) results.push(await budget.run("payses_flood", quick))
    expect(outcomes(results)).toEqual(["admitted", ...Array(19).fill("session")])
    expect((await budget.run("payses_customer", quick)).admitted).toBe(true)
  })
})

describe("overall", () => {
  it("at most perSecond look-ups per second for the registration, whatever the session ids; the next second again", async () => {
    const budget = new LookUpBudget({ name: "pp_altapay_card", limits: LIMITS, now })
    let made = 0
    const results = []
    for (let i = 0; i < 40; i++) results.push(await budget.run(`payses_${i}`, async () => void made++))
    expect(outcomes(results)).toEqual([...Array(5).fill("admitted"), ...Array(35).fill("overall")])
    expect(made).toBe(5)

    clock += 1_000
    expect((await budget.run("payses_next", quick)).admitted).toBe(true)
  })

  it("at most `concurrent` in flight: a flood of slow look-ups is answered at once, not queued", async () => {
    const budget = new LookUpBudget({ name: "pp_altapay_card", limits: { ...LIMITS, perSecond: 100 }, now })
    const held = heldLookUps()
    const answers = Array.from({ length: 30 }, (_, i) => budget.run(`payses_${i}`, held.lookUp))
    // The 26 over the limit answer while the 4 admitted ones are still running.
    const refused = await Promise.all(answers.slice(4))
    expect(outcomes(refused)).toEqual(Array(26).fill("concurrent"))
    await new Promise((resolve) => setImmediate(resolve))
    expect(held.made()).toBe(4)
    held.releaseAll()
    expect(outcomes(await Promise.all(answers.slice(0, 4)))).toEqual(Array(4).fill("admitted"))
    // Finished look-ups free their places.
    expect((await budget.run("payses_later", quick)).admitted).toBe(true)
  })

  it("a failing look-up still counts, and its error reaches the caller", async () => {
    const budget = new LookUpBudget({ name: "pp_altapay_card", limits: { ...LIMITS, perSecond: 1 }, now })
    await expect(
      budget.run("payses_1", async () => {
        throw new Error("AltaPay answered 503")
      })
    ).rejects.toThrow("503")
    expect((await budget.run("payses_2", quick)).admitted).toBe(false)
  })
})

describe("across servers", () => {
  it("two servers on one cache share the per-second and per-session counts", async () => {
    const cache = sharedCache(now)
    const servers = [0, 1].map(() => new LookUpBudget({ name: "pp_altapay_card", limits: LIMITS, store: cache, now }))
    let made = 0
    const results = []
    // Alternating between the servers, each with its own process state: the cache is what they share.
    for (let i = 0; i < 20; i++) results.push(await servers[i % 2].run(`payses_${i}`, async () => void made++))
    expect(outcomes(results)).toEqual([...Array(5).fill("admitted"), ...Array(15).fill("overall")])
    expect(made).toBe(5)

    clock += 1_000
    const session = []
    for (let i = 0; i < 6; i++) session.push(await servers[i % 2].run("payses_shared", async () => void made++))
    expect(outcomes(session)).toEqual([...Array(3).fill("admitted"), ...Array(3).fill("session")])
    expect(cache.keys()).toEqual(
      expect.arrayContaining([expect.stringMatching(/^altapay:return-look-ups:pp_altapay_card:second:\d+$/), "altapay:return-look-ups:pp_altapay_card:session:payses_shared"])
    )
  })

  it("registrations count apart", async () => {
    const cache = sharedCache(now)
    const card = new LookUpBudget({ name: "pp_altapay_card", limits: { ...LIMITS, perSecond: 1 }, store: cache, now })
    const mobilepay = new LookUpBudget({ name: "pp_altapay_mobilepay", limits: { ...LIMITS, perSecond: 1 }, store: cache, now })
    expect((await card.run("payses_1", quick)).admitted).toBe(true)
    expect((await card.run("payses_2", quick)).admitted).toBe(false)
    expect((await mobilepay.run("payses_3", quick)).admitted).toBe(true)
  })

  it("a cache that fails leaves this server's own limits in force", async () => {
    const broken: SharedStore = {
      get: async () => {
        throw new Error("redis down")
      },
      set: async () => {
        throw new Error("redis down")
      },
      delete: async () => undefined,
    }
    const budget = new LookUpBudget({ name: "pp_altapay_card", limits: LIMITS, store: broken, now })
    const results = []
    for (let i = 0; i < 10; i++) results.push(await budget.run(`payses_${i}`, quick))
    expect(outcomes(results)).toEqual([...Array(5).fill("admitted"), ...Array(5).fill("overall")])
  })
})

it("tells the merchant at most once a minute how many returns it answered without a look-up", async () => {
  const warnings: string[] = []
  const budget = new LookUpBudget({ name: "pp_altapay_card", limits: { ...LIMITS, perSecond: 1 }, now, warn: (m) => warnings.push(m) })
  for (let i = 0; i < 10; i++) await budget.run(`payses_${i}`, quick)
  expect(warnings).toHaveLength(1)
  expect(warnings[0]).toContain("pp_altapay_card")
  clock += 60_000
  for (let i = 10; i < 20; i++) await budget.run(`payses_${i}`, quick)
  expect(warnings).toHaveLength(2)
  expect(warnings[1]).toContain("9 return(s)")
})

describe("the returnLookUps option", () => {
  it("a store that sets nothing gets 5 per session a minute, 20 a second, 8 in flight per server", () => {
    const parsed = parseAltaPayOptions(MINIMAL_OPTIONS)
    expect("options" in parsed && parsed.options.returnLookUps).toEqual({ perSessionPerMinute: 5, perSecond: 20, concurrent: 8 })
    const some = parseAltaPayOptions({ ...MINIMAL_OPTIONS, returnLookUps: { perSecond: 50 } })
    expect("options" in some && some.options.returnLookUps).toEqual({ perSessionPerMinute: 5, perSecond: 50, concurrent: 8 })
  })

  it("names every bad value, an unknown key too", () => {
    const parsed = parseAltaPayOptions({ ...MINIMAL_OPTIONS, returnLookUps: { perSessionPerMinute: 0, perSecond: 1.5, concurrent: 65, retries: 3 } })
    const problems = "problems" in parsed ? parsed.problems.join("\n") : ""
    for (const field of ["returnLookUps.perSessionPerMinute", "returnLookUps.perSecond", "returnLookUps.concurrent", "retries"]) expect(problems).toContain(field)
  })
})
