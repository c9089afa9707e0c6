/**
 * A partial refund made at AltaPay whose answer was lost (and AltaPay could not be asked after it),
 * retried by the merchant under a new refund id where the attempt book does not hold the first
 * attempt: a server with its own in-memory cache, or the cache restarted or evicted. AltaPay's
 * record, read before sending anyway, names the first attempt; Medusa deleted its row when the
 * provider threw, so it is an earlier attempt of ours: adopted at the same amount, refused at
 * another. A refund whose Medusa row still exists is another server's, under way: not in the way.
 */
import type { ICacheService } from "@medusajs/framework/types"
import { Modules } from "@medusajs/framework/utils"
import { AltaPayProviderService } from "../../src/providers/altapay"
import type { AltaPayPaymentData } from "../../src/lib/payment-data/data"
import { startSandbox, type Sandbox } from "../../src/sandbox"
import { sharedCache } from "../helpers/cache"
import { sandboxProviderOptions } from "../helpers/provider"

const USER = "retry-book-user"
const PASSWORD = "retry-book-password-42"
let sandbox: Sandbox
let counter = 0

interface Graph {
  graph(args: { entity: string; fields: string[]; filters: Record<string, unknown> }): Promise<{ data: unknown[] }>
}

/** Medusa's refund rows of the one payment, as `query` shows them; and what it was asked. */
const medusaRefunds = new Set<string>()
const asked: Array<Record<string, unknown>> = []
const medusa: Graph = {
  graph: async ({ entity, filters }) => {
    asked.push(filters)
    return { data: entity === "payment" ? [{ id: "pay_1", refunds: [...medusaRefunds].map((id) => ({ id })) }] : [] }
  },
}

beforeEach(async () => {
  sandbox = await startSandbox({ port: 0, username: USER, password: PASSWORD })
  medusaRefunds.clear()
  asked.length = 0
})
afterEach(() => sandbox.close())

/** A server with its own cache module (so its own attempt book); `null`: no `query` dependency. */
function server(query: Graph | null = medusa, cache: ICacheService = sharedCache()): AltaPayProviderService {
  const options = sandboxProviderOptions(sandbox, { username: USER, password: PASSWORD }, { headersTimeoutMs: 300, maxRetries: 1 })
  return new AltaPayProviderService({ [Modules.CACHE]: cache, ...(query ? { query } : {}) }, options)
}

const nextId = (prefix: string) => `${prefix}_rtb${Date.now().toString(36)}${(counter++).toString(36)}`
const refundsMoved = (transactionId: string) =>
  sandbox.ledger().filter((e) => e.effect?.type === "refund" && e.effect.transactionId === transactionId && e.effect.result === "Success")

async function capturedPayment(provider: AltaPayProviderService): Promise<{ data: AltaPayPaymentData; sessionId: string }> {
  const sessionId = nextId("payses")
  const { data } = await provider.initiatePayment({ amount: 10, currency_code: "dkk", data: { session_id: sessionId }, context: { idempotency_key: sessionId } })
  await sandbox.simulatePayment((data as AltaPayPaymentData).altapay_session_id, { outcome: "authorize", callback: false })
  const authorized = await provider.authorizePayment({ data: data!, context: { idempotency_key: sessionId } })
  const captured = await provider.capturePayment({ data: authorized.data!, context: { idempotency_key: nextId("capt") } })
  return { data: captured.data as AltaPayPaymentData, sessionId }
}

/** Medusa's refund: its row exists while the provider works, and is deleted when the provider throws. */
async function refund(provider: AltaPayProviderService, data: AltaPayPaymentData, amount: number, refundId: string, keepRow = false) {
  medusaRefunds.add(refundId)
  try {
    return (await provider.refundPayment({ data, amount, context: { idempotency_key: refundId } })).data as AltaPayPaymentData
  } catch (error) {
    if (!keepRow) medusaRefunds.delete(refundId)
    throw error
  }
}

/** Refund 4.00 of 10.00: AltaPay makes it, the answer is lost, and AltaPay cannot be asked after it. */
async function lostRefund(data: AltaPayPaymentData, refundId: string, keepRow = false): Promise<void> {
  sandbox.faults.add({ route: "refundCapturedReservation", kind: "lost-answer" })
  sandbox.faults.add({ route: "payments", kind: "reset", skip: 1, times: 5 })
  await expect(refund(server(), data, 4, refundId, keepRow)).rejects.toThrow(/trying again is safe/)
  sandbox.faults.clear()
  expect(refundsMoved(data.transaction_id!)).toHaveLength(1)
}

it("a retry of the same amount where the book is lost adopts AltaPay's refund under the retry's id: one refund at AltaPay", async () => {
  const { data, sessionId } = await capturedPayment(server())
  const first = nextId("ref")
  await lostRefund(data, first)

  const retry = nextId("ref")
  const after = await refund(server(), data, 4, retry)

  expect(refundsMoved(data.transaction_id!)).toHaveLength(1)
  expect(sandbox.transaction(data.transaction_id!)).toMatchObject({ refundedMinor: 400 })
  expect(after.refunds).toEqual([expect.objectContaining({ reconciliation_identifier: `medusa-refund-${first}`, refund_id: retry, amount_minor: 400, status: "succeeded" })])
  expect(after).toMatchObject({ refunded_minor: 400 })
  expect(asked).toContainEqual({ payment_session_id: sessionId })
})

it("a retry of another amount where the book is lost is refused and says how to record the refund AltaPay made", async () => {
  const { data } = await capturedPayment(server())
  const first = nextId("ref")
  await lostRefund(data, first)

  await expect(refund(server(), data, 3, nextId("ref"))).rejects.toThrow(
    `an earlier refund of 4.00 DKK (medusa-refund-${first}) got no answer at the time, but AltaPay shows it made, and Medusa has no record of it. Nothing was sent`
  )
  expect(refundsMoved(data.transaction_id!)).toHaveLength(1)
})

it("a refund AltaPay shows whose Medusa refund still exists (another server making it now) does not stop a new refund", async () => {
  const { data } = await capturedPayment(server())
  await lostRefund(data, nextId("ref"), true)

  const second = nextId("ref")
  const after = await refund(server(), data, 4, second)

  expect(refundsMoved(data.transaction_id!)).toHaveLength(2)
  expect(sandbox.transaction(data.transaction_id!)).toMatchObject({ refundedMinor: 800 })
  expect(after.refunds).toContainEqual(expect.objectContaining({ reconciliation_identifier: `medusa-refund-${second}`, refund_id: second, amount_minor: 400 }))
})

it("when Medusa cannot be asked about the refund AltaPay shows, nothing is sent", async () => {
  const { data } = await capturedPayment(server())
  await lostRefund(data, nextId("ref"))

  const down: Graph = { graph: async () => Promise.reject(new Error("database unavailable")) }
  await expect(refund(server(down), data, 4, nextId("ref"))).rejects.toThrow(/Medusa could not be asked .*database unavailable.*Nothing was sent; try again in a moment/)
  await expect(refund(server(null), data, 4, nextId("ref"))).rejects.toThrow(/no `query` dependency.*Nothing was sent/)
  expect(refundsMoved(data.transaction_id!)).toHaveLength(1)
})
