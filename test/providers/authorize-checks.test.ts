/**
 * What authorizes a session beyond its amount: the terminal the customer paid on (a CUSTOMER
 * token lets a browser pay on any terminal of the API user, with other fees and settlement), the
 * order id and capture mode the browser may have changed with that token, and, for a session sealed
 * under a previous key, Medusa's own amount and currency of that session.
 */
import type { RemoteQueryFunction } from "@medusajs/framework/types"
import type { Logger } from "@medusajs/framework/types"
import { ContainerRegistrationKeys, PaymentSessionStatus } from "@medusajs/framework/utils"
import { randomBytes } from "node:crypto"
import { AltaPayProviderService } from "../../src/providers/altapay"
import { schemaFingerprint, type AltaPayPaymentData } from "../../src/lib/payment-data/data"
import { PAYMENT_METHODS, startSandbox, type Sandbox } from "../../src/sandbox"
import { sandboxProviderOptions, sessionIdOf } from "../helpers/provider"

const USER = "authorize-user"
const PASSWORD = "authorize-password-42"
const [CARD, MOBILEPAY] = PAYMENT_METHODS

let sandbox: Sandbox
let counter = 0
/** Medusa's own payment sessions (amount in major units), as `query` shows them to the provider. */
const medusaSessions = new Map<string, { id: string; amount: number; currency_code: string }>()
const query = {
  graph: async ({ filters }: { filters: { id: string } }) => ({ data: medusaSessions.has(filters.id) ? [medusaSessions.get(filters.id)] : [] }),
} as unknown as Pick<RemoteQueryFunction, "graph">

const warnings: string[] = []
const logger = { warn: (m: string) => warnings.push(m), error: () => {}, info: () => {}, debug: () => {} } as unknown as Logger

const providerWith = (options: Record<string, unknown> = {}) =>
  new AltaPayProviderService(
    { [ContainerRegistrationKeys.QUERY]: query, logger },
    sandboxProviderOptions(sandbox, { username: USER, password: PASSWORD }, { terminal: CARD.terminalName, ...options })
  )

beforeAll(async () => {
  sandbox = await startSandbox({ port: 0, username: USER, password: PASSWORD })
})
afterAll(() => sandbox.close())

/** What a browser can do with a CUSTOMER token for the AltaPay session: change it (PUT). */
async function changeAsBrowser(altapaySessionId: string, patch: Record<string, unknown>): Promise<void> {
  const api = `${sandbox.checkoutUrl}/checkout/v1/api`
  const json = { "content-type": "application/json" }
  const basic = `Basic ${Buffer.from(`${USER}:${PASSWORD}`).toString("base64")}`
  const issued = await fetch(`${api}/authenticate`, {
    method: "POST",
    headers: { ...json, authorization: basic },
    body: JSON.stringify({ role: "CUSTOMER", sessionId: altapaySessionId }),
  })
  const { token } = (await issued.json()) as { token: string }
  const put = await fetch(`${api}/session/${altapaySessionId}`, { method: "PUT", headers: { ...json, authorization: `Bearer ${token}` }, body: JSON.stringify(patch) })
  expect(put.status).toBe(200)
}

async function paidSession(provider: AltaPayProviderService, paymentMethodId = CARD.id, browserChange?: Record<string, unknown>): Promise<AltaPayPaymentData> {
  const id = `payses_auth${Date.now().toString(36)}${(counter++).toString(36)}`
  medusaSessions.set(id, { id, amount: 10, currency_code: "dkk" })
  const { data } = await provider.initiatePayment({ amount: 10, currency_code: "dkk", data: { session_id: id }, context: { idempotency_key: id } })
  if (browserChange) await changeAsBrowser((data as AltaPayPaymentData).altapay_session_id, browserChange)
  await sandbox.simulatePayment((data as AltaPayPaymentData).altapay_session_id, { outcome: "authorize", callback: false, paymentMethodId })
  return data as AltaPayPaymentData
}

const authorize = (provider: AltaPayProviderService, data: Record<string, unknown>, sessionId: string) =>
  provider.authorizePayment({ data, context: { idempotency_key: sessionId } })

