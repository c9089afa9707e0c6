/**
 * The scheduled follow-up jobs on a whole store (embedded Postgres, the sandbox over HTTP), with
 * AltaPay's callbacks withheld and the customer never coming back: a paid cart becomes exactly one
 * order one job run later; a paid cart that can no longer be completed, or paid on another
 * terminal of the API user, keeps its reservation and the merchant is told after the job's tries; a reservation is released only when Medusa states
 * nothing will use it (the cart is gone) on two runs a grace period apart; one 503 or a key change
 * never costs a paid customer their order; Open refunds are settled; an unpaid session past its
 * lifetime has its payment page expired. Also the job's own fault cases: AltaPay down during a
 * run, a run interrupted half way, and two runs at the same time (what a second server does; here
 * one process with Medusa's in-memory locking module, which the jobs use as they would Redis').
 *
 * The jobs are called as Medusa's scheduler calls them, with the time the run is scheduled for:
 * a run "16 minutes later" is past the 15-minute grace period.
 */
import type { ILockingModule, INotificationModuleService, IPaymentModuleService, MedusaContainer } from "@medusajs/framework/types"
import { randomBytes } from "node:crypto"
import { ContainerRegistrationKeys, Modules } from "@medusajs/framework/utils"
import { createInventoryLevelsWorkflow, createProductsWorkflow, updateInventoryLevelsWorkflow } from "@medusajs/medusa/core-flows"
import { storeTestRunner } from "../../tools/test-store/store-app/runner"
import openResultsJob from "../../src/jobs/altapay-open-results"
import paymentSessionsJob from "../../src/jobs/altapay-payment-sessions"
import type { AltaPayPaymentData } from "../../src/lib/payment-data/data"
import { canonicalJson, STORED_ORDER } from "../../src/lib/payment-data/canonical-json"
import { createPayment, listPaymentMethods } from "../../src/storefront"
import {
  createAdminUser,
  createAltaPayOrder,
  createCart,
  orderForCart,
  orderPayments,
  payWithAltaPay,
  returnsAfterCallback,
  seedStore,
  startSession,
  storeHeaders,
  waitForOrder,
  type Api,
  type SeededStore,
} from "../../tools/test-store/store"
import { STORE_APP_DIR, useAltaPayStore, WEBHOOK_PROCESSING_DELAY_MS } from "../../tools/test-store/store-app/altapay-store"
import { eventsSettled } from "../../tools/test-store/store-app/events-settled"
import { ALTAPAY_PROVIDER_ID } from "../../tools/store/seed"
import { forgetStrandedNotes } from "../../tools/test-store/stranded-notes"
import { shopOrderIdFor } from "../../src/lib/medusa-mapping/shop-order-id"
import { PAYMENT_METHODS } from "../../src/sandbox/state"

jest.setTimeout(180_000)

const store = useAltaPayStore()

const MINUTE = 60_000
/** A method of another terminal of the API user than the store's (AltaPay lists it for every session). */
const MOBILEPAY = PAYMENT_METHODS.find((m) => m.terminalName === "MobilePay Sandbox Terminal")!
/** A run this long after now: past the default 15-minute grace period. */
const at = (ms: number) => ({ scheduledFor: new Date(Date.now() + ms) })
const afterGrace = () => at(16 * MINUTE)
const anyStatus = { validateStatus: () => true }
const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms))

const ledgerEffects = (type: string, transactionId: string) =>
  store
    .sandbox()
    .ledger()
    .filter((e) => (e.effects ?? []).some((x) => x.type === type && x.transactionId === transactionId && x.result === "Success"))

