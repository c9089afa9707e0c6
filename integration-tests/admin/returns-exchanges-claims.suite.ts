/**
 * Medusa's own returns, exchanges and claims (its admin routes: POST /admin/returns, /admin/exchanges,
 * /admin/claims, then request, receive and confirm) on an order paid with AltaPay, and how the
 * merchant settles the difference each leaves: Medusa's Refund (POST /admin/payments/:id/refund)
 * for what the customer is owed, the plugin's Refund items, or a payment link for an amount due.
 * What a merchant relies on, whatever the flow:
 *
 * - AltaPay's captured and refunded totals (every AltaPay transaction of the order) equal Medusa's
 *   captures and refunds, and the order's booked transactions;
 * - the order ends with nothing due and nothing owed (the admin's pending difference, as
 *   GET /admin/orders/:id computes it) once the merchant settled it;
 * - no money moves twice, and a refund's order lines add up to it and to no more than was captured.
 *
 * The order: 2 coffee (89.95) + 1 tea (45.50), 10 % promotion, 25 % VAT, shipping 49.00: 314.83 DKK.
 * With the promotion and VAT a coffee is 101.19375 and the tea 51.1875; a new coffee (no promotion)
 * 112.4375, a new tea 56.875. Medusa returns only fulfilled items, so the order is fulfilled first.
 */
import { ContainerRegistrationKeys, Modules } from "@medusajs/framework/utils"
import { storeSuite } from "../../tools/test-store/store-app/runner"
import { toMinorUnits } from "../../src/lib/medusa-mapping/amounts"
import { decimalToMinor } from "../../src/altapay"
import type { AltaPayPaymentData } from "../../src/lib/payment-data/data"
import { altapayStore } from "../../tools/test-store/store-app/altapay-store"
import { adminOfSeededStore, createCoffeeTeaOrder, type CoffeeTeaOrder, type Api, expectOk } from "../../tools/test-store/store"
import { postCustomerReturn } from "../../tools/test-store/customer-return"

const store = altapayStore()

const dkk = (amount: unknown) => toMinorUnits(amount as never, "DKK")
const sum = (xs: number[]) => xs.reduce((s, x) => s + x, 0)
/** An AltaPay order line's total in minor units: quantity × unit price, plus the line's tax. */
const lineMinor = (l: Record<string, string>) => decimalToMinor(l.unitPrice, "DKK") * Number(l.quantity) + decimalToMinor(l.taxAmount ?? "0", "DKK")

type Order = CoffeeTeaOrder

