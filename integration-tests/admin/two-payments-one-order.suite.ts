/**
 * One order, two AltaPay payments: paid by card at checkout (captured), then an order edit adds two
 * teas and the customer pays the 113.75 DKK due with the plugin's payment link (POST
 * /admin/altapay/payment-links, paid on the sandbox's page, AltaPay's return posted to the plugin).
 * Then the merchant works the order through Medusa's real admin routes: Capture of each payment,
 * Medusa's Refund, the plugin's Refund items, a return refunded as the order says is owed, and
 * Medusa's Cancel. What a merchant relies on:
 *
 * - each AltaPay transaction's captured and refunded amounts (the sandbox) equal Medusa's captures
 *   and refunds of the payment made from it, and the order's booked transactions add up to them;
 * - an item is refunded by item only from the payment that paid for it, at what it cost (the coffee
 *   bought at checkout from the card payment, with the card's reserved lines); the link's payment
 *   reserved the amount due, not items, so its teas are refunded by amount; no unit twice;
 * - a refund larger than a payment holds is refused with a clear 4xx, and nothing is sent;
 * - a canceled order keeps nothing captured or reserved at AltaPay, on either transaction;
 * - once settled, the order shows nothing due and nothing owed.
 *
 * The order: 2 coffee (89.95) + 1 tea (45.50), 10 % promotion, 25 % VAT, shipping 49.00: 314.83 DKK.
 * A coffee is 101.19375 (the card's reserved line of two: 101.19 for the first refunded), the edit's teas 56.875
 * each (no promotion): 113.75 for both.
 */
import { ContainerRegistrationKeys, Modules } from "@medusajs/framework/utils"
import { storeSuite } from "../../tools/test-store/store-app/runner"
import { toMinorUnits } from "../../src/lib/medusa-mapping/amounts"
import type { AltaPayPaymentData } from "../../src/lib/payment-data/data"
import { altapayStore } from "../../tools/test-store/store-app/altapay-store"
import { adminOfSeededStore, createAltaPayOrder, receivedReturn, type Api, type ApiResponse, expectOk } from "../../tools/test-store/store"
import { postCustomerReturn } from "../../tools/test-store/customer-return"

const store = altapayStore()

const dkk = (amount: unknown) => toMinorUnits(amount as never, "DKK")
const sum = (xs: number[]) => xs.reduce((s, x) => s + x, 0)

interface Paid {
  paymentId: string
  transactionId: string
}

interface TwoPaymentOrder {
  orderId: string
  card: Paid
  link: Paid
  /** Line item ids: the checkout's coffee line (2 units) and the edit's tea line (2 units). */
  coffee: string
  addedTeas: string
}

