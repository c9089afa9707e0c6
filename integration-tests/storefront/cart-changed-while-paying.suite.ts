/**
 * A customer who changes the cart while paying: AltaPay's payment page is open in one tab, and in
 * another the customer adds an item, changes a quantity, applies or removes a promotion code, or
 * moves the shipping address to where another tax rate applies. Medusa refreshes the cart's payment
 * collection (a new total deletes its payment sessions; the same total keeps them), and the customer
 * then finishes the payment on the OLD page; AltaPay's callback (POST /hooks/payment/altapay_altapay),
 * the customer's return (POST /altapay/return/altapay/success) and the storefront's
 * POST /store/carts/:id/complete follow, in either order, or at once. What a merchant relies on:
 *
 * - no order is placed for an amount AltaPay did not reserve: an order's total, its payment and
 *   AltaPay's reservation are the same figure, to the øre;
 * - money reserved on a session that no longer fits its cart is never left reserved and forgotten:
 *   the follow-up job (src/lib/follow-up, docs/operator.md) releases it, once, and tells the merchant;
 * - when the old payment still fits (the change kept the total), exactly one order is placed, however
 *   many tabs complete at once;
 * - the customer gets a 4xx with a message, never a 5xx.
 *
 * The cart: 2 coffee (89.95) + 1 tea (45.50) + shipping 49.00, 25 % VAT: 343.00 DKK.
 */
import type { INotificationModuleService, MedusaContainer } from "@medusajs/framework/types"
import { ContainerRegistrationKeys, Modules } from "@medusajs/framework/utils"
import { createTaxRegionsWorkflow } from "@medusajs/medusa/core-flows"
import { storeSuite } from "../../tools/test-store/store-app/runner"
import { postSignedCustomerReturn } from "../../tools/test-store/customer-return"
import { altapayStore } from "../../tools/test-store/store-app/altapay-store"
import { eventsSettled } from "../../tools/test-store/store-app/events-settled"
import {
  createAdminUser,
  createCart,
  orderIdsOfCart,
  payWithAltaPay,
  seedStore,
  startSession,
  storeHeaders,
  submitPaymentPage,
  type Api,
  type ApiResponse,
  type SeededStore,
} from "../../tools/test-store/store"
import { createPayment, listPaymentMethods, type AltaPaySession } from "../../src/storefront"
import paymentSessionsJob from "../../src/jobs/altapay-payment-sessions"
import { StrandedSessions } from "../../src/lib/follow-up/stranded"
import { altapayRegistrations } from "../../src/lib/registrations/registrations"
import { toMinorUnits } from "../../src/lib/medusa-mapping/amounts"

const store = altapayStore()

const MINUTE = 60_000
const at = (ms: number) => ({ scheduledFor: new Date(Date.now() + ms) })
const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms))
const dkk = (amount: unknown) => toMinorUnits(amount as never, "DKK")
const anyStatus = { validateStatus: () => true }
/** The cart before any change: 343.00 DKK. */
const CART_MINOR = 34300

