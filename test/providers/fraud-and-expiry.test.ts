/**
 * What the provider does with what AltaPay states beside the reserved amount, against the sandbox
 * over HTTP: the fraud recommendation under the registration's `fraud` policy (Deny releases the
 * reservation and the session is not authorized; Challenge holds capture until approved), the
 * authorisation's expiry kept in the payment data, and a capture of a lapsed reservation whose
 * reauthorisation failed (reauth_failed) answered with what the merchant can do.
 */
import type { Logger, RemoteQueryFunction } from "@medusajs/framework/types"
import { ContainerRegistrationKeys, PaymentSessionStatus } from "@medusajs/framework/utils"
import { AltaPayProviderService } from "../../src/providers/altapay"
import type { AltaPayPaymentData } from "../../src/lib/payment-data/data"
import { PAYMENT_METHODS, startSandbox, type Sandbox } from "../../src/sandbox"
import { sandboxProviderOptions, sessionIdOf } from "../helpers/provider"

const USER = "fraud-user"
const PASSWORD = "fraud-password-42"
const [CARD] = PAYMENT_METHODS

let sandbox: Sandbox
let counter = 0
const medusaSessions = new Map<string, { id: string; amount: number; currency_code: string }>()
const query = {
  graph: async ({ filters }: { filters: { id: string } }) => ({ data: medusaSessions.has(filters.id) ? [medusaSessions.get(filters.id)] : [] }),
} as unknown as Pick<RemoteQueryFunction, "graph">
const logged: string[] = []
const logger = { warn: (m: string) => logged.push(m), error: (m: string) => logged.push(m), info: () => {}, debug: () => {} } as unknown as Logger

const providerWith = (options: Record<string, unknown> = {}) =>
  new AltaPayProviderService(
    { [ContainerRegistrationKeys.QUERY]: query, logger },
    sandboxProviderOptions(sandbox, { username: USER, password: PASSWORD }, { terminal: CARD.terminalName, ...options })
  )

beforeAll(async () => {
  sandbox = await startSandbox({ port: 0, username: USER, password: PASSWORD })
})
afterAll(() => sandbox.close())
beforeEach(() => (logged.length = 0))

/** A session of `amount` DKK paid with a card, then authorized: the provider's answer. */
async function paidAndAuthorized(provider: AltaPayProviderService, amount: number) {
  const id = `payses_fraud${Date.now().toString(36)}${(counter++).toString(36)}`
  medusaSessions.set(id, { id, amount, currency_code: "dkk" })
  const { data } = await provider.initiatePayment({ amount, currency_code: "dkk", data: { session_id: id }, context: { idempotency_key: id } })
  const paid = await sandbox.simulatePayment((data as AltaPayPaymentData).altapay_session_id, { callback: false })
  const result = await provider.authorizePayment({ data: data as Record<string, unknown>, context: { idempotency_key: sessionIdOf(data as AltaPayPaymentData) } })
  return { ...result, data: result.data as AltaPayPaymentData, transactionId: paid.transactionId! }
}

