/**
 * App payments (Swish, as docs/payment-methods.md describes it) through Medusa's real store and admin
 * routes, with the sandbox's ledger as the witness of what money moved. The store's one AltaPay
 * registration is a Swish terminal: AltaPay captures a Swish payment when the customer pays, and the
 * customer may approve it in the app later, or cancel it there, after leaving the store.
 * What a merchant relies on:
 *
 * - Medusa records a Swish payment captured, to the øre of what AltaPay captured; Medusa's Capture
 *   never sends a second capture; Cancel refunds (never releases);
 * - an app payment approved after its order was canceled, or after the customer paid the cart again,
 *   is no order's: AltaPay gives it back or the merchant is told of the money, naming it;
 * - no order without money, no money without an order (or a notice naming it); 4xx, never 500.
 */
import type { INotificationModuleService, IPaymentModuleService } from "@medusajs/framework/types"
import { ContainerRegistrationKeys, Modules } from "@medusajs/framework/utils"
import { storeSuite } from "../../tools/test-store/store-app/runner"
import { toMinorUnits } from "../../src/lib/medusa-mapping/amounts"
import type { AltaPayPaymentData } from "../../src/lib/payment-data/data"
import { WALLET_METHODS } from "../../src/sandbox/state"
import paymentSessionsJob from "../../src/jobs/altapay-payment-sessions"
import { altapayStore } from "../../tools/test-store/store-app/altapay-store"
import { eventsSettled } from "../../tools/test-store/store-app/events-settled"
import { postCustomerReturn } from "../../tools/test-store/customer-return"
import {
  adminOfSeededStore,
  createCart,
  createCoffeeTeaOrder,
  orderForCart,
  orderPayments,
  startSession,
  storeHeaders,
  type Api,
  type CoffeeTeaOrder,
} from "../../tools/test-store/store"

export const SWISH_TERMINAL = "Swish Sandbox Terminal"
const SWISH = WALLET_METHODS.find((m) => m.terminalName === SWISH_TERMINAL)!

const store = altapayStore()
const dkk = (amount: unknown) => toMinorUnits(amount as never, "DKK")
const sum = (xs: number[]) => xs.reduce((s, x) => s + x, 0)
const MINUTE = 60_000
const at = (ms: number) => ({ scheduledFor: new Date(Date.now() + ms) })

