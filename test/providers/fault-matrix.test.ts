/**
 * Every provider operation under every fault the sandbox can inject. Each cell either succeeds
 * with AltaPay in the right state, or fails with an error a merchant can act on; then a retry
 * (as Medusa or the merchant would make it, with a new id) must end in the right state. Across the
 * matrix: no double capture, release or refund at AltaPay, no refund Medusa would not know of, and
 * no credential or token in any log line. The follow-up jobs' cells are here for their AltaPay
 * side (an Open refund's look-up under every fault); their Medusa side (callback lost, AltaPay
 * down during a run, a run interrupted half way, two runs at once) is in
 * integration-tests/jobs/follow-up.spec.ts.
 */
import type { Logger } from "@medusajs/framework/types"
import { MedusaError } from "@medusajs/framework/utils"
import { AltaPayProviderService } from "../../src/providers/altapay"
import { isAltaPayOutage } from "../../src/lib/follow-up/run-report"
import { settleOpenResults } from "../../src/lib/payment-data/open-results"
import { parseAltaPayOptions, type AltaPayOptions } from "../../src/lib/registrations/options"
import type { AltaPayPaymentData } from "../../src/lib/payment-data/data"
import { dataAccessFor, type PaymentDataAccess } from "../../src/lib/payment-data/writer"
import { scaleOutFrom } from "../../src/lib/scale-out/shared-state"
import { sharedAltaPayClient } from "../../src/lib/registrations/shared-client"
import { startSandbox, type Sandbox } from "../../src/sandbox"
import type { FaultKind } from "../../src/sandbox/faults"
import { medusaWithSessions, sessionIdOf } from "../helpers/provider"

const USER = "matrix-user"
const PASSWORD = "matrix-password-42"
const SECRET = "matrix-callback-secret-0123456789"
const TIMEOUT_MS = 300

const FAULTS: FaultKind[] = ["latency", "reset", "500", "503", "429", "html", "truncate", "malformed-json", "expire-token", "error-code", "open", "lost-answer"]
const OPERATIONS = ["initiate", "authorize", "capture", "refund", "cancel"] as const
type Operation = (typeof OPERATIONS)[number]
const ROUTE: Record<Operation, string | RegExp> = {
  initiate: /\/session$/,
  authorize: "payments",
  capture: "captureReservation",
  refund: "refundCapturedReservation",
  cancel: "releaseReservation",
}

let sandbox: Sandbox
let provider: AltaPayProviderService
const logLines: string[] = []
let counter = 0

const record = (level: string) => (message: unknown) => logLines.push(`${level} ${String(message)}`)
const logger = { debug: record("debug"), info: record("info"), warn: record("warn"), error: record("error"), log: record("log") } as unknown as Logger

let providerOptions: Record<string, unknown>

beforeAll(async () => {
  sandbox = await startSandbox({ port: 0, username: USER, password: PASSWORD, callbackSecret: SECRET })
  providerOptions = {
    checkoutUrl: sandbox.checkoutUrl,
    gatewayUrl: sandbox.gatewayUrl,
    username: USER,
    password: PASSWORD,
    callbackSecret: SECRET,
    backendUrl: "http://127.0.0.1:9",
    allowInsecureUrls: true,
    headersTimeoutMs: TIMEOUT_MS,
    maxRetries: 1,
  }
  provider = new AltaPayProviderService({ logger, ...medusaWithSessions() }, providerOptions as never)
})
afterAll(() => sandbox.close())
afterEach(() => sandbox.faults.clear())

const nextId = (prefix: string) => `${prefix}_${Date.now().toString(36)}${(counter++).toString(36)}`
const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms))

