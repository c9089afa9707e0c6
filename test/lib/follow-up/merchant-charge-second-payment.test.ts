/**
 * A card saved at checkout (save_card) keeps the checkout session's shop_orderid on its agreement, so
 * every later charge on it carries that shop_orderid too. A merchant-started charge names only its
 * payment collection (medusa_payment_collection_id), never the session: it is another order's
 * payment, never a "second payment" of the session that saved the card, and the retired-session
 * follow-up never releases it (status.ts heldElsewhere, stranded-follow-up.ts).
 */
import type { Logger } from "@medusajs/framework/types"
import { ContainerRegistrationKeys, PaymentSessionStatus } from "@medusajs/framework/utils"
import { createAltaPayClient, type AltaPayClient } from "../../../src/altapay"
import { StrandedSessions } from "../../../src/lib/follow-up/stranded"
import { moneyDoorFor } from "../../../src/lib/money-door/door"
import type { AltaPayPaymentData } from "../../../src/lib/payment-data/data"
import { chargeAtAltaPay } from "../../../src/lib/saved-cards/merchant-charge/at-altapay"
import { memoryStore, paymentLockOn, processStore } from "../../../src/lib/scale-out/shared-state"
import { AltaPayProviderService } from "../../../src/providers/altapay"
import { startSandbox, type Sandbox } from "../../../src/sandbox"
import { sandboxProviderOptions } from "../../helpers/provider"
import { strandedFollowUpAnHourLater } from "../../helpers/stranded-follow-up"

const USER = "merchant-charge-second-user"
const PASSWORD = "merchant-charge-second-password-42"
const TERMINAL = "AltaPay Sandbox Test Terminal"

let sandbox: Sandbox
let client: AltaPayClient
let counter = 0
const warnings: string[] = []
const logger = { warn: (m: string) => warnings.push(m), error: (m: string) => warnings.push(m), info: () => {}, debug: () => {} } as unknown as Logger

/** Medusa as the provider and the follow-up see it: the sessions it has, with the transaction of their payment. */
const sessions = new Map<string, { transactionId: string | null }>()
const query = {
  graph: async ({ entity, filters }: { entity: string; filters: { id?: string } }) => {
    const s = entity === "payment_session" && filters.id ? sessions.get(filters.id) : undefined
    if (!s) return { data: [] }
    const payment = s.transactionId ? { id: `pay_${filters.id}`, data: { transaction_id: s.transactionId } } : null
    return { data: [{ id: filters.id, status: s.transactionId ? "authorized" : "pending", payment, payment_collection: { id: "paycol_o1", cart: null, order: null } }] }
  },
}
const rawOptions = () => sandboxProviderOptions(sandbox, { username: USER, password: PASSWORD }, { maxRetries: 0, terminal: TERMINAL, savedCards: { enabled: true } })

beforeAll(async () => {
  sandbox = await startSandbox({ port: 0, username: USER, password: PASSWORD })
  client = createAltaPayClient({ checkoutUrl: sandbox.checkoutUrl, gatewayUrl: sandbox.gatewayUrl, username: USER, password: PASSWORD })
})
afterAll(async () => {
  await client.close()
  await sandbox.close()
})

const provider = () => new AltaPayProviderService({ [ContainerRegistrationKeys.QUERY]: query, logger } as never, rawOptions())
const stranded = () => new StrandedSessions(processStore(), paymentLockOn(undefined), "altapay")

/** Checkout S1 with save_card, paid and authorized (set-up + its charge C1); then the merchant charges the card (M, reserved) for another order. */
async function savedThenChargedByMerchant() {
  const s1 = `payses_mcs${Date.now().toString(36)}${(counter++).toString(36)}`
  sessions.set(s1, { transactionId: null })
  const created = await provider().initiatePayment({
    amount: 100,
    currency_code: "dkk",
    data: { session_id: s1, save_card: true },
    context: { idempotency_key: s1, customer: { id: "cus_karen" } } as never,
  })
  await sandbox.agreements.submit((created.data as AltaPayPaymentData).altapay_session_id)
  const authorized = await provider().authorizePayment({ data: created.data!, context: { idempotency_key: s1 } })
  expect(authorized.status).toBe(PaymentSessionStatus.AUTHORIZED)
  const s1Data = authorized.data as AltaPayPaymentData
  sessions.set(s1, { transactionId: s1Data.transaction_id! })

  const door = moneyDoorFor({ store: memoryStore(), paymentLock: paymentLockOn(undefined) }, 5_000)
  const m = await chargeAtAltaPay(
    { client, door },
    {
      agreementId: s1Data.agreement!.agreement_id!,
      paymentCollectionId: "paycol_o2",
      orderId: "order_2",
      amountMinor: 4_200,
      currency: "DKK",
      capture: false,
      unscheduledType: "incremental",
      orderLines: [{ description: "Amount due", itemId: "due-2", quantity: 1, unitPriceMinor: 4_200, taxAmountMinor: 0, taxPercent: 0, goodsType: "item" }],
    }
  )
  expect(m.transaction.shopOrderId).toBe(s1Data.order_id) // the agreement's shop_orderid, S1's
  return { s1, shopOrderId: s1Data.order_id, c1: s1Data.transaction_id!, m: m.transaction.transactionId }
}

const followUp = () => strandedFollowUpAnHourLater(client, rawOptions(), query, logger, "merchant-charge-second")

it("a callback for the session that saved the card takes its own charge, never the merchant's charge as a second payment; the follow-up leaves that reserved", async () => {
  const { s1, shopOrderId, c1, m } = await savedThenChargedByMerchant()

  // A callback for S1 decided by AltaPay's record (no callbackSecret: anyone may post one).
  const form = new URLSearchParams({ shop_orderid: shopOrderId, status: "succeeded", type: "subscriptionAndReserve" }).toString()
  const action = await provider().getWebhookActionAndData({ data: Object.fromEntries(new URLSearchParams(form)), rawData: Buffer.from(form), headers: {} })
  expect(action).toMatchObject({ action: "authorized", data: { session_id: s1 } }) // S1's own payment, C1, which Medusa holds
  expect(warnings.join("\n")).not.toContain(`AltaPay transaction ${m} is a second payment`)
  expect(await stranded().get(`${s1}~${m}`)).toBeUndefined()

  await followUp()
  expect(sandbox.transaction(m)?.status).toBe("preauth")
  expect(sandbox.transaction(c1)?.status).toBe("preauth")
})

it("the follow-up never gives back a merchant's charge noted as a session's second payment", async () => {
  const { s1, shopOrderId, c1, m } = await savedThenChargedByMerchant()
  // A note made before the callback knew better (or by any other path).
  await stranded().noteSecondPayment(s1, m, "test", undefined, shopOrderId)

  await followUp()
  expect(sandbox.transaction(m)?.status).toBe("preauth")
  expect(sandbox.transaction(c1)?.status).toBe("preauth")
  expect(warnings.join("\n")).not.toContain(`transaction ${m} in AltaPay's merchant interface`)
})
