/**
 * Every refund of a payment keeps its full record, however it ran: an item refund racing
 * Medusa's own refund button, and an item refund whose answer AltaPay lost and which a retry
 * adopts. The store's Payment module has no locking module (the test store lists only `query`),
 * so the plugin's own per-payment lock is what serializes them. Medusa's refunds pressed at once
 * run one after the other (the plugin's order lock), and a capture booked on its order twice at
 * once is booked once again. Also: an order whose data cannot become AltaPay lines is a 400
 * naming the field.
 */
import type { MedusaContainer } from "@medusajs/framework/types"
import { ContainerRegistrationKeys, Modules } from "@medusajs/framework/utils"
import { storeSuite } from "../../tools/test-store/store-app/runner"
import { toMinorUnits } from "../../src/lib/medusa-mapping/amounts"
import type { AltaPayPaymentData } from "../../src/lib/payment-data/data"
import { altapayStore } from "../../tools/test-store/store-app/altapay-store"
import { adminOfSeededStore, createAltaPayOrder, eventually, orderPayments, type Api } from "../../tools/test-store/store"

const store = altapayStore()

const dkk = (amount: unknown) => toMinorUnits(amount as never, "DKK")
const refundsMoved = (transactionId: string) =>
  store
    .sandbox()
    .ledger()
    .filter((e) => e.effect?.type === "refund" && e.effect.transactionId === transactionId && e.effect.result === "Success")

