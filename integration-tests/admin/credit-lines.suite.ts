/**
 * Carts and orders with Medusa credit lines (store credit, gift-card-like credits) paid with AltaPay.
 * Medusa 2.21 has no store route for credit lines: they are added as a store-credit module would,
 * with Medusa's createCartCreditLinesWorkflow run in the app's container. Everything else goes
 * through the real routes: the plugin's POST /store/carts/:id/altapay-session, the sandbox's
 * hosted page, POST /store/carts/:id/complete, Medusa's Capture and Refund, the plugin's Capture
 * items and Refund items. What a merchant relies on:
 *
 * - the session asks AltaPay for Medusa's cart total (less its credits) to the minor unit, with one
 *   line per credit and lines that add up to it; credits of one minor unit or less count as none;
 * - AltaPay never captures or refunds more than was paid with AltaPay (a credit is not AltaPay's
 *   money), and refunding every item by item lands exactly on what AltaPay captured;
 * - AltaPay's ledger equals Medusa's captures and refunds and the order's transactions;
 * - a cart its credits pay in full needs no AltaPay: the session route refuses it with a 400 and
 *   sends nothing.
 *
 * The cart: 2 coffee (89.95) + 1 tea (45.50), 10 % promotion, 25 % VAT, shipping 49.00: 314.83 DKK.
 */
import { ContainerRegistrationKeys, Modules } from "@medusajs/framework/utils"
import { createCartCreditLinesWorkflow } from "@medusajs/medusa/core-flows"
import { decimalToMinor } from "../../src/altapay"
import { storeSuite } from "../../tools/test-store/store-app/runner"
import { toMinorUnits } from "../../src/lib/medusa-mapping/amounts"
import { shopOrderIdFor } from "../../src/lib/medusa-mapping/shop-order-id"
import type { AltaPayPaymentData } from "../../src/lib/payment-data/data"
import { altapayStore } from "../../tools/test-store/store-app/altapay-store"
import { adminOfSeededStore, createCart, orderPayments, payWithAltaPay, startSession, storeHeaders, type Api, type SeededStore, expectOk } from "../../tools/test-store/store"

const store = altapayStore()

const dkk = (amount: unknown) => toMinorUnits(amount as never, "DKK")
const sum = (xs: number[]) => xs.reduce((s, x) => s + x, 0)
/** An AltaPay order line's total in minor units: quantity × unit price, plus the line's tax. */
const lineMinor = (l: Record<string, unknown>, currency = "DKK") =>
  decimalToMinor(String(l.unitPrice), currency) * Number(l.quantity) + decimalToMinor(String(l.taxAmount ?? 0), currency)

type SentOrder = { orderId: string; amount: { value: number; currency: string }; orderLines: Array<Record<string, unknown>> }

interface PaidOrder {
  cart: any
  orderId: string
  paymentId: string
  transactionId: string
  /** The session AltaPay was asked for. */
  sent: SentOrder
  coffee: string
  tea: string
  shippingMethodId: string
}

