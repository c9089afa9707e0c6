/**
 * The payment session of a charge the merchant made on a saved card: authorized only when AltaPay's
 * own record is that charge (a charge on the session's agreement naming the session's payment
 * collection, for the session's exact amount), CAPTURED when AltaPay captured it.
 */
import type { Logger } from "@medusajs/framework/types"
import { ContainerRegistrationKeys, PaymentSessionStatus } from "@medusajs/framework/utils"
import { createAltaPayClient, type AltaPayClient } from "../../src/altapay"
import type { AltaPayPaymentData } from "../../src/lib/payment-data/data"
import type { MerchantChargeContext } from "../../src/lib/saved-cards/merchant-charge/context"
import { AltaPayProviderService } from "../../src/providers/altapay"
import { startSandbox, type Sandbox } from "../../src/sandbox"
import { sandboxProviderOptions } from "../helpers/provider"

const USER = "merchant-charge-user"
const PASSWORD = "merchant-charge-password-42"

let sandbox: Sandbox
let client: AltaPayClient
let provider: AltaPayProviderService
let counter = 0
/** The collection Medusa has each payment session in. */
const collectionOf = new Map<string, string>()
const query = {
  graph: async ({ entity, filters }: { entity: string; filters: { id: string } }) => ({
    data: entity === "payment_session" && collectionOf.has(filters.id) ? [{ id: filters.id, status: "pending", payment_collection: { id: collectionOf.get(filters.id) } }] : [],
  }),
}
const warnings: string[] = []
const logger = { warn: (m: string) => warnings.push(m), error: () => {}, info: () => {}, debug: () => {} } as unknown as Logger

beforeAll(async () => {
  sandbox = await startSandbox({ port: 0, username: USER, password: PASSWORD })
  client = createAltaPayClient({ checkoutUrl: sandbox.checkoutUrl, gatewayUrl: sandbox.gatewayUrl, username: USER, password: PASSWORD })
  provider = new AltaPayProviderService({ [ContainerRegistrationKeys.QUERY]: query, logger }, sandboxProviderOptions(sandbox, { username: USER, password: PASSWORD }))
})
afterAll(async () => {
  await client.close()
  await sandbox.close()
})

async function agreement(): Promise<{ agreementId: string; agreementOrderId: string }> {
  const agreementOrderId = `agr-${Date.now().toString(36)}-${counter++}`
  const request = await client.agreements.setupAgreement({
    terminal: "AltaPay Sandbox Test Terminal",
    shopOrderId: agreementOrderId,
    amountMinor: 100,
    currency: "DKK",
    agreement: { type: "unscheduled", unscheduledType: "charge" },
    callbacks: {},
  })
  const { agreementId } = await sandbox.agreements.submit(request.paymentRequestId)
  return { agreementId: agreementId!, agreementOrderId }
}

async function charge(capture: boolean, amountMinor: number, collectionId: string) {
  const { agreementId, agreementOrderId } = await agreement()
  const input = { agreementId, amountMinor, currency: "DKK", unscheduledType: "incremental" as const, transactionInfo: { medusa_payment_collection_id: collectionId } }
  const result = capture ? await client.agreements.chargeSubscription(input) : await client.agreements.reserveSubscriptionCharge(input)
  if (result.outcome === "redirect") throw new Error("unexpected redirect")
  return { agreementId, agreementOrderId, transactionId: result.transaction.transactionId }
}

/** A session created for the charge (Medusa in `collectionId`, 125.00 DKK), then authorized. */
async function authorize(context: MerchantChargeContext, collectionId = context.payment_collection_id, amount = 125) {
  const id = `payses_mc${Date.now().toString(36)}${(counter++).toString(36)}`
  collectionOf.set(id, collectionId)
  const created = await provider.initiatePayment({
    amount,
    currency_code: "dkk",
    data: { session_id: id },
    context: { idempotency_key: id, altapay: { merchant_charge: context } } as never,
  })
  expect(created.status).toBe(PaymentSessionStatus.PENDING)
  const authorized = await provider.authorizePayment({ data: created.data!, context: { idempotency_key: id } })
  return { created: created.data as AltaPayPaymentData, status: authorized.status, data: authorized.data as AltaPayPaymentData }
}

function contextFor(made: { agreementId: string; agreementOrderId: string; transactionId: string }, collectionId: string): MerchantChargeContext {
  return {
    transaction_id: made.transactionId,
    payment_collection_id: collectionId,
    saved_card_id: "apcard_1",
    agreement_id: made.agreementId,
    agreement_order_id: made.agreementOrderId,
    customer_id: "cus_karen",
  }
}

