/**
 * A refund whose answer was lost, and which AltaPay could not be asked about, must not be sent a
 * second time when the merchant retries (Medusa drops its refund record, so the retry has a new
 * id) — also when the retry runs on another server or after a restart, as long as the servers
 * share Medusa's cache module, and also when AltaPay did not keep the reconciliation identifier.
 */
import type { ICacheService } from "@medusajs/framework/types"
import { Modules } from "@medusajs/framework/utils"
import { AltaPayProviderService } from "../../src/providers/altapay"
import type { AltaPayPaymentData } from "../../src/lib/payment-data/data"
import { startSandbox, type Sandbox } from "../../src/sandbox"
import { sharedCache } from "../helpers/cache"

const USER = "uncertain-user"
const PASSWORD = "uncertain-password-42"

let sandbox: Sandbox
let counter = 0

/** A fresh AltaPay per test, so the ledger holds only that test's money. */
function freshSandbox(options: { keepReconciliationIdentifiers: boolean }) {
  beforeEach(async () => {
    sandbox = await startSandbox({ port: 0, username: USER, password: PASSWORD, ...options })
  })
  afterEach(() => sandbox.close())
}

function server(cache?: ICacheService): AltaPayProviderService {
  return new AltaPayProviderService(cache ? { [Modules.CACHE]: cache } : {}, {
    checkoutUrl: sandbox.checkoutUrl,
    gatewayUrl: sandbox.gatewayUrl,
    username: USER,
    password: PASSWORD,
    backendUrl: "http://127.0.0.1:9",
    flow: "storefront",
    headersTimeoutMs: 300,
    maxRetries: 1,
    allowInsecureUrls: true,
  } as never)
}

const nextId = (prefix: string) => `${prefix}_unc${Date.now().toString(36)}${(counter++).toString(36)}`
const refundsMoved = (transactionId: string) =>
  sandbox.ledger().filter((e) => e.effect?.type === "refund" && e.effect.transactionId === transactionId && e.effect.result === "Success")

async function capturedPayment(provider: AltaPayProviderService): Promise<AltaPayPaymentData> {
  const id = nextId("payses")
  const { data } = await provider.initiatePayment({ amount: 10, currency_code: "dkk", data: { session_id: id }, context: { idempotency_key: id } })
  await sandbox.simulatePayment((data as AltaPayPaymentData).altapay_session_id, { outcome: "authorize", callback: false })
  const authorized = await provider.authorizePayment({ data: data!, context: { idempotency_key: id } })
  return (await provider.capturePayment({ data: authorized.data!, context: { idempotency_key: nextId("capt") } })).data as AltaPayPaymentData
}

/** The refund is made at AltaPay, its answer is lost, and the look-up after it fails too. */
async function refundWithUnknownOutcome(provider: AltaPayProviderService, data: AltaPayPaymentData): Promise<void> {
  sandbox.faults.add({ route: "refundCapturedReservation", kind: "lost-answer" })
  sandbox.faults.add({ route: "payments", kind: "reset", skip: 1, times: 5 })
  await expect(provider.refundPayment({ data, amount: 4, context: { idempotency_key: nextId("ref") } })).rejects.toThrow(/may have been made: trying again is safe/)
  sandbox.faults.clear()
  expect(refundsMoved(data.transaction_id!)).toHaveLength(1)
}