export default storeSuite({
  testSuite: ({ api: rawApi, getContainer }) => {
    const api = rawApi as unknown as Api
    const shop = adminOfSeededStore(api, getContainer)
    const as = shop.as
    const storeAs = () => ({ headers: storeHeaders(shop.seed), validateStatus: () => true })
    beforeEach(() => store.sandbox().clearLedger())
    afterEach(() => store.sandbox().faults.clear())

    /** Money the sandbox moved on these transactions (Success effects), and the gateway calls made. */
    function moved(transactionIds: string[]) {
      const effects = store
        .sandbox()
        .ledger()
        .flatMap((e) => e.effects ?? [])
        .filter((f) => transactionIds.includes(f.transactionId) && f.result === "Success")
      const of = (type: string) => effects.filter((f) => f.type === type).map((f) => f.amountMinor)
      return { captures: of("capture"), refunds: of("refund"), releases: of("release") }
    }
    /** What AltaPay's own record of each transaction says it captured and refunded (the ledger misses a late Swish capture: see the sandbox test). */
    function booked(transactionIds: string[]) {
      const snaps = transactionIds.map((t) => store.sandbox().transaction(t)!)
      return {
        captures: snaps.flatMap((s) => s.captures.map((c) => c.amountMinor)),
        capturedMinor: sum(snaps.map((s) => s.capturedMinor)),
        refundedMinor: sum(snaps.map((s) => s.refundedMinor)),
      }
    }
    const calls = (operation: string) =>
      store
        .sandbox()
        .ledger()
        .filter((e) => e.operation === operation).length

    /** Medusa's payments of the order with their captures and refunds, in øre. */
    async function medusaBooks(orderId: string) {
      const ids = (await orderPayments(getContainer(), orderId)).map((p) => p.id)
      const payments = await getContainer()
        .resolve<IPaymentModuleService>(Modules.PAYMENT)
        .listPayments({ id: ids }, { relations: ["captures", "refunds"] })
      return {
        payments: payments.length,
        amount: sum(payments.map((p) => dkk(p.amount))),
        captured: sum(payments.flatMap((p) => (p.captures ?? []).map((c) => dkk(c.amount)))),
        refunded: sum(payments.flatMap((p) => (p.refunds ?? []).map((r) => dkk(r.amount)))),
        capturedAt: payments.map((p) => !!p.captured_at),
        transactions: payments.map((p) => (p.data as unknown as AltaPayPaymentData).transaction_id),
      }
    }

    const feed = () => getContainer().resolve<INotificationModuleService>(Modules.NOTIFICATION).listNotifications({ channel: "feed" })
    const notices = async () => (await feed()).map((n) => `${String(n.data?.title)}: ${String(n.data?.description)}`)

    /** The cart's Medusa payment session id (the AltaPay shop_orderid's source). */
    async function paymentSessionOf(cartId: string): Promise<string> {
      const { data } = await getContainer()
        .resolve(ContainerRegistrationKeys.QUERY)
        .graph({ entity: "cart", fields: ["payment_collection.payment_sessions.id"], filters: { id: cartId } })
      return (data[0] as { payment_collection: { payment_sessions: Array<{ id: string }> } }).payment_collection.payment_sessions[0].id
    }

    /** A paid Swish order of 2 coffee + 1 tea + shipping, placed by the store route's completion. */
    async function swishOrder(): Promise<CoffeeTeaOrder & { totalMinor: number }> {
      const order = await createCoffeeTeaOrder(api, shop.seed, getContainer(), store.sandbox())
      return { ...order, totalMinor: dkk(order.cart.total) }
    }

    /** Waits for Medusa to process a callback it got (payment.webhook_received runs ~5 s later). */
    const afterWebhook = () => eventsSettled(getContainer())

    it("Swish paid: Medusa records the payment captured to the øre of AltaPay's capture, and Capture / Capture items send no second capture", async () => {
      const order = await swishOrder()
      expect(store.sandbox().transaction(order.transactionId)).toMatchObject({ status: "captured", capturedMinor: order.totalMinor })
      expect(await medusaBooks(order.orderId)).toMatchObject({ payments: 1, amount: order.totalMinor, captured: order.totalMinor, capturedAt: [true] })

      const capture = await api.post(`/admin/payments/${order.paymentId}/capture`, {}, as())
      const items = await api.post(`/admin/altapay/payments/${order.paymentId}/captures`, { items: [{ line_item_id: order.tea, quantity: 1 }] }, as())
      expect([capture.status < 500, items.status >= 400 && items.status < 500]).toEqual([true, true])
      expect(calls("captureReservation")).toBe(0)
      expect(moved([order.transactionId])).toEqual({ captures: [order.totalMinor], refunds: [], releases: [] })
      expect(await medusaBooks(order.orderId)).toMatchObject({ captured: order.totalMinor, refunded: 0 })
    })

    it("a Swish order cancelled: AltaPay refunds it in full, nothing is released, and Medusa's refunds equal AltaPay's", async () => {
      const order = await swishOrder()
      const cancel = await api.post(`/admin/orders/${order.orderId}/cancel`, {}, as())
      expect({ status: cancel.status, message: cancel.data?.message }).toEqual({ status: 200, message: undefined })

      expect(calls("releaseReservation")).toBe(0)
      expect(moved([order.transactionId])).toEqual({ captures: [order.totalMinor], refunds: [order.totalMinor], releases: [] })
      expect(store.sandbox().transaction(order.transactionId)).toMatchObject({ capturedMinor: order.totalMinor, refundedMinor: order.totalMinor })
      expect(await medusaBooks(order.orderId)).toMatchObject({ captured: order.totalMinor, refunded: order.totalMinor })
    })

    it("the same cart paid twice (a second Swish payment approved at once while the first waits in the app), then the first approved: the merchant is told of the second money", async () => {
      const cart = await createCart(api, shop.seed)
      const totalMinor = dkk(cart.total)
      const session = await startSession(api, shop.seed, cart.id)
      const sessionId = await paymentSessionOf(cart.id)
      const waiting = await store.sandbox().simulatePayment(session.sessionId, { paymentMethodId: SWISH.id, outcome: "open", callback: false })
      const paid = await store.sandbox().simulatePayment(session.sessionId, { paymentMethodId: SWISH.id, callback: false })
      expect(paid.transactionId).not.toBe(waiting.transactionId)
      const returned = await postCustomerReturn(store.medusaUrl(), sessionId)
      expect(new URL(returned.headers.get("location")!).searchParams.get("outcome")).toBe("paid")
      const order = (await orderForCart(getContainer(), cart.id))!
      const books = await medusaBooks(order.id)
      expect(books).toMatchObject({ payments: 1, amount: totalMinor, captured: totalMinor })

      // The first payment is approved in the app after all: AltaPay captures the cart's total again.
      store.sandbox().concludeOpenPayment(waiting.transactionId!, "authorize")
      expect((await store.sandbox().sendCallback(waiting.paymentId)).status).toBe(200)
      await afterWebhook()
      await paymentSessionsJob(getContainer(), at(16 * MINUTE))
      await paymentSessionsJob(getContainer(), at(32 * MINUTE))

      expect(booked([paid.transactionId!, waiting.transactionId!]).captures).toEqual([totalMinor, totalMinor])
      expect(await medusaBooks(order.id)).toMatchObject({ payments: 1, captured: totalMinor })
      const held = books.transactions[0]
      const other = held === paid.transactionId ? waiting.transactionId! : paid.transactionId!
      const told = (await notices()).filter((n) => n.includes(other))
      expect({ held, refundedOrTold: booked([other]).refundedMinor === totalMinor || told.length > 0, notices: await notices() }).toEqual({
        held,
        refundedOrTold: true,
        notices: await notices(),
      })
    })

    it("an order placed awaiting the app, cancelled by the merchant, then approved in the app: the money AltaPay captured is refunded or the merchant is told", async () => {
      const cart = await createCart(api, shop.seed)
      const totalMinor = dkk(cart.total)
      const session = await startSession(api, shop.seed, cart.id)
      const open = await store.sandbox().simulatePayment(session.sessionId, { paymentMethodId: SWISH.id, outcome: "open", callback: false })
      expect((await api.post(`/store/carts/${cart.id}/complete`, {}, storeAs())).data?.type).toBe("order")
      const order = (await orderForCart(getContainer(), cart.id))!
      const cancel = await api.post(`/admin/orders/${order.id}/cancel`, {}, as())
      expect({ status: cancel.status, message: cancel.data?.message }).toEqual({ status: 200, message: undefined })

      // The customer approves in the app after all: AltaPay captures the order's total.
      store.sandbox().concludeOpenPayment(open.transactionId!, "authorize")
      expect((await store.sandbox().sendCallback(open.paymentId)).status).toBe(200)
      await afterWebhook()
      await paymentSessionsJob(getContainer(), at(16 * MINUTE))
      await paymentSessionsJob(getContainer(), at(32 * MINUTE))

      const { data } = await api.get(`/admin/orders/${order.id}?fields=status`, as())
      const medusa = await medusaBooks(order.id)
      const altapay = booked([open.transactionId!])
      const told = (await notices()).filter((n) => n.includes(open.transactionId!) || n.includes(order.id))
      expect({ status: data.order.status, captured: altapay.capturedMinor }).toEqual({ status: "canceled", captured: totalMinor })
      // A canceled order keeps no money: AltaPay refunded it (and Medusa records that), or the merchant is told which transaction to refund.
      const figures = { altapay: { captured: altapay.capturedMinor, refunded: altapay.refundedMinor }, medusa: { captured: medusa.captured, refunded: medusa.refunded } }
      if (told.length > 0) return
      expect(figures).toEqual({ altapay: { captured: totalMinor, refunded: totalMinor }, medusa: { captured: totalMinor, refunded: totalMinor } })
    })
  },
})