describe("AltaPay's fraud recommendation under the default policy", () => {
  it("Deny (AltaPay's test amount 110.00): the reservation is released and the session is not authorized, with the reason", async () => {
    const denied = await paidAndAuthorized(providerWith(), 110)
    expect(denied.status).toBe(PaymentSessionStatus.ERROR)
    expect(sandbox.transaction(denied.transactionId)?.status).toBe("released")
    expect(denied.data.failure_reason).toMatch(/declined by the fraud policy: AltaPay's fraud check recommends Deny \(risk score 9\)/)
    expect(denied.data.fraud).toMatchObject({ recommendation: "Deny", decision: "deny" })
    expect(logged.some((m) => /recommends Deny.*reservation is released/.test(m))).toBe(true)
  })

  it("a second authorization of the denied session (callback beside the return) stays declined and releases nothing again", async () => {
    const provider = providerWith()
    const denied = await paidAndAuthorized(provider, 110)
    sandbox.clearLedger()
    const again = await provider.authorizePayment({ data: denied.data, context: { idempotency_key: sessionIdOf(denied.data) } })
    expect(again.status).toBe(PaymentSessionStatus.ERROR)
    expect(sandbox.ledger().filter((e) => e.operation === "releaseReservation")).toHaveLength(0)
  })

  it("Challenge (102.00): authorized, held: Medusa's capture is refused with what to do, nothing reaches AltaPay", async () => {
    const provider = providerWith()
    const held = await paidAndAuthorized(provider, 102)
    expect(held.status).toBe(PaymentSessionStatus.AUTHORIZED)
    expect(held.data.fraud).toMatchObject({ recommendation: "Challenge", decision: "hold", approved_at: null })
    sandbox.clearLedger()
    await expect(provider.capturePayment({ data: held.data, context: { idempotency_key: "capt_held" } })).rejects.toThrow(
      /is held for review \(AltaPay's fraud check recommends Challenge \(risk score 1\).*\)\. Approve the capture in the order's AltaPay panel first/
    )
    expect(sandbox.ledger().filter((e) => e.operation === "captureReservation")).toHaveLength(0)
  })

  it("Accept (101.00): authorized and captured as usual", async () => {
    const provider = providerWith()
    const accepted = await paidAndAuthorized(provider, 101)
    expect([accepted.status, accepted.data.fraud?.decision]).toEqual([PaymentSessionStatus.AUTHORIZED, "accept"])
    const captured = (await provider.capturePayment({ data: accepted.data, context: { idempotency_key: "capt_ok" } })).data as AltaPayPaymentData
    expect(captured.captured_minor).toBe(10100)
  })
})

describe("a policy that accepts what AltaPay recommends", () => {
  it("fraud: { deny: 'accept', challenge: 'accept' } authorizes Deny and Challenge and holds nothing", async () => {
    const provider = providerWith({ fraud: { deny: "accept", challenge: "accept" } })
    for (const amount of [110, 102]) {
      const result = await paidAndAuthorized(provider, amount)
      expect([result.status, result.data.fraud?.decision]).toEqual([PaymentSessionStatus.AUTHORIZED, "accept"])
    }
  })

  it("an AVS policy holds a payment whose AVS code (the sandbox's S: no billing address here) is not accepted", async () => {
    const held = await paidAndAuthorized(providerWith({ fraud: { avs: { acceptedCodes: ["Y", "X"] } } }), 50)
    expect([held.status, held.data.fraud?.decision, held.data.fraud?.avs_code]).toEqual([PaymentSessionStatus.AUTHORIZED, "hold", "S"])
    const accepted = await paidAndAuthorized(providerWith({ fraud: { avs: { acceptedCodes: ["s", "Y"] } } }), 50)
    expect(accepted.data.fraud?.decision).toBe("accept")
  })
})

describe("a reservation that expires", () => {
  it("keeps AltaPay's AuthorisationExpiryDate in the payment data", async () => {
    const { data } = await paidAndAuthorized(providerWith(), 50)
    const expires = Date.parse(data.authorisation_expires_at ?? "")
    expect(expires - Date.now()).toBeGreaterThan(6.9 * 24 * 3600_000)
    expect(expires - Date.now()).toBeLessThan(7.1 * 24 * 3600_000)
  })

  it("a capture of a lapsed reservation whose reauthorisation fails says so and what to do", async () => {
    const provider = providerWith()
    const authorized = await paidAndAuthorized(provider, 50)
    sandbox.lapseReservation(authorized.transactionId, "fails")
    await expect(provider.capturePayment({ data: authorized.data, context: { idempotency_key: "capt_lapsed" } })).rejects.toThrow(
      /card reservation had expired and AltaPay's new authorisation was declined by the card issuer \(reauth_failed\)\. Nothing was captured.*Ask the customer to pay again/
    )
  })
})

describe("a terminal that surcharges card payments", () => {
  let surcharging: Sandbox
  beforeAll(async () => {
    surcharging = await startSandbox({ port: 0, username: USER, password: PASSWORD, surchargePercent: 2 })
  })
  afterAll(() => surcharging.close())

  it("authorizes a reservation of Medusa's total plus AltaPay's SurchargeAmount, says surcharging is not allowed in the EU, and captures only Medusa's total", async () => {
    const provider = new AltaPayProviderService(
      { [ContainerRegistrationKeys.QUERY]: query, logger },
      sandboxProviderOptions(surcharging, { username: USER, password: PASSWORD }, { terminal: CARD.terminalName })
    )
    const id = `payses_surcharge${(counter++).toString(36)}`
    medusaSessions.set(id, { id, amount: 200, currency_code: "dkk" })
    const { data } = await provider.initiatePayment({ amount: 200, currency_code: "dkk", data: { session_id: id }, context: { idempotency_key: id } })
    const paid = await surcharging.simulatePayment((data as AltaPayPaymentData).altapay_session_id, { callback: false })
    const result = await provider.authorizePayment({ data: data as Record<string, unknown>, context: { idempotency_key: id } })
    expect(result.status).toBe(PaymentSessionStatus.AUTHORIZED)
    expect((result.data as AltaPayPaymentData).surcharge_minor).toBe(400)
    expect(logged.some((m) => /plus a surcharge of 4\.00.*Surcharging consumer cards is not allowed in the EU.*Ask AltaPay to turn surcharging off/.test(m))).toBe(true)
    await provider.capturePayment({ data: result.data, context: { idempotency_key: "capt_surcharged" } })
    expect(surcharging.transaction(paid.transactionId!)?.capturedMinor).toBe(20000)
  })
})