export default storeSuite({
  testSuite: ({ api: rawApi, getContainer }) => {
    const api = rawApi as unknown as Api
    const shop = adminOfSeededStore(api, getContainer, { promotion: { code: "TEN", percent: 10 } })
    const as = shop.as
    const storeAs = (seed: SeededStore = shop.seed) => ({ headers: storeHeaders(seed), validateStatus: () => true })
    beforeEach(() => store.sandbox().clearLedger())
    afterEach(() => store.sandbox().faults.clear())

    /** Credit lines as a store-credit module adds them: Medusa's createCartCreditLinesWorkflow. */
    async function addCredits(cartId: string, amounts: number[]) {
      await createCartCreditLinesWorkflow(getContainer()).run({
        input: amounts.map((amount, i) => ({ cart_id: cartId, amount, reference: "store-credit", reference_id: `credit_${i}_${Date.now()}`, metadata: null })),
      })
    }

    /** The cart as the storefront reads it (GET /store/carts/:id, Medusa's totals with the credits). */
    async function storeCart(cartId: string, seed: SeededStore = shop.seed) {
      return expectOk("cart", await api.get(`/store/carts/${cartId}?fields=+credit_line_total,*credit_lines`, storeAs(seed))).cart
    }

    const ledger = (operation: string) =>
      store
        .sandbox()
        .ledger()
        .filter((e) => e.operation === operation)
    const sentSession = (paymentSessionId: string): SentOrder => {
      const created = ledger("session.create").filter((e) => (e.params as { order?: SentOrder }).order?.orderId === shopOrderIdFor(paymentSessionId))
      expect(created).toHaveLength(1)
      return (created[0].params as { order: SentOrder }).order
    }
    const creditLinesOf = (sent: SentOrder) => sent.orderLines.filter((l) => String(l.itemId).startsWith("credit-"))

    /** The cart (with `credits` added before the session), paid at AltaPay and completed through the store API. */
    async function paidOrder(credits: number[], seed: SeededStore = shop.seed): Promise<PaidOrder> {
      const created = await createCart(api, seed)
      if (credits.length) await addCredits(created.id, credits)
      const cart = await storeCart(created.id, seed)
      const session = await startSession(api, seed, cart.id)
      const sent = sentSession(session.paymentSessionId!)
      await payWithAltaPay(session, { sandbox: store.sandbox(), callback: false })
      const done = expectOk("complete", await api.post(`/store/carts/${cart.id}/complete`, {}, storeAs(seed)))
      expect(done.type).toBe("order")
      const [payment] = await orderPayments(getContainer(), done.order.id)
      const { data } = await getContainer()
        .resolve(ContainerRegistrationKeys.QUERY)
        .graph({ entity: "order", fields: ["items.id", "items.variant_sku", "shipping_methods.id"], filters: { id: done.order.id } })
      const row = data[0] as { items: Array<{ id: string; variant_sku: string }>; shipping_methods: Array<{ id: string }> }
      return {
        cart,
        orderId: done.order.id,
        paymentId: payment.id,
        transactionId: (payment.data as AltaPayPaymentData).transaction_id!,
        sent,
        coffee: row.items.find((i) => i.variant_sku === seed.products.coffee.sku)!.id,
        tea: row.items.find((i) => i.variant_sku === seed.products.tea.sku)!.id,
        shippingMethodId: row.shipping_methods[0].id,
      }
    }

    /** The session AltaPay got is Medusa's cart total to the øre, its lines add up to it, one line per credit that counts. */
    function expectSessionIsTheCart(o: PaidOrder, creditLineCount: number) {
      const currency = String(o.cart.currency_code).toUpperCase()
      const totalMinor = toMinorUnits(o.cart.total, currency)
      const sentMinor = decimalToMinor(String(o.sent.amount.value), currency)
      expect({ amount: sentMinor, lines: sum(o.sent.orderLines.map((l) => lineMinor(l, currency))), credits: creditLinesOf(o.sent).length }).toEqual({
        amount: totalMinor,
        lines: totalMinor,
        credits: creditLineCount,
      })
    }

    async function order(orderId: string) {
      return (await api.get(`/admin/orders/${orderId}?fields=total,credit_line_total,+summary,*credit_lines`, as())).data.order
    }

    /** AltaPay's books for the order's transaction and Medusa's records, in minor units. */
    async function books(o: PaidOrder) {
      const { data } = await getContainer()
        .resolve(ContainerRegistrationKeys.QUERY)
        .graph({ entity: "order", fields: ["transactions.reference", "transactions.amount"], filters: { id: o.orderId } })
      const transactions = (data[0] as { transactions: Array<{ reference: string; amount: unknown }> }).transactions
      const [payment] = await getContainer()
        .resolve(Modules.PAYMENT)
        .listPayments({ id: [o.paymentId] }, { relations: ["captures", "refunds"] })
      const snap = store.sandbox().transaction(o.transactionId)!
      const moved = (type: string) =>
        store
          .sandbox()
          .ledger()
          .flatMap((e) => e.effects ?? [])
          .filter((f) => f.transactionId === o.transactionId && f.type === type && f.result === "Success")
          .map((f) => f.amountMinor)
      return {
        reservedMinor: snap.reservedMinor,
        capturedMinor: snap.capturedMinor,
        refundedMinor: snap.refundedMinor,
        captures: moved("capture"),
        refunds: moved("refund"),
        medusaCaptured: sum((payment.captures ?? []).map((c) => dkk(c.amount))),
        medusaRefunded: sum((payment.refunds ?? []).map((r) => dkk(r.amount))),
        bookedCaptures: sum(transactions.filter((t) => t.reference === "capture").map((t) => dkk(t.amount))),
        bookedRefunds: 0 - sum(transactions.filter((t) => t.reference === "refund").map((t) => dkk(t.amount))) || 0,
        captureLines: snap.captures.map((c) => (c.orderLines ?? []) as unknown as Array<Record<string, unknown>>),
        refundLines: snap.refunds.map((r) => (r.orderLines ?? []) as unknown as Array<Record<string, unknown>>),
      }
    }

    /** AltaPay, Medusa's payment and the order's transactions agree; every movement's lines add up to it; nothing beyond what AltaPay reserved. */
    function expectAgreement(b: Awaited<ReturnType<typeof books>>) {
      expect({
        captured: [b.medusaCaptured, b.bookedCaptures, sum(b.captures)],
        refunded: [b.medusaRefunded, b.bookedRefunds, sum(b.refunds)],
      }).toEqual({ captured: [b.capturedMinor, b.capturedMinor, b.capturedMinor], refunded: [b.refundedMinor, b.refundedMinor, b.refundedMinor] })
      expect(b.captureLines.filter((l) => l.length).map((lines) => sum(lines.map((l) => lineMinor(l))))).toEqual(b.captures.filter((_, i) => b.captureLines[i]?.length))
      expect(b.refundLines.map((lines) => sum(lines.map((l) => lineMinor(l))))).toEqual(b.refunds)
      expect(b.capturedMinor).toBeLessThanOrEqual(b.reservedMinor)
      expect(b.refundedMinor).toBeLessThanOrEqual(b.capturedMinor)
    }

    /** Refund items for every unit and the shipping, one refund per item unit, then the shipping. */
    async function refundEverythingByItem(o: PaidOrder) {
      for (const [id, quantity] of [
        [o.coffee, 1],
        [o.tea, 1],
        [o.coffee, 1],
      ] as const) {
        expectOk("Refund items", await api.post(`/admin/altapay/payments/${o.paymentId}/refunds`, { items: [{ line_item_id: id, quantity }] }, as()))
      }
      expectOk("Refund shipping", await api.post(`/admin/altapay/payments/${o.paymentId}/refunds`, { items: [], shipping: true }, as()))
    }

    it("a credit smaller than the cart: AltaPay is asked for Medusa's total less the credit, with one credit line, and the lines add up to it", async () => {
      const o = await paidOrder([50])
      expect({ total: dkk(o.cart.total), credit: Number(o.cart.credit_line_total) }).toEqual({ total: 26483, credit: 50 })
      expectSessionIsTheCart(o, 1)
      expect(creditLinesOf(o.sent).map((l) => lineMinor(l))).toEqual([-5000])
      const b = await books(o)
      expect(b.reservedMinor).toBe(26483)
      expect(dkk((await order(o.orderId)).total)).toBe(26483)
    })

    it("a credit order captured with Capture items, item by item: AltaPay captures the order's total, never the credit, and Refund items lands on it", async () => {
      const o = await paidOrder([50])
      const steps: Array<Record<string, unknown>> = [
        { items: [{ line_item_id: o.coffee, quantity: 1 }] },
        { items: [{ line_item_id: o.tea, quantity: 1 }], shipping: true },
        { items: [{ line_item_id: o.coffee, quantity: 1 }] },
      ]
      for (const body of steps) expectOk("Capture items", await api.post(`/admin/altapay/payments/${o.paymentId}/captures`, body, as()))
      let b = await books(o)
      expect(b.capturedMinor).toBe(26483)
      expect(b.captures.every((c) => c > 0)).toBe(true)
      expectAgreement(b)
      // Nothing left to capture: another Capture items is a 4xx and sends nothing.
      const again = await api.post(`/admin/altapay/payments/${o.paymentId}/captures`, { items: [{ line_item_id: o.coffee, quantity: 1 }] }, as())
      expect(again.status).toBeGreaterThanOrEqual(400)
      expect(again.status).toBeLessThan(500)
      expect(ledger("captureReservation")).toHaveLength(3)

      await refundEverythingByItem(o)
      b = await books(o)
      expect({ captured: b.capturedMinor, refunded: b.refundedMinor }).toEqual({ captured: 26483, refunded: 26483 })
      expectAgreement(b)
    })

    it("two credits, one with a fraction of an øre: the session is Medusa's total rounded once, with two credit lines adding up to it", async () => {
      const o = await paidOrder([12.345, 7.66])
      expect(Number(o.cart.credit_line_total)).toBeCloseTo(20.005, 6)
      expectSessionIsTheCart(o, 2)
      expectOk("capture", await api.post(`/admin/payments/${o.paymentId}/capture`, {}, as()))
      await refundEverythingByItem(o)
      const b = await books(o)
      expect({ captured: b.capturedMinor, refunded: b.refundedMinor }).toEqual({ captured: dkk(o.cart.total), refunded: dkk(o.cart.total) })
      expectAgreement(b)
    })

    it("a credit that pays the whole cart: the session route answers 400 'nothing to pay', AltaPay hears nothing, and the cart completes without AltaPay", async () => {
      const created = await createCart(api, shop.seed)
      await addCredits(created.id, [Number(created.total)])
      const cart = await storeCart(created.id)
      expect(Number(cart.total)).toBe(0)
      store.sandbox().clearLedger()
      const refused = await api.post(`/store/carts/${cart.id}/altapay-session`, {}, storeAs())
      expect({ status: refused.status, message: refused.data?.message }).toEqual({ status: 400, message: expect.stringMatching(/nothing to pay/) })
      expect(ledger("session.create")).toHaveLength(0)
      const done = expectOk("complete", await api.post(`/store/carts/${cart.id}/complete`, {}, storeAs()))
      expect(done.type).toBe("order")
      expect(await orderPayments(getContainer(), done.order.id)).toHaveLength(0)
    })

    it("a credit larger than the cart: the session route answers 400 and sends nothing", async () => {
      const created = await createCart(api, shop.seed)
      await addCredits(created.id, [400])
      const refused = await api.post(`/store/carts/${created.id}/altapay-session`, {}, storeAs())
      expect(refused.status).toBe(400)
      expect(ledger("session.create")).toHaveLength(0)
    })

    it("a credit plus the 10 % promotion plus shipping: each item's discount line, the shipping line and the credit line add up to the session", async () => {
      const o = await paidOrder([25.5])
      expectSessionIsTheCart(o, 1)
      const itemIds = o.sent.orderLines.map((l) => String(l.itemId))
      expect(itemIds).toEqual(expect.arrayContaining([shop.seed.products.coffee.sku, `discount-${shop.seed.products.coffee.sku}`, shop.seed.products.tea.sku]))
      expect(dkk(o.sent.amount.value)).toBe(31483 - 2550)
    })

    it("a negative credit line (a charge of 10.00 the cart owes): the session route answers a clear 4xx, or asks for Medusa's total 324.83 with lines adding up to it", async () => {
      const created = await createCart(api, shop.seed)
      await addCredits(created.id, [-10])
      const cart = await storeCart(created.id)
      expect(dkk(cart.total)).toBe(32483)
      const r = await api.post(`/store/carts/${cart.id}/altapay-session`, {}, storeAs())
      if (r.status === 200) {
        const sent = sentSession(r.data.payment_session_id)
        expect([dkk(sent.amount.value), sum(sent.orderLines.map((l) => lineMinor(l)))]).toEqual([32483, 32483])
      } else {
        expect({ status: r.status, message: r.data?.message }).toEqual({ status: 400, message: expect.stringMatching(/credit/i) })
        expect(ledger("session.create")).toHaveLength(0)
      }
    })

    it("Capture items, then Medusa's Refund of 10.00 (Medusa books it as an order credit line), then Capture items of the rest: AltaPay captures the whole 264.83", async () => {
      const o = await paidOrder([50])
      expectOk("Capture items", await api.post(`/admin/altapay/payments/${o.paymentId}/captures`, { items: [{ line_item_id: o.coffee, quantity: 1 }] }, as()))
      expectOk("Medusa's refund", await api.post(`/admin/payments/${o.paymentId}/refund`, { amount: 10 }, as()))
      const rest = await api.post(
        `/admin/altapay/payments/${o.paymentId}/captures`,
        {
          items: [
            { line_item_id: o.coffee, quantity: 1 },
            { line_item_id: o.tea, quantity: 1 },
          ],
          shipping: true,
        },
        as()
      )
      const b = await books(o)
      expect({ status: rest.status, message: rest.data?.message, captured: b.capturedMinor, refunded: b.refundedMinor }).toEqual({
        status: 200,
        message: undefined,
        captured: 26483,
        refunded: 1000,
      })
      expectAgreement(b)
    })

    it("without store credit too: Capture items, Medusa's Refund of 10.00, then Capture items of the rest captures the whole 314.83", async () => {
      const o = await paidOrder([])
      expectOk("Capture items", await api.post(`/admin/altapay/payments/${o.paymentId}/captures`, { items: [{ line_item_id: o.tea, quantity: 1 }] }, as()))
      expectOk("Medusa's refund", await api.post(`/admin/payments/${o.paymentId}/refund`, { amount: 10 }, as()))
      const credits = (await order(o.orderId)).credit_lines as Array<{ amount: unknown; reference: string }>
      const rest = await api.post(`/admin/altapay/payments/${o.paymentId}/captures`, { items: [{ line_item_id: o.coffee, quantity: 2 }], shipping: true }, as())
      const b = await books(o)
      expect({ credits: credits.map((c) => Number(c.amount)), status: rest.status, message: rest.data?.message, captured: b.capturedMinor }).toEqual({
        credits: [10],
        status: 200,
        message: undefined,
        captured: 31483,
      })
      expectAgreement(b)
    })
  },
})