export default storeSuite({
  testSuite: ({ api: rawApi, getContainer }) => {
    const api = rawApi as unknown as Api
    const container = (): MedusaContainer => getContainer()
    let seed: SeededStore
    let admin: { headers: Record<string, string> }
    beforeAll(async () => {
      admin = await createAdminUser(api, getContainer())
      seed = await seedStore(getContainer(), { promotion: { code: "TEN", percent: 10 } })
    })
    beforeEach(async () => {
      store.sandbox().clearLedger()
      // The database is restored before each test, Medusa's cache is not: an earlier test's notes of retired sessions go too.
      for (const registration of altapayRegistrations(container())) {
        const notes = new StrandedSessions(registration.store, registration.scaleOut.paymentLock, registration.options.providerId)
        for (const id of await notes.list(0, 10_000)) await notes.forget(id)
      }
    })
    afterEach(() => store.sandbox().faults.clear())

    const headers = () => ({ headers: storeHeaders(seed), ...anyStatus })
    const addTea = (cartId: string) => api.post(`/store/carts/${cartId}/line-items`, { variant_id: seed.products.tea.variantId, quantity: 1 }, headers())
    const complete = (cartId: string) => api.post(`/store/carts/${cartId}/complete`, {}, headers())
    /**
     * Medusa's own add-to-cart waits 2 s for the cart's lock (core-flows add-to-cart: acquireLockStep
     * timeout 2) and, while a completion holds it longer, throws "Failed to acquire lock", which its
     * error handler answers as a 500 unknown_error: Medusa's answer to a cart being completed, not the
     * plugin's (seen in clean-clone runs on a loaded machine).
     */
    const lockedByCompletion = (r: ApiResponse) => r.status === 500 && r.data?.type === "unknown_error"

    /** The customer's tab on AltaPay: a session for the cart, paid on its page (AltaPay reserved it), the store not told yet. */
    async function paidOnThePage(cartId: string, session?: AltaPaySession) {
      session ??= await startSession(api, seed, cartId)
      const paid = await payWithAltaPay(session, { sandbox: store.sandbox(), callback: false })
      const transactionId = store.sandbox().payment(paid.paymentId)!.transactionId as string
      return { session, paymentId: paid.paymentId, transactionId }
    }

    /** AltaPay's notification callback, and Medusa's processing of it (5 s after it arrived). */
    async function callback(paymentId: string, wait = true) {
      const delivered = await store.sandbox().sendCallback(paymentId)
      if (wait) await eventsSettled(container())
      return delivered.status
    }

    /** AltaPay's signed post of the customer's return: the status and, for a 303, where the customer lands. */
    async function customerReturn(paymentId: string) {
      const { status, landing } = await postSignedCustomerReturn(store.medusaUrl(), store.sandbox(), paymentId)
      return { status, outcome: landing?.get("outcome") ?? null }
    }

    /** Every order of the cart, each with its total, its payments and the AltaPay reservation behind each payment. */
    async function ordersOf(cartId: string) {
      const query = container().resolve(ContainerRegistrationKeys.QUERY)
      const ids = await orderIdsOfCart(container(), cartId)
      if (!ids.length) return []
      const { data } = await query.graph({
        entity: "order",
        fields: ["id", "total", "payment_collections.amount", "payment_collections.payments.amount", "payment_collections.payments.data"],
        filters: { id: ids },
      })
      return (data as Array<{ id: string; total: unknown; payment_collections?: Array<{ payments?: Array<{ amount: unknown; data: Record<string, unknown> }> }> }>).map((o) => {
        const payments = (o.payment_collections ?? []).flatMap((c) => c.payments ?? [])
        return {
          id: o.id,
          totalMinor: dkk(o.total),
          payments: payments.map((p) => {
            const t = store.sandbox().transaction(String(p.data.transaction_id))
            return { amountMinor: dkk(p.amount), reservedMinor: t?.reservedMinor, status: t?.status }
          }),
        }
      })
    }

    /** The cart's one order: its total, its one payment and AltaPay's reservation are `minor`, reserved and not released. */
    async function expectOneOrderFor(cartId: string, minor: number) {
      const orders = await ordersOf(cartId)
      expect(orders.map((o) => ({ totalMinor: o.totalMinor, payments: o.payments }))).toEqual([
        { totalMinor: minor, payments: [{ amountMinor: minor, reservedMinor: minor, status: "preauth" }] },
      ])
      return orders[0].id
    }

    const status = (transactionId: string) => store.sandbox().transaction(transactionId)!.status
    const releases = (transactionId: string) =>
      store
        .sandbox()
        .ledger()
        .flatMap((e) => e.effects ?? [])
        .filter((f) => f.type === "release" && f.transactionId === transactionId && f.result === "Success")
    const feed = async () => (await container().resolve<INotificationModuleService>(Modules.NOTIFICATION).listNotifications({ channel: "feed" })).map((n) => String(n.data?.title))

    /** Two runs of the follow-up job a grace period apart (what it needs to release a reservation nothing will use). */
    async function followUp() {
      await paymentSessionsJob(container(), at(16 * MINUTE))
      await paymentSessionsJob(container(), at(32 * MINUTE))
    }

    /** A reservation no order took: released once by the follow-up job, and the merchant told. */
    async function expectReleasedByFollowUp(transactionId: string) {
      // Nothing released while the customer may still be completing.
      expect(status(transactionId)).toBe("preauth")
      await followUp()
      expect({ status: status(transactionId), releases: releases(transactionId).length }).toEqual({ status: "released", releases: 1 })
      expect(await feed()).toContain("AltaPay payment released: no order")
      await paymentSessionsJob(container(), at(64 * MINUTE))
      expect(releases(transactionId)).toHaveLength(1)
    }

    /** The storefront's "Place order" after the change: a 4xx with a message, no order. */
    async function expectRefusedCompletion(cartId: string) {
      const r = await complete(cartId)
      // Medusa's own refusal (the cart has no payment session left to authorize), never a 5xx or an order.
      expect({ status: r.status, message: r.data?.message }).toEqual({ status: 400, message: expect.stringMatching(/\w/) })
      expect(r.data?.type).not.toBe("order")
      return r
    }

    it("an item added after paying on the old page, before AltaPay's callback: no order for the old amount, a 400, the reservation released by the job", async () => {
      const cart = await createCart(api, seed, { promotion: false })
      expect(dkk(cart.total)).toBe(CART_MINOR)
      const paid = await paidOnThePage(cart.id)

      expect((await addTea(cart.id)).status).toBe(200)
      expect(await callback(paid.paymentId)).toBe(200)
      const back = await customerReturn(paid.paymentId)
      expect(back.status).toBe(303)
      expect(back.outcome).not.toBe("paid")
      await expectRefusedCompletion(cart.id)
      expect(await ordersOf(cart.id)).toEqual([])
      await expectReleasedByFollowUp(paid.transactionId)
    })

    it("the callback arrives, then the cart changes before Medusa processes it: no order, a 400, the reservation released by the job", async () => {
      const cart = await createCart(api, seed, { promotion: false })
      const paid = await paidOnThePage(cart.id)

      expect(await callback(paid.paymentId, false)).toBe(200)
      const changed = await api.post(`/store/carts/${cart.id}/line-items/${cart.items[0].id}`, { quantity: 3 }, headers())
      expect(changed.status).toBe(200)
      await eventsSettled(container())
      expect(await ordersOf(cart.id)).toEqual([])
      const back = await customerReturn(paid.paymentId)
      expect(back.outcome).not.toBe("paid")
      await expectRefusedCompletion(cart.id)
      await expectReleasedByFollowUp(paid.transactionId)
    })

    it("the callback processed before the cart change: the order is AltaPay's reservation; the later change and completion are answered without a 5xx", async () => {
      const cart = await createCart(api, seed, { promotion: false })
      const paid = await paidOnThePage(cart.id)
      expect(await callback(paid.paymentId)).toBe(200)
      const orderId = await expectOneOrderFor(cart.id, CART_MINOR)

      const added = await addTea(cart.id)
      expect(added.status).toBe(400)
      expect(added.data.message).toMatch(/completed/)
      const promo = await api.post(`/store/carts/${cart.id}/promotions`, { promo_codes: [seed.promotionCode] }, headers())
      expect(promo.status).toBeLessThan(500)
      expect(promo.status).not.toBe(200)
      const again = await complete(cart.id)
      expect({ status: again.status, type: again.data.type, id: again.data.order?.id }).toEqual({ status: 200, type: "order", id: orderId })
      expect((await customerReturn(paid.paymentId)).outcome).toBe("paid")
      await expectOneOrderFor(cart.id, CART_MINOR)
      await followUp()
      expect({ status: status(paid.transactionId), releases: releases(paid.transactionId).length }).toEqual({ status: "preauth", releases: 0 })
    })

    it("a change that keeps the total (a new street and e-mail): the paid session stays; callback, return and two tabs' completions at once make one order of the reservation", async () => {
      const cart = await createCart(api, seed, { promotion: false })
      const paid = await paidOnThePage(cart.id)
      const moved = await api.post(`/store/carts/${cart.id}`, { email: "karen.b@example.com", shipping_address: { address_1: "Strandvejen 113" } }, headers())
      expect({ status: moved.status, total: dkk(moved.data.cart?.total) }).toEqual({ status: 200, total: CART_MINOR })

      const [a, b, back, hook] = await Promise.all([complete(cart.id), complete(cart.id), customerReturn(paid.paymentId), callback(paid.paymentId)])
      for (const r of [a, b]) expect(r.status === 200 || r.status === 409).toBe(true)
      expect([a, b].filter((r) => r.data.type === "order")).not.toHaveLength(0)
      expect(back.outcome).toBe("paid")
      expect(hook).toBe(200)
      const orderId = await expectOneOrderFor(cart.id, CART_MINOR)
      for (const r of [a, b]) if (r.data.type === "order") expect(r.data.order.id).toBe(orderId)
      await followUp()
      expect(status(paid.transactionId)).toBe("preauth")
    })

    it("changed and changed back (a tea added, then removed): the total is the old one, but Medusa replaced the session; the old payment makes no order and is released", async () => {
      const cart = await createCart(api, seed, { promotion: false })
      const paid = await paidOnThePage(cart.id)
      const added = await addTea(cart.id)
      const teaLines = (added.data.cart.items as Array<{ id: string; variant_id: string; quantity: number }>).filter((i) => i.variant_id === seed.products.tea.variantId)
      const back = await api.post(`/store/carts/${cart.id}/line-items/${teaLines[0].id}`, { quantity: 1 }, headers())
      expect(dkk(back.data.cart.total)).toBe(CART_MINOR)

      await callback(paid.paymentId)
      expect((await customerReturn(paid.paymentId)).outcome).not.toBe("paid")
      await expectRefusedCompletion(cart.id)
      expect(await ordersOf(cart.id)).toEqual([])
      await expectReleasedByFollowUp(paid.transactionId)
    })

    it("a promotion code applied or removed after paying: no order for the old amount on either cart, 400s, each reservation released", async () => {
      const applied = await createCart(api, seed, { promotion: false })
      const removed = await createCart(api, seed, { promotion: true })
      const payApplied = await paidOnThePage(applied.id)
      const payRemoved = await paidOnThePage(removed.id)
      const on = await api.post(`/store/carts/${applied.id}/promotions`, { promo_codes: [seed.promotionCode] }, headers())
      const off = await api.delete(`/store/carts/${removed.id}/promotions`, { ...headers(), data: { promo_codes: [seed.promotionCode] } } as never)
      expect([on.status, off.status]).toEqual([200, 200])
      expect(dkk(on.data.cart.total)).toBeLessThan(CART_MINOR)
      expect(dkk(off.data.cart.total)).toBe(CART_MINOR)
      expect(store.sandbox().transaction(payRemoved.transactionId)!.reservedMinor).toBeLessThan(CART_MINOR)

      await Promise.all([callback(payApplied.paymentId), callback(payRemoved.paymentId)])
      for (const [cart, paid] of [
        [applied, payApplied],
        [removed, payRemoved],
      ] as const) {
        expect((await customerReturn(paid.paymentId)).outcome).not.toBe("paid")
        await expectRefusedCompletion(cart.id)
        expect(await ordersOf(cart.id)).toEqual([])
      }
      await followUp()
      for (const paid of [payApplied, payRemoved])
        expect({ status: status(paid.transactionId), releases: releases(paid.transactionId).length }).toEqual({ status: "released", releases: 1 })
    })

    it("the shipping address moved to a province with another tax rate after paying: no order for the old amount, a 400, the reservation released", async () => {
      const tax = container().resolve(Modules.TAX)
      const [dk] = await tax.listTaxRegions({ country_code: "dk", parent_id: null as never })
      await createTaxRegionsWorkflow(container()).run({
        input: [{ country_code: "dk", province_code: "dk-85", parent_id: dk.id, default_tax_rate: { rate: 0, code: "ZERO", name: "Zero-rated" } }],
      })
      const cart = await createCart(api, seed, { promotion: false })
      const paid = await paidOnThePage(cart.id)
      const moved = await api.post(`/store/carts/${cart.id}`, { shipping_address: { province: "dk-85" } }, headers())
      expect(moved.status).toBe(200)
      expect(dkk(moved.data.cart.total)).toBeLessThan(CART_MINOR)

      await callback(paid.paymentId)
      expect((await customerReturn(paid.paymentId)).outcome).not.toBe("paid")
      await expectRefusedCompletion(cart.id)
      expect(await ordersOf(cart.id)).toEqual([])
      await expectReleasedByFollowUp(paid.transactionId)
    })

    it("two tabs: the page opened before the change is gone (410); the other tab's token still pays the old amount, which becomes no order and is released", async () => {
      const cart = await createCart(api, seed, { promotion: false })
      const [tabA, tabB] = await Promise.all([startSession(api, seed, cart.id), startSession(api, seed, cart.id)])
      expect(tabA.paymentSessionId).toBe(tabB.paymentSessionId)
      const [method] = await listPaymentMethods(tabA)
      const pageA = await createPayment(tabA, method.id)

      expect((await addTea(cart.id)).status).toBe(200)
      const submitted = await submitPaymentPage(pageA.redirectUrl)
      expect(submitted.status).toBe(410)

      // Tab B still holds a CUSTOMER token of the old session: its payment reserves the old amount (callback and return posted by the page).
      const paidB = await payWithAltaPay(tabB)
      const transactionId = store.sandbox().payment(paidB.paymentId)!.transactionId as string
      expect(store.sandbox().transaction(transactionId)!.reservedMinor).toBe(CART_MINOR)
      await eventsSettled(container())
      await expectRefusedCompletion(cart.id)
      expect(await ordersOf(cart.id)).toEqual([])

      // The customer starts again for the new total and pays: one order, of the new amount.
      const fresh = await startSession(api, seed, cart.id)
      expect(fresh.paymentSessionId).not.toBe(tabA.paymentSessionId)
      const paid = await paidOnThePage(cart.id, fresh)
      const done = await complete(cart.id)
      expect(done.data.type).toBe("order")
      await expectOneOrderFor(cart.id, dkk(done.data.order.total))
      expect(dkk(done.data.order.total)).toBeGreaterThan(CART_MINOR)
      await expectReleasedByFollowUp(transactionId)
      expect(status(paid.transactionId)).toBe("preauth")
    })

    it("the merchant changes the VAT rate while the customer pays, and the storefront recalculates taxes (POST /store/carts/:id/taxes): no order whose total is not AltaPay's reservation", async () => {
      const tax = container().resolve(Modules.TAX)
      const [dk] = await tax.listTaxRegions({ country_code: "dk", parent_id: null as never })
      const [vat] = await tax.listTaxRates({ tax_region_id: dk.id, is_default: true } as never)
      // 30 %: the cart costs 356.72, more than the 343.00 reserved; 20 %: 329.28, less.
      for (const [rate, totalMinor, total] of [
        [30, 35672, "356.72"],
        [20, 32928, "329.28"],
      ] as const) {
        await tax.updateTaxRates(vat.id, { rate: 25 })
        const cart = await createCart(api, seed, { promotion: false })
        const paid = await paidOnThePage(cart.id)
        expect((await api.post(`/admin/tax-rates/${vat.id}`, { rate }, { headers: admin.headers, ...anyStatus })).status).toBe(200)
        // Medusa's store route recalculates the cart's taxes and leaves its payment collection (and the paid session) as it was.
        const taxed = await api.post(`/store/carts/${cart.id}/taxes`, {}, headers())
        expect({ status: taxed.status, total: dkk(taxed.data.cart?.total) }).toEqual({ status: 200, total: totalMinor })
        const effectsBefore = store.sandbox().ledger().length

        // Refused before AltaPay is asked anything: the customer is told why and to pay again; no order.
        const completed = await complete(cart.id)
        expect({ rate, status: completed.status, type: completed.data?.type, code: completed.data?.code, message: completed.data?.message }).toEqual({
          rate,
          status: 400,
          type: "not_allowed",
          code: "altapay_cart_changed_after_payment",
          message: `Your cart changed after the payment was started: its total is now ${total} DKK, but the payment is for 343.00 DKK. No order was placed, and any amount reserved for that payment will be released. Please start the payment again.`,
        })
        expect(await ordersOf(cart.id)).toEqual([])
        // AltaPay's reservation is as the customer left it: the completion neither asked AltaPay nor released it.
        expect(store.sandbox().ledger()).toHaveLength(effectsBefore)
        expect(store.sandbox().transaction(paid.transactionId)!.reservedMinor).toBe(CART_MINOR)
        expect({ status: status(paid.transactionId), releases: releases(paid.transactionId).length }).toEqual({ status: "preauth", releases: 0 })

        // The customer starts again: the new session (for the new total) replaces the refused one, whose reservation the follow-up job releases.
        const again = await paidOnThePage(cart.id)
        expect(again.session.paymentSessionId).not.toBe(paid.session.paymentSessionId)
        expect((await complete(cart.id)).data.type).toBe("order")
        await expectOneOrderFor(cart.id, totalMinor)
        await expectReleasedByFollowUp(paid.transactionId)
        expect(status(again.transactionId)).toBe("preauth")
      }
    })

    it("AltaPay slow while Place order authorizes, and the cart changed meanwhile in the other tab: the change is answered without a 5xx; one order of the reservation", async () => {
      const cart = await createCart(api, seed, { promotion: false })
      const paid = await paidOnThePage(cart.id)
      store.sandbox().faults.add({ route: "payments", kind: "latency", ms: 3_000, times: 1 })
      const completing = complete(cart.id)
      await sleep(500)
      const added = await addTea(cart.id)
      const completed = await completing
      expect({ completed: completed.data.type, added: added.status < 500 || lockedByCompletion(added) ? "4xx or 200" : `${added.status}: ${added.data?.message}` }).toEqual({
        completed: "order",
        added: "4xx or 200",
      })
      await expectOneOrderFor(cart.id, CART_MINOR)
      expect(status(paid.transactionId)).toBe("preauth")
    })

    it("a cart change racing the return post and Place order: never a 5xx; an order only of the reservation, else the reservation released", async () => {
      const outcomes: Array<{ delayMs: number; statuses: number[]; order: boolean; status: string }> = []
      for (const delayMs of [0, 150, 600]) {
        const cart = await createCart(api, seed, { promotion: false })
        const paid = await paidOnThePage(cart.id)
        const change = sleep(delayMs).then(() => addTea(cart.id))
        const [changed, completed, back] = await Promise.all([change, complete(cart.id), customerReturn(paid.paymentId)])
        // Place order and the return never 5xx; the change may meet Medusa's own lock refusal (above).
        const statuses: number[] = [lockedByCompletion(changed) ? 0 : changed.status, completed.status, back.status]
        const orders = await ordersOf(cart.id)
        expect(orders.length).toBeLessThanOrEqual(1)
        for (const o of orders) expect(o.payments).toEqual([{ amountMinor: o.totalMinor, reservedMinor: o.totalMinor, status: "preauth" }])
        await followUp()
        outcomes.push({ delayMs, statuses: statuses.map((s) => (s >= 500 ? s : 0)), order: orders.length === 1, status: status(paid.transactionId) })
      }
      expect(outcomes).toEqual(outcomes.map(({ delayMs, order }) => ({ delayMs, statuses: [0, 0, 0], order, status: order ? "preauth" : "released" })))
    })
  },
})
