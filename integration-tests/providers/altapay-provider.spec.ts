/**
 * The AltaPay provider inside Medusa's Payment module, on a real Postgres, against the sandbox
 * over HTTP: every hook a store relies on, with Medusa's records and AltaPay's ledger compared.
 */
import { createServer, type Server } from "node:http"
import type { AddressInfo } from "node:net"
import { moduleIntegrationTestRunner } from "@medusajs/test-utils"
import { MathBN, Modules } from "@medusajs/framework/utils"
import type { IPaymentModuleService } from "@medusajs/framework/types"
import * as PaymentModels from "@medusajs/payment/dist/models"
import { orderLinesTotalMinor, type OrderLine } from "../../src/altapay"
import { AltaPayProviderService } from "../../src/providers/altapay"
import { PROVIDER_ID, PROVIDER_RESOLVE, sandboxedAltaPay } from "../../tools/test-store/altapay-sandbox"
import { shopOrderIdFor } from "../../src/lib/medusa-mapping/shop-order-id"
import { medusaWithSessions } from "../../test/helpers/provider"

jest.setTimeout(60_000)

const altapay = sandboxedAltaPay()
const autoCapture = sandboxedAltaPay({ autoCapture: true })
// A second registration named "card", without a providerId option: only Medusa's loader can tell it its id.
const card = sandboxedAltaPay()

// A DKK cart of 200.00: two coffees at 80.00 (25% VAT included), shipping 50.00, discount 10.00.
const cartLines: OrderLine[] = [
  { itemId: "coffee", description: "Coffee beans 1 kg", quantity: 2, unitPriceMinor: 6400, taxAmountMinor: 3200, taxPercent: 25, goodsType: "item" },
  { itemId: "shipping", description: "Express", quantity: 1, unitPriceMinor: 4000, taxAmountMinor: 1000, taxPercent: 25, goodsType: "shipment" },
  { itemId: "discount-coffee", description: "Discount: Coffee beans", quantity: 1, unitPriceMinor: -800, taxAmountMinor: -200, taxPercent: 25, goodsType: "handling" },
]

beforeAll(async () => {
  await altapay.start()
  await autoCapture.start()
  await card.start()
})
afterAll(async () => {
  await altapay.stop()
  await autoCapture.stop()
  await card.stop()
})

const ledgerOf = (operation: string) =>
  altapay
    .sandbox()
    .ledger()
    .filter((e) => e.operation === operation)

async function paidSession(service: IPaymentModuleService, amount: number, context: Record<string, unknown> = {}, sandbox = altapay.sandbox()) {
  const collection = await service.createPaymentCollections({ currency_code: "dkk", amount })
  const session = await service.createPaymentSession(collection.id, { provider_id: PROVIDER_ID, currency_code: "dkk", amount, data: {}, context })
  const altapaySessionId = session.data.altapay_session_id as string
  const paid = await sandbox.simulatePayment(altapaySessionId, { outcome: "authorize", callback: false })
  return { collection, session, altapaySessionId, paid }
}