storeTestRunner({
  cwd: STORE_APP_DIR,
  testSuite: ({ api: rawApi, getContainer }) => {
    const api = rawApi as unknown as Api
    let seed: SeededStore
    let limited: { variantId: string; inventoryItemId: string }
    let admin: { headers: Record<string, string> }

    // Seeded once: the runner restores this state before every test.
    beforeAll(async () => {
      seed = await seedStore(getContainer())
      limited = await limitedProduct(getContainer(), seed)
      admin = await createAdminUser(api, getContainer())
    })
    beforeEach(async () => {
      store.sandbox().setAutoCallbacks(false)
      store.sandbox().clearLedger()
      await forgetStrandedNotes(container())
    })
    afterEach(() => {
      store.sandbox().faults.clear()
      store.sandbox().setAutoCallbacks(true)
    })

    const container = (): MedusaContainer => getContainer()

    /** A cart paid on AltaPay's hosted page; AltaPay's callback never reaches the store and the customer never comes back. */
    async function paidWithoutCallback(options: { limited?: boolean } = {}) {
      const cart = await createCart(api, seed)
      if (options.limited) await api.post(`/store/carts/${cart.id}/line-items`, { variant_id: limited.variantId, quantity: 1 }, { headers: storeHeaders(seed) })
      const session = await startSession(api, seed, cart.id)
      const paid = await payWithAltaPay(session)
      const transactionId = store.sandbox().payment(paid.paymentId)?.transactionId as string
      expect(
        store
          .sandbox()
          .ledger()
          .filter((e) => e.operation === "callback.notification")
      ).toHaveLength(0)
      return { cartId: cart.id as string, paymentId: paid.paymentId, transactionId, sessionId: await paymentSessionOf(cart.id) }
    }

    async function paymentSessionOf(cartId: string): Promise<string> {
      const query = container().resolve(ContainerRegistrationKeys.QUERY)
      const { data } = await query.graph({ entity: "cart", fields: ["payment_collection.payment_sessions.id"], filters: { id: cartId } })
      return (data[0] as { payment_collection: { payment_sessions: Array<{ id: string }> } }).payment_collection.payment_sessions[0].id
    }

    /** What a completion Medusa's engine stopped after making the order leaves (stopped-completion.ts): the cart's order, linked as Medusa links it, and no payment. */
    async function orderLeftByStoppedCompletion(cartId: string): Promise<string> {
      const query = container().resolve(ContainerRegistrationKeys.QUERY)
      const { data } = await query.graph({ entity: "cart", fields: ["email", "currency_code", "region_id", "payment_collection.id"], filters: { id: cartId } })
      const cart = data[0] as { email: string; currency_code: string; region_id: string; payment_collection: { id: string } }
      const [order] = await container()
        .resolve(Modules.ORDER)
        .createOrders([{ email: cart.email, currency_code: cart.currency_code, region_id: cart.region_id, status: "pending" }])
      await container()
        .resolve(ContainerRegistrationKeys.LINK)
        .create([
          { [Modules.ORDER]: { order_id: order.id }, [Modules.CART]: { cart_id: cartId } },
          { [Modules.ORDER]: { order_id: order.id }, [Modules.PAYMENT]: { payment_collection_id: cart.payment_collection.id } },
        ])
      return order.id
    }

    const stockGone = () =>
      updateInventoryLevelsWorkflow(container()).run({
        input: { updates: [{ inventory_item_id: limited.inventoryItemId, location_id: seed.stockLocation.id, stocked_quantity: 0 }] },
      })
    /** The customer's cart is deleted: Medusa states that nothing will use its payment. */
    const cartGone = (cartId: string) => container().resolve(Modules.CART).softDeleteCarts([cartId])
    const transactionStatus = (transactionId: string) => store.sandbox().transaction(transactionId)!.status
    const feed = () => container().resolve<INotificationModuleService>(Modules.NOTIFICATION).listNotifications({ channel: "feed" })
    const sessionExists = async (id: string) => (await container().resolve<IPaymentModuleService>(Modules.PAYMENT).listPaymentSessions({ id })).length > 0

    it("callback lost, customer gone: one run after the grace period there is exactly one order, its payment authorized by the job", async () => {
      const paid = await paidWithoutCallback()
      // Within the grace period the callback and the customer are left to it.
      expect((await paymentSessionsJob(container())).counts.checked ?? 0).toBe(0)
      expect(await orderForCart(container(), paid.cartId)).toBeUndefined()

      const run = await paymentSessionsJob(container(), afterGrace())
      expect(run.counts).toEqual({ checked: 1, "order placed": 1 })
      expect(run.line).toMatch(/^AltaPay follow-up of payment sessions: checked 1 of pp_altapay_altapay: 1 order placed$/)
      const order = await orderForCart(container(), paid.cartId)
      const payments = await orderPayments(container(), order!.id)
      expect(payments).toHaveLength(1)
      expect(payments[0].captured_at ?? null).toBeNull()
      expect(payments[0].data).toMatchObject({ transaction_id: paid.transactionId, transaction_status: "preauth", reconciled: { by: "job" } })

      // The lost callback turns up after all: still one order, one payment.
      store.sandbox().setAutoCallbacks(true)
      expect((await store.sandbox().sendCallback(paid.paymentId)).status).toBe(200)
      await eventsSettled(container())
      expect(await orderForCart(container(), paid.cartId)).toEqual(order)
      expect(await orderPayments(container(), order!.id)).toHaveLength(1)
      expect((await paymentSessionsJob(container(), afterGrace())).counts.checked ?? 0).toBe(0)
    })

    it("the payment records what reconciled it: the callback when it made the order", async () => {
      store.sandbox().setAutoCallbacks(true)
      const cart = await createCart(api, seed)
      const release = returnsAfterCallback(store.sandbox(), container(), cart.id)
      await payWithAltaPay(await startSession(api, seed, cart.id)).finally(release)
      const order = await waitForOrder(container(), cart.id, WEBHOOK_PROCESSING_DELAY_MS + 15_000)
      const [payment] = await orderPayments(container(), order.id)
      expect(payment.data.reconciled).toMatchObject({ by: "callback" })
    })

    /** The job's runs until it tells the merchant: tries at 16 min, then backing off 5, 10, 20, 40 minutes (the 5-minute interval doubling). */
    async function runsUntilTold() {
      const runs = []
      for (const minutes of [16, 18, 22, 32, 52, 92]) runs.push((await paymentSessionsJob(container(), at(minutes * MINUTE))).counts)
      expect(runs).toEqual([
        { checked: 1, "retried later": 1 },
        { checked: 1, "backing off": 1 },
        { checked: 1, "retried later": 1 },
        { checked: 1, "retried later": 1 },
        { checked: 1, "retried later": 1 },
        { checked: 1, "retried later": 1 },
      ])
    }

    it("a paid cart that can no longer be completed: nothing is released; the job keeps trying and tells the merchant after its tries", async () => {
      const paid = await paidWithoutCallback({ limited: true })
      await stockGone()

      await runsUntilTold()
      expect(await orderForCart(container(), paid.cartId)).toBeUndefined()
      expect(transactionStatus(paid.transactionId)).toBe("preauth")
      expect(ledgerEffects("release", paid.transactionId)).toHaveLength(0)
      expect(await sessionExists(paid.sessionId)).toBe(true)
      const notices = await feed()
      expect(notices).toHaveLength(1)
      expect(notices[0].data).toMatchObject({ title: "AltaPay payment needs attention" })
      expect(notices[0].data!.description).toMatch(
        new RegExp(`paid [0-9.]+ DKK for cart ${paid.cartId} \\(karen@example.com\\) \\(AltaPay transaction ${paid.transactionId}\\).*Not enough stock.*keeps trying`)
      )
      // Told once; the job goes on trying (it would place the order once restocked).
      expect((await paymentSessionsJob(container(), at(200 * MINUTE))).counts).toEqual({ checked: 1, "retried later": 1 })
      expect(await feed()).toHaveLength(1)
    })

    it("a completion stopped before authorizing (the cart's order without its payment, the cart's lock still taken): the payment is kept for that order and recorded on it", async () => {
      const paid = await paidWithoutCallback()
      const orderId = await orderLeftByStoppedCompletion(paid.cartId)
      const locking = container().resolve<ILockingModule>(Modules.LOCKING)
      await locking.acquire(paid.cartId, { ownerId: "stopped-completion", expire: 120 })

      // Not recordable while the lock is taken (the job waits 30 s for it); the order still waits on this payment.
      expect((await paymentSessionsJob(container(), afterGrace())).counts).toEqual({ checked: 1, "retried later": 1 })
      await locking.release(paid.cartId, { ownerId: "stopped-completion" })
      expect((await paymentSessionsJob(container(), at(40 * MINUTE))).counts).toEqual({ checked: 1, "order placed": 1 })
      expect(ledgerEffects("release", paid.transactionId)).toHaveLength(0)
      expect((await orderPayments(container(), orderId)).map((p) => p.data.transaction_id)).toEqual([paid.transactionId])
      expect(await feed()).toHaveLength(0)
    })

    it("a payment on another terminal of the API user (the storefront helper's allTerminals): no order, nothing released; the merchant is told why", async () => {
      const cart = await createCart(api, seed)
      const paid = await payWithAltaPay(await startSession(api, seed, cart.id), { methodId: MOBILEPAY.id })
      const transactionId = store.sandbox().payment(paid.paymentId)?.transactionId as string
      expect(transactionStatus(transactionId)).toBe("preauth")

      await runsUntilTold()
      expect(await orderForCart(container(), cart.id)).toBeUndefined()
      expect(ledgerEffects("release", transactionId)).toHaveLength(0)
      const notices = await feed()
      expect(notices.map((n) => n.data!.title)).toEqual(["AltaPay payment needs attention"])
      expect(notices[0].data!.description).toMatch(
        new RegExp(`AltaPay transaction ${transactionId}\\).*paid on terminal "MobilePay Sandbox Terminal", not on this registration's \\("AltaPay Sandbox Test Terminal"\\)`)
      )
    })

    it("a paid cart that is gone: released only when a second run a grace period later still finds it gone, and the merchant sees why", async () => {
      const paid = await paidWithoutCallback()
      await cartGone(paid.cartId)

      expect((await paymentSessionsJob(container(), afterGrace())).counts).toEqual({ checked: 1, "confirming unused": 1 })
      expect((await paymentSessionsJob(container(), at(25 * MINUTE))).counts).toEqual({ checked: 1, "confirming unused": 1 })
      expect(transactionStatus(paid.transactionId)).toBe("preauth")

      const run = await paymentSessionsJob(container(), at(32 * MINUTE))
      expect(run.counts).toEqual({ checked: 1, released: 1 })
      expect(transactionStatus(paid.transactionId)).toBe("released")
      expect(ledgerEffects("release", paid.transactionId)).toHaveLength(1)
      const notices = await feed()
      expect(notices).toHaveLength(1)
      expect(notices[0].data).toMatchObject({ title: "AltaPay payment released: no order" })
      expect(notices[0].data!.description).toMatch(new RegExp(`is gone.*AltaPay transaction ${paid.transactionId}`))
      expect(await sessionExists(paid.sessionId)).toBe(false)
      expect((await paymentSessionsJob(container(), at(60 * MINUTE))).counts.checked ?? 0).toBe(0)
    })

    /** What the storefront does when the shopper picks a payment method again: Medusa deletes the cart's sessions and makes a new one. */
    async function newSessionFor(cartId: string): Promise<void> {
      const query = container().resolve(ContainerRegistrationKeys.QUERY)
      const { data } = await query.graph({ entity: "cart", fields: ["payment_collection.id"], filters: { id: cartId } })
      const collectionId = (data[0] as { payment_collection: { id: string } }).payment_collection.id
      await api.post(`/store/payment-collections/${collectionId}/payment-sessions`, { provider_id: ALTAPAY_PROVIDER_ID }, { headers: storeHeaders(seed) })
    }

    it("a paid session Medusa deleted is kept while anything may use it, released after two runs a grace period apart, and the merchant told", async () => {
      const paid = await paidWithoutCallback()
      await newSessionFor(paid.cartId)
      expect(await sessionExists(paid.sessionId)).toBe(false)
      // Deleting it released nothing: a completion might have been authorizing it at that moment.
      expect(transactionStatus(paid.transactionId)).toBe("preauth")

      expect((await paymentSessionsJob(container(), afterGrace())).counts).toMatchObject({ "retired session: confirming unused": 1 })
      expect(transactionStatus(paid.transactionId)).toBe("preauth")
      expect((await paymentSessionsJob(container(), at(32 * MINUTE))).counts).toMatchObject({ "retired session: released": 1 })
      expect(transactionStatus(paid.transactionId)).toBe("released")
      expect(ledgerEffects("release", paid.transactionId)).toHaveLength(1)
      const notices = await feed()
      expect(notices.map((n) => n.data!.title)).toEqual(["AltaPay payment released: no order"])
      expect(notices[0].data!.description).toMatch(new RegExp(`Medusa deleted payment session ${paid.sessionId}`))
      expect((await paymentSessionsJob(container(), at(60 * MINUTE))).counts["retired session: released"]).toBeUndefined()
    })

    it("a new session racing the cart's completion never costs the order its reservation, whatever the timing", async () => {
      // Medusa deletes the old session without the cart's lock, and the shopper's "Place order"
      // arrives while that delete is still under way. AltaPay answers the delete's look-up after 1 s
      // and takes 3 s more over a release (as the provider once made there), so a completion that
      // starts between the two reads the reservation, authorizes it and makes its payment after the
      // delete found "no payment", and before that release lands.
      const outcomes: Array<{ delayMs: number; order: boolean; status: string }> = []
      for (const delayMs of [0, 1_200, 2_000]) {
        const paid = await paidWithoutCallback()
        store.sandbox().faults.add({ route: "payments", kind: "latency", ms: 1_000, times: 1 })
        store.sandbox().faults.add({ route: "releaseReservation", kind: "latency", ms: 3_000, times: 1 })
        const replacing = newSessionFor(paid.cartId).catch(() => undefined)
        await sleep(delayMs)
        await api.post(`/store/carts/${paid.cartId}/complete`, {}, { headers: storeHeaders(seed), ...anyStatus })
        await replacing
        store.sandbox().faults.clear()
        await paymentSessionsJob(container(), afterGrace())
        await paymentSessionsJob(container(), at(32 * MINUTE))
        const order = await orderForCart(container(), paid.cartId)
        const withPayment = !!order && (await orderPayments(container(), order.id)).length > 0
        outcomes.push({ delayMs, order: withPayment, status: transactionStatus(paid.transactionId) })
      }
      // An order's reservation is never released; a reservation no order took is given back.
      expect(outcomes).toEqual(outcomes.map(({ delayMs, order }) => ({ delayMs, order, status: order ? "preauth" : "released" })))
    })

    it("a payment still open at AltaPay is never retired: followed past the session lifetime, the merchant told once, the order placed when it concludes", async () => {
      const cart = await createCart(api, seed)
      const session = await startSession(api, seed, cart.id)
      const open = await store.sandbox().simulatePayment(session.sessionId, { outcome: "open", callback: false })
      const sessionId = await paymentSessionOf(cart.id)

      expect((await paymentSessionsJob(container(), at(25 * 60 * MINUTE))).counts).toEqual({ checked: 1, "open at AltaPay": 1 })
      expect((await paymentSessionsJob(container(), at(26 * 60 * MINUTE))).counts).toEqual({ checked: 1, "open at AltaPay": 1 })
      expect(await sessionExists(sessionId)).toBe(true)
      expect((await feed()).map((n) => n.data!.title)).toEqual(["AltaPay payment still pending"])

      store.sandbox().concludeOpenPayment(open.transactionId!, "authorize")
      expect((await paymentSessionsJob(container(), at(27 * 60 * MINUTE))).counts).toEqual({ checked: 1, "order placed": 1 })
      expect(await orderForCart(container(), cart.id)).toBeDefined()
    })

    it("one 503 on a payment link's authorization, then the job: the reservation is kept and the next run records the payment on the order", async () => {
      const link = await orderPaymentLink()
      const transactionId = (await store.sandbox().simulatePayment(link.altapay_session_id, { callback: false })).transactionId!
      // The job's own look-up gets through; the authorization's look-up (and its retries) meet 503s.
      store.sandbox().faults.add({ route: "payments", kind: "503", skip: 1, times: 3 })

      const first = await paymentSessionsJob(container(), afterGrace())
      expect(first.counts.released ?? 0).toBe(0)
      expect(await sessionExists(link.payment_session_id)).toBe(true)
      expect(ledgerEffects("release", transactionId)).toHaveLength(0)
      expect(transactionStatus(transactionId)).toBe("preauth")
      expect(await feed()).toHaveLength(0)

      store.sandbox().faults.clear()
      expect((await paymentSessionsJob(container(), at(40 * MINUTE))).counts).toEqual({ checked: 1, "payment recorded": 1 })
      const payments = await orderPayments(container(), link.orderId)
      expect(payments.find((p) => p.payment_session_id === link.payment_session_id)).toMatchObject({ data: { transaction_status: "preauth" } })
    })

    it("one 503 on a cart's authorization, then the job: the reservation is kept and the next run places the order", async () => {
      const paid = await paidWithoutCallback()
      store.sandbox().faults.add({ route: "payments", kind: "503", skip: 1, times: Infinity })

      // AltaPay is down for this run: it stops, and nothing is released.
      const first = await paymentSessionsJob(container(), afterGrace())
      expect([first.stopped, first.counts.released ?? 0]).toEqual([true, 0])
      expect(transactionStatus(paid.transactionId)).toBe("preauth")
      expect(await sessionExists(paid.sessionId)).toBe(true)

      store.sandbox().faults.clear()
      expect((await paymentSessionsJob(container(), at(40 * MINUTE))).counts).toEqual({ checked: 1, "order placed": 1 })
      expect(await orderPayments(container(), (await orderForCart(container(), paid.cartId))!.id)).toHaveLength(1)
    })

    it("a key change, then the job: a paid session sealed under the old key becomes its order, checked against Medusa's own amount", async () => {
      const paid = await paidWithoutCallback()
      await resealWithAnotherKey(paid.sessionId)

      expect((await paymentSessionsJob(container(), afterGrace())).counts).toEqual({ checked: 1, "order placed": 1 })
      const order = await orderForCart(container(), paid.cartId)
      const [payment] = await orderPayments(container(), order!.id)
      expect(payment.data).toMatchObject({ transaction_id: paid.transactionId, order_id: shopOrderIdFor(paid.sessionId), reconciled: { by: "job" } })
      expect(transactionStatus(paid.transactionId)).toBe("preauth")
    })

    /** The session's data as sealed by a server with another key (before paymentDataSecret changed). */
    async function resealWithAnotherKey(sessionId: string) {
      const knex = container().resolve(ContainerRegistrationKeys.PG_CONNECTION)
      const [row] = await knex("payment_session").select("data").where({ id: sessionId })
      // Postgres's jsonb hands the fields back in the seal's order, so opening them needs no sort (seal v2).
      const { altapay_seal: _seal, ...fields } = row.data
      expect(JSON.stringify(fields)).toBe(canonicalJson(fields, STORED_ORDER))
      const data = { ...row.data, altapay_seal: row.data.altapay_seal.replace(/[^.]+$/, randomBytes(32).toString("base64url")) }
      await knex("payment_session").update({ data }).where({ id: sessionId })
    }

    /** An order with an amount due (the merchant added a tea by phone) and an AltaPay payment link for it. */
    async function orderPaymentLink() {
      const order = await createAltaPayOrder(api, seed, container(), store.sandbox())
      expect((await api.post(`/admin/payments/${order.paymentId}/capture`, {}, { headers: admin.headers })).status).toBe(200)
      await api.post("/admin/order-edits", { order_id: order.orderId }, { headers: admin.headers })
      await api.post(`/admin/order-edits/${order.orderId}/items`, { items: [{ variant_id: seed.products.tea.variantId, quantity: 1 }] }, { headers: admin.headers })
      await api.post(`/admin/order-edits/${order.orderId}/request`, {}, { headers: admin.headers })
      await api.post(`/admin/order-edits/${order.orderId}/confirm`, {}, { headers: admin.headers })
      const { data } = await api.post("/admin/altapay/payment-links", { order_id: order.orderId }, { headers: admin.headers })
      store.sandbox().clearLedger()
      return { ...(data as { payment_session_id: string; altapay_session_id: string }), orderId: order.orderId }
    }

    it("Open refunds are followed up until AltaPay settles them: succeeded, or failed with the reason, in the admin panel", async () => {
      const order = await createAltaPayOrder(api, seed, container(), store.sandbox())
      expect((await api.post(`/admin/payments/${order.paymentId}/capture`, {}, { headers: admin.headers, ...anyStatus })).status).toBe(200)
      store.sandbox().faults.add({ route: "refundCapturedReservation", kind: "open", times: 2 })
      for (const amount of [10, 5]) expect((await api.post(`/admin/payments/${order.paymentId}/refund`, { amount }, { headers: admin.headers, ...anyStatus })).status).toBe(200)
      const paymentData = async () => (await orderPayments(container(), order.orderId))[0].data as AltaPayPaymentData
      const before = await paymentData()
      expect(before.refunds.map((r) => r.status)).toEqual(["open", "open"])
      expect(before).toMatchObject({ awaiting_altapay: true, reconciled: { by: "return" } })
      const [first, second] = before.refunds.map((r) => r.reconciliation_identifier)
      const transactionId = before.transaction_id!

      // AltaPay completes the first refund; nobody reads the payment.
      store.sandbox().settleOpen(transactionId, "success", first)
      const run = await openResultsJob(container())
      expect(run.counts).toEqual({ checked: 1, "settled as done": 1, "still open": 1 })
      const settled = await paymentData()
      expect(settled.refunds.map((r) => [r.reconciliation_identifier, r.status])).toEqual([
        [first, "succeeded"],
        [second, "open"],
      ])
      expect(settled).toMatchObject({ refunded_minor: 1000, awaiting_altapay: true, reconciled: { by: "job" } })

      // AltaPay never completes the second: after the timeout it is recorded as failed.
      store.sandbox().settleOpen(transactionId, "fail", second)
      expect((await openResultsJob(container(), at(60 * MINUTE))).counts).toEqual({ checked: 1, "still open": 1 })
      expect((await openResultsJob(container(), at(73 * 60 * MINUTE))).counts).toEqual({ checked: 1, "recorded as failed": 1 })
      const failed = await paymentData()
      expect(failed.refunds[1]).toMatchObject({ status: "failed", failure_reason: expect.stringContaining(`reconciliation identifier ${second}`) })
      expect(failed.awaiting_altapay).toBe(false)
      expect(ledgerEffects("refund", transactionId)).toHaveLength(1)

      const { data } = await api.get(`/admin/altapay/payments/${order.paymentId}`, { headers: admin.headers })
      expect(data.altapay_payment.refunds.map((r: { status: string }) => r.status)).toEqual(["succeeded", "failed"])
      expect(data.altapay_payment.refunds[1].failure_reason).toMatch(/still does not show this refund after 72 h/)
      expect(data.altapay_payment.reconciled).toMatchObject({ by: "job" })
      expect((await openResultsJob(container())).counts.checked ?? 0).toBe(0)
    })

    it("an unpaid session past its lifetime is retired: its AltaPay payment page no longer takes the old amount", async () => {
      const cart = await createCart(api, seed)
      const session = await startSession(api, seed, cart.id)
      const methods = await listPaymentMethods(session)
      const page = await createPayment(session, methods[0].id)
      const sessionId = await paymentSessionOf(cart.id)

      expect((await paymentSessionsJob(container(), afterGrace())).counts).toEqual({ checked: 1, waiting: 1 })
      expect((await paymentSessionsJob(container(), at(25 * 60 * MINUTE))).counts).toEqual({ checked: 1, expired: 1 })
      expect(await sessionExists(sessionId)).toBe(false)
      expect((await fetch(page.redirectUrl)).status).toBe(410)
    })

    describe("fault matrix of the job", () => {
      it("AltaPay down during the run: it stops early, changes nothing, and the next run places each order once", async () => {
        const first = await paidWithoutCallback()
        const second = await paidWithoutCallback()
        store.sandbox().faults.add({ route: "payments", kind: "503", times: Infinity })

        const down = await paymentSessionsJob(container(), afterGrace())
        expect(down.stopped).toBe(true)
        expect(down.counts).toEqual({ checked: 2 })
        expect(down.line).toMatch(/stopped early, the rest is tried next run: .*503/)
        // Stopped at the first session: its look-up (and the client's retries), no more.
        expect(
          new Set(
            store
              .sandbox()
              .ledger()
              .filter((e) => e.operation === "payments")
              .map((e) => (e.params as { shop_orderid?: string }).shop_orderid)
          ).size
        ).toBe(1)
        expect(await orderForCart(container(), first.cartId)).toBeUndefined()

        store.sandbox().faults.clear()
        expect((await paymentSessionsJob(container(), afterGrace())).counts).toEqual({ checked: 2, "order placed": 2 })
        for (const { cartId } of [first, second]) expect(await orderPayments(container(), (await orderForCart(container(), cartId))!.id)).toHaveLength(1)
      })

      it("a run interrupted after releasing: the next run tells the merchant, once, and nothing is released twice", async () => {
        const paid = await paidWithoutCallback()
        await cartGone(paid.cartId)
        expect((await paymentSessionsJob(container(), afterGrace())).counts).toEqual({ checked: 1, "confirming unused": 1 })
        // AltaPay releases but its answer is lost, and the look-up that would confirm it fails.
        store.sandbox().faults.add({ route: "releaseReservation", kind: "lost-answer" })
        store.sandbox().faults.add({ route: "payments", kind: "503", skip: 1, times: Infinity })

        const interrupted = await paymentSessionsJob(container(), at(32 * MINUTE))
        expect(interrupted.stopped).toBe(true)
        expect(store.sandbox().transaction(paid.transactionId)!.status).toBe("released")
        expect(await feed()).toHaveLength(0)
        expect(await sessionExists(paid.sessionId)).toBe(true)

        store.sandbox().faults.clear()
        expect((await paymentSessionsJob(container(), at(33 * MINUTE))).counts).toEqual({ checked: 1, released: 1 })
        const notices = await feed()
        expect(notices).toHaveLength(1)
        expect(notices[0].data!.description).toMatch(/is gone/)
        expect(ledgerEffects("release", paid.transactionId)).toHaveLength(1)
        expect(await orderForCart(container(), paid.cartId)).toBeUndefined()
        expect(await sessionExists(paid.sessionId)).toBe(false)
      })

      it("two servers running the job at the same time: one order, one release, one notice", async () => {
        const stuck = await paidWithoutCallback()
        await cartGone(stuck.cartId)
        expect((await paymentSessionsJob(container(), afterGrace())).counts).toEqual({ checked: 1, "confirming unused": 1 })
        const completable = await paidWithoutCallback()

        const runs = await Promise.all([paymentSessionsJob(container(), at(32 * MINUTE)), paymentSessionsJob(container(), at(32 * MINUTE))])
        const total = (outcome: string) => runs.reduce((sum, r) => sum + (r.counts[outcome] ?? 0), 0)
        expect([total("order placed"), total("released")]).toEqual([1, 1])
        expect(total("busy on another server") + total("settled meanwhile")).toBe(2)

        const order = await orderForCart(container(), completable.cartId)
        expect(await orderPayments(container(), order!.id)).toHaveLength(1)
        expect(await orderForCart(container(), stuck.cartId)).toBeUndefined()
        expect(ledgerEffects("release", stuck.transactionId)).toHaveLength(1)
        expect(await feed()).toHaveLength(1)
        // Whatever runs next finds nothing left to do.
        expect((await paymentSessionsJob(container(), at(33 * MINUTE))).counts.checked ?? 0).toBe(0)
      })
    })
  },
})

