/**
 * Two paid transactions under one session's shop_orderid (the customer paid again): authorize records
 * the latest paid one (status.ts pickTransaction), whichever callback Medusa saw first. A paid callback
 * processed while Medusa has no payment of the session yet notes every other paid transaction as a
 * second payment (webhook.ts noteOtherPayments), so the one authorize does not record is released by
 * the follow-up job, even when its own callback came first and is spent.
 */
import type { RemoteQueryFunction } from "@medusajs/framework/types"
import { ContainerRegistrationKeys, PaymentSessionStatus } from "@medusajs/framework/utils"
import { createAltaPayClient, type AltaPayClient } from "../../src/altapay"
import { AltaPayProviderService } from "../../src/providers/altapay"
import type { AltaPayPaymentData } from "../../src/lib/payment-data/data"
import { StrandedSessions } from "../../src/lib/follow-up/stranded"
import { paymentLockOn, processStore } from "../../src/lib/scale-out/shared-state"
import { startSandbox, type Sandbox } from "../../src/sandbox"
import { sandboxProviderOptions, sessionIdOf } from "../helpers/provider"
import { strandedFollowUpAnHourLater } from "../helpers/stranded-follow-up"

const USER = "webhook-second-user"
const PASSWORD = "webhook-second-password-42"
const SECRET = "webhook-second-secret-0123456789"

let sandbox: Sandbox
let client: AltaPayClient
let counter = 0
beforeAll(async () => {
  sandbox = await startSandbox({ port: 0, username: USER, password: PASSWORD, callbackSecret: SECRET })
  client = createAltaPayClient({ checkoutUrl: sandbox.checkoutUrl, gatewayUrl: sandbox.gatewayUrl, username: USER, password: PASSWORD })
})
afterAll(async () => {
  await client.close()
  await sandbox.close()
})

/** Medusa's view: the transaction of each session's payment, none until the test records one. */
const recorded = new Map<string, string>()
const query = {
  graph: async ({ entity, filters }: { entity: string; filters: { id?: string } }) => {
    if (entity !== "payment_session" || !filters.id) return { data: [] }
    const transactionId = recorded.get(filters.id)
    const payment = transactionId ? { id: `pay_${filters.id}`, data: { transaction_id: transactionId } } : null
    return { data: [{ id: filters.id, status: transactionId ? "authorized" : "pending", payment, payment_collection: { id: "paycol_1", cart: { id: "cart_1" } } }] }
  },
} as unknown as Pick<RemoteQueryFunction, "graph">

const logs: string[] = []
const logger = { warn: (m: string) => logs.push(m), error: (m: string) => logs.push(m), info: () => {}, debug: () => {} }
const rawOptions = (extra: Record<string, unknown>) => sandboxProviderOptions(sandbox, { username: USER, password: PASSWORD }, { maxRetries: 0, ...extra })
const providerWith = (extra: Record<string, unknown>) => new AltaPayProviderService({ [ContainerRegistrationKeys.QUERY]: query, logger } as never, rawOptions(extra))
const stranded = () => new StrandedSessions(processStore(), paymentLockOn(undefined), "altapay")
const notesOf = async (sessionId: string) => (await stranded().list(0, 1000)).filter((id) => id.startsWith(sessionId))
const lookUps = () => sandbox.ledger().filter((e) => e.operation === "payments").length

function webhookPayload(paymentId: string, signature: "valid" | "none" = "valid") {
  const { rawBody, headers } = sandbox.callbackFor(paymentId, { signature })
  return { data: Object.fromEntries(new URLSearchParams(rawBody)), rawData: Buffer.from(rawBody), headers }
}

