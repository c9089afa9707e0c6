/**
 * AltaPay's shop_orderid (issue 30): typed `[a-zA-Z0-9-]{1,100}` on the Merchant API pages, at most
 * 50 characters for `reservation`. Medusa's `payses_<ULID>` goes out as `payses-<ULID>` and maps back
 * everywhere; sessions created before (data with `payses_...`) are asked by that form and still map.
 */
import { PaymentSessionStatus } from "@medusajs/framework/utils"
import { AltaPayProviderService } from "../../src/providers/altapay"
import { sealPaymentData, type AltaPayPaymentData } from "../../src/lib/payment-data/data"
import { namesSession, sessionIdFromOrderId, shopOrderIdFor, shopOrderIdToAsk } from "../../src/lib/medusa-mapping/shop-order-id"
import { chargeForSession, heldElsewhere, otherPaymentsFor, transactionForOrder } from "../../src/lib/medusa-mapping/status"
import { serverKeys } from "../../src/lib/registrations/server-keys"
import { createAltaPayClient, type GatewayTransaction } from "../../src/altapay"
import { startSandbox, type Sandbox } from "../../src/sandbox"
import { medusaWithSessions, sandboxProviderOptions } from "../helpers/provider"

const ULID = "01J8Z3K4Q5R6S7T8V9W0XYZ123"

describe("the mapping", () => {
  it("sends Medusa's session id with '-' for its one '_', within AltaPay's typing, and maps it back", () => {
    expect(shopOrderIdFor(`payses_${ULID}`)).toBe(`payses-${ULID}`)
    expect(shopOrderIdFor(`payses_${ULID}`)).toMatch(/^[a-zA-Z0-9-]{1,50}$/)
    expect(sessionIdFromOrderId(`payses-${ULID}`)).toBe(`payses_${ULID}`)
    expect(sessionIdFromOrderId(`payses_${ULID}`)).toBe(`payses_${ULID}`) // a session created before the mapping
    expect(sessionIdFromOrderId("000000081")).toBe("000000081") // anything else as it is
    expect(shopOrderIdFor("order-7")).toBe("order-7")
  })

  it("refuses an id AltaPay's typing does not allow, rather than sending it", () => {
    expect(() => shopOrderIdFor("cart_1/2")).toThrow(/1-50 letters, digits and '-'/)
    expect(() => shopOrderIdFor(`payses_${"A".repeat(50)}`)).toThrow(/1-50/)
  })

  it("matches AltaPay's transactions in either form to the session, and asks by the form the session was created with", () => {
    const t = (shopOrderId: string) => ({ shopOrderId, transactionId: shopOrderId, transactionStatus: "preauth" }) as unknown as GatewayTransaction
    const id = `payses_${ULID}`
    expect(transactionForOrder(id, [t(`payses-${ULID}`), t("payses-OTHER")])?.shopOrderId).toBe(`payses-${ULID}`)
    expect(transactionForOrder(`payses-${ULID}`, [t(id)])?.shopOrderId).toBe(id)
    expect(namesSession("payses-OTHER", id)).toBe(false)
    expect(shopOrderIdToAsk(id, id)).toBe(id)
    expect(shopOrderIdToAsk(id, `payses-${ULID}`)).toBe(`payses-${ULID}`)
    expect(shopOrderIdToAsk(id, "payses_someone_else")).toBe(`payses-${ULID}`)
    expect(shopOrderIdToAsk(id)).toBe(`payses-${ULID}`)
  })
})