export default storeSuite({
  testSuite: ({ api: rawApi, getContainer }) => {
    const api = rawApi as unknown as Api
    const shop = adminOfSeededStore(api, getContainer, { promotion: { code: "TEN", percent: 10 } })
    const as = shop.as
    afterEach(() => store.sandbox().faults.clear())

    const answered = (r: ApiResponse) => ({ status: r.status, ...(r.data?.message ? { message: r.data.message as string } : {}) })

    async function orderRow(orderId: string) {
      const { data } = await getContainer()
        .resolve(ContainerRegistrationKeys.QUERY)
        .graph({
          entity: "order",
          fields: [
            "status",
            "items.id",
            "items.variant_sku",
            "items.created_at",
            "transactions.reference",
            "transactions.amount",
            "payment_collections.status",
            "payment_collections.payments.id",
            "payment_collections.payments.payment_session_id",
            "payment_collections.payments.data",
          ],
          filters: { id: orderId },
        })
      return data[0] as {
        status: string
        items: Array<{ id: string; variant_sku: string; created_at: string }>
        transactions: Array<{ reference: string; amount: unknown }>
        payment_collections: Array<{ status: string; payments?: Array<{ id: string; payment_session_id: string; data: AltaPayPaymentData }> | null }>
      }
    }

    /** What the admin shows as due (positive) or owed to the customer (negative), in DKK as Medusa computes it. */
    async function pendingDifference(orderId: string): Promise<number> {
      const { data } = await api.get(`/admin/orders/${orderId}?fields=total,credit_line_total,+summary,*credit_lines`, as())
      return Number(data.order.summary.pending_difference)
    }

    /**
     * The order paid by card and captured, an edit adding two teas, the 113.75 due paid with a
     * payment link, and (unless `captureLink` is false) the link's payment captured from the admin.
     * Fulfilled when `fulfilled`, so that Medusa takes a return.
     */
    async function twoPaymentOrder(options: { captureLink?: boolean; fulfilled?: boolean } = {}): Promise<TwoPaymentOrder> {
      const order = await createAltaPayOrder(api, shop.seed, getContainer(), store.sandbox())
      const orderId = order.orderId
      expectOk("capture the card payment", await api.post(`/admin/payments/${order.paymentId}/capture`, {}, as()))
      expectOk("edit", await api.post("/admin/order-edits", { order_id: orderId }, as()))
      expectOk("add teas", await api.post(`/admin/order-edits/${orderId}/items`, { items: [{ variant_id: shop.seed.products.tea.variantId, quantity: 2 }] }, as()))
      expectOk("request edit", await api.post(`/admin/order-edits/${orderId}/request`, {}, as()))
      expectOk("confirm edit", await api.post(`/admin/order-edits/${orderId}/confirm`, {}, as()))

      const link = expectOk("payment link", await api.post("/admin/altapay/payment-links", { order_id: orderId }, as()))
      expect(link.amount.minor).toBe(11375)
      await store.sandbox().simulatePayment(link.altapay_session_id, { callback: false })
      const returned = await postCustomerReturn(store.medusaUrl(), link.payment_session_id)
      expect(new URL(returned.headers.get("location")!).searchParams.get("outcome")).toBe("paid")

      const row = await orderRow(orderId)
      const payments = row.payment_collections.flatMap((c) => c.payments ?? [])
      const linkPayment = payments.find((p) => p.payment_session_id === link.payment_session_id)!
      if (options.captureLink !== false) expectOk("capture the link's payment", await api.post(`/admin/payments/${linkPayment.id}/capture`, {}, as()))
      const byTime = (a: { created_at: string }, b: { created_at: string }) => Date.parse(a.created_at) - Date.parse(b.created_at)
      const teas = row.items.filter((i) => i.variant_sku === shop.seed.products.tea.sku).sort(byTime)
      const coffee = row.items.find((i) => i.variant_sku === shop.seed.products.coffee.sku)!.id
      if (options.fulfilled) {
        // The checkout's coffees only: Medusa fulfills an edit's items (no shipping) apart, and the return takes a coffee.
        expectOk("fulfillment", await api.post(`/admin/orders/${orderId}/fulfillments`, { items: [{ id: coffee, quantity: 2 }], location_id: shop.seed.stockLocation.id }, as()))
      }
      return {
        orderId,
        card: { paymentId: order.paymentId, transactionId: payments.find((p) => p.id === order.paymentId)!.data.transaction_id! },
        link: { paymentId: linkPayment.id, transactionId: linkPayment.data.transaction_id! },
        coffee,
        addedTeas: teas.at(-1)!.id,
      }
    }

    /** AltaPay's books of one transaction beside Medusa's records of the payment made from it, in minor units. */
    async function paymentBooks(paid: Paid) {
      const t = store.sandbox().transaction(paid.transactionId)!
      const payment = await getContainer()
        .resolve(Modules.PAYMENT)
        .retrievePayment(paid.paymentId, { relations: ["captures", "refunds"] })
      const moves = store
        .sandbox()
        .ledger()
        .flatMap((e) => e.effects ?? [])
        .filter((f) => f.transactionId === paid.transactionId && f.type !== "authorize" && f.result === "Success")
        .map((f) => `${f.type} ${f.amountMinor}`)
      return {
        altapay: { status: t.status, capturedMinor: t.capturedMinor, refundedMinor: t.refundedMinor, moves },
        medusa: {
          canceled: !!payment.canceled_at,
          capturedMinor: sum((payment.captures ?? []).map((c) => dkk(c.amount))),
          refundedMinor: sum((payment.refunds ?? []).map((r) => dkk(r.amount))),
        },
      }
    }

    /** Both payments' books, and the order's: its status, its booked captures and refunds, and its pending difference. */
    async function books(order: TwoPaymentOrder) {
      const row = await orderRow(order.orderId)
      const booked = (reference: string) => Math.abs(sum(row.transactions.filter((t) => t.reference === reference).map((t) => dkk(t.amount))))
      return {
        card: await paymentBooks(order.card),
        link: await paymentBooks(order.link),
        order: {
          status: row.status,
          collections: row.payment_collections.map((c) => c.status).sort(),
          bookedCapturesMinor: booked("capture"),
          bookedRefundsMinor: booked("refund"),
          pendingDifference: await pendingDifference(order.orderId),
        },
      }
    }
    type Books = Awaited<ReturnType<typeof books>>

    /** What is wrong, as a list (empty: AltaPay and Medusa agree on each payment, and the order books the sum). */
    function disagreements(b: Books): string[] {
      const wrong: string[] = []
      for (const name of ["card", "link"] as const) {
        const { altapay, medusa } = b[name]
        if (altapay.capturedMinor !== medusa.capturedMinor) wrong.push(`${name}: AltaPay captured ${altapay.capturedMinor}, Medusa's captures total ${medusa.capturedMinor}`)
        if (altapay.refundedMinor !== medusa.refundedMinor) wrong.push(`${name}: AltaPay refunded ${altapay.refundedMinor}, Medusa's refunds total ${medusa.refundedMinor}`)
        if (altapay.refundedMinor > altapay.capturedMinor) wrong.push(`${name}: AltaPay refunded more than it captured`)
        if (altapay.moves.filter((m) => m.startsWith("release")).length > 1) wrong.push(`${name}: released twice`)
        if (b.order.status === "canceled") {
          if (altapay.capturedMinor > altapay.refundedMinor)
            wrong.push(`${name}: the order is canceled with ${altapay.capturedMinor - altapay.refundedMinor} captured at AltaPay and not refunded`)
          if (altapay.capturedMinor === 0 && altapay.status !== "released") wrong.push(`${name}: the order is canceled with AltaPay's reservation ${altapay.status}`)
        }
      }
      const captured = b.card.altapay.capturedMinor + b.link.altapay.capturedMinor
      const refunded = b.card.altapay.refundedMinor + b.link.altapay.refundedMinor
      if (b.order.bookedCapturesMinor !== captured) wrong.push(`the order books captures of ${b.order.bookedCapturesMinor}, AltaPay captured ${captured}`)
      if (b.order.bookedRefundsMinor !== refunded) wrong.push(`the order books refunds of ${b.order.bookedRefundsMinor}, AltaPay refunded ${refunded}`)
      return wrong
    }

    const refund = (paid: Paid, amount: number) => api.post(`/admin/payments/${paid.paymentId}/refund`, { amount }, as())
    const refundItems = (paid: Paid, items: Array<{ line_item_id: string; quantity: number }>) => api.post(`/admin/altapay/payments/${paid.paymentId}/refunds`, { items }, as())
    /** Refunds AltaPay was sent since the ledger was last cleared. */
    const refundsSent = () =>
      store
        .sandbox()
        .ledger()
        .filter((e) => e.operation === "refundCapturedReservation").length
    const cancel = (order: TwoPaymentOrder) => api.post(`/admin/orders/${order.orderId}/cancel`, {}, as())

    it("Capture of each payment: each AltaPay transaction captured exactly its payment, the order books both, and nothing is due", async () => {
      const order = await twoPaymentOrder()
      const b = await books(order)
      expect({ card: b.card.altapay.moves, link: b.link.altapay.moves, order: b.order, wrong: disagreements(b) }).toEqual({
        card: ["capture 31483"],
        link: ["capture 11375"],
        order: { status: "pending", collections: ["completed", "completed"], bookedCapturesMinor: 42858, bookedRefundsMinor: 0, pendingDifference: 0 },
        wrong: [],
      })
    })

    it("Refund items of a coffee on the card payment refunds the coffee's price (101.19375: its first unit 101.19), with the lines the card reserved for it", async () => {
      const order = await twoPaymentOrder()
      const r = await refundItems(order.card, [{ line_item_id: order.coffee, quantity: 1 }])
      const b = await books(order)
      // The card paid for the coffee in full: the edit and its link's payment do not make it cheaper.
      // Its reserved line holds two coffees (202.39); a unit is its cumulative share, 101.19 then 101.20.
      expect({ status: r.status, message: r.data?.message, refunded: r.data?.refund?.amount?.minor, card: b.card.altapay.refundedMinor, wrong: disagreements(b) }).toEqual({
        status: 200,
        message: undefined,
        refunded: 10119,
        card: 10119,
        wrong: [],
      })
    })

    it("Refund items on the link's payment is refused (it reserved the amount due, not items) and sends nothing; Medusa's Refund of the teas' price there refunds them", async () => {
      const order = await twoPaymentOrder()
      store.sandbox().clearLedger()
      const r = await refundItems(order.link, [{ line_item_id: order.addedTeas, quantity: 1 }])
      expect({ status: r.status, message: r.data?.message }).toEqual({
        status: 400,
        message: expect.stringMatching(/cannot be refunded by item on payment .*refund an amount with Medusa's Refund/),
      })
      expect(refundsSent()).toBe(0)
      expectOk("Medusa's Refund of the two teas", await refund(order.link, 113.75))
      const b = await books(order)
      expect({ link: b.link.altapay.refundedMinor, card: b.card.altapay.refundedMinor, wrong: disagreements(b) }).toEqual({ link: 11375, card: 0, wrong: [] })
    })

    it("Refund items of the coffee on the link's payment, which did not pay for it, is refused with a 4xx and nothing is sent", async () => {
      const order = await twoPaymentOrder()
      store.sandbox().clearLedger()
      const r = await refundItems(order.link, [{ line_item_id: order.coffee, quantity: 1 }])
      const sent = refundsSent()
      expect({ status: r.status >= 400 && r.status < 500 ? "4xx" : r.status, refunded: r.data?.refund?.amount?.minor, sent }).toEqual({
        status: "4xx",
        refunded: undefined,
        sent: 0,
      })
    })

    it("the edit's two teas, which the link's payment paid for, cannot be refunded by item on the card payment: refused, naming the other payment, nothing sent", async () => {
      const order = await twoPaymentOrder()
      store.sandbox().clearLedger()
      const r = await refundItems(order.card, [{ line_item_id: order.addedTeas, quantity: 2 }])
      expect({ status: r.status, message: r.data?.message }).toEqual({ status: 400, message: expect.stringContaining(order.link.paymentId) })
      expect(refundsSent()).toBe(0)
    })

    it("a coffee returned and refunded with Refund items on the card payment: AltaPay refunds what the order says is owed, and nothing is left owed", async () => {
      const order = await twoPaymentOrder({ fulfilled: true })
      await receivedReturn(api, shop, order.orderId, order.coffee)
      expect(await pendingDifference(order.orderId)).toBeCloseTo(-101.19375, 5)

      const r = await refundItems(order.card, [{ line_item_id: order.coffee, quantity: 1 }])
      const b = await books(order)
      expect({ status: r.status, refunded: b.card.altapay.refundedMinor, owedAfter: Math.abs(b.order.pendingDifference) < 0.01, wrong: disagreements(b) }).toEqual({
        status: 200,
        refunded: 10119,
        owedAfter: true,
        wrong: [],
      })
    })

    it("Medusa's Cancel with both payments captured: each transaction refunded in full, once, as Medusa records, and the order owes nothing", async () => {
      const order = await twoPaymentOrder()
      const answer = answered(await cancel(order))
      const b = await books(order)
      expect({ answer, card: b.card.altapay.moves, link: b.link.altapay.moves, order: b.order.status, wrong: disagreements(b) }).toEqual({
        answer: { status: 200 },
        card: ["capture 31483", "refund 31483"],
        link: ["capture 11375", "refund 11375"],
        order: "canceled",
        wrong: [],
      })
    })
  },
})