/** A session paid on its own page (T1), then a second AltaPay session under the same shop_orderid paid a second later (T2). */
async function paidTwice(provider: AltaPayProviderService) {
  const init = async (id: string) =>
    (await provider.initiatePayment({ amount: 25, currency_code: "dkk", data: { session_id: id }, context: { idempotency_key: id } })).data as AltaPayPaymentData
  const data = await init(`payses_wsp${Date.now().toString(36)}${(counter++).toString(36)}`)
  const t1 = await sandbox.simulatePayment(data.altapay_session_id, { outcome: "authorize", callback: false })
  await new Promise((r) => setTimeout(r, 1100)) // AltaPay's dates are to the second: T2 is the later one
  const again = await client.checkout.createSession({ orderId: data.order_id, amountMinor: 2_500, currency: "DKK" })
  const t2 = await sandbox.simulatePayment(again.sessionId, { outcome: "authorize", callback: false })
  return { data, sessionId: sessionIdOf(data), t1: { ...t1, transactionId: t1.transactionId! }, t2: { ...t2, transactionId: t2.transactionId! } }
}

const followUp = () => strandedFollowUpAnHourLater(client, rawOptions({}), query, logger, "webhook-second")

it("the earlier payment's signed callback, before Medusa records any: the later one is recorded, the earlier noted and released", async () => {
  const provider = providerWith({ callbackSecret: SECRET })
  const { data, sessionId, t1, t2 } = await paidTwice(provider)

  expect(await provider.getWebhookActionAndData(webhookPayload(t1.paymentId))).toMatchObject({ action: "authorized", data: { session_id: sessionId } })
  expect(await stranded().get(`${sessionId}~${t1.transactionId}`)).toMatchObject({ why: "second payment", secondTransactionId: t1.transactionId })
  expect(await stranded().get(`${sessionId}~${t2.transactionId}`)).toBeUndefined()

  // Medusa's workflow authorizes the session: AltaPay's latest paid transaction is recorded.
  const authorized = await provider.authorizePayment({ data: data as never, context: { idempotency_key: sessionId } })
  expect(authorized.status).toBe(PaymentSessionStatus.AUTHORIZED)
  expect((authorized.data as AltaPayPaymentData).transaction_id).toBe(t2.transactionId)
  recorded.set(sessionId, t2.transactionId)
  // T2's callback matches Medusa's payment: nothing more noted.
  await provider.getWebhookActionAndData(webhookPayload(t2.paymentId))

  await followUp()
  expect(sandbox.transaction(t1.transactionId)?.status).toBe("released")
  expect(sandbox.transaction(t2.transactionId)?.status).toBe("preauth")
  expect(logs.join("\n")).toContain(t1.transactionId)
  expect(await notesOf(sessionId)).toEqual([])
})

it("an unsigned callback (AltaPay's record decides) notes the same, with its one look-up", async () => {
  const provider = providerWith({})
  const { sessionId, t1, t2 } = await paidTwice(provider)
  const before = lookUps()

  expect(await provider.getWebhookActionAndData(webhookPayload(t1.paymentId, "none"))).toMatchObject({ action: "authorized", data: { session_id: sessionId } })
  expect(lookUps()).toBe(before + 1)
  expect(await notesOf(sessionId)).toEqual([`${sessionId}~${t1.transactionId}`])
  expect(await stranded().get(`${sessionId}~${t2.transactionId}`)).toBeUndefined()
})

it("a session paid once notes nothing, and a noted payment Medusa then records is never released", async () => {
  const provider = providerWith({ callbackSecret: SECRET })
  const id = `payses_wspone${Date.now().toString(36)}${(counter++).toString(36)}`
  const data = (await provider.initiatePayment({ amount: 25, currency_code: "dkk", data: { session_id: id }, context: { idempotency_key: id } })).data as AltaPayPaymentData
  const paid = await sandbox.simulatePayment(data.altapay_session_id, { outcome: "authorize", callback: false })
  const sessionId = sessionIdOf(data)

  expect((await provider.getWebhookActionAndData(webhookPayload(paid.paymentId))).action).toBe("authorized")
  expect(await notesOf(sessionId)).toEqual([])

  // Belt and braces: even noted, the payment Medusa holds is the session's own, never given back.
  await stranded().noteSecondPayment(sessionId, paid.transactionId!, "test", undefined, data.order_id)
  recorded.set(sessionId, paid.transactionId!)
  await followUp()
  expect(sandbox.transaction(paid.transactionId!)?.status).toBe("preauth")
})
