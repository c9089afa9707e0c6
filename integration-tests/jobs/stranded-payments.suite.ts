/**
 * Payments AltaPay took while the customer never came back to the store, and the follow-up job
 * (src/lib/follow-up, docs/operator.md) that is the store's safety net for them, attacked through
 * Medusa's real store routes (POST /store/carts/:id/complete, the plugin's return endpoint, Medusa's
 * webhook route) and the job as Medusa's scheduler calls it. integration-tests/jobs/follow-up.spec.ts
 * covers the plain cases (callback lost, cart gone, a 503 on a run, two runs at once on a reserved
 * payment); this suite covers what happens around them: AltaPay's callback arriving but Medusa failing
 * on it, the late callback, return and Place order racing the job, a cart paid twice across a change,
 * and money the merchant moved in AltaPay's back office before the job looked.
 *
 * What a merchant relies on ("nothing paid is ever left without an order"), witnessed by the sandbox's
 * books against Medusa's orders and payments:
 * - every reservation AltaPay holds ends either as exactly one order of the same amount, or released
 *   with a notice in the admin's feed; money AltaPay captured is either an order's or the merchant is told;
 * - Medusa's record of what was captured is AltaPay's, to the øre, and nothing is captured twice;
 * - no order without money; the customer gets a 2xx/3xx or a clear 4xx, never a 5xx.
 *
 * The cart: 2 coffee (89.95) + 1 tea (45.50) + shipping 49.00, 25 % VAT: 343.00 DKK.
 */
import type { INotificationModuleService, MedusaContainer } from "@medusajs/framework/types"
import { ContainerRegistrationKeys, Modules } from "@medusajs/framework/utils"
import { minorToDecimal } from "../../src/altapay"
import paymentSessionsJob from "../../src/jobs/altapay-payment-sessions"
import { forgetStrandedNotes } from "../../tools/test-store/stranded-notes"
import { toMinorUnits } from "../../src/lib/medusa-mapping/amounts"
import { API_PASSWORD, API_USER, captureAtAltaPay } from "../../tools/test-store/altapay-sandbox"
import { postSignedCustomerReturn } from "../../tools/test-store/customer-return"
import { altapayStore } from "../../tools/test-store/store-app/altapay-store"
import { eventsSettled } from "../../tools/test-store/store-app/events-settled"
import { storeSuite } from "../../tools/test-store/store-app/runner"
import { createCart, orderForCart, orderIdsOfCart, payWithAltaPay, seedStore, startSession, storeHeaders, type Api, type SeededStore } from "../../tools/test-store/store"

const store = altapayStore()

const MINUTE = 60_000
const at = (ms: number) => ({ scheduledFor: new Date(Date.now() + ms) })
const afterGrace = () => at(16 * MINUTE)
const dkk = (amount: unknown) => toMinorUnits(amount as never, "DKK")
const anyStatus = { validateStatus: () => true }
/** The cart before any change: 343.00 DKK. */
const CART_MINOR = 34300

/** An order as the witness reads it: its total, what its summary counts paid, and each payment with what Medusa captured of it (minor units). */
interface OrderRecord {
  id: string
  totalMinor: number
  paidMinor: number
  payments: Array<{ amountMinor: number; capturedMinor: number; transactionId: string; canceled: boolean }>
}

interface Paid {
  cartId: string
  paymentId: string
  transactionId: string
  sessionId: string
}