moduleIntegrationTestRunner<IPaymentModuleService>({
  moduleName: Modules.PAYMENT,
  resolve: "@medusajs/payment",
  moduleModels: Object.values(PaymentModels),
  moduleOptions: {
    providers: [
      { resolve: PROVIDER_RESOLVE, id: "altapay", options: altapay.options },
      { resolve: PROVIDER_RESOLVE, id: "card", options: card.options },
    ],
  },
  testSuite: ({ service }) => {
    it("registers as pp_altapay_altapay", async () => {
      const providers = await service.listPaymentProviders()
      expect(providers.map((p) => p.id)).toContain(PROVIDER_ID)
    })

    it("a registration with its own id sends AltaPay that id's callback URL: Medusa hands the provider its registration", async () => {
      // The provider learns the id in its loader (registration-id.ts); on a Medusa that did not hand
      // it over, it would fall back to providerId's default and name altapay_altapay here.
      const collection = await service.createPaymentCollections({ currency_code: "dkk", amount: 10 })
      await service.createPaymentSession(collection.id, { provider_id: "pp_altapay_card", currency_code: "dkk", amount: 10, data: {}, context: {} })
      const created = card
        .sandbox()
        .ledger()
        .filter((e) => e.operation === "session.create")
        .at(-1)!.params as any
      expect(created.callbacks.notification).toBe("http://127.0.0.1:9000/hooks/payment/altapay_card")
    })

    it("pays, authorizes, captures, refunds twice partially and then the rest: Medusa and AltaPay agree to the cent", async () => {
      const { session, paid } = await paidSession(service, 200, { altapay: { order_lines: cartLines } })
      expect(session.id).toMatch(/^payses_/)
      expect(session.data).toMatchObject({ order_id: shopOrderIdFor(session.id), amount_minor: 20000, currency: "DKK", order_lines_source: "store_route" })
      expect(JSON.stringify(session.data)).not.toMatch(/eyJ/) // no JWT in payment data

      const created = ledgerOf("session.create").at(-1)!.params as any
      expect(created.order).toMatchObject({ orderId: shopOrderIdFor(session.id), amount: { value: 200, currency: "DKK" } })
      expect(created.callbacks.notification).toBe("http://127.0.0.1:9000/hooks/payment/altapay_altapay")

      const payment = (await service.authorizePaymentSession(session.id, {}))!
      expect(payment.data).toMatchObject({
        transaction_id: paid.transactionId,
        payment_id: paid.paymentId,
        transaction_status: "preauth",
        masked_pan: expect.stringContaining("1111"),
      })

      await service.capturePayment({ payment_id: payment.id })
      const captureCall = ledgerOf("captureReservation").at(-1)!
      expect(captureCall.params).toMatchObject({ transaction_id: paid.transactionId, amount: "200.00" })

      await service.refundPayment({ payment_id: payment.id, amount: 50.25 })
      await service.refundPayment({ payment_id: payment.id, amount: 100 })
      await service.refundPayment({ payment_id: payment.id, amount: 49.75 })

      const [medusa] = await service.listPayments({ id: payment.id }, { relations: ["refunds", "captures"] })
      const medusaRefundedMinor = medusa.refunds!.reduce((sum, r) => sum + Math.round(Number(r.amount) * 100), 0)
      const transaction = altapay.sandbox().transaction(paid.transactionId!)!
      expect(transaction).toMatchObject({ capturedMinor: 20000, refundedMinor: 20000 })
      expect(medusaRefundedMinor).toBe(20000)
      const refundEffects = altapay
        .sandbox()
        .ledger()
        .filter((e) => e.effect?.type === "refund" && e.effect.transactionId === paid.transactionId)
      expect(refundEffects.map((e) => e.effect!.amountMinor)).toEqual([5025, 10000, 4975])
      // Each refund carries the identifier derived from Medusa's refund id.
      expect(refundEffects.map((e) => e.effect!.reconciliationIdentifier).sort()).toEqual(medusa.refunds!.map((r) => `medusa-refund-${r.id}`).sort())
      expect(medusa.data).toMatchObject({ refunded_minor: 20000, captured_minor: 20000 })
      expect((medusa.data as any).refunds).toHaveLength(3)
    })

    it("every order line set sent totals exactly the amount sent with it", async () => {
      const { session } = await paidSession(service, 200, { altapay: { order_lines: cartLines } })
      const payment = (await service.authorizePaymentSession(session.id, {}))!
      await service.capturePayment({ payment_id: payment.id })
      await service.refundPayment({ payment_id: payment.id, amount: 33.33 })
      const sent = altapay
        .sandbox()
        .ledger()
        .filter((e) => ["captureReservation", "refundCapturedReservation"].includes(e.operation))
      expect(sent.length).toBeGreaterThanOrEqual(2)
      for (const call of sent) {
        const params = call.params as { amount: string; orderLines: Array<Record<string, string>> }
        const totalMinor = params.orderLines.reduce((sum, l) => sum + Math.round(Number(l.unitPrice) * 100) * Number(l.quantity) + Math.round(Number(l.taxAmount) * 100), 0)
        expect(totalMinor).toBe(Math.round(Number(params.amount) * 100))
      }
      const sessionLines = (ledgerOf("session.create").at(-1)!.params as any).order.orderLines
      expect(sessionLines).toHaveLength(3)
      expect(orderLinesTotalMinor(cartLines)).toBe(20000)
    })

    it("without store-route lines it sends one summary line for the whole amount", async () => {
      const { session } = await paidSession(service, 19.99)
      expect(session.data).toMatchObject({ order_lines_source: "summary" })
      const lines = (ledgerOf("session.create").at(-1)!.params as any).order.orderLines
      expect(lines).toEqual([expect.objectContaining({ quantity: 1, unitPrice: 19.99, taxAmount: 0 })])
    })

    it("refuses an over-refund before anything is sent", async () => {
      const { session } = await paidSession(service, 100)
      const payment = (await service.authorizePaymentSession(session.id, {}))!
      await service.capturePayment({ payment_id: payment.id })
      await service.refundPayment({ payment_id: payment.id, amount: 60 })
      const before = ledgerOf("refundCapturedReservation").length
      await expect(service.refundPayment({ payment_id: payment.id, amount: 40.01 })).rejects.toThrow(/more than/)
      expect(ledgerOf("refundCapturedReservation").length).toBe(before)
    })

    it.each([
      [9.66, /AltaPay refused the refund/],
      [9.67, /AltaPay refused the refund/],
    ])("a refund AltaPay refuses (payment of %s) is a clear error and Medusa records no refund", async (amount, message) => {
      const { session } = await paidSession(service, amount)
      const payment = (await service.authorizePaymentSession(session.id, {}))!
      await service.capturePayment({ payment_id: payment.id })
      const error = await service.refundPayment({ payment_id: payment.id, amount }).catch((e: Error) => e)
      expect(error).toBeInstanceOf(Error)
      expect((error as Error).message).toMatch(message)
      expect((error as Error).message.length).toBeGreaterThan("AltaPay refused the refund: ".length + 5)
      const [medusa] = await service.listPayments({ id: payment.id }, { relations: ["refunds"] })
      expect(medusa.refunds).toHaveLength(0)
    })

    it("a refund whose answer is lost is recorded once, and a retry never refunds twice", async () => {
      const { session, paid } = await paidSession(service, 80)
      const payment = (await service.authorizePaymentSession(session.id, {}))!
      await service.capturePayment({ payment_id: payment.id })

      // The refund goes through at AltaPay, the answer is lost: the provider finds it by its identifier.
      altapay.sandbox().faults.add({ route: "refundCapturedReservation", kind: "lost-answer" })
      await service.refundPayment({ payment_id: payment.id, amount: 30 })
      expect(altapay.sandbox().transaction(paid.transactionId!)!.refundedMinor).toBe(3000)

      // Lost again, and the look-up fails too: Medusa gets an error and keeps no refund...
      altapay.sandbox().faults.add({ route: "refundCapturedReservation", kind: "lost-answer" })
      altapay.sandbox().faults.add({ route: "payments", kind: "503", times: 3, skip: 1 })
      await expect(service.refundPayment({ payment_id: payment.id, amount: 20 })).rejects.toThrow(/may have been made/)
      // ...and when the merchant retries, the provider finds the first attempt instead of refunding again.
      await service.refundPayment({ payment_id: payment.id, amount: 20 })

      const effects = altapay
        .sandbox()
        .ledger()
        .filter((e) => e.effect?.type === "refund" && e.effect.transactionId === paid.transactionId)
      expect(effects.map((e) => e.effect!.amountMinor)).toEqual([3000, 2000])
      const [medusa] = await service.listPayments({ id: payment.id }, { relations: ["refunds"] })
      expect(medusa.refunds!.map((r) => Number(r.amount)).sort()).toEqual([20, 30])
      expect(altapay.sandbox().transaction(paid.transactionId!)!.refundedMinor).toBe(5000)
    })

    it("cancelling before capture releases the reservation; a captured payment cannot be cancelled", async () => {
      const first = await paidSession(service, 45)
      const payment = (await service.authorizePaymentSession(first.session.id, {}))!
      await service.cancelPayment(payment.id)
      expect(altapay.sandbox().transaction(first.paid.transactionId!)!.status).toBe("released")

      const second = await paidSession(service, 46)
      const captured = (await service.authorizePaymentSession(second.session.id, {}))!
      await service.capturePayment({ payment_id: captured.id })
      await expect(service.cancelPayment(captured.id)).rejects.toThrow(/Refund it instead/)
    })

    it("a second capture does not capture twice", async () => {
      const { session, paid } = await paidSession(service, 70)
      const payment = (await service.authorizePaymentSession(session.id, {}))!
      await service.capturePayment({ payment_id: payment.id })
      await service.capturePayment({ payment_id: payment.id }).catch(() => undefined)
      const captures = altapay
        .sandbox()
        .ledger()
        .filter((e) => e.effect?.type === "capture" && e.effect.transactionId === paid.transactionId)
      expect(captures).toHaveLength(1)
    })

    it("an unpaid session stays pending; a declined one is an error with the reason", async () => {
      const collection = await service.createPaymentCollections({ currency_code: "dkk", amount: 12 })
      const session = await service.createPaymentSession(collection.id, { provider_id: PROVIDER_ID, currency_code: "dkk", amount: 12, data: {} })
      await expect(service.authorizePaymentSession(session.id, {})).rejects.toThrow(/not authorized/)
      expect((await service.listPaymentSessions({ id: session.id }))[0].status).toBe("pending")

      await altapay.sandbox().simulatePayment(session.data.altapay_session_id as string, { outcome: "decline", callback: false })
      await expect(service.authorizePaymentSession(session.id, {})).rejects.toThrow(/not authorized/)
      const [declined] = await service.listPaymentSessions({ id: session.id })
      expect(declined.status).toBe("error")
      expect(declined.data.failure_reason).toMatch(/declined/)
    })

    it("initiating twice with one idempotency key creates one AltaPay session", async () => {
      const provider = new AltaPayProviderService({}, altapay.options as never)
      const input = { amount: 10, currency_code: "dkk", data: { session_id: "payses_same" }, context: { idempotency_key: "payses_same" } }
      const before = ledgerOf("session.create").length
      const [a, b] = await Promise.all([provider.initiatePayment(input), provider.initiatePayment(input)])
      const c = await provider.initiatePayment(input)
      expect(new Set([a.id, b.id, c.id]).size).toBe(1)
      expect(ledgerOf("session.create").length).toBe(before + 1)
    })

    it("retrieves the live transaction and its status", async () => {
      const { session, paid } = await paidSession(service, 33)
      const payment = (await service.authorizePaymentSession(session.id, {}))!
      const provider = new AltaPayProviderService({}, altapay.options as never)
      const status = await provider.getPaymentStatus({ data: payment.data! })
      expect(status.status).toBe("authorized")
      const retrieved = await provider.retrievePayment({ data: payment.data! })
      expect(retrieved.data).toMatchObject({ transaction_id: paid.transactionId, reserved_minor: 3300 })
    })
  },
})