async function initiate(amount: number): Promise<AltaPayPaymentData> {
  const id = nextId("payses")
  const out = await provider.initiatePayment({ amount, currency_code: "dkk", data: { session_id: id }, context: { idempotency_key: id } })
  return out.data as AltaPayPaymentData
}
async function authorized(amount: number): Promise<AltaPayPaymentData> {
  const data = await initiate(amount)
  await sandbox.simulatePayment(data.altapay_session_id, { outcome: "authorize", callback: false })
  return (await provider.authorizePayment({ data, context: { idempotency_key: sessionIdOf(data) } })).data as AltaPayPaymentData
}
async function captured(amount: number): Promise<AltaPayPaymentData> {
  return (await provider.capturePayment({ data: await authorized(amount), context: { idempotency_key: nextId("capt") } })).data as AltaPayPaymentData
}

/** Runs one operation on a prepared payment, as Medusa would call it (a fresh id per attempt). */
function operation(op: Operation, data: AltaPayPaymentData): () => Promise<Record<string, unknown>> {
  switch (op) {
    case "initiate":
      return async () => (await provider.initiatePayment({ amount: 12.5, currency_code: "dkk", data: { session_id: nextId("payses") }, context: {} })) as never
    case "authorize":
      return async () => (await provider.authorizePayment({ data, context: { idempotency_key: sessionIdOf(data) } })) as never
    case "capture":
      return async () => (await provider.capturePayment({ data, context: { idempotency_key: nextId("capt") } })) as never
    case "refund":
      return async () => (await provider.refundPayment({ data, amount: 4, context: { idempotency_key: nextId("ref") } })) as never
    case "cancel":
      return async () => (await provider.cancelPayment({ data, context: { idempotency_key: nextId("pay") } })) as never
  }
}

async function prepare(op: Operation): Promise<AltaPayPaymentData> {
  if (op === "initiate") return undefined as never
  if (op === "refund") return captured(10)
  return authorized(10)
}

/** Retries like a merchant: until it works, waiting when the plugin asks to. */
async function retry(run: () => Promise<Record<string, unknown>>): Promise<Record<string, unknown>> {
  for (let attempt = 0; ; attempt++) {
    try {
      return await run()
    } catch (error) {
      const wait = /Try again in (\d+) s/.exec((error as Error).message)
      if (!wait || attempt >= 5) throw error
      await sleep(Number(wait[1]) * 1000)
    }
  }
}

/** Money AltaPay actually moved (refused attempts are in the ledger too, with another result). */
const effects = (type: string, transactionId: string | null) =>
  sandbox.ledger().filter((e) => e.effect?.type === type && e.effect.transactionId === transactionId && e.effect.result === "Success")

describe.each(OPERATIONS)("%s", (op) => {
  it.each(FAULTS)("under %s: succeeds correctly or fails clearly, and a retry ends right", async (fault) => {
    const data = await prepare(op)
    sandbox.faults.add({ route: ROUTE[op], kind: fault, ms: TIMEOUT_MS * 2 })
    const first = await operation(op, data)().then(
      (value) => ({ ok: true as const, value }),
      (error: unknown) => ({ ok: false as const, error })
    )
    if (!first.ok) {
      expect(first.error).toBeInstanceOf(MedusaError)
      expect((first.error as Error).message).toMatch(/^AltaPay/)
      // Slow answers may still be processed: give the sandbox time to finish before retrying.
      if (fault === "latency") await sleep(TIMEOUT_MS * 3)
    }
    const final = first.ok ? first.value : await retry(operation(op, data))
    const finalData = (final.data ?? {}) as AltaPayPaymentData

    switch (op) {
      case "initiate":
        expect(final.id).toEqual(expect.any(String))
        break
      case "authorize":
        expect(final.status).toBe("authorized")
        break
      case "capture": {
        const tx = sandbox.transaction(data.transaction_id!)!
        if (fault === "open" && first.ok) expect(tx.pending.length + effects("capture", data.transaction_id).length).toBeGreaterThan(0)
        else expect(tx.capturedMinor).toBe(1000)
        expect(effects("capture", data.transaction_id).length).toBeLessThanOrEqual(1)
        break
      }
      case "refund": {
        const tx = sandbox.transaction(data.transaction_id!)!
        const moved = effects("refund", data.transaction_id)
        expect(moved.length).toBeLessThanOrEqual(1)
        if (fault === "open" && first.ok) {
          expect(finalData.refunds.at(-1)).toMatchObject({ status: "open", amount_minor: 400 })
          expect(tx.refundedMinor).toBe(0)
        } else {
          // AltaPay refunded exactly once, and the answer Medusa got records that refund.
          expect(tx.refundedMinor).toBe(400)
          expect(moved).toHaveLength(1)
          expect(finalData.refunds.map((r) => r.reconciliation_identifier)).toContain(moved[0].effect!.reconciliationIdentifier)
        }
        break
      }
      case "cancel": {
        const tx = sandbox.transaction(data.transaction_id!)!
        if (!(fault === "open" && first.ok)) expect(tx.status).toBe("released")
        expect(effects("release", data.transaction_id).length).toBeLessThanOrEqual(1)
        break
      }
    }
  })
})

