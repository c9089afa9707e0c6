/** The request log: off unless turned on, bounded per payment in entries and in days, found by any of the payment's ids. */
import type { AltaPayCall } from "../../../src/altapay"
import { requestLogOf } from "../../../src/lib/observability/observer"
import { RequestLog } from "../../../src/lib/observability/request-log"
import { parseAltaPayOptions } from "../../../src/lib/registrations/options"
import { memoryStore } from "../../../src/lib/scale-out/shared-state"
import { MINIMAL_OPTIONS } from "../../helpers/options"

const call = (startedAt: Date, subjects: AltaPayCall["subjects"], extra: Partial<AltaPayCall> = {}): AltaPayCall => ({
  operation: "GET /merchant/API/payments",
  startedAt,
  durationMs: 12,
  retries: 0,
  status: 200,
  outcome: "success",
  result: "Success",
  subjects,
  ...extra,
})

describe("the requestLog option", () => {
  it("is off for a store that sets nothing: no log is kept", () => {
    const parsed = parseAltaPayOptions(MINIMAL_OPTIONS)
    if (!("options" in parsed)) throw new Error(parsed.problems.join("; "))
    expect(parsed.options.requestLog).toEqual({ enabled: false, maxEntries: 50, retentionDays: 7 })
    expect(requestLogOf(parsed.options, memoryStore())).toBeUndefined()
  })

  it("names every bad value", () => {
    const parsed = parseAltaPayOptions({ ...MINIMAL_OPTIONS, requestLog: { enabled: "yes", maxEntries: 0, retentionDays: 90, keepBodies: true } })
    const problems = "problems" in parsed ? parsed.problems.join("\n") : ""
    for (const field of ["requestLog.enabled", "requestLog.maxEntries", "requestLog.retentionDays", "keepBodies"]) expect(problems).toContain(field)
    expect(parseAltaPayOptions({ ...MINIMAL_OPTIONS, requestLog: { enabled: true } })).toHaveProperty("options")
  })
})

describe("a payment's request log", () => {
  it("keeps the newest maxEntries entries of a payment", async () => {
    const log = new RequestLog(memoryStore(), { maxEntries: 3, retentionDays: 7 })
    const now = Date.now()
    for (let i = 0; i < 5; i++) log.append(call(new Date(now - (5 - i) * 1000), { transactionId: "7a3f" }, { durationMs: i }))
    await log.settled()
    expect((await log.read({ transactionId: "7a3f" })).map((e) => e.duration_ms)).toEqual([2, 3, 4])
  })

  it("drops entries older than retentionDays", async () => {
    const log = new RequestLog(memoryStore(), { maxEntries: 10, retentionDays: 1 })
    log.append(call(new Date(Date.now() - 2 * 24 * 60 * 60 * 1000), { transactionId: "7a3f" }, { durationMs: 1 }))
    log.append(call(new Date(), { transactionId: "7a3f" }, { durationMs: 2 }))
    await log.settled()
    expect((await log.read({ transactionId: "7a3f" })).map((e) => e.duration_ms)).toEqual([2])
  })

  it("finds a call by any of the payment's ids, once, oldest first", async () => {
    const log = new RequestLog(memoryStore(), { maxEntries: 10, retentionDays: 7 })
    const now = Date.now()
    log.append(call(new Date(now - 2000), { shopOrderId: "payses-01J" }, { operation: "POST /checkout/v1/api/session" }))
    log.append(call(new Date(now - 1000), { transactionId: "7a3f", shopOrderId: "payses-01J" }))
    log.append(call(new Date(now), { transactionId: "other" }))
    await log.settled()
    const entries = await log.read({ transactionId: "7a3f", shopOrderId: "payses-01J", sessionId: "never-called" })
    expect(entries.map((e) => e.operation)).toEqual(["POST /checkout/v1/api/session", "GET /merchant/API/payments"])
  })
})
