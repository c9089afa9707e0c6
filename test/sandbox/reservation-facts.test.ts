/**
 * What the sandbox's gateway XML says of a reservation besides its amount, as AltaPay's samples and
 * pages show it: the fraud recommendation and score of AltaPay's test amounts, AVS, a surcharging
 * terminal's SurchargeAmount, the authorisation's expiry, and a capture after it lapsed.
 */
import { parseGatewayResponse, type GatewayTransaction } from "../../src/altapay"
import type { Sandbox } from "../../src/sandbox"
import { authorizedTransaction, createSession, gateway, sessionBody, start } from "./helpers"

const DAY_MS = 24 * 60 * 60 * 1000

async function transactionOf(sandbox: Sandbox, transactionId: string): Promise<GatewayTransaction> {
  const answer = await gateway(sandbox, "payments", { transaction_id: transactionId })
  return parseGatewayResponse(answer.text).transactions[0]
}

describe("the sandbox's fraud, AVS, surcharge and expiry", () => {
  let sandbox: Sandbox
  const now = Date.UTC(2026, 10, 2, 10, 0, 0)
  beforeAll(async () => {
    sandbox = await start({ now: () => now })
  })
  afterAll(() => sandbox.close())

  test.each([
    [101, "Accept", "0"],
    [102, "Challenge", "1"],
    [110, "Deny", "9"],
    [100, undefined, "100"],
  ])("a card payment of %d.00 carries FraudRecommendation %s and the score AltaPay's test service gives (amount mod 101)", async (amount, recommendation, score) => {
    const transaction = await transactionOf(sandbox, await authorizedTransaction(sandbox, { amount }))
    expect(transaction.fraudRecommendation).toBe(recommendation)
    expect(transaction.fraudRiskScore).toBe(score)
    expect(transaction.fraudExplanation).toBe("For the test fraud service the risk score is always equal mod 101 of the created amount for the payment")
  })

  test("AVS: P as AltaPay's test gateway answers, N for the billing postal code 99999, S without a billing address", async () => {
    const matching = await transactionOf(sandbox, await authorizedTransaction(sandbox))
    expect([matching.addressVerification, matching.addressVerificationDescription]).toEqual([
      "P",
      "Postal codes match for international transaction. Street address not verified due to incompatible formats",
    ])
    const body = sessionBody() as { order: { customer: { billingAddress?: Record<string, string> } } }
    body.order.customer.billingAddress = { ...body.order.customer.billingAddress, zipCode: "99999" }
    const mismatch = await transactionOf(sandbox, (await sandbox.simulatePayment(await createSession(sandbox, body), { callback: false })).transactionId!)
    expect(mismatch.addressVerification).toBe("N")
    delete body.order.customer.billingAddress
    const none = await transactionOf(sandbox, (await sandbox.simulatePayment(await createSession(sandbox, body), { callback: false })).transactionId!)
    expect([none.addressVerification, none.addressVerificationDescription]).toEqual(["S", "AVS not supported"])
  })

  test("a card reservation's authorisation expires after 7 days (AuthorisationExpiryDate)", async () => {
    const transaction = await transactionOf(sandbox, await authorizedTransaction(sandbox))
    expect(transaction.authorisationExpiryDate?.getTime()).toBe(Math.floor((now + 7 * DAY_MS) / 1000) * 1000)
  })

  test("a capture after the reservation lapsed reauthorises it, or ends reauth_failed with nothing captured", async () => {
    const renewed = await authorizedTransaction(sandbox)
    sandbox.lapseReservation(renewed)
    const captured = await gateway(sandbox, "captureReservation", { transaction_id: renewed })
    expect(captured.body.Result).toBe("Success")
    expect((await transactionOf(sandbox, renewed)).authorisationExpiryDate?.getTime()).toBe(Math.floor((now + 7 * DAY_MS) / 1000) * 1000)

    const lapsed = await authorizedTransaction(sandbox)
    sandbox.lapseReservation(lapsed, "fails")
    const refused = await gateway(sandbox, "captureReservation", { transaction_id: lapsed })
    expect(refused.body.Result).toBe("Failed")
    expect(refused.body.MerchantErrorMessage).toMatch(/reauth_failed/)
    const after = parseGatewayResponse(refused.text).transactions[0]
    expect([after.transactionStatus, after.capturedAmount?.minor]).toEqual(["reauth_failed", 0])
  })
})

describe("a card terminal with surcharging", () => {
  let sandbox: Sandbox
  beforeAll(async () => {
    sandbox = await start({ surchargePercent: 2.5 })
  })
  afterAll(() => sandbox.close())

  test("reserves the surcharge on top of the session's amount and states it as SurchargeAmount", async () => {
    const transaction = await transactionOf(sandbox, await authorizedTransaction(sandbox, { amount: 200 }))
    expect(transaction.reservedAmount?.minor).toBe(20500)
    expect(transaction.surchargeAmount?.minor).toBe(500)
  })
})