/**
 * The open-results job's part under every fault: the look-up it makes for a payment whose refund
 * AltaPay answered Open (and has since completed). Either the refund is settled from AltaPay's
 * answer, or the look-up fails as an outage (the run stops and records nothing); never recorded as
 * failed before its time, never refunded again, and the next run settles it.
 */
describe("follow-up of an Open refund", () => {
  let access: PaymentDataAccess
  beforeAll(() => {
    const options = (parseAltaPayOptions(providerOptions) as { options: AltaPayOptions }).options
    access = dataAccessFor(
      options,
      sharedAltaPayClient(options),
      scaleOutFrom(() => undefined)
    )
  })
  const followUp = async (data: AltaPayPaymentData) => settleOpenResults(data, await access.lookupTransaction(data.transaction_id!), new Date(), 72)

  it.each(FAULTS)("under %s on the look-up: settled from AltaPay's answer or stopped as an outage, and the next run settles it", async (fault) => {
    const paid = await captured(10)
    sandbox.faults.add({ route: "refundCapturedReservation", kind: "open" })
    const open = (await provider.refundPayment({ data: paid, amount: 4, context: { idempotency_key: nextId("ref") } })).data as AltaPayPaymentData
    expect(open.refunds.at(-1)).toMatchObject({ status: "open", amount_minor: 400 })
    expect(open.awaiting_altapay).toBe(true)
    sandbox.settleOpen(open.transaction_id!, "success")

    sandbox.faults.add({ route: "payments", kind: fault, ms: TIMEOUT_MS * 2 })
    const first = await followUp(open).then(
      (settled) => ({ ok: true as const, settled }),
      (error: unknown) => ({ ok: false as const, error })
    )
    if (first.ok) {
      expect(first.settled).toMatchObject({ succeeded: 1, failed: 0, open: 0 })
      expect(first.settled.data.refunds.at(-1)).toMatchObject({ status: "succeeded", settled_at: expect.any(String) })
    } else {
      expect(isAltaPayOutage(first.error)).toBe(true)
      if (fault === "latency") await sleep(TIMEOUT_MS * 3)
    }
    sandbox.faults.clear()
    const next = await followUp(open)
    expect(next).toMatchObject({ succeeded: 1, failed: 0, open: 0 })
    expect(next.data).toMatchObject({ refunded_minor: 400 })
    expect(effects("refund", open.transaction_id)).toHaveLength(1)
  })

  it("an Open capture settles when AltaPay shows it; one AltaPay never completes is failed only after the timeout", async () => {
    const data = await authorized(10)
    sandbox.faults.add({ route: "captureReservation", kind: "open" })
    const open = (await provider.capturePayment({ data, context: { idempotency_key: nextId("capt") } })).data as AltaPayPaymentData
    expect(open.captures.at(-1)).toMatchObject({ status: "open", amount_minor: 1000 })
    sandbox.settleOpen(open.transaction_id!, "success")
    const settled = await followUp(open)
    expect(settled).toMatchObject({ succeeded: 1, open: 0 })
    expect(settled.data.captures.at(-1)!.status).toBeUndefined()

    const other = await authorized(10)
    sandbox.faults.add({ route: "captureReservation", kind: "open" })
    const stuck = (await provider.capturePayment({ data: other, context: { idempotency_key: nextId("capt") } })).data as AltaPayPaymentData
    sandbox.settleOpen(stuck.transaction_id!, "fail")
    const transaction = await access.lookupTransaction(stuck.transaction_id!)
    expect(settleOpenResults(stuck, transaction, new Date(Date.now() + 71 * 3_600_000), 72)).toMatchObject({ open: 1, failed: 0 })
    const failed = settleOpenResults(stuck, transaction, new Date(Date.now() + 72 * 3_600_000), 72)
    expect(failed).toMatchObject({ open: 0, failed: 1 })
    expect(failed.data.captures.at(-1)).toMatchObject({ status: "failed", failure_reason: expect.stringMatching(/still does not show this capture after 72 h/) })
  })
})