export default storeSuite({
  testSuite: ({ api: rawApi, getContainer }) => {
    const api = rawApi as unknown as Api

    const shop = adminOfSeededStore(api, getContainer, { promotion: { code: "TEN", percent: 10 } })
    const as = shop.as
    afterEach(() => store.sandbox().faults.clear())

    /** 2 coffee + 1 tea + shipping, paid and captured from the admin. */
    async function capturedOrder() {
      const order = await createAltaPayOrder(api, shop.seed, getContainer(), store.sandbox())
      expect((await api.post(`/admin/payments/${order.paymentId}/capture`, {}, as())).status).toBe(200)
      const [payment] = await orderPayments(getContainer(), order.orderId)
      return { ...order, transactionId: (payment.data as AltaPayPaymentData).transaction_id! }
    }

    async function itemOf(container: MedusaContainer, orderId: string, sku: string): Promise<{ id: string }> {
      const { data } = await container.resolve(ContainerRegistrationKeys.QUERY).graph({ entity: "order", fields: ["items.id", "items.variant_sku"], filters: { id: orderId } })
      return (data[0] as { items: Array<{ id: string; variant_sku: string }> }).items.find((i) => i.variant_sku === sku)!
    }

    async function paymentOf(paymentId: string) {
      const payment = await getContainer()
        .resolve(Modules.PAYMENT)
        .retrievePayment(paymentId, { relations: ["refunds"] })
      return { refunds: payment.refunds ?? [], data: payment.data as unknown as AltaPayPaymentData }
    }

    it("an item refund racing Medusa's own refund keeps both records, and AltaPay and Medusa agree", async () => {
      const order = await capturedOrder()
      const coffee = await itemOf(getContainer(), order.orderId, shop.seed.products.coffee.sku)
      // Slow refunds at AltaPay: without one lock per payment the two would overlap.
      store.sandbox().faults.add({ route: "refundCapturedReservation", kind: "latency", ms: 400, times: 2 })

      const itemRefund = api.post(`/admin/altapay/payments/${order.paymentId}/refunds`, { items: [{ line_item_id: coffee.id, quantity: 1 }], note: "Broken bag" }, as())
      // Medusa's button while the item refund is under way (its pending lines already written).
      await new Promise((r) => setTimeout(r, 200))
      const button = api.post(`/admin/payments/${order.paymentId}/refund`, { amount: 10, note: "Goodwill" }, as())
      const [items, other] = await Promise.all([itemRefund, button])
      expect([items.status, other.status]).toEqual([200, 200])

      const { refunds, data } = await paymentOf(order.paymentId)
      expect(refunds).toHaveLength(2)
      const itemRefundId = refunds.find((r) => r.note === "Broken bag")!.id
      const buttonRefundId = refunds.find((r) => r.note === "Goodwill")!.id
      expect(data.refunds).toEqual(
        expect.arrayContaining([
          expect.objectContaining({ refund_id: itemRefundId, items: [{ line_item_id: coffee.id, quantity: 1 }], note: "Broken bag" }),
          expect.objectContaining({ refund_id: buttonRefundId, amount_minor: 1000 }),
        ])
      )
      expect(data.refunds).toHaveLength(2)
      expect(data.pending_refund).toBeNull()
      const medusaMinor = refunds.reduce((sum, r) => sum + toMinorUnits(r.amount as never, "DKK"), 0)
      expect(store.sandbox().transaction(order.transactionId)!.refundedMinor).toBe(medusaMinor)
      expect(refundsMoved(order.transactionId)).toHaveLength(2)

      // The coffee refunded by item stays refunded: one of two is left.
      const again = await api.post(`/admin/altapay/payments/${order.paymentId}/refunds`, { items: [{ line_item_id: coffee.id, quantity: 2 }] }, as())
      expect(again.status).toBe(400)
      expect(again.data.message).toMatch(/only 1 of 2 is still refundable/)
    })

    it("Medusa's Refund pressed three times at once: three refunds, one after the other, each answered as made and booked on the order", async () => {
      const order = await capturedOrder()
      const answers = await Promise.all([1, 2, 3].map(() => api.post(`/admin/payments/${order.paymentId}/refund`, { amount: 33.33 }, as())))
      // At once, Medusa's second refund of an order fails on the first's order change after AltaPay refunded it.
      expect(answers.map((a) => a.status)).toEqual([200, 200, 200])
      expect(refundsMoved(order.transactionId)).toHaveLength(3)
      const { refunds } = await paymentOf(order.paymentId)
      const query = getContainer().resolve(ContainerRegistrationKeys.QUERY)
      const { data } = await query.graph({ entity: "order", fields: ["summary", "transactions.reference", "transactions.amount"], filters: { id: order.orderId } })
      const booked = data[0] as { summary: { pending_difference: number }; transactions: Array<{ reference: string; amount: unknown }> }
      expect(refunds.map((r) => dkk(r.amount))).toEqual([3333, 3333, 3333])
      expect(booked.transactions.filter((t) => t.reference === "refund").map((t) => dkk(t.amount))).toEqual([-3333, -3333, -3333])
      // A refund without a return leaves nothing to collect: no payment link or saved-card charge asks for it again.
      expect(dkk(booked.summary.pending_difference)).toBe(0)
    })

    it("a capture booked twice on its order at once (Medusa's webhook beside the customer's return) is booked once again", async () => {
      const order = await capturedOrder()
      const query = getContainer().resolve(ContainerRegistrationKeys.QUERY)
      const bookingsOf = async () => {
        const { data } = await query.graph({ entity: "order", fields: ["summary", "transactions.*"], filters: { id: order.orderId } })
        const row = data[0] as { summary: { pending_difference: number }; transactions: Array<{ id: string; reference: string; reference_id: string; amount: number }> }
        return { pendingMinor: dkk(row.summary.pending_difference), captures: row.transactions.filter((t) => t.reference === "capture") }
      }
      const [booked] = (await bookingsOf()).captures
      // What Medusa's capture workflow adds when it looked before the return's booking was there.
      await getContainer()
        .resolve(Modules.ORDER)
        .addOrderTransactions({ order_id: order.orderId, amount: booked.amount, currency_code: "dkk", reference: "capture", reference_id: booked.reference_id })
      expect((await bookingsOf()).pendingMinor).toBe(-dkk(booked.amount))
      // Each booker sends payment.captured after it added.
      await getContainer()
        .resolve(Modules.EVENT_BUS)
        .emit({ name: "payment.captured", data: { id: order.paymentId } })
      const after = await eventually(bookingsOf, (b) => b.captures.length === 1, 10_000)
      expect(after).toEqual({ pendingMinor: 0, captures: [expect.objectContaining({ id: booked.id })] })
    })

    it("an item refund whose answer was lost is adopted by the retry with its items, and blocks refunding them again", async () => {
      const order = await capturedOrder()
      const tea = await itemOf(getContainer(), order.orderId, shop.seed.products.tea.sku)
      const body = { items: [{ line_item_id: tea.id, quantity: 1 }], note: "Leaking box" }
      // AltaPay refunds, the answer is lost, and the look-up after it fails too.
      store.sandbox().faults.add({ route: "refundCapturedReservation", kind: "lost-answer" })
      store.sandbox().faults.add({ route: "payments", kind: "reset", skip: 1, times: 5 })

      const lost = await api.post(`/admin/altapay/payments/${order.paymentId}/refunds`, body, as())
      expect(lost.status).toBe(500)
      expect(lost.data.message).toMatch(/It may have been made: trying again is safe/)
      store.sandbox().faults.clear()
      expect(refundsMoved(order.transactionId)).toHaveLength(1)

      const retried = await api.post(`/admin/altapay/payments/${order.paymentId}/refunds`, body, as())
      expect(retried.status).toBe(200)
      expect(retried.data.refund).toMatchObject({ note: "Leaking box", source: "medusa", items: [expect.objectContaining({ line_item_id: tea.id, quantity: 1 })] })
      expect(refundsMoved(order.transactionId)).toHaveLength(1)

      const { refunds, data } = await paymentOf(order.paymentId)
      expect(refunds).toHaveLength(1)
      expect(data.refunds).toEqual([
        expect.objectContaining({ refund_id: refunds[0].id, items: [{ line_item_id: tea.id, quantity: 1 }], note: "Leaking box", order_lines: expect.any(Array) }),
      ])

      const third = await api.post(`/admin/altapay/payments/${order.paymentId}/refunds`, body, as())
      expect(third.status).toBe(400)
      expect(third.data.message).toMatch(/only 0 of 1 are still refundable \(1 refunded before\)/)
      expect(refundsMoved(order.transactionId)).toHaveLength(1)
    })

    it("a return fee on a card payment is refused, saying why, and nothing is sent", async () => {
      const order = await capturedOrder()
      const coffee = await itemOf(getContainer(), order.orderId, shop.seed.products.coffee.sku)
      const refused = await api.post(
        `/admin/altapay/payments/${order.paymentId}/refunds`,
        { items: [{ line_item_id: coffee.id, quantity: 1 }], return_fee: { amount: "5.00" } },
        as()
      )
      expect(refused.status).toBe(400)
      expect(refused.data.message).toMatch(
        /is not a Klarna or other invoice payment, so it cannot keep a return fee: AltaPay documents return fees for Klarna refunds only\. To keep part of a card payment, refund less/
      )
      expect(refundsMoved(order.transactionId)).toHaveLength(0)
      expect((await paymentOf(order.paymentId)).refunds).toHaveLength(0)
    })

    it("a retry while an unanswered refund may still be under way is told when to try again, in the plugin's own words", async () => {
      const order = await capturedOrder()
      // The refund never reaches AltaPay's books, and the look-up after it fails: outcome unknown.
      store.sandbox().faults.add({ route: "refundCapturedReservation", kind: "reset" })
      store.sandbox().faults.add({ route: "payments", kind: "reset", skip: 1, times: 5 })
      expect((await api.post(`/admin/payments/${order.paymentId}/refund`, { amount: 10 }, as())).status).toBe(500)
      store.sandbox().faults.clear()

      const retried = await api.post(`/admin/payments/${order.paymentId}/refund`, { amount: 10 }, as())

      // Medusa's error handler swaps a CONFLICT's message for a generic one: this must survive.
      expect(retried.status).toBe(400)
      expect(retried.data.message).toMatch(/got no answer and AltaPay does not show it yet, so nothing was sent\. Try again in \d+ s\./)
      expect(refundsMoved(order.transactionId)).toHaveLength(0)
    })

    it("an order whose tax rate is not a number is a 400 naming the field, and nothing is sent", async () => {
      const order = await capturedOrder()
      const coffee = await itemOf(getContainer(), order.orderId, shop.seed.products.coffee.sku)
      const pg = getContainer().resolve(ContainerRegistrationKeys.PG_CONNECTION)
      // What Medusa reads back is raw_rate (a BigNumber field); a value that is not a number.
      const updated = await pg.raw(`update order_line_item_tax_line set rate = 'NaN', raw_rate = '{"value":"NaN","precision":20}' where item_id = ?`, [coffee.id])
      expect(updated.rowCount).toBe(1)

      const { status, data } = await api.post(`/admin/altapay/payments/${order.paymentId}/refunds`, { items: [{ line_item_id: coffee.id, quantity: 1 }] }, as())

      expect(status).toBe(400)
      expect(data.message).toContain(`items[${coffee.id}].tax_lines[0].rate`)
      expect(refundsMoved(order.transactionId)).toHaveLength(0)
    })
  },
})
