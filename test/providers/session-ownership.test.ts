/**
 * What a browser can reach through Medusa's store routes must not move money that belongs to an
 * order: Medusa deletes every session of a collection when anyone starts a new one (also after
 * the order was placed), and it merges the browser's session data under the provider's.
 */
import type { Logger } from "@medusajs/framework/types"
import { PaymentSessionStatus } from "@medusajs/framework/utils"
import { AltaPayProviderService } from "../../src/providers/altapay"
import type { AltaPayPaymentData } from "../../src/lib/payment-data"
import { startSandbox, type Sandbox } from "../../src/sandbox"

const USER = "ownership-user"
const PASSWORD = "ownership-password-42"

let sandbox: Sandbox
let provider: AltaPayProviderService
let counter = 0

const providerOn = (cradle: { logger?: Logger }, options: Record<string, unknown> = {}) =>
  new AltaPayProviderService(
    cradle,
    { checkoutUrl: sandbox.checkoutUrl, gatewayUrl: sandbox.gatewayUrl, username: USER, password: PASSWORD, backendUrl: "http://127.0.0.1:9", flow: "storefront", ...options } as never
  )

beforeAll(async () => {
  sandbox = await startSandbox({ port: 0, username: USER, password: PASSWORD })
  provider = providerOn({})
})
afterAll(() => sandbox.close())

const nextId = () => `payses_own${Date.now().toString(36)}${(counter++).toString(36)}`
const releases = (transactionId: string | null) => sandbox.ledger().filter((e) => e.effect?.type === "release" && e.effect.transactionId === transactionId)

/** A session as Medusa stores it: the browser's data first, the provider's over it. */
async function initiate(browserData: Record<string, unknown> = {}, on = provider): Promise<AltaPayPaymentData> {
  const id = nextId()
  const out = await on.initiatePayment({ amount: 10, currency_code: "dkk", data: { ...browserData, session_id: id }, context: { idempotency_key: id } })
  return { ...browserData, ...out.data } as AltaPayPaymentData
}

const paid = (data: AltaPayPaymentData) => sandbox.simulatePayment(data.altapay_session_id, { outcome: "authorize", callback: false })

describe("deleting a session", () => {
  it("leaves the reservation of a session the provider reported authorized: it belongs to a Medusa payment", async () => {
    const data = await initiate()
    await paid(data)
    const authorized = await provider.authorizePayment({ data })
    expect(authorized.status).toBe(PaymentSessionStatus.AUTHORIZED)
    expect(authorized.data).toMatchObject({ authorized_at: expect.any(String), transaction_id: expect.any(String) })

    await provider.deletePayment({ data: authorized.data })

    const transactionId = (authorized.data as AltaPayPaymentData).transaction_id!
    expect(releases(transactionId)).toHaveLength(0)
    expect(sandbox.transaction(transactionId)).toMatchObject({ status: "preauth" })
  })

  it("releases a reservation made on a session Medusa never saw authorized (a replaced cart session)", async () => {
    const data = await initiate()
    const { transactionId } = await paid(data)

    await provider.deletePayment({ data })

    expect(releases(transactionId!)).toHaveLength(1)
    expect(sandbox.transaction(transactionId!)).toMatchObject({ status: "released" })
  })

  it("reports a captured payment on a replaced session (auto-capture) as an error an on-call engineer can act on", async () => {
    const errors: string[] = []
    const logger = { error: (m: string) => errors.push(m), warn: () => {}, info: () => {}, debug: () => {} } as unknown as Logger
    const autoCapturing = providerOn({ logger }, { autoCapture: true })
    const data = await initiate({}, autoCapturing)
    const paidOn = await paid(data)
    expect(sandbox.transaction(paidOn.transactionId!)).toMatchObject({ capturedMinor: 1000 })

    await autoCapturing.deletePayment({ data })

    expect(errors).toEqual([expect.stringContaining(`is captured (transaction ${paidOn.transactionId}, 10.00 DKK) and no order claims it`)])
  })
})

describe("browser-supplied session data", () => {
  it("cannot plant refund lines: the provider's data clears pending_refund", async () => {
    const planted = {
      amount_minor: 400,
      requested_at: new Date(Date.now() + 3_600_000).toISOString(),
      order_lines: [{ description: "Planted line", itemId: "planted", quantity: 1, unitPriceMinor: 400, taxAmountMinor: 0, taxPercent: 0, goodsType: "item" }],
      note: "planted",
    }
    const data = await initiate({ pending_refund: planted })
    expect(data.pending_refund).toBeNull()
  })

  it("a pending refund dated in the future is not used for a refund", async () => {
    const data = await initiate()
    await paid(data)
    const authorized = (await provider.authorizePayment({ data })).data as AltaPayPaymentData
    const captured = (await provider.capturePayment({ data: authorized, context: { idempotency_key: nextId() } })).data as AltaPayPaymentData
    const future = {
      amount_minor: 400,
      requested_at: new Date(Date.now() + 3_600_000).toISOString(),
      order_lines: [{ description: "Planted line", itemId: "planted", quantity: 1, unitPriceMinor: 400, taxAmountMinor: 0, taxPercent: 0, goodsType: "item" }],
    }

    const refunded = (await provider.refundPayment({ data: { ...captured, pending_refund: future } as never, amount: 4, context: { idempotency_key: nextId() } })).data as AltaPayPaymentData

    const sent = refunded.refunds.at(-1)!
    expect(sent.amount_minor).toBe(400)
    expect(JSON.stringify(sent.order_lines)).not.toContain("planted")
  })
})