describe("a payment session for a merchant-started charge", () => {
  it("seals the charge without asking AltaPay, under the session's own shop_orderid", async () => {
    const made = await charge(true, 12_500, "pay_col_a")
    const before = sandbox.ledger().length
    const id = "payses_01MERCHANTCHARGE"
    collectionOf.set(id, "pay_col_a")
    const { data } = await provider.initiatePayment({
      amount: 125,
      currency_code: "dkk",
      data: { session_id: id },
      context: { idempotency_key: id, altapay: { merchant_charge: contextFor(made, "pay_col_a") } } as never,
    })
    expect(data).toMatchObject({
      order_id: "payses-01MERCHANTCHARGE",
      altapay_session_id: made.transactionId,
      transaction_id: made.transactionId,
      amount_minor: 12_500,
      agreement: { mode: "merchant_charge", agreement_id: made.agreementId, payment_collection_id: "pay_col_a", saved_card_id: "apcard_1", customer_id: "cus_karen" },
      altapay_seal: expect.any(String),
    })
    expect(sandbox.ledger()).toHaveLength(before)
  })

  it("is CAPTURED for a captured charge and AUTHORIZED for a reserved one", async () => {
    const captured = await authorize(contextFor(await charge(true, 12_500, "pay_col_b"), "pay_col_b"))
    expect(captured.status).toBe(PaymentSessionStatus.CAPTURED)
    expect(captured.data).toMatchObject({ transaction_status: "captured", captured_minor: 12_500, auto_capture: true, failure_reason: null, authorized_at: expect.any(String) })
    const reserved = await authorize(contextFor(await charge(false, 12_500, "pay_col_c"), "pay_col_c"))
    expect(reserved.status).toBe(PaymentSessionStatus.AUTHORIZED)
    expect(reserved.data).toMatchObject({ transaction_status: "preauth", reserved_minor: 12_500, auto_capture: false })
  })

  it("is not authorized by a charge for another amount, another collection, another agreement, or a session in another collection", async () => {
    const made = await charge(true, 9_900, "pay_col_d")
    const amount = await authorize(contextFor(made, "pay_col_d"))
    expect([amount.status, amount.data.failure_reason]).toEqual([PaymentSessionStatus.ERROR, expect.stringMatching(/AltaPay reserved 99\.00 DKK but the session is for 12500/)])

    const other = await charge(true, 12_500, "pay_col_e")
    const collection = await authorize(contextFor(other, "pay_col_f"))
    expect([collection.status, collection.data.failure_reason]).toEqual([PaymentSessionStatus.ERROR, `transaction ${other.transactionId} pays collection pay_col_e, not pay_col_f`])

    const wrongAgreement = await authorize({ ...contextFor(other, "pay_col_e"), agreement_order_id: "agr-someone-else" })
    expect([wrongAgreement.status, wrongAgreement.data.failure_reason]).toEqual([
      PaymentSessionStatus.ERROR,
      `transaction ${other.transactionId} is not a charge on this agreement`,
    ])

    const movedSession = await authorize(contextFor(other, "pay_col_e"), "pay_col_g")
    expect([movedSession.status, movedSession.data.failure_reason]).toEqual([PaymentSessionStatus.ERROR, "the charge pays collection pay_col_e, not this session's"])
  })

  it("is not authorized by a transaction that is no charge on an agreement", async () => {
    const made = await charge(true, 12_500, "pay_col_h")
    // The agreement's own set-up transaction: a real transaction, but no charge.
    const setUp = await authorize({ ...contextFor(made, "pay_col_h"), transaction_id: made.agreementId })
    expect([setUp.status, setUp.data.failure_reason]).toEqual([PaymentSessionStatus.ERROR, expect.stringMatching(/is not a charge on an agreement/)])
  })

  it("refuses a merchant charge context that is incomplete", async () => {
    const id = "payses_01INCOMPLETE"
    await expect(
      provider.initiatePayment({
        amount: 125,
        currency_code: "dkk",
        data: { session_id: id },
        context: { idempotency_key: id, altapay: { merchant_charge: { transaction_id: "abc" } } } as never,
      })
    ).rejects.toThrow(/the merchant charge is incomplete \(payment_collection_id, saved_card_id, agreement_id, agreement_order_id, customer_id\)/)
  })
})
