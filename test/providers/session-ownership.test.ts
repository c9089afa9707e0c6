/**
 * What a browser can reach through Medusa's store routes must not move money: Medusa stores the
 * `data` a browser sends before it calls the provider, deletes every session of a collection when
 * anyone starts a new one (handing the provider that raw data), and merges the browser's keys
 * under the provider's. The provider acts only on data it sealed, or on AltaPay's live record for
 * the session id Medusa itself passed.
 */
import type { Logger, RemoteQueryFunction } from "@medusajs/framework/types"
import { ContainerRegistrationKeys, PaymentSessionStatus } from "@medusajs/framework/utils"
import { AltaPayProviderService } from "../../src/providers/altapay"
import { schemaFingerprint, type AltaPayPaymentData } from "../../src/lib/payment-data/data"
import { StrandedSessions } from "../../src/lib/follow-up/stranded"
import { paymentLockOn, processStore } from "../../src/lib/scale-out/shared-state"
import { startSandbox, type Sandbox } from "../../src/sandbox"
import { sandboxProviderOptions, sessionIdOf } from "../helpers/provider"

const USER = "ownership-user"
const PASSWORD = "ownership-password-42"

let sandbox: Sandbox
let provider: AltaPayProviderService
let counter = 0

/**
 * Medusa's payment sessions as `query` shows them to the provider (the Payment module's `query`
 * dependency): the sessions a test says Medusa has, with or without a payment.
 */
const medusaSessions = new Map<string, { id: string; status: string; authorized_at: string | null; payment: { id: string } | null }>()
const query = {
  graph: async ({ filters }: { filters: { id: string } }) => ({ data: medusaSessions.has(filters.id) ? [medusaSessions.get(filters.id)] : [] }),
} as unknown as Pick<RemoteQueryFunction, "graph">

const providerOn = (cradle: Record<string, unknown>, options: Record<string, unknown> = {}) =>
  new AltaPayProviderService(cradle, sandboxProviderOptions(sandbox, { username: USER, password: PASSWORD }, options))

beforeAll(async () => {
  sandbox = await startSandbox({ port: 0, username: USER, password: PASSWORD })
  provider = providerOn({ [ContainerRegistrationKeys.QUERY]: query })
})
afterAll(() => sandbox.close())

const nextId = () => `payses_own${Date.now().toString(36)}${(counter++).toString(36)}`
const releases = (transactionId: string | null) => sandbox.ledger().filter((e) => e.effect?.type === "release" && e.effect.transactionId === transactionId)
/** Ledger entries after `seq` that name any of `ids` (an AltaPay session, order or transaction id). */
const callsNaming = (afterSeq: number, ...ids: string[]) => sandbox.ledger().filter((e) => e.seq > afterSeq && ids.some((id) => JSON.stringify(e).includes(id)))
/** The notes the provider leaves for the follow-up job (this process's store: the tests give it no cache module). */
const strandedNotes = () => new StrandedSessions(processStore(), paymentLockOn(undefined), "altapay")
const lastSeq = () => sandbox.ledger().at(-1)?.seq ?? 0

/** A session as Medusa stores it: the browser's data first, the provider's over it. */
async function initiate(browserData: Record<string, unknown> = {}, on = provider): Promise<AltaPayPaymentData> {
  const id = nextId()
  medusaSessions.set(id, { id, status: "pending", authorized_at: null, payment: null })
  const out = await on.initiatePayment({ amount: 10, currency_code: "dkk", data: { ...browserData, session_id: id }, context: { idempotency_key: id } })
  return { ...browserData, ...out.data } as AltaPayPaymentData
}

const paid = (data: AltaPayPaymentData) => sandbox.simulatePayment(data.altapay_session_id, { outcome: "authorize", callback: false })

async function authorized(data: AltaPayPaymentData, on = provider): Promise<AltaPayPaymentData> {
  const result = await on.authorizePayment({ data, context: { idempotency_key: sessionIdOf(data) } })
  expect(result.status).toBe(PaymentSessionStatus.AUTHORIZED)
  medusaSessions.set(sessionIdOf(data), { id: sessionIdOf(data), status: "authorized", authorized_at: new Date().toISOString(), payment: { id: `pay_${data.order_id}` } })
  return result.data as AltaPayPaymentData
}

async function paidAndAuthorized(): Promise<AltaPayPaymentData> {
  const data = await initiate()
  await paid(data)
  return authorized(data)
}

/** What a browser can write: every field of our data, filled in for someone else's session. */
function forged(victim: AltaPayPaymentData, extra: Record<string, unknown> = {}): Record<string, unknown> {
  const { altapay_seal: _seal, ...fields } = victim as AltaPayPaymentData & { altapay_seal?: string }
  return { ...fields, authorized_at: null, ...extra }
}

