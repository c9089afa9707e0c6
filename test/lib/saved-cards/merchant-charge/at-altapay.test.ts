/**
 * A merchant-started charge on a saved card, against the sandbox over HTTP: AltaPay is asked for a
 * charge of the payment collection before charging, so a retry, a lost answer or a second admin
 * never charges the customer twice, and a decline carries AltaPay's own message.
 */
import { MedusaError } from "@medusajs/framework/utils"
import { chargeAtAltaPay, type ChargeAtAltaPayInput } from "../../../../src/lib/saved-cards/merchant-charge/at-altapay"
import { moneyDoorFor } from "../../../../src/lib/money-door/door"
import { memoryStore, paymentLockOn } from "../../../../src/lib/scale-out/shared-state"
import { startSandboxAndClient, type SandboxPair } from "../../../helpers/sandbox"
import { amountDueLine, savedCardAgreement } from "../../../helpers/agreements"

const TIMEOUT_MS = 150
let pair: SandboxPair
let counter = 0

beforeAll(async () => {
  pair = await startSandboxAndClient({ headersTimeoutMs: TIMEOUT_MS, maxRetries: 1 })
})
afterAll(() => pair.close())
afterEach(() => {
  pair.sandbox.faults.clear()
  pair.sandbox.setClock(Date.now)
})

const agreement = (card?: { expiryMonth?: string; expiryYear?: string }) => savedCardAgreement(pair, card)
const line = amountDueLine

function input(agreementId: string, overrides: Partial<ChargeAtAltaPayInput> = {}): ChargeAtAltaPayInput {
  const amountMinor = overrides.amountMinor ?? 12_500
  return {
    agreementId,
    paymentCollectionId: `pay_col_${Date.now().toString(36)}${counter++}`,
    orderId: "order_7",
    amountMinor,
    currency: "DKK",
    capture: true,
    unscheduledType: "incremental",
    orderLines: [line(amountMinor)],
    ...overrides,
  }
}

const warnings: string[] = []
const logger = { warn: (m: string) => warnings.push(m), error: () => undefined }
const deps = (store = memoryStore()) => ({ client: pair.client, door: moneyDoorFor({ store, paymentLock: paymentLockOn(undefined) }, TIMEOUT_MS, logger), logger })
const charges = (agreementId: string) =>
  pair.sandbox
    .ledger()
    .filter(
      (e) => (e.operation === "chargeSubscription" || e.operation === "reserveSubscriptionCharge") && e.effect?.result === "Success" && e.params?.["agreement[id]"] === agreementId
    )