describe("a saved card's transactions under one shop_orderid", () => {
  const first = "payses_01AAAAAAAAAAAAAAAAAAAAAAAA"
  const second = "payses_01BBBBBBBBBBBBBBBBBBBBBBBB"
  const agreementOrder = shopOrderIdFor(first)
  const tx = (transactionId: string, authType: string, transactionStatus: string, session?: string) =>
    ({
      shopOrderId: agreementOrder,
      transactionId,
      authType,
      transactionStatus,
      createdDate: new Date(Number(transactionId) * 1000),
      paymentInfos: session ? [{ name: "medusa_payment_session_id", value: session }] : [],
    }) as unknown as GatewayTransaction
  const setUp = tx("1", "subscriptionAndReserve", "recurring_confirmed")
  const firstCharge = tx("2", "subscription_payment", "preauth", first)
  const laterCharge = tx("3", "subscription_payment", "captured", second)

  it("the session that saved the card is paid by its own charge, not the set-up nor a later purchase's charge", () => {
    expect(transactionForOrder(first, [setUp, firstCharge, laterCharge])?.transactionId).toBe("2")
    expect(transactionForOrder(agreementOrder, [laterCharge, setUp])?.transactionId).toBe("1")
  })

  it("a charge that does not name the session (a merchant's, naming its payment collection) is never the session's payment, nor a second one", () => {
    const merchantCharge = { ...tx("4", "subscription_payment", "preauth"), paymentInfos: [{ name: "medusa_payment_collection_id", value: "paycol_2" }] } as GatewayTransaction
    const unnamedCharge = tx("5", "subscription_payment", "preauth")
    expect(transactionForOrder(first, [setUp, firstCharge, merchantCharge, unnamedCharge])?.transactionId).toBe("2")
    expect(otherPaymentsFor(first, [setUp, firstCharge, laterCharge, merchantCharge, unnamedCharge])).toEqual([])
    expect(heldElsewhere(merchantCharge, first)).toBe(true)
    expect(heldElsewhere(firstCharge, first)).toBe(false)
  })

  it("a later purchase's charge belongs to the session its transaction_info names", () => {
    expect(chargeForSession(second, [setUp, firstCharge, laterCharge])?.transactionId).toBe("3")
    expect(chargeForSession(`payses-${second.slice(7)}`, [setUp, firstCharge, laterCharge])?.transactionId).toBe("3")
    expect(chargeForSession("payses_01CCCCCCCCCCCCCCCCCCCCCCCC", [setUp, firstCharge, laterCharge])).toBeUndefined()
  })
})

