/**
 * A capture whose answer was lost (and AltaPay could not be asked) is folded into the payment's data
 * by the next read of AltaPay's record, here a refund's: a bare copy with AltaPay's identifier and
 * amount and no Medusa capture id. The merchant's retry (Medusa gives it a new capture id) adopts
 * that capture through the money door: nothing is captured again, the payment keeps one record per
 * AltaPay capture, and the attempt is settled, so the follow-up job does not record it a second time.
 */
import { Modules } from "@medusajs/framework/utils"
import { AltaPayProviderService } from "../../src/providers/altapay"
import { AttemptBook } from "../../src/lib/money-door/attempts"
import { recordedIn, transactionSubject } from "../../src/lib/money-door/transaction-record"
import type { AltaPayPaymentData } from "../../src/lib/payment-data/data"
import { scaleOutFrom } from "../../src/lib/scale-out/shared-state"
import { startSandbox, type Sandbox } from "../../src/sandbox"
import { sharedCache } from "../helpers/cache"
import { sandboxProviderOptions } from "../helpers/provider"

const USER = "fold-user"
const PASSWORD = "fold-password-42"
let sandbox: Sandbox
let counter = 0

beforeEach(async () => {
  sandbox = await startSandbox({ port: 0, username: USER, password: PASSWORD })
})
afterEach(() => sandbox.close())

const nextId = (prefix: string) => `${prefix}_fold${Date.now().toString(36)}${(counter++).toString(36)}`

/** Medusa's capture rows of the payment, as the provider reads a capture's amount through `query`. */
const medusaCaptures: Array<{ id: string; amount: number; created_at: string }> = []
const query = {
  graph: async ({ entity }: { entity: string }) =>
    entity === "payment" ? { data: [{ id: "pay_fold", captures: medusaCaptures.map((c) => ({ ...c, raw_amount: c.amount })) }] } : { data: [] },
}

const cache = sharedCache()
const provider = () =>
  new AltaPayProviderService({ [Modules.CACHE]: cache, query }, sandboxProviderOptions(sandbox, { username: USER, password: PASSWORD }, { headersTimeoutMs: 300, maxRetries: 1 }))

/** Medusa's Capture: a capture row, the provider's call, the row deleted when the call throws. */
async function medusaCapture(data: AltaPayPaymentData, amount: number): Promise<AltaPayPaymentData> {
  const id = nextId("capt")
  medusaCaptures.push({ id, amount, created_at: new Date(Date.now() + counter).toISOString() })
  try {
    return (await provider().capturePayment({ data, context: { idempotency_key: id } })).data as AltaPayPaymentData
  } catch (error) {
    medusaCaptures.splice(
      medusaCaptures.findIndex((c) => c.id === id),
      1
    )
    throw error
  }
}

/** Authorized for 100.00 DKK, `first` captured, then a capture of `second` made at AltaPay with its answer lost, folded in by a refund of 10.00. */
async function unansweredCaptureFolded(first: number, second: number): Promise<AltaPayPaymentData> {
  medusaCaptures.length = 0
  const id = nextId("payses")
  const { data: session } = await provider().initiatePayment({ amount: 100, currency_code: "dkk", data: { session_id: id }, context: { idempotency_key: id } })
  await sandbox.simulatePayment((session as AltaPayPaymentData).altapay_session_id, { outcome: "authorize", callback: false })
  let data = (await provider().authorizePayment({ data: session!, context: { idempotency_key: id } })).data as AltaPayPaymentData
  data = await medusaCapture(data, first)
  sandbox.faults.add({ route: "captureReservation", kind: "lost-answer" })
  sandbox.faults.add({ route: "payments", kind: "reset", times: 5 })
  await expect(medusaCapture(data, second)).rejects.toThrow(/trying again is safe/)
  sandbox.faults.clear()
  data = (await provider().refundPayment({ data, amount: 10, context: { idempotency_key: nextId("ref") } })).data as AltaPayPaymentData
  expect(data.captures.filter((c) => c.capture_id === null)).toHaveLength(1)
  return data
}

const capturesMoved = () => sandbox.ledger().filter((e) => e.effect?.type === "capture" && e.effect.result === "Success")

it("a retried partial capture adopts the folded capture: one record per AltaPay capture", async () => {
  const folded = await unansweredCaptureFolded(30, 30)
  const data = await medusaCapture(folded, 30)
  expect(capturesMoved()).toHaveLength(2)
  expect(sandbox.transaction(data.transaction_id!)).toMatchObject({ capturedMinor: 6000 })
  expect(data.captures.map((c) => [c.amount_minor, c.capture_id === medusaCaptures[1].id])).toEqual([
    [3000, false],
    [3000, true],
  ])
})

it("a retried capture of the rest adopts the folded capture and settles its attempt", async () => {
  const folded = await unansweredCaptureFolded(50, 50)
  const data = await medusaCapture(folded, 50)
  expect(capturesMoved()).toHaveLength(2)
  expect(sandbox.transaction(data.transaction_id!)).toMatchObject({ capturedMinor: 10000 })
  expect(data.captures.find((c) => c.capture_id === medusaCaptures[1].id)).toMatchObject({ amount_minor: 5000 })
  // Nothing left for the follow-up job: it would ask Medusa to record the capture once more.
  const book = new AttemptBook(scaleOutFrom((name) => (name === Modules.CACHE ? (cache as never) : undefined)).store)
  const attempts = await book.list(transactionSubject(data.transaction_id!))
  expect(attempts.filter((a) => !recordedIn(data, a))).toEqual([])
})