describe("a merchant-started charge at AltaPay", () => {
  it("charges once; the same charge asked again is found at AltaPay and nothing is charged", async () => {
    const agreementId = await agreement()
    const request = input(agreementId)
    const first = await chargeAtAltaPay(deps(), request)
    expect(first).toMatchObject({ found: false, reconciliationIdentifier: `medusa-charge-${request.paymentCollectionId}-12500` })
    expect(first.transaction).toMatchObject({ authType: "subscription_payment", transactionStatus: "captured", shopOrderId: first.agreementOrderId })
    expect(first.transaction.paymentInfos).toEqual(
      expect.arrayContaining([
        { name: "medusa_payment_collection_id", value: request.paymentCollectionId },
        { name: "medusa_order_id", value: "order_7" },
      ])
    )
    const again = await chargeAtAltaPay(deps(), request)
    expect(again).toMatchObject({ found: true, transaction: { transactionId: first.transaction.transactionId } })
    expect(charges(agreementId)).toHaveLength(1)
    expect(charges(agreementId)[0].params).toMatchObject({ "agreement[unscheduled_type]": "incremental", amount: "125.00" })
  })

  it("a reservation is found again the same way", async () => {
    const agreementId = await agreement()
    const request = input(agreementId, { capture: false, amountMinor: 4_000 })
    const first = await chargeAtAltaPay(deps(), request)
    expect(first.transaction.transactionStatus).toBe("preauth")
    const again = await chargeAtAltaPay(deps(), request)
    expect([again.found, again.transaction.transactionId]).toEqual([true, first.transaction.transactionId])
    expect(charges(agreementId)).toHaveLength(1)
  })

  it("a charge whose answer was lost is found right after and charged once; a retry charges nothing", async () => {
    const agreementId = await agreement()
    const request = input(agreementId)
    pair.sandbox.faults.add({ route: "chargeSubscription", kind: "lost-answer" })
    const first = await chargeAtAltaPay(deps(), request)
    expect(first.found).toBe(false)
    expect(warnings.at(-1)).toMatch(/the answer was lost but AltaPay shows the charge .*recorded once/)
    const retry = await chargeAtAltaPay(deps(), request)
    expect([retry.found, retry.transaction.transactionId]).toEqual([true, first.transaction.transactionId])
    expect(charges(agreementId)).toHaveLength(1)
  })

  it("a charge with no answer that AltaPay does not show blocks another for twice the timeout, then charges once", async () => {
    const agreementId = await agreement()
    const request = input(agreementId)
    const store = memoryStore()
    // The request never reaches AltaPay's books, but the plugin cannot know that.
    pair.sandbox.faults.add({ route: "chargeSubscription", kind: "reset" })
    const unknown = await chargeAtAltaPay(deps(store), request).catch((e: unknown) => e)
    expect(unknown).toBeInstanceOf(MedusaError)
    expect((unknown as MedusaError).message).toMatch(/Trying again is safe/)
    const early = await chargeAtAltaPay(deps(store), request).catch((e: unknown) => e)
    expect((early as MedusaError).message).toMatch(/got no answer and AltaPay does not show it yet, so nothing was sent/)
    expect(charges(agreementId)).toHaveLength(0)
    await new Promise((r) => setTimeout(r, 2 * TIMEOUT_MS + 20))
    const later = await chargeAtAltaPay(deps(store), request)
    expect(later.found).toBe(false)
    expect(charges(agreementId)).toHaveLength(1)
  })

  it("a charge of the collection for another amount refuses instead of charging again", async () => {
    const agreementId = await agreement()
    const request = input(agreementId)
    await chargeAtAltaPay(deps(), request)
    // Medusa raised the same unpaid collection's amount (a second order edit) after a charge it never recorded.
    const raised = await chargeAtAltaPay(deps(), { ...request, amountMinor: 15_000, orderLines: [line(15_000)] }).catch((e: unknown) => e)
    expect((raised as MedusaError).type).toBe(MedusaError.Types.NOT_ALLOWED)
    expect((raised as MedusaError).message).toMatch(/already has charge .* \(captured, 125\.00 DKK\) .* settle that charge in AltaPay first; nothing was charged/)
    expect(charges(agreementId)).toHaveLength(1)
  })

  it("a charge of another collection on the same card is not taken for this one", async () => {
    const agreementId = await agreement()
    await chargeAtAltaPay(deps(), input(agreementId))
    const other = await chargeAtAltaPay(deps(), input(agreementId))
    expect(other.found).toBe(false)
    expect(charges(agreementId)).toHaveLength(2)
  })

  it("an expired card declines with AltaPay's message; nothing is remembered against a retry", async () => {
    const agreementId = await agreement({ expiryMonth: "01", expiryYear: "2030" })
    const request = input(agreementId)
    pair.sandbox.setClock(() => Date.UTC(2030, 1, 1))
    const declined = await chargeAtAltaPay(deps(), request).catch((e: unknown) => e)
    expect((declined as MedusaError).type).toBe(MedusaError.Types.NOT_ALLOWED)
    expect((declined as MedusaError).message).toMatch(/AltaPay refused the agreement charge: Card expired \(01\/2030\)/)
    pair.sandbox.setClock(Date.now)
    expect((await chargeAtAltaPay(deps(), request)).found).toBe(false)
    expect(charges(agreementId)).toHaveLength(1)
  })

  it("refuses an agreement AltaPay does not have, without charging", async () => {
    const missing = await chargeAtAltaPay(deps(), input("abcdef0123456789")).catch((e: unknown) => e)
    expect((missing as MedusaError).message).toMatch(/AltaPay has no agreement abcdef0123456789/)
    expect(pair.sandbox.ledger().filter((e) => e.params?.["agreement[id]"] === "abcdef0123456789")).toHaveLength(0)
  })
})

describe("a merchant charge retried on another of the customer's saved cards", () => {
  const sinceTimeout = () => new Promise((r) => setTimeout(r, 2 * TIMEOUT_MS + 50))

  it("finds the first card's charge (made, not recorded in Medusa) and charges nothing, however long after", async () => {
    const [cardA, cardB] = [await agreement(), await agreement()]
    const store = memoryStore()
    const request = input(cardA)
    const first = await chargeAtAltaPay(deps(store), request)
    // Recording it in Medusa failed ("trying again is safe"); the admin picks card B.
    await sinceTimeout()
    const retry = await chargeAtAltaPay(deps(store), { ...request, agreementId: cardB })

    expect(retry).toMatchObject({ found: true, agreementId: cardA, transaction: { transactionId: first.transaction.transactionId } })
    expect(charges(cardB)).toEqual([])
    expect(warnings.at(-1)).toMatch(new RegExp(`already charged on saved card agreement ${cardA}.*agreement ${cardB} is not charged`))
  })

  it("after a lost answer the plugin said was safe to retry, the retry on card B records card A's charge", async () => {
    const [cardA, cardB] = [await agreement(), await agreement()]
    const store = memoryStore()
    const request = input(cardA)
    pair.sandbox.faults.add({ route: "chargeSubscription", kind: "lost-answer" })
    pair.sandbox.faults.add({ route: /payments/, kind: "503", skip: 2, times: 6 })
    await expect(chargeAtAltaPay(deps(store), request)).rejects.toThrow(/trying again is safe/i)
    pair.sandbox.faults.clear()
    expect(charges(cardA)).toHaveLength(1)

    await sinceTimeout()
    const retry = await chargeAtAltaPay(deps(store), { ...request, agreementId: cardB })
    expect(retry).toMatchObject({ found: true, agreementId: cardA })
    expect(charges(cardB)).toEqual([])
  })
})