describe("the provider against the sandbox", () => {
  const USER = "shop-order-id-user"
  const PASSWORD = "shop-order-id-password-42"
  const SECRET = "shop-order-id-secret-0123456789"
  let sandbox: Sandbox
  let counter = 0
  const options = () => sandboxProviderOptions(sandbox, { username: USER, password: PASSWORD }, { maxRetries: 0, callbackSecret: SECRET })
  const newId = () => `payses_${Date.now().toString(36).toUpperCase()}${(counter++).toString(36).toUpperCase()}`
  const lookUps = () =>
    sandbox
      .ledger()
      .filter((e) => e.operation === "payments")
      .map((e) => (e.params as { shop_orderid?: string }).shop_orderid)

  beforeAll(async () => {
    // Accepts the old `payses_...` ids, as AltaPay held them for sessions made before the mapping.
    sandbox = await startSandbox({ port: 0, username: USER, password: PASSWORD, callbackSecret: SECRET, legacyShopOrderIds: true })
  })
  afterAll(() => sandbox.close())

  it("creates the session with payses-<id>, and the callback and authorization map it back to Medusa's session", async () => {
    const provider = new AltaPayProviderService(medusaWithSessions(), options())
    const id = newId()
    const { data } = await provider.initiatePayment({ amount: 25, currency_code: "dkk", data: { session_id: id }, context: { idempotency_key: id } })
    const sent = (
      sandbox
        .ledger()
        .filter((e) => e.operation === "session.create")
        .at(-1)!.params as { order: { orderId: string; transactionInfo: Record<string, string> } }
    ).order
    expect(sent.orderId).toBe(shopOrderIdFor(id))
    expect(sent.transactionInfo).toEqual({ medusa_payment_session_id: id })
    expect(data).toMatchObject({ order_id: shopOrderIdFor(id) })

    const paid = await sandbox.simulatePayment((data as AltaPayPaymentData).altapay_session_id, { outcome: "authorize", callback: false })
    const { rawBody, headers } = sandbox.callbackFor(paid.paymentId)
    expect(new URLSearchParams(rawBody).get("shop_orderid")).toBe(shopOrderIdFor(id))
    const action = await provider.getWebhookActionAndData({ data: Object.fromEntries(new URLSearchParams(rawBody)), rawData: Buffer.from(rawBody), headers })
    expect(action).toMatchObject({ action: "authorized", data: { session_id: id } })

    const authorized = await provider.authorizePayment({ data: data!, context: { idempotency_key: id } })
    expect(authorized.status).toBe(PaymentSessionStatus.AUTHORIZED)
    expect(lookUps().at(-1)).toBe(shopOrderIdFor(id))
  })

  it("a session created before the mapping (payses_... at AltaPay) is asked by that form and still authorizes", async () => {
    const provider = new AltaPayProviderService(medusaWithSessions(), options())
    const id = newId()
    const client = createAltaPayClient({ checkoutUrl: sandbox.checkoutUrl, gatewayUrl: sandbox.gatewayUrl, username: USER, password: PASSWORD })
    try {
      const legacy = await client.checkout.createSession({ orderId: id, amountMinor: 2500, currency: "DKK" })
      const { data: fresh } = await provider.initiatePayment({ amount: 25, currency_code: "dkk", data: { session_id: id }, context: { idempotency_key: id } })
      const legacyData = sealPaymentData({ ...(fresh as AltaPayPaymentData), altapay_session_id: legacy.sessionId, order_id: id }, serverKeys(options(), "payment-data-seal"))
      const paid = await sandbox.simulatePayment(legacy.sessionId, { outcome: "authorize", callback: false })

      const { rawBody, headers } = sandbox.callbackFor(paid.paymentId)
      expect(new URLSearchParams(rawBody).get("shop_orderid")).toBe(id)
      expect(await provider.getWebhookActionAndData({ data: Object.fromEntries(new URLSearchParams(rawBody)), rawData: Buffer.from(rawBody), headers })).toMatchObject({
        action: "authorized",
        data: { session_id: id },
      })
      const authorized = await provider.authorizePayment({ data: legacyData as never, context: { idempotency_key: id } })
      expect(authorized.status).toBe(PaymentSessionStatus.AUTHORIZED)
      expect(lookUps().at(-1)).toBe(id)
      expect(authorized.data).toMatchObject({ order_id: id, transaction_id: paid.transactionId })
    } finally {
      await client.close()
    }
  })
})

describe("the sandbox, as AltaPay types shop_orderid", () => {
  it("refuses a session orderId outside [a-zA-Z0-9-]{1,100} with a 400 naming the field", async () => {
    const sandbox = await startSandbox({ port: 0, username: "u", password: "p" })
    const client = createAltaPayClient({ checkoutUrl: sandbox.checkoutUrl, gatewayUrl: sandbox.gatewayUrl, username: "u", password: "p", maxRetries: 0 })
    try {
      await expect(client.checkout.createSession({ orderId: `payses_${ULID}`, amountMinor: 100, currency: "DKK" })).rejects.toMatchObject({
        code: "validation",
        status: 400,
        message: expect.stringContaining("order.orderId: must match [a-zA-Z0-9-]{1,100}"),
      })
      const ok = await client.checkout.createSession({ orderId: `payses-${ULID}`, amountMinor: 100, currency: "DKK" })
      await expect(client.checkout.updateSession(ok.sessionId, { orderId: "Order-1234/2023", amountMinor: 100, currency: "DKK" })).rejects.toMatchObject({ status: 400 })
    } finally {
      await client.close()
      await sandbox.close()
    }
  })
})