describe("deleting a session", () => {
  it("leaves the reservation of a session the provider reported authorized: it belongs to a Medusa payment", async () => {
    const data = await initiate()
    await paid(data)
    const done = await authorized(data)
    expect(done).toMatchObject({ authorized_at: expect.any(String), transaction_id: expect.any(String) })

    await provider.deletePayment({ data: done })

    expect(releases(done.transaction_id)).toHaveLength(0)
    expect(sandbox.transaction(done.transaction_id!)).toMatchObject({ status: "preauth" })
  })

  it("releases nothing when Medusa deletes a paid session: a completion may be authorizing it, so it is noted for the follow-up job", async () => {
    const data = await initiate()
    const { transactionId } = await paid(data)

    await provider.deletePayment({ data })

    expect(releases(transactionId!)).toHaveLength(0)
    expect(sandbox.transaction(transactionId!)).toMatchObject({ status: "preauth" })
    expect(await strandedNotes().get(sessionIdOf(data))).toMatchObject({ sessionId: sessionIdOf(data), why: "deleted", amountMinor: 1000, currency: "DKK" })
  })

  it("a sealed copy saved before authorization and sent again later releases nothing: Medusa shows the session's payment", async () => {
    const early = await initiate()
    await paid(early)
    const done = await authorized(early)

    await provider.deletePayment({ data: early })

    expect(releases(done.transaction_id)).toHaveLength(0)
    expect(sandbox.transaction(done.transaction_id!)).toMatchObject({ status: "preauth" })
  })

  it("without the query dependency a reservation is never released from a deleted session", async () => {
    const noQuery = providerOn({})
    const data = await initiate({}, noQuery)
    const { transactionId } = await paid(data)

    await noQuery.deletePayment({ data })

    expect(releases(transactionId!)).toHaveLength(0)
  })

  it("data a browser wrote makes no AltaPay call at all, even naming another customer's paid session", async () => {
    const victim = await paidAndAuthorized()
    const before = lastSeq()

    for (const data of [
      forged(victim),
      forged(victim, { altapay_seal: "v1.AAAA" }),
      forged(victim, { altapay_seal: `v2.${schemaFingerprint()}.AAAA` }),
      forged(victim, { amount_minor: 1, currency: "SEK" }),
      { order_id: victim.order_id },
    ]) {
      await provider.deletePayment({ data })
      await provider.updatePayment({ data, amount: 1, currency_code: "sek", context: {} })
    }

    expect(callsNaming(before, victim.order_id, victim.altapay_session_id, victim.transaction_id!)).toEqual([])
    expect(sandbox.transaction(victim.transaction_id!)).toMatchObject({ status: "preauth", reservedMinor: 1000 })
  })

  it("a captured payment on a replaced session (auto-capture) is logged with its transaction and left to the follow-up job", async () => {
    const warnings: string[] = []
    const logger = { error: () => {}, warn: (m: string) => warnings.push(m), info: () => {}, debug: () => {} } as unknown as Logger
    const autoCapturing = providerOn({ logger, [ContainerRegistrationKeys.QUERY]: query }, { autoCapture: true })
    const data = await initiate({}, autoCapturing)
    const paidOn = await paid(data)
    expect(sandbox.transaction(paidOn.transactionId!)).toMatchObject({ capturedMinor: 1000 })

    await autoCapturing.deletePayment({ data })

    expect(warnings).toEqual([expect.stringContaining(`has a payment (transaction ${paidOn.transactionId}, captured); the follow-up job`)])
    expect(await strandedNotes().get(sessionIdOf(data))).toMatchObject({ why: "deleted" })
  })

  it("authorizes only the session Medusa names: another session's sealed data is refused without asking AltaPay", async () => {
    const victim = await initiate()
    await paid(victim)
    const before = lastSeq()

    const result = await provider.authorizePayment({ data: victim, context: { idempotency_key: nextId() } })

    expect(result.status).toBe(PaymentSessionStatus.ERROR)
    expect(callsNaming(before, victim.order_id)).toEqual([])
  })

  it("refuses data the provider did not seal, without asking AltaPay", async () => {
    const victim = await initiate()
    await paid(victim)
    const mine = nextId()
    const before = lastSeq()

    const result = await provider.authorizePayment({ data: forged(victim, { order_id: mine }), context: { idempotency_key: mine } })

    expect(result.status).toBe(PaymentSessionStatus.ERROR)
    expect(callsNaming(before, victim.order_id, mine)).toEqual([])
  })

  it("a reservation in another currency does not pay: 10.00 SEK for a 10.00 DKK session (changed with the browser's CUSTOMER token)", async () => {
    const client = (provider as unknown as { client: import("../../src/altapay").AltaPayClient }).client
    const data = await initiate()
    const { token } = await client.tokens.customerToken(data.altapay_session_id)
    // The CUSTOMER token may write its session: the amount stays, the currency changes.
    const changed = await fetch(`${sandbox.checkoutUrl}/checkout/v1/api/session/${data.altapay_session_id}`, {
      method: "PUT",
      headers: { authorization: `Bearer ${token}`, "content-type": "application/json" },
      body: JSON.stringify({ order: { amount: { value: 10, currency: "SEK" } } }),
    })
    expect(changed.status).toBe(200)
    const { transactionId } = await paid(data)
    expect(sandbox.transaction(transactionId!)).toMatchObject({ reservedMinor: 1000, currency: "SEK" })

    const result = await provider.authorizePayment({ data, context: { idempotency_key: sessionIdOf(data) } })

    expect(result.status).toBe(PaymentSessionStatus.ERROR)
    expect((result.data as AltaPayPaymentData).failure_reason).toMatch(/reserved 10\.00 SEK but the session is for 1000 minor units of DKK/)
  })

  it("refuses to start a session whose id differs from Medusa's idempotency key", async () => {
    await expect(provider.initiatePayment({ amount: 10, currency_code: "dkk", data: { session_id: nextId() }, context: { idempotency_key: nextId() } })).rejects.toThrow(
      /differs from Medusa's idempotency key/
    )
  })
})