export default storeSuite({
  testSuite: ({ api: rawApi, getContainer }) => {
    const api = rawApi as unknown as Api
    const shop = adminOfSeededStore(api, getContainer, { promotion: { code: "TEN", percent: 10 } })
    const as = shop.as
    afterEach(() => store.sandbox().faults.clear())

    /** The order (314.83 DKK), paid at AltaPay, captured from the admin and fulfilled. */
    async function capturedOrder(): Promise<Order> {
      const order = await createCoffeeTeaOrder(api, shop.seed, getContainer(), store.sandbox())
      expectOk("capture", await api.post(`/admin/payments/${order.paymentId}/capture`, {}, as()))
      const { coffee, tea } = order
      const items = [
        { id: coffee, quantity: 2 },
        { id: tea, quantity: 1 },
      ]
      expectOk("fulfillment", await api.post(`/admin/orders/${order.orderId}/fulfillments`, { items, location_id: shop.seed.stockLocation.id }, as()))
      return order
    }

    /** What the admin shows as due (positive) or owed to the customer (negative): Medusa's pending difference, exact. */
    async function pendingDifference(orderId: string): Promise<number> {
      // The admin's own fields: without its credit lines Medusa leaves them out of the pending difference.
      const { data } = await api.get(`/admin/orders/${orderId}?fields=total,credit_line_total,+summary,*credit_lines`, as())
      return Number(data.order.summary.pending_difference)
    }

    /** AltaPay's books (every AltaPay transaction of the order's payments) and Medusa's records, in minor units. */
    async function books(orderId: string) {
      const { data } = await getContainer()
        .resolve(ContainerRegistrationKeys.QUERY)
        .graph({ entity: "order", fields: ["transactions.reference", "transactions.amount", "payment_collections.payments.id"], filters: { id: orderId } })
      const row = data[0] as { transactions: Array<{ reference: string; amount: unknown }>; payment_collections: Array<{ payments?: Array<{ id: string }> | null }> }
      const ids = row.payment_collections.flatMap((c) => (c.payments ?? []).map((p) => p.id))
      const payments = await getContainer()
        .resolve(Modules.PAYMENT)
        .listPayments({ id: ids }, { relations: ["captures", "refunds"] })
      const transactions = payments.map((p) => (p.data as unknown as AltaPayPaymentData | null)?.transaction_id).filter((t): t is string => !!t)
      const snaps = transactions.map((t) => store.sandbox().transaction(t)!)
      const moved = (type: string) =>
        store
          .sandbox()
          .ledger()
          .flatMap((e) => e.effects ?? [])
          .filter((f) => transactions.includes(f.transactionId) && f.type === type && f.result === "Success")
          .map((f) => f.amountMinor)
      return {
        altapay: {
          capturedMinor: sum(snaps.map((s) => s.capturedMinor)),
          refundedMinor: sum(snaps.map((s) => s.refundedMinor)),
          captures: moved("capture"),
          refunds: moved("refund"),
        },
        medusa: {
          capturedMinor: sum(payments.flatMap((p) => (p.captures ?? []).map((c) => dkk(c.amount)))),
          refundedMinor: sum(payments.flatMap((p) => (p.refunds ?? []).map((r) => dkk(r.amount)))),
          bookedCapturesMinor: sum(row.transactions.filter((t) => t.reference === "capture").map((t) => dkk(t.amount))),
          bookedRefundsMinor: 0 - sum(row.transactions.filter((t) => t.reference === "refund").map((t) => dkk(t.amount))) || 0,
        },
        /** The order lines of each refund AltaPay made, as sent. */
        refundLines: snaps.flatMap((s) => s.refunds.map((r) => r.orderLines ?? [])),
        captureLines: snaps.flatMap((s) => s.captures.map((c) => c.orderLines ?? [])),
        payments,
      }
    }

    /** AltaPay and Medusa agree: the same captured and refunded totals, each booked on the order. */
    function expectAgreement(b: Awaited<ReturnType<typeof books>>) {
      expect({
        captured: [b.altapay.capturedMinor, b.medusa.capturedMinor, b.medusa.bookedCapturesMinor],
        refunded: [b.altapay.refundedMinor, b.medusa.refundedMinor, b.medusa.bookedRefundsMinor],
        capturesMoved: sum(b.altapay.captures),
        refundsMoved: sum(b.altapay.refunds),
      }).toEqual({
        captured: [b.altapay.capturedMinor, b.altapay.capturedMinor, b.altapay.capturedMinor],
        refunded: [b.altapay.refundedMinor, b.altapay.refundedMinor, b.altapay.refundedMinor],
        capturesMoved: b.altapay.capturedMinor,
        refundsMoved: b.altapay.refundedMinor,
      })
      // Each refund's lines add up to it, and no refund exceeds what was captured.
      expect(b.refundLines.map((lines) => sum(lines.map(lineMinor)))).toEqual(b.altapay.refunds)
      expect(b.altapay.refundedMinor).toBeLessThanOrEqual(b.altapay.capturedMinor)
    }

    /** Nothing due and nothing owed, to the øre (Medusa keeps fractions of an øre AltaPay cannot move). */
    async function expectSettled(orderId: string) {
      expect(Math.abs(await pendingDifference(orderId))).toBeLessThan(0.005)
    }

    /** Medusa's Refund of what the order says the customer is owed, rounded to the øre. */
    async function refundWhatIsOwed(order: Order, owedMinor: number) {
      expect(dkk(-(await pendingDifference(order.orderId)))).toBe(owedMinor)
      expectOk("Medusa's refund", await api.post(`/admin/payments/${order.paymentId}/refund`, { amount: owedMinor / 100 }, as()))
    }

    /** Receives a requested return's item and confirms it. */
    async function receive(returnId: string, itemId: string) {
      expectOk("receive", await api.post(`/admin/returns/${returnId}/receive`, {}, as()))
      expectOk("receive items", await api.post(`/admin/returns/${returnId}/receive-items`, { items: [{ id: itemId, quantity: 1 }] }, as()))
      expectOk("confirm receive", await api.post(`/admin/returns/${returnId}/receive/confirm`, {}, as()))
    }

    /** A return of one unit of `itemId`, requested, received and confirmed. */
    async function returnReceived(orderId: string, itemId: string) {
      const created = expectOk("return", await api.post("/admin/returns", { order_id: orderId, location_id: shop.seed.stockLocation.id }, as()))
      const returnId = created.return.id as string
      expectOk("request items", await api.post(`/admin/returns/${returnId}/request-items`, { items: [{ id: itemId, quantity: 1 }] }, as()))
      expectOk("request return", await api.post(`/admin/returns/${returnId}/request`, {}, as()))
      await receive(returnId, itemId)
    }

    /** An exchange of one unit of `inbound` for one of `outboundVariantId`, requested, and its return received. */
    async function exchangeReceived(orderId: string, inbound: string, outboundVariantId: string) {
      const id = expectOk("exchange", await api.post("/admin/exchanges", { order_id: orderId }, as())).exchange.id as string
      expectOk("inbound", await api.post(`/admin/exchanges/${id}/inbound/items`, { items: [{ id: inbound, quantity: 1 }], location_id: shop.seed.stockLocation.id }, as()))
      expectOk("outbound", await api.post(`/admin/exchanges/${id}/outbound/items`, { items: [{ variant_id: outboundVariantId, quantity: 1 }] }, as()))
      const requested = expectOk("request exchange", await api.post(`/admin/exchanges/${id}/request`, {}, as()))
      await receive(requested.exchange.return_id as string, inbound)
    }

    /** Medusa's Refund of what the order owes (`refundMinor`): refunded once at AltaPay as Medusa records it, and nothing left owed. */
    async function refundedOnceAndSettled(order: Order, refundMinor: number) {
      await refundWhatIsOwed(order, refundMinor)
      const b = await books(order.orderId)
      expect({ altapay: b.altapay, medusa: b.medusa }).toEqual({
        altapay: { capturedMinor: 31483, refundedMinor: refundMinor, captures: [31483], refunds: [refundMinor] },
        medusa: { capturedMinor: 31483, refundedMinor: refundMinor, bookedCapturesMinor: 31483, bookedRefundsMinor: refundMinor },
      })
      expectAgreement(b)
      await expectSettled(order.orderId)
    }

    it("a return received, and Medusa's Refund of what the order says is owed: AltaPay refunds the same, and nothing is left owed", async () => {
      const order = await capturedOrder()
      await returnReceived(order.orderId, order.coffee)
      expect(await pendingDifference(order.orderId)).toBeCloseTo(-101.19375, 5)

      await refundedOnceAndSettled(order, 10119)
    })

    it("a return received, refunded with Refund items for the returned coffee: the coffee's own lines, AltaPay and Medusa agree, nothing left owed", async () => {
      const order = await capturedOrder()
      await returnReceived(order.orderId, order.coffee)

      const refund = expectOk(
        "Refund items",
        await api.post(`/admin/altapay/payments/${order.paymentId}/refunds`, { items: [{ line_item_id: order.coffee, quantity: 1 }], note: "Returned" }, as())
      )

      // One coffee of two: the line's 17.99 promotion splits 8.99 / 9.00, so this one is 101.20 and
      // the other 101.19 (together the 202.39 captured for both); Medusa values each at 101.19375.
      expect(refund.refund.amount.minor).toBe(10120)
      const b = await books(order.orderId)
      expect({ altapay: b.altapay, medusa: b.medusa }).toEqual({
        altapay: { capturedMinor: 31483, refundedMinor: 10120, captures: [31483], refunds: [10120] },
        medusa: { capturedMinor: 31483, refundedMinor: 10120, bookedCapturesMinor: 31483, bookedRefundsMinor: 10120 },
      })
      expectAgreement(b)
      expect(b.refundLines[0].map((l) => [l.itemId, l.quantity, l.unitPrice])).toEqual([
        [shop.seed.products.coffee.sku, "1", "89.95"],
        [`discount-${shop.seed.products.coffee.sku}`, "1", "-8.99"],
      ])
      // Medusa books the 0.00625 refunded over what was owed as a credit line: nothing due, nothing owed.
      await expectSettled(order.orderId)
      expect((await api.post("/admin/altapay/payment-links", { order_id: order.orderId }, as())).data.message).toMatch(/has nothing outstanding/)
    })

    it("an exchange for a dearer item: a payment link for exactly the amount due, paid and captured, leaves nothing due, and AltaPay's captures equal Medusa's", async () => {
      const order = await capturedOrder()
      // The tea (51.1875) back, a coffee (112.4375) out: 61.25 due once the tea is received.
      await exchangeReceived(order.orderId, order.tea, shop.seed.products.coffee.variantId)
      expect(await pendingDifference(order.orderId)).toBeCloseTo(61.25, 5)

      // The order still lists the received tea at full quantity; its total leaves it out (amount-due.ts dueOrderLines).
      const link = await api.post("/admin/altapay/payment-links", { order_id: order.orderId }, as())
      expect({ status: link.status, message: link.data?.message, due: link.data?.amount?.minor }).toEqual({ status: 200, message: undefined, due: 6125 })

      const paid = await store.sandbox().simulatePayment(link.data.altapay_session_id, { callback: false })
      const returned = await postCustomerReturn(store.medusaUrl(), link.data.payment_session_id)
      expect(new URL(returned.headers.get("location")!).searchParams.get("outcome")).toBe("paid")
      expect(store.sandbox().transaction(paid.transactionId!)!.reservedMinor).toBe(6125)

      const linkPayment = (await books(order.orderId)).payments.find((p) => (p as { payment_session_id?: string }).payment_session_id === link.data.payment_session_id)!
      expect(dkk(linkPayment.amount)).toBe(6125)
      expectOk("capture the link's payment", await api.post(`/admin/payments/${linkPayment.id}/capture`, {}, as()))

      const b = await books(order.orderId)
      expect({ altapay: b.altapay, medusa: b.medusa }).toEqual({
        altapay: { capturedMinor: 37608, refundedMinor: 0, captures: [31483, 6125], refunds: [] },
        medusa: { capturedMinor: 37608, refundedMinor: 0, bookedCapturesMinor: 37608, bookedRefundsMinor: 0 },
      })
      expectAgreement(b)
      await expectSettled(order.orderId)
    })

    it("an exchange for a cheaper item: the customer is owed the difference, Medusa's Refund of it is what AltaPay refunds, and nothing is left owed", async () => {
      const order = await capturedOrder()
      // A coffee (101.19375) back, a tea (56.875) out: 44.31875 owed once the coffee is received.
      await exchangeReceived(order.orderId, order.coffee, shop.seed.products.tea.variantId)
      expect(await pendingDifference(order.orderId)).toBeCloseTo(-44.31875, 5)

      await refundedOnceAndSettled(order, 4432)
    })

    it("a refund claim: Medusa refunds nothing by itself; the merchant's Refund of what the order says is owed is what AltaPay refunds, once", async () => {
      const order = await capturedOrder()
      const claim = expectOk("claim", await api.post("/admin/claims", { order_id: order.orderId, type: "refund" }, as())).claim
      expectOk(
        "claim inbound",
        await api.post(`/admin/claims/${claim.id}/inbound/items`, { items: [{ id: order.tea, quantity: 1 }], location_id: shop.seed.stockLocation.id }, as())
      )
      const requested = expectOk("request claim", await api.post(`/admin/claims/${claim.id}/request`, {}, as()))
      // Medusa 2.21's claim moves no money (confirmClaimRequestWorkflow has no refund step): the order
      // shows the tea (51.1875) owed once the claim is requested, and receiving it refunds nothing either.
      expect(await pendingDifference(order.orderId)).toBeCloseTo(-51.1875, 5)
      await receive(requested.claim.return_id as string, order.tea)
      expect((await books(order.orderId)).altapay.refunds).toEqual([])

      await refundedOnceAndSettled(order, 5119)
    })
  },
})