describe("the terminal", () => {
  it("a card registration does not authorize a payment made on the MobilePay terminal", async () => {
    const provider = providerWith()
    const data = await paidSession(provider, MOBILEPAY.id)
    const result = await authorize(provider, data, sessionIdOf(data))
    expect(result.status).toBe(PaymentSessionStatus.ERROR)
    expect((result.data as AltaPayPaymentData).failure_reason).toMatch(/paid on terminal "MobilePay Sandbox Terminal", not on this registration's/)
  })

  it("authorizes a payment on the registration's terminal, or on one it lists in acceptedTerminals", async () => {
    const card = providerWith()
    const onCard = await paidSession(card)
    expect((await authorize(card, onCard, sessionIdOf(onCard))).status).toBe(PaymentSessionStatus.AUTHORIZED)
    const both = providerWith({ acceptedTerminals: [MOBILEPAY.terminalName] })
    const onWallet = await paidSession(both, MOBILEPAY.id)
    expect((await authorize(both, onWallet, sessionIdOf(onWallet))).status).toBe(PaymentSessionStatus.AUTHORIZED)
  })
  it("a payment on the terminal the session was created for still authorizes after the merchant changes terminal", async () => {
    const before = providerWith({ terminal: MOBILEPAY.terminalName })
    const data = await paidSession(before, MOBILEPAY.id)
    expect(data.terminal).toBe(MOBILEPAY.terminalName)
    const after = providerWith()
    expect((await authorize(after, data, sessionIdOf(data))).status).toBe(PaymentSessionStatus.AUTHORIZED)
  })
})

describe("what the browser's CUSTOMER token may have changed", () => {
  beforeEach(() => warnings.splice(0))

  it("a payment made under another orderId authorizes nothing: AltaPay is asked for the session id only", async () => {
    const provider = providerWith()
    const data = await paidSession(provider, CARD.id, { order: { orderId: "order-chosen-by-browser" } })
    const result = await authorize(provider, data, sessionIdOf(data))
    expect(result.status).toBe(PaymentSessionStatus.PENDING)
    expect((result.data as AltaPayPaymentData).authorized_at).toBeNull()
  })

  it("a payment AltaPay captured at once though the registration does not auto-capture is recorded as captured, with a warning", async () => {
    const provider = providerWith()
    const data = await paidSession(provider, CARD.id, { configuration: { autoCapture: true } })
    expect(data.auto_capture).toBe(false)
    const result = await authorize(provider, data, sessionIdOf(data))
    // Captured, not authorized: Medusa must not capture it again, and a cancellation is a refund.
    expect(result.status).toBe(PaymentSessionStatus.CAPTURED)
    expect(result.data).toMatchObject({ transaction_status: "captured", captured_minor: 1000, auto_capture: true })
    expect(warnings.join("\n")).toMatch(/captured transaction \S+ already, though this session was created without autoCapture/)
  })

  it("a payment AltaPay only reserved though the registration auto-captures is recorded as authorized, with a warning", async () => {
    const provider = providerWith({ autoCapture: true })
    const data = await paidSession(provider, CARD.id, { configuration: { autoCapture: false } })
    expect(data.auto_capture).toBe(true)
    const result = await authorize(provider, data, sessionIdOf(data))
    // Not captured: reporting it captured would book money AltaPay never took.
    expect(result.status).toBe(PaymentSessionStatus.AUTHORIZED)
    expect(result.data).toMatchObject({ transaction_status: "preauth", captured_minor: 0, auto_capture: false })
    expect(warnings.join("\n")).toMatch(/only reserved transaction \S+, though this session was created with autoCapture/)
  })

  it("an unchanged capture mode warns about nothing", async () => {
    const provider = providerWith({ autoCapture: true })
    const data = await paidSession(provider)
    const result = await authorize(provider, data, sessionIdOf(data))
    expect(result.status).toBe(PaymentSessionStatus.CAPTURED)
    expect(result.data).toMatchObject({ auto_capture: true })
    expect(warnings).toEqual([])
  })
})

describe("a session sealed under a previous key", () => {
  const resealed = (data: AltaPayPaymentData, changes: Partial<AltaPayPaymentData> = {}) => ({
    ...data,
    ...changes,
    altapay_seal: `v2.${schemaFingerprint()}.${randomBytes(32).toString("base64url")}`,
  })

  it("authorizes when AltaPay reserved Medusa's own amount and currency of the session, and is sealed again", async () => {
    const provider = providerWith()
    const data = await paidSession(provider)
    const result = await authorize(provider, resealed(data), sessionIdOf(data))
    expect(result.status).toBe(PaymentSessionStatus.AUTHORIZED)
    expect(result.data).toMatchObject({ order_id: data.order_id, amount_minor: 1000, currency: "DKK", transaction_status: "preauth", altapay_seal: expect.stringMatching(/^v2\./) })
  })

  it("does not take the amount from the unsealed data: a session Medusa holds for more is not authorized", async () => {
    const provider = providerWith()
    const data = await paidSession(provider)
    medusaSessions.set(sessionIdOf(data), { id: sessionIdOf(data), amount: 25, currency_code: "dkk" })
    const result = await authorize(provider, resealed(data, { amount_minor: 1000 }), sessionIdOf(data))
    expect(result.status).toBe(PaymentSessionStatus.ERROR)
  })

  it("is refused, asking AltaPay nothing, when Medusa does not know the session", async () => {
    const provider = providerWith()
    const data = await paidSession(provider)
    medusaSessions.delete(sessionIdOf(data))
    const before = sandbox.ledger().length
    expect((await authorize(provider, resealed(data), sessionIdOf(data))).status).toBe(PaymentSessionStatus.ERROR)
    expect(
      sandbox
        .ledger()
        .slice(before)
        .filter((e) => e.operation === "payments")
    ).toHaveLength(0)
  })
})