describe("browser-supplied session data", () => {
  it("is dropped from what the provider returns, which is sealed", async () => {
    const planted = {
      amount_minor: 400,
      requested_at: new Date(Date.now() + 3_600_000).toISOString(),
      order_lines: [{ description: "Planted line", itemId: "planted", quantity: 1, unitPriceMinor: 400, taxAmountMinor: 0, taxPercent: 0, goodsType: "item" }],
      note: "planted",
    }
    const data = await initiate({ pending_refund: planted, shipping_hint: "x" })
    expect(data.pending_refund).toBeNull()
    await paid(data)
    const done = await authorized(data)
    expect(done).not.toHaveProperty("shipping_hint")
    expect(done).toHaveProperty("altapay_seal", expect.stringMatching(/^v2\./))
  })

  it("changed Payment data never shapes a refund: it is used only once AltaPay confirms its transaction, without the planted lines", async () => {
    const warnings: string[] = []
    const logger = { warn: (m: string) => warnings.push(m), error: () => {}, info: () => {}, debug: () => {} } as unknown as Logger
    const watched = providerOn({ logger, [ContainerRegistrationKeys.QUERY]: query })
    const data = await initiate({}, watched)
    await paid(data)
    const done = await authorized(data, watched)
    const captured = (await watched.capturePayment({ data: done, context: { idempotency_key: nextId() } })).data as AltaPayPaymentData
    const future = {
      amount_minor: 400,
      requested_at: new Date(Date.now() + 3_600_000).toISOString(),
      order_lines: [{ description: "Planted line", itemId: "planted", quantity: 1, unitPriceMinor: 400, taxAmountMinor: 0, taxPercent: 0, goodsType: "item" }],
    }

    const refunded = (await watched.refundPayment({ data: { ...captured, pending_refund: future } as never, amount: 4, context: { idempotency_key: nextId() } }))
      .data as AltaPayPaymentData

    const sent = refunded.refunds.at(-1)!
    expect(sent.amount_minor).toBe(400)
    expect(JSON.stringify(sent.order_lines)).not.toContain("planted")
    // (This test's `query` knows sessions only, so the capture also warns that it took what was left.)
    expect(warnings.filter((w) => !w.includes("capture amount could not be read"))).toEqual([expect.stringContaining("the seal does not verify")])
  })

  it("Payment data naming a transaction of another order moves no money", async () => {
    const victim = await paidAndAuthorized()
    const mine = await paidAndAuthorized()

    await expect(provider.capturePayment({ data: { ...mine, transaction_id: victim.transaction_id }, context: { idempotency_key: nextId() } })).rejects.toThrow(
      /does not confirm that transaction/
    )

    expect(sandbox.transaction(victim.transaction_id!)).toMatchObject({ status: "preauth", capturedMinor: 0 })
  })
})

describe("a new seal key (the API password rotated without paymentDataSecret)", () => {
  it("strands no money: the payment captures and refunds on AltaPay's confirmation, and comes back sealed with the new key", async () => {
    const before = providerOn({ [ContainerRegistrationKeys.QUERY]: query }, { paymentDataSecret: "first-payment-data-secret-0123456789" })
    const after = providerOn({ [ContainerRegistrationKeys.QUERY]: query }, { paymentDataSecret: "second-payment-data-secret-0123456789" })
    const data = await initiate({}, before)
    await paid(data)
    const done = await authorized(data, before)

    const captured = (await after.capturePayment({ data: done, context: { idempotency_key: nextId() } })).data as AltaPayPaymentData
    expect(sandbox.transaction(done.transaction_id!)).toMatchObject({ capturedMinor: 1000 })
    const refunded = (await after.refundPayment({ data: captured, amount: 4, context: { idempotency_key: nextId() } })).data as AltaPayPaymentData
    expect(refunded).toMatchObject({ refunded_minor: 400 })
    expect(sandbox.transaction(done.transaction_id!)).toMatchObject({ refundedMinor: 400 })
    // Sealed again, with the new key: the next hook needs no confirmation.
    expect((await after.retrievePayment({ data: refunded })).data).toMatchObject({ refunded_minor: 400 })
  })
})