describe("callbacks", () => {
  async function paidWithCallback(outcome: "authorize" | "decline" = "authorize") {
    const data = await initiate(25)
    const paid = await sandbox.simulatePayment(data.altapay_session_id, { outcome, callback: false })
    return { data, paid }
  }
  /** The payload Medusa hands the provider for the callback the sandbox would send. */
  function payload(paymentId: string, options: { signature?: "valid" | "forged" | "none"; timestamp?: number } = {}) {
    const { rawBody, headers } = sandbox.callbackFor(paymentId, options)
    return { data: Object.fromEntries(new URLSearchParams(rawBody)), rawData: Buffer.from(rawBody), headers }
  }

  it("duplicate and late callbacks give the same answer; forged ones change nothing; stale ones are decided by AltaPay", async () => {
    const { data, paid } = await paidWithCallback()
    const first = await provider.getWebhookActionAndData(payload(paid.paymentId))
    expect(first).toMatchObject({ action: "authorized", data: { session_id: sessionIdOf(data) } })
    expect((await provider.getWebhookActionAndData(payload(paid.paymentId))).action).toBe("authorized")
    expect((await provider.getWebhookActionAndData(payload(paid.paymentId, { signature: "forged" }))).action).toBe("not_supported")
    expect((await provider.getWebhookActionAndData(payload(paid.paymentId, { signature: "none" }))).action).toBe("not_supported")
    // Correctly signed an hour ago (a retry keeps its first t): not refused, not trusted; AltaPay's
    // record, which shows the reservation, decides.
    const anHourAgo = Math.floor(Date.now() / 1000) - 3600
    const lookupsBefore = sandbox.ledger().filter((e) => e.operation === "payments").length
    expect((await provider.getWebhookActionAndData(payload(paid.paymentId, { timestamp: anHourAgo }))).action).toBe("authorized")
    expect(sandbox.ledger().filter((e) => e.operation === "payments").length).toBe(lookupsBefore + 1)
  })

  it("an out-of-order decline for an earlier attempt is reported as failed, never as paid", async () => {
    const { paid } = await paidWithCallback("decline")
    expect((await provider.getWebhookActionAndData(payload(paid.paymentId))).action).toBe("failed")
  })
})

afterAll(() => {
  const joined = logLines.join("\n")
  expect(joined).not.toContain(PASSWORD)
  expect(joined).not.toContain(Buffer.from(`${USER}:${PASSWORD}`).toString("base64"))
  expect(joined).not.toMatch(/Bearer [\w-]+\.[\w-]+/)
  expect(joined).not.toMatch(/eyJ[\w-]+\.[\w-]+\.[\w-]+/)
})
