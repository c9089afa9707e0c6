/**
 * What authorizes a session beyond its amount: the terminal the customer paid on (a CUSTOMER
 * token lets a browser pay on any terminal of the API user, with other fees and settlement), and,
 * for a session sealed under a previous key, Medusa's own amount and currency of that session.
 */
import type { RemoteQueryFunction } from "@medusajs/framework/types"
import { ContainerRegistrationKeys, PaymentSessionStatus } from "@medusajs/framework/utils"
import { randomBytes } from "node:crypto"
import { AltaPayProviderService } from "../../src/providers/altapay"
import type { AltaPayPaymentData } from "../../src/lib/payment-data/data"
import { PAYMENT_METHODS, startSandbox, type Sandbox } from "../../src/sandbox"
import { sandboxProviderOptions } from "../helpers/provider"

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

const providerWith = (options: Record<string, unknown> = {}) =>
  new AltaPayProviderService(
    { [ContainerRegistrationKeys.QUERY]: query },
    sandboxProviderOptions(sandbox, { username: USER, password: PASSWORD }, { terminal: CARD.terminalName, ...options })
  )

beforeAll(async () => {
  sandbox = await startSandbox({ port: 0, username: USER, password: PASSWORD })
})
afterAll(() => sandbox.close())

async function paidSession(provider: AltaPayProviderService, paymentMethodId = CARD.id): Promise<AltaPayPaymentData> {
  const id = `payses_auth${Date.now().toString(36)}${(counter++).toString(36)}`
  medusaSessions.set(id, { id, amount: 10, currency_code: "dkk" })
  const { data } = await provider.initiatePayment({ amount: 10, currency_code: "dkk", data: { session_id: id }, context: { idempotency_key: id } })
  await sandbox.simulatePayment((data as AltaPayPaymentData).altapay_session_id, { outcome: "authorize", callback: false, paymentMethodId })
  return data as AltaPayPaymentData
}

const authorize = (provider: AltaPayProviderService, data: Record<string, unknown>, sessionId: string) =>
  provider.authorizePayment({ data, context: { idempotency_key: sessionId } })

describe("the terminal", () => {
  it("a card registration does not authorize a payment made on the MobilePay terminal", async () => {
    const provider = providerWith()
    const data = await paidSession(provider, MOBILEPAY.id)
    const result = await authorize(provider, data, data.order_id)
    expect(result.status).toBe(PaymentSessionStatus.ERROR)
    expect((result.data as AltaPayPaymentData).failure_reason).toMatch(/paid on terminal "MobilePay Sandbox Terminal", not on this registration's/)
  })

  it("authorizes a payment on the registration's terminal, or on one it lists in acceptedTerminals", async () => {
    const card = providerWith()
    const onCard = await paidSession(card)
    expect((await authorize(card, onCard, onCard.order_id)).status).toBe(PaymentSessionStatus.AUTHORIZED)
    const both = providerWith({ acceptedTerminals: [MOBILEPAY.terminalName] })
    const onWallet = await paidSession(both, MOBILEPAY.id)
    expect((await authorize(both, onWallet, onWallet.order_id)).status).toBe(PaymentSessionStatus.AUTHORIZED)
  })
  it("a payment on the terminal the session was created for still authorizes after the merchant changes terminal", async () => {
    const before = providerWith({ terminal: MOBILEPAY.terminalName })
    const data = await paidSession(before, MOBILEPAY.id)
    expect(data.terminal).toBe(MOBILEPAY.terminalName)
    const after = providerWith()
    expect((await authorize(after, data, data.order_id)).status).toBe(PaymentSessionStatus.AUTHORIZED)
  })
})

describe("a session sealed under a previous key", () => {
  const resealed = (data: AltaPayPaymentData, changes: Partial<AltaPayPaymentData> = {}) => ({ ...data, ...changes, altapay_seal: `v1.${randomBytes(32).toString("base64url")}` })

  it("authorizes when AltaPay reserved Medusa's own amount and currency of the session, and is sealed again", async () => {
    const provider = providerWith()
    const data = await paidSession(provider)
    const result = await authorize(provider, resealed(data), data.order_id)
    expect(result.status).toBe(PaymentSessionStatus.AUTHORIZED)
    expect(result.data).toMatchObject({ order_id: data.order_id, amount_minor: 1000, currency: "DKK", transaction_status: "preauth", altapay_seal: expect.stringMatching(/^v1\./) })
  })

  it("does not take the amount from the unsealed data: a session Medusa holds for more is not authorized", async () => {
    const provider = providerWith()
    const data = await paidSession(provider)
    medusaSessions.set(data.order_id, { id: data.order_id, amount: 25, currency_code: "dkk" })
    const result = await authorize(provider, resealed(data, { amount_minor: 1000 }), data.order_id)
    expect(result.status).toBe(PaymentSessionStatus.ERROR)
  })

  it("is refused, asking AltaPay nothing, when Medusa does not know the session", async () => {
    const provider = providerWith()
    const data = await paidSession(provider)
    medusaSessions.delete(data.order_id)
    const before = sandbox.ledger().length
    expect((await authorize(provider, resealed(data), data.order_id)).status).toBe(PaymentSessionStatus.ERROR)
    expect(
      sandbox
        .ledger()
        .slice(before)
        .filter((e) => e.operation === "payments")
    ).toHaveLength(0)
  })
})