describe("an AltaPay that keeps the reconciliation identifier", () => {
  freshSandbox({ keepReconciliationIdentifiers: true })

  it("a retry on another server sharing the cache module adopts the refund instead of sending it again", async () => {
    const cache = sharedCache()
    const first = server(cache)
    const data = await capturedPayment(first)
    await refundWithUnknownOutcome(first, data)

    const retried = await server(cache).refundPayment({ data, amount: 4, context: { idempotency_key: nextId("ref") } })

    expect(refundsMoved(data.transaction_id!)).toHaveLength(1)
    expect(sandbox.transaction(data.transaction_id!)).toMatchObject({ refundedMinor: 400 })
    expect((retried.data as AltaPayPaymentData).refunds.filter((r) => r.amount_minor === 400)).toHaveLength(1)
  })

  it("a cache module that fails to store after the refund does not fail a refund AltaPay made", async () => {
    const data = await capturedPayment(server())
    const cache = sharedCache()
    // The attempt is recorded; only the payment's newest data (written after AltaPay answered) cannot be.
    const broken: ICacheService = {
      ...cache,
      set: async (key, value, ttl) => (key.startsWith("altapay:money:") ? cache.set(key, value, ttl) : Promise.reject(new Error("cache down"))),
    }

    const { data: after } = await server(broken).refundPayment({ data, amount: 4, context: { idempotency_key: nextId("ref") } })

    expect(refundsMoved(data.transaction_id!)).toHaveLength(1)
    expect(after).toMatchObject({ refunded_minor: 400, refunds: [expect.objectContaining({ amount_minor: 400 })] })
  })

  it("a cache module that cannot record the attempt refuses the refund before anything is sent", async () => {
    const data = await capturedPayment(server())
    const broken: ICacheService = { ...sharedCache(), set: async () => Promise.reject(new Error("cache down")) }

    await expect(server(broken).refundPayment({ data, amount: 4, context: { idempotency_key: nextId("ref") } })).rejects.toThrow(
      /could not record the attempt before sending it \(cache down\); nothing was sent/
    )
    expect(refundsMoved(data.transaction_id!)).toHaveLength(0)
  })

  it("the same retry on the same server adopts it without a cache module", async () => {
    const provider = server()
    const data = await capturedPayment(provider)
    await refundWithUnknownOutcome(provider, data)

    await provider.refundPayment({ data, amount: 4, context: { idempotency_key: nextId("ref") } })

    expect(refundsMoved(data.transaction_id!)).toHaveLength(1)
  })
})

describe("an AltaPay that did not keep the reconciliation identifier (the reference ties it to a `type`)", () => {
  freshSandbox({ keepReconciliationIdentifiers: false })

  it("a lost answer counts as refunded when the refunded amount grew by exactly the refund, without the identifier", async () => {
    const provider = server()
    const data = await capturedPayment(provider)
    sandbox.faults.add({ route: "refundCapturedReservation", kind: "lost-answer" })

    const { data: after } = await provider.refundPayment({ data, amount: 4, context: { idempotency_key: nextId("ref") } })

    expect(refundsMoved(data.transaction_id!)).toHaveLength(1)
    expect(after).toMatchObject({ refunded_minor: 400 })
    expect((after as AltaPayPaymentData).refunds.filter((r) => r.amount_minor === 400)).toHaveLength(1)
  })

  it("two concurrent refunds with one lost answer and no locking module: AltaPay and Medusa agree", async () => {
    const provider = server()
    const data = await capturedPayment(provider)
    // The first refund to arrive is dropped before AltaPay processes it; the look-up after it is
    // slow, so unserialized the other refund would land in between and look like this one.
    sandbox.faults.add({ route: "refundCapturedReservation", kind: "reset" })
    sandbox.faults.add({ route: "payments", kind: "latency", ms: 150, skip: 2, times: 1 })

    const outcomes = await Promise.allSettled([1, 2].map(() => provider.refundPayment({ data, amount: 3, context: { idempotency_key: nextId("ref") } })))

    // What Medusa records: the refunds the provider answered. What AltaPay refunded: its ledger.
    const recordedByMedusa = outcomes.filter((o) => o.status === "fulfilled").length * 300
    expect(sandbox.transaction(data.transaction_id!)!.refundedMinor).toBe(recordedByMedusa)
  })

  it("a retry adopts an unanswered, unchecked attempt by the refunded amount, without the identifier", async () => {
    const provider = server()
    const data = await capturedPayment(provider)
    await refundWithUnknownOutcome(provider, data)

    await provider.refundPayment({ data, amount: 4, context: { idempotency_key: nextId("ref") } })

    expect(refundsMoved(data.transaction_id!)).toHaveLength(1)
    expect(sandbox.transaction(data.transaction_id!)).toMatchObject({ refundedMinor: 400 })
  })
})
