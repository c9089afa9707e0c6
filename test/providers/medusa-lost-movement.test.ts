/**
 * A capture or refund AltaPay made and answered whose Medusa capture or refund Medusa then deleted:
 * its capturePayment and refundPayment delete theirs when storing the provider's answer fails. The
 * provider's record (the journal) still holds the movement, but Medusa's copy of the payment does not
 * and Medusa has no such capture or refund: the merchant's retry (a new id, the same amount) records
 * it, and nothing is sent again (lost-movements.ts).
 */
import { Modules } from "@medusajs/framework/utils"
import { AltaPayProviderService } from "../../src/providers/altapay"
import type { AltaPayPaymentData } from "../../src/lib/payment-data/data"
import { startSandbox, type Sandbox } from "../../src/sandbox"
import { sharedCache } from "../helpers/cache"
import { sandboxProviderOptions } from "../helpers/provider"

const USER = "row-lost-user"
const PASSWORD = "row-lost-password-42"
let sandbox: Sandbox
let counter = 0

const medusaRefunds = new Set<string>()
const medusaCaptures: Array<{ id: string; amount: number; created_at: string }> = []
const query = {
  graph: async ({ entity }: { entity: string }) => ({
    data: entity === "payment" ? [{ id: "pay_1", refunds: [...medusaRefunds].map((id) => ({ id })), captures: medusaCaptures.map((c) => ({ ...c, raw_amount: c.amount })) }] : [],
  }),
}

beforeEach(async () => {
  sandbox = await startSandbox({ port: 0, username: USER, password: PASSWORD })
  medusaRefunds.clear()
  medusaCaptures.length = 0
})
afterEach(() => sandbox.close())

const cache = sharedCache()
const server = () =>
  new AltaPayProviderService({ [Modules.CACHE]: cache, query }, sandboxProviderOptions(sandbox, { username: USER, password: PASSWORD }, { headersTimeoutMs: 300, maxRetries: 1 }))
const nextId = (prefix: string) => `${prefix}_rrl${Date.now().toString(36)}${(counter++).toString(36)}`
const capturesMoved = () => sandbox.ledger().filter((e) => e.effect?.type === "capture" && e.effect.result === "Success")
const refundsMoved = (transactionId: string) =>
  sandbox.ledger().filter((e) => e.effect?.type === "refund" && e.effect.transactionId === transactionId && e.effect.result === "Success")

it("a refund Medusa failed to store (its row deleted) is adopted by the retry, not sent again", async () => {
  const sessionId = nextId("payses")
  const { data: session } = await server().initiatePayment({ amount: 10, currency_code: "dkk", data: { session_id: sessionId }, context: { idempotency_key: sessionId } })
  await sandbox.simulatePayment((session as AltaPayPaymentData).altapay_session_id, { outcome: "authorize", callback: false })
  const authorized = await server().authorizePayment({ data: session!, context: { idempotency_key: sessionId } })
  const captured = (await server().capturePayment({ data: authorized.data!, context: { idempotency_key: nextId("capt") } })).data as AltaPayPaymentData

  // Refund R1: AltaPay makes it and answers; Medusa's update of the payment's data then fails, so it deletes row R1.
  const r1 = nextId("ref")
  medusaRefunds.add(r1)
  await server().refundPayment({ data: captured, amount: 4, context: { idempotency_key: r1 } })
  medusaRefunds.delete(r1)
  expect(refundsMoved(captured.transaction_id!)).toHaveLength(1)

  // The merchant retries the same refund: Medusa gives it a new id and passes the data it has (without R1).
  const r2 = nextId("ref")
  medusaRefunds.add(r2)
  const retried = (await server().refundPayment({ data: captured, amount: 4, context: { idempotency_key: r2 } })).data as AltaPayPaymentData

  // One refund at AltaPay: R2 adopts R1.
  expect(refundsMoved(captured.transaction_id!)).toHaveLength(1)
  expect(sandbox.transaction(captured.transaction_id!)).toMatchObject({ refundedMinor: 400 })
  expect(retried.refunds.map((r) => [r.refund_id, r.amount_minor])).toEqual([[r2, 400]])
})

it("a refund whose Medusa refund still exists, though Medusa's copy of the data lags, is not taken for a lost one", async () => {
  const sessionId = nextId("payses")
  const { data: session } = await server().initiatePayment({ amount: 10, currency_code: "dkk", data: { session_id: sessionId }, context: { idempotency_key: sessionId } })
  await sandbox.simulatePayment((session as AltaPayPaymentData).altapay_session_id, { outcome: "authorize", callback: false })
  const authorized = await server().authorizePayment({ data: session!, context: { idempotency_key: sessionId } })
  const captured = (await server().capturePayment({ data: authorized.data!, context: { idempotency_key: nextId("capt") } })).data as AltaPayPaymentData

  // Two refunds of 4.00 at once: both read Medusa's data before either was stored.
  const [r1, r2] = [nextId("ref"), nextId("ref")]
  medusaRefunds.add(r1).add(r2)
  await server().refundPayment({ data: captured, amount: 4, context: { idempotency_key: r1 } })
  await server().refundPayment({ data: captured, amount: 4, context: { idempotency_key: r2 } })
  expect(refundsMoved(captured.transaction_id!)).toHaveLength(2)
})

it("a partial capture Medusa failed to store (its capture deleted) is recorded by the retry, not captured again", async () => {
  const id = nextId("payses")
  const { data: session } = await server().initiatePayment({ amount: 100, currency_code: "dkk", data: { session_id: id }, context: { idempotency_key: id } })
  await sandbox.simulatePayment((session as AltaPayPaymentData).altapay_session_id, { outcome: "authorize", callback: false })
  const authorized = (await server().authorizePayment({ data: session!, context: { idempotency_key: id } })).data as AltaPayPaymentData

  const c1 = nextId("capt")
  medusaCaptures.push({ id: c1, amount: 50, created_at: new Date().toISOString() })
  await server().capturePayment({ data: authorized, context: { idempotency_key: c1 } })
  medusaCaptures.splice(0, 1) // storing the answer failed: Medusa deleted capture c1
  expect(capturesMoved()).toHaveLength(1)

  const c2 = nextId("capt")
  medusaCaptures.push({ id: c2, amount: 50, created_at: new Date(Date.now() + 1).toISOString() })
  const retried = (await server().capturePayment({ data: authorized, context: { idempotency_key: c2 } })).data as AltaPayPaymentData

  expect(capturesMoved()).toHaveLength(1)
  expect(sandbox.transaction(authorized.transaction_id!)).toMatchObject({ capturedMinor: 5000 })
  expect(retried.captures.map((c) => [c.capture_id, c.amount_minor])).toEqual([[c2, 5000]])
})