export default storeSuite({
  testSuite: ({ api: rawApi, getContainer }) => {
    const api = rawApi as unknown as Api
    const container = (): MedusaContainer => getContainer()
    let seed: SeededStore
    beforeAll(async () => {
      seed = await seedStore(getContainer())
    })
    beforeEach(async () => {
      store.sandbox().setAutoCallbacks(false)
      store.sandbox().faults.clear()
      store.sandbox().clearLedger()
      await forgetStrandedNotes(container())
    })
    afterEach(() => {
      store.sandbox().faults.clear()
      store.sandbox().setAutoCallbacks(true)
    })

    // ---- the witness: AltaPay's books and Medusa's records ----

    const transaction = (id: string) => store.sandbox().transaction(id)!
    const books = (id: string) => {
      const t = transaction(id)
      return { status: t.status, reserved: t.reservedMinor, captured: t.capturedMinor, refunded: t.refundedMinor }
    }
    const moved = (type: string, transactionId: string) =>
      store
        .sandbox()
        .ledger()
        .flatMap((e) => e.effects ?? [])
        .filter((x) => x.type === type && x.transactionId === transactionId && x.result === "Success")
    const feed = async () =>
      (await container().resolve<INotificationModuleService>(Modules.NOTIFICATION).listNotifications({ channel: "feed" })).map((n) => ({
        title: n.data!.title as string,
        description: n.data!.description as string,
      }))

    /** Every order of the cart (order_cart rows), with its total, its payments and what Medusa captured of each. */
    async function ordersOf(cartId: string): Promise<OrderRecord[]> {
      const query = container().resolve(ContainerRegistrationKeys.QUERY)
      const ids = await orderIdsOfCart(container(), cartId)
      if (!ids.length) return []
      const { data } = await query.graph({
        entity: "order",
        fields: [
          "id",
          "total",
          "summary.*",
          "payment_collections.payments.id",
          "payment_collections.payments.amount",
          "payment_collections.payments.data",
          "payment_collections.payments.canceled_at",
          "payment_collections.payments.captures.amount",
        ],
        filters: { id: ids },
      })
      return (data as any[]).map((o) => {
        const payments = (o.payment_collections ?? []).flatMap((c: any) => c.payments ?? [])
        return {
          id: o.id as string,
          totalMinor: dkk(o.total),
          paidMinor: dkk(o.summary?.paid_total ?? 0),
          payments: payments.map((p: any) => ({
            amountMinor: dkk(p.amount),
            capturedMinor: (p.captures ?? []).reduce((s: number, c: any) => s + dkk(c.amount), 0),
            transactionId: p.data?.transaction_id as string,
            canceled: !!p.canceled_at,
          })),
        }
      })
    }

    /** One order of the cart, paid by the one AltaPay transaction, for AltaPay's reserved amount, with Medusa's captures equal to AltaPay's. */
    async function expectOneOrderOf(cartId: string, transactionId: string) {
      const orders = await ordersOf(cartId)
      const t = books(transactionId)
      expect(
        orders.map((o) => ({ total: o.totalMinor, payments: o.payments.map((p) => ({ amount: p.amountMinor, captured: p.capturedMinor, transactionId: p.transactionId })) }))
      ).toEqual([{ total: t.reserved, payments: [{ amount: t.reserved, captured: t.captured, transactionId }] }])
      return orders[0]
    }

    // ---- the shopper and AltaPay ----

    async function paymentSessionOf(cartId: string): Promise<string> {
      const query = container().resolve(ContainerRegistrationKeys.QUERY)
      const { data } = await query.graph({ entity: "cart", fields: ["payment_collection.payment_sessions.id"], filters: { id: cartId } })
      return (data[0] as { payment_collection: { payment_sessions: Array<{ id: string }> } }).payment_collection.payment_sessions[0].id
    }

    /** A cart (or `cartId`) paid on AltaPay's hosted page; AltaPay's callback never reaches the store and the customer never comes back. */
    async function paidWithoutCallback(cartId?: string): Promise<Paid> {
      const id = cartId ?? (await createCart(api, seed)).id
      const paid = await payWithAltaPay(await startSession(api, seed, id))
      const transactionId = store.sandbox().payment(paid.paymentId)?.transactionId as string
      expect(transactionId).toBeTruthy()
      return { cartId: id, paymentId: paid.paymentId, transactionId, sessionId: await paymentSessionOf(id) }
    }

    /** The merchant in AltaPay's merchant interface: the gateway call, made outside Medusa. */
    async function atBackOffice(operation: "captureReservation" | "refundCapturedReservation" | "releaseReservation", fields: Record<string, string>): Promise<void> {
      const answer = await fetch(`${store.sandbox().url}/merchant/API/${operation}`, {
        method: "POST",
        headers: { authorization: `Basic ${Buffer.from(`${API_USER}:${API_PASSWORD}`).toString("base64")}`, "content-type": "application/x-www-form-urlencoded" },
        body: new URLSearchParams(fields).toString(),
      })
      const text = await answer.text()
      if (!text.includes("<Result>Success</Result>")) throw new Error(`the back office's ${operation} did not go through: ${text.slice(0, 300)}`)
    }

    /** AltaPay's signed post of the customer's return (what the browser coming back makes AltaPay send), to the plugin's return endpoint. */
    async function customerReturns(paymentId: string): Promise<{ status: number; landing: Record<string, string> }> {
      const { status, landing } = await postSignedCustomerReturn(store.medusaUrl(), store.sandbox(), paymentId)
      return { status, landing: landing ? Object.fromEntries(landing) : {} }
    }

    const complete = (cartId: string) => api.post(`/store/carts/${cartId}/complete`, {}, { headers: storeHeaders(seed), ...anyStatus })
    /** What the customer's browser or AltaPay saw: never a 5xx. */
    const answered = (r: { status: number; data?: any }) => ({ status: r.status, fiveHundred: r.status >= 500, message: r.data?.message ?? r.data?.error?.message })

    // ---- (a) the callback reached Medusa, but Medusa failed on it ----

    it("AltaPay's callback arrives but Medusa's processing of it fails (AltaPay answers its look-up 503), the customer never returns: the job places one order of the reservation", async () => {
      const paid = await paidWithoutCallback()
      store.sandbox().faults.add({ route: "payments", kind: "503", times: Infinity })
      const delivered = await store.sandbox().sendCallback(paid.paymentId)
      expect(delivered.status).toBe(200)
      await eventsSettled(container())
      expect(await ordersOf(paid.cartId)).toEqual([])
      // Failing cost the customer nothing: the reservation is still there.
      expect(books(paid.transactionId)).toMatchObject({ status: "preauth", captured: 0 })

      store.sandbox().faults.clear()
      const run = await paymentSessionsJob(container(), afterGrace())
      expect(run.counts).toEqual({ checked: 1, "order placed": 1 })
      await expectOneOrderOf(paid.cartId, paid.transactionId)
      expect(moved("release", paid.transactionId)).toEqual([])
      expect(moved("capture", paid.transactionId)).toEqual([])
    })

    // ---- (c) the late callback, the return and Place order racing the job ----

    it("the customer's return, Place order and the job at the same moment: one order of the reservation, no 5xx, nothing moved", async () => {
      for (let round = 0; round < 2; round++) {
        const paid = await paidWithoutCallback()
        const [ret, placed, run] = await Promise.all([customerReturns(paid.paymentId), complete(paid.cartId), paymentSessionsJob(container(), afterGrace())])
        expect([ret.status, answered(placed).fiveHundred, run.stopped ?? false]).toEqual([303, false, false])
        const order = await expectOneOrderOf(paid.cartId, paid.transactionId)
        if (placed.status === 200) expect(placed.data).toMatchObject({ type: "order", order: { id: order.id } })
        else expect(placed.status).toBeLessThan(500)
        expect(ret.landing).toMatchObject({ outcome: "paid", order_id: order.id })
        expect(moved("release", paid.transactionId)).toEqual([])
      }
      expect(await feed()).toEqual([])
    })

    // ---- (f) the customer comes back after the job ----

    // ---- (b) the cart changed, and was paid again ----

    it("the cart changed after AltaPay took the money and the customer paid the new total too, both callbacks lost: one order of the new total, the old reservation released with a notice", async () => {
      const first = await paidWithoutCallback()
      // The other tab: another tea, then AltaPay again for the new total.
      expect(
        (await api.post(`/store/carts/${first.cartId}/line-items`, { variant_id: seed.products.tea.variantId, quantity: 1 }, { headers: storeHeaders(seed), ...anyStatus })).status
      ).toBe(200)
      const second = await paidWithoutCallback(first.cartId)
      expect(second.sessionId).not.toBe(first.sessionId)
      expect(books(second.transactionId).reserved).toBeGreaterThan(CART_MINOR)

      const runs = []
      for (const minutes of [16, 32, 48]) runs.push((await paymentSessionsJob(container(), at(minutes * MINUTE))).counts)
      await expectOneOrderOf(first.cartId, second.transactionId)
      expect(books(first.transactionId)).toMatchObject({ status: "released", captured: 0 })
      expect(moved("release", first.transactionId)).toHaveLength(1)
      expect(moved("release", second.transactionId)).toEqual([])
      const notices = await feed()
      expect(notices.map((n) => n.title)).toEqual(["AltaPay payment released: no order"])
      expect(notices[0].description).toContain(first.transactionId)
      // The customer's first page answers with no order for the old amount and no 5xx.
      expect((await customerReturns(first.paymentId)).status).toBe(303)
      expect(runs.reduce((n, r) => n + (r["order placed"] ?? 0), 0)).toBe(1)
    })

    // ---- (d) two servers, on a payment AltaPay captured ----

    it("two servers run the job at once on a payment AltaPay already captured in full: one order, Medusa's capture is AltaPay's, booked once, nothing captured again", async () => {
      const paid = await paidWithoutCallback()
      await captureAtAltaPay(store.sandbox(), paid.transactionId)
      store.sandbox().clearLedger()

      const runs = await Promise.all([paymentSessionsJob(container(), afterGrace()), paymentSessionsJob(container(), afterGrace())])
      const total = (outcome: string) => runs.reduce((n, r) => n + (r.counts[outcome] ?? 0), 0)
      expect(total("order placed")).toBe(1)
      const order = await expectOneOrderOf(paid.cartId, paid.transactionId)
      expect(books(paid.transactionId)).toMatchObject({ captured: CART_MINOR })
      // The order shows the money paid once, not twice, and owes nothing.
      expect(order.paidMinor).toBe(CART_MINOR)
      expect(moved("capture", paid.transactionId)).toEqual([])
      expect(moved("release", paid.transactionId)).toEqual([])
    })

    // ---- (e) the merchant moved the money in AltaPay's back office before the job looked ----

    it("part of the reservation captured in AltaPay's back office before the job: the order is placed authorized (Medusa books no capture AltaPay did not make) and the merchant is told how the books meet", async () => {
      const paid = await paidWithoutCallback()
      await atBackOffice("captureReservation", { transaction_id: paid.transactionId, amount: minorToDecimal(10000, "DKK") })
      expect(books(paid.transactionId)).toMatchObject({ reserved: CART_MINOR, captured: 10000 })

      const run = await paymentSessionsJob(container(), afterGrace())
      const orders = await ordersOf(paid.cartId)
      const told = await feed()
      expect({
        run: run.counts,
        medusa: orders.map((o) => o.payments.map((p) => ({ amount: p.amountMinor, captured: p.capturedMinor }))),
        told: told.map((n) => n.title),
      }).toEqual({ run: { checked: 1, "order placed": 1 }, medusa: [[{ amount: CART_MINOR, captured: 0 }]], told: ["AltaPay payment changed outside Medusa"] })
      expect(told[0].description).toContain(`capture in Medusa first the ${minorToDecimal(CART_MINOR - 10000, "DKK")} DKK AltaPay has left`)
    })

    it("captured at AltaPay and then part refunded in its back office before the job: the 243.00 AltaPay keeps becomes an order and the merchant is told of the refund, never a silently retired session", async () => {
      const paid = await paidWithoutCallback()
      await captureAtAltaPay(store.sandbox(), paid.transactionId)
      await atBackOffice("refundCapturedReservation", { transaction_id: paid.transactionId, amount: minorToDecimal(10000, "DKK") })
      expect(books(paid.transactionId)).toMatchObject({ status: "refunded", captured: CART_MINOR, refunded: 10000 })

      const run = await paymentSessionsJob(container(), afterGrace())
      const orders = await ordersOf(paid.cartId)
      const told = await feed()
      expect({ run: run.counts, orders: orders.map((o) => o.payments.map((p) => p.capturedMinor)), told: told.map((n) => n.title) }).toEqual({
        run: { checked: 1, "order placed": 1 },
        orders: [[CART_MINOR]],
        told: ["AltaPay payment changed outside Medusa"],
      })
      expect(told[0].description).toContain("do not repeat it there")
      expect(moved("refund", paid.transactionId)).toHaveLength(1)
    })

    it("the reservation released in AltaPay's back office while the cart is still open: the merchant is told once, no order, and the customer's late Place order and return get no 5xx", async () => {
      const paid = await paidWithoutCallback()
      await atBackOffice("releaseReservation", { transaction_id: paid.transactionId })

      expect((await paymentSessionsJob(container(), afterGrace())).counts).toEqual({ checked: 1, released: 1 })
      const notices = await feed()
      expect(notices.map((n) => n.title)).toEqual(["AltaPay payment released: no order"])
      expect(notices[0].description).toContain(paid.transactionId)

      const [ret, placed] = await Promise.all([customerReturns(paid.paymentId), complete(paid.cartId)])
      expect(answered(placed)).toMatchObject({ fiveHundred: false })
      expect(placed.status).toBeGreaterThanOrEqual(400)
      expect(ret.status).toBe(303)
      expect(ret.landing.outcome).not.toBe("paid")
      expect(await orderForCart(container(), paid.cartId)).toBeUndefined()
      expect((await paymentSessionsJob(container(), at(40 * MINUTE))).counts["released"] ?? 0).toBe(0)
      expect(await feed()).toHaveLength(1)
      expect(moved("release", paid.transactionId)).toHaveLength(1)
    })
  },
})
