/**
 * The health recorder behind the admin's AltaPay page: how late the last post came, the refusals of
 * the last day per reason (older ones drop out, the store stays bounded), and each job's last run.
 */
import { HealthRecorder, signedAt } from "../../../src/lib/health/recorder"
import { memoryStore, type Lock } from "../../../src/lib/scale-out/shared-state"

const HOUR = 60 * 60 * 1000
const noLock: Lock = (_key, job) => job()

function recorderAt(start: number) {
  let now = start
  const store = memoryStore()
  return { recorder: new HealthRecorder(store, noLock, () => now), store, advance: (ms: number) => (now += ms) }
}

describe("health recorder", () => {
  it("says how late the last post came after AltaPay signed it, and that an unsigned one cannot tell", async () => {
    const { recorder } = recorderAt(1_000_000_000_000)
    await recorder.received("pp_altapay_card", "callback", 1_000_000_000_000 - 90_000, 1_000_000_000_000)
    expect((await recorder.posts("pp_altapay_card")).lastReceived).toEqual({ road: "callback", at: 1_000_000_000_000, lateMs: 90_000 })
    await recorder.received("pp_altapay_card", "return", undefined, 1_000_000_000_500)
    expect((await recorder.posts("pp_altapay_card")).lastReceived).toEqual({ road: "return", at: 1_000_000_000_500, lateMs: null })
    expect((await recorder.posts("pp_altapay_mobilepay")).lastReceived).toBeNull()
  })

  it("counts refusals of the last day per reason; a day later they are gone", async () => {
    const { recorder, advance } = recorderAt(Date.UTC(2026, 10, 29, 3, 30))
    await recorder.refused("pp_altapay_card", "callback", "signature")
    await recorder.refused("pp_altapay_card", "callback", "signature")
    advance(5 * HOUR)
    await recorder.refused("pp_altapay_card", "return", "source")
    await recorder.refused("pp_altapay_card", "callback", "unknown-session")
    const now = await recorder.posts("pp_altapay_card")
    expect(now.refusedLastDay).toEqual({ signature: 2, source: 1, "unknown-session": 1 })
    expect(now.recentRefusals.map((r) => r.reason)).toEqual(["unknown-session", "source", "signature", "signature"])
    advance(21 * HOUR)
    const later = await recorder.posts("pp_altapay_card")
    expect(later.refusedLastDay).toEqual({ signature: 0, source: 1, "unknown-session": 1 })
    expect(later.recentRefusals.map((r) => r.reason)).toEqual(["unknown-session", "source"])
  })

  it("stays bounded under a flood of refusals: hourly counts and the last ten", async () => {
    const { recorder, store, advance } = recorderAt(Date.UTC(2026, 10, 29))
    for (let i = 0; i < 500; i++) {
      await recorder.refused("pp_altapay_card", "callback", "source")
      advance(10 * 60 * 1000)
    }
    const health = await recorder.posts("pp_altapay_card")
    expect(health.recentRefusals).toHaveLength(10)
    expect(health.refusedLastDay.source).toBeGreaterThanOrEqual(144)
    expect(health.refusedLastDay.source).toBeLessThanOrEqual(150)
    expect(store.holdings().reduce((sum, h) => sum + h.bytes, 0)).toBeLessThan(4_000)
  })

  it("keeps each job's last run", async () => {
    const { recorder, advance } = recorderAt(Date.UTC(2026, 10, 29))
    await recorder.jobRan("payment sessions", { line: "checked 1", counts: { checked: 1 }, stopped: false })
    advance(1000)
    await recorder.jobRan("payouts", { line: "nothing", counts: {}, stopped: false })
    await recorder.jobRan("payment sessions", { line: "checked 2: 1 order placed", counts: { checked: 2, "order placed": 1 }, stopped: true })
    expect((await recorder.jobs()).map((j) => [j.job, j.line, j.stopped])).toEqual([
      ["payouts", "nothing", false],
      ["payment sessions", "checked 2: 1 order placed", true],
    ])
  })

  it("a store that fails never fails the callback or job that writes", async () => {
    const failing = { get: async () => undefined, set: async () => Promise.reject(new Error("redis down")), delete: async () => undefined }
    const recorder = new HealthRecorder(failing, noLock)
    await expect(recorder.refused("pp_altapay_card", "callback", "signature")).resolves.toBeUndefined()
    await expect(recorder.received("pp_altapay_card", "callback", undefined)).resolves.toBeUndefined()
  })

  it("reads the signature's t", () => {
    expect(signedAt("t=1700000000;s0=abc")).toBe(1_700_000_000_000)
    expect(signedAt("s0=abc, t=1700000001")).toBe(1_700_000_001_000)
    expect(signedAt(undefined)).toBeUndefined()
  })
})