/** A product with one item in stock at the seeded location (the seeded ones are not stock-managed). */
async function limitedProduct(container: MedusaContainer, seed: SeededStore): Promise<{ variantId: string; inventoryItemId: string }> {
  const { result } = await createProductsWorkflow(container).run({
    input: {
      products: [
        {
          title: "Limited print",
          handle: "limited-print",
          status: "published",
          shipping_profile_id: seed.shippingProfile.id,
          options: [{ title: "Size", values: ["A3"] }],
          variants: [{ title: "A3", sku: "PRINT-A3", options: { Size: "A3" }, manage_inventory: true, prices: [{ currency_code: seed.currency, amount: 120 }] }],
          sales_channels: [{ id: seed.salesChannel.id }],
        },
      ],
    },
  })
  const variantId = result[0].variants[0].id
  const query = container.resolve(ContainerRegistrationKeys.QUERY)
  const { data } = await query.graph({ entity: "variant", fields: ["inventory_items.inventory_item_id"], filters: { id: variantId } })
  const inventoryItemId = (data[0] as { inventory_items: Array<{ inventory_item_id: string }> }).inventory_items[0].inventory_item_id
  await createInventoryLevelsWorkflow(container).run({
    input: { inventory_levels: [{ inventory_item_id: inventoryItemId, location_id: seed.stockLocation.id, stocked_quantity: 5 }] },
  })
  return { variantId, inventoryItemId }
}