moduleIntegrationTestRunner<IPaymentModuleService>({
  moduleName: Modules.PAYMENT,
  resolve: "@medusajs/payment",
  moduleModels: Object.values(PaymentModels),
  moduleOptions: { providers: [{ resolve: PROVIDER_RESOLVE, id: "altapay", options: autoCapture.options }] },
  testSuite: ({ service }) => {
    it("with auto-capture the payment is captured at authorization and never captured again", async () => {
      const { session, paid } = await paidSession(service, 120, {}, autoCapture.sandbox())
      const payment = (await service.authorizePaymentSession(session.id, {}))!
      const [medusa] = await service.listPayments({ id: payment.id }, { relations: ["captures"] })
      expect(medusa.captured_at).toBeTruthy()
      await service.capturePayment({ payment_id: payment.id }).catch(() => undefined)
      const ledger = autoCapture.sandbox().ledger()
      expect(ledger.filter((e) => e.operation === "captureReservation")).toHaveLength(0)
      expect(autoCapture.sandbox().transaction(paid.transactionId!)).toMatchObject({ capturedMinor: 12000, status: "captured" })
    })
  },
})

describe("options", () => {
  it("a bad config fails with one message naming each bad option", () => {
    let message = ""
    try {
      AltaPayProviderService.validateOptions({ checkoutUrl: "not a url", username: "", password: "x", backendUrl: "ftp://x", language: "Danish", autoCapture: "yes", bogus: 1 })
    } catch (e) {
      message = (e as Error).message
    }
    for (const field of ["checkoutUrl", "gatewayUrl", "username", "backendUrl", "language", "autoCapture", "bogus"]) {
      expect(message).toContain(field)
    }
    expect(message).not.toContain('"x"')
  })

  it("a good config passes", () => {
    expect(() => AltaPayProviderService.validateOptions(altapay.options as never)).not.toThrow()
  })
})

describe("callbacks", () => {
  let server: Server
  let url = ""
  const received: Array<{ rawData: Buffer; headers: Record<string, unknown> }> = []
  beforeAll(async () => {
    server = createServer((req, res) => {
      const chunks: Buffer[] = []
      req.on("data", (c: Buffer) => chunks.push(c))
      req.on("end", () => {
        received.push({ rawData: Buffer.concat(chunks), headers: req.headers })
        res.end("OK")
      })
    })
    await new Promise<void>((r) => server.listen(0, "127.0.0.1", r))
    url = `http://127.0.0.1:${(server.address() as AddressInfo).port}`
  })
  afterAll(() => new Promise((r) => server.close(r)))

  it("a signed callback is accepted as authorized for the session; forged and unsigned ones change nothing", async () => {
    // Medusa has the session the callback names (the provider checks before Medusa's workflow may run).
    const provider = new AltaPayProviderService(medusaWithSessions(), { ...altapay.options, backendUrl: url } as never)
    const init = await provider.initiatePayment({ amount: 42.5, currency_code: "dkk", data: { session_id: "payses_cb" }, context: { idempotency_key: "payses_cb" } })
    received.length = 0
    const paid = await altapay.sandbox().simulatePayment(init.id, { outcome: "authorize" })
    const asPayload = (r: (typeof received)[number]) => ({
      data: Object.fromEntries(new URLSearchParams(r.rawData.toString("utf8"))),
      rawData: r.rawData,
      headers: r.headers,
    })
    const signed = await provider.getWebhookActionAndData(asPayload(received[0]))
    expect(signed.action).toBe("authorized")
    expect(signed.data?.session_id).toBe("payses_cb")
    expect(MathBN.convert(signed.data!.amount).toNumber()).toBe(42.5) // Medusa 2.12's BigNumber has no toString()

    for (const signature of ["forged", "none"] as const) {
      received.length = 0
      await altapay.sandbox().sendCallback(paid.paymentId, { signature })
      expect((await provider.getWebhookActionAndData(asPayload(received[0]))).action).toBe("not_supported")
    }
    // A duplicate of the good one is just the same answer again: harmless.
    received.length = 0
    await altapay.sandbox().sendCallback(paid.paymentId, { signature: "valid" })
    expect((await provider.getWebhookActionAndData(asPayload(received[0]))).action).toBe("authorized")
  })
})
