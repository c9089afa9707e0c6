/**
 * Orders that do not come from a normal paid checkout, through Medusa's own routes: an admin's
 * draft order (POST /admin/draft-orders, edited, converted) paid by the plugin's payment link on
 * AltaPay's page; carts with nothing or almost nothing to pay (a 100 % promotion and free
 * shipping, a cart of 0.01 DKK); and an amount due the admin marked paid another way (Medusa's
 * Mark as paid). What a merchant relies on:
 *
 * - a link asks exactly what the order still owes, and what AltaPay holds of it is what Medusa
 *   records (its ledger, store.sandbox(), is the witness);
 * - nothing is reserved or captured at AltaPay for an order, a cart or an amount Medusa shows as
 *   free or already paid, and nothing is left held that no order records;
 * - what cannot be done is refused with a 4xx the merchant (or the storefront) can act on, never a 500.
 *
 * The store: DKK, 25 % VAT, prices without tax, free shipping. A coffee is 112.44 DKK with VAT
 * (89.95 net), a tea 56.88 (45.50 net); the promotion FREE takes 100 % off items.
 */
import { ContainerRegistrationKeys } from "@medusajs/framework/utils"
import { createProductsWorkflow, createPromotionsWorkflow } from "@medusajs/medusa/core-flows"
import { storeSuite } from "../../tools/test-store/store-app/runner"
import { heldAtAltaPay as heldAt } from "../../tools/test-store/payment-books"
import paymentSessionsJob from "../../src/jobs/altapay-payment-sessions"
import { toMinorUnits } from "../../src/lib/medusa-mapping/amounts"
import { WEBHOOK_PROCESSING_DELAY_MS, altapayStore } from "../../tools/test-store/store-app/altapay-store"
import {
  adminOfSeededStore,
  createAltaPayOrder,
  createCart,
  eventually,
  expectOk,
  orderPayments,
  payWithAltaPay,
  sendPaymentLink,
  startSession,
  storeHeaders,
  submitPaymentPage,
  type Api,
  type PaymentLink,
} from "../../tools/test-store/store"
import { postCustomerReturn } from "../../tools/test-store/customer-return"

const store = altapayStore()

const dkk = (amount: unknown) => toMinorUnits(amount as number, "DKK")
const MINUTE = 60_000
const ledger = (operation?: string) =>
  store
    .sandbox()
    .ledger()
    .filter((e) => !operation || e.operation === operation)
/** Every money movement AltaPay made of a kind (authorize, capture, refund, release) that went through. */
const movements = (type: string) =>
  ledger()
    .flatMap((e) => e.effects ?? [])
    .filter((e) => e.type === type && !/fail|error|decline/i.test(e.result))
const heldAtAltaPay = (transactionId: string | undefined) => heldAt(store.sandbox(), transactionId)

interface OrderRow {
  id: string
  status: string
  total: unknown
  summary: { pending_difference: unknown }
  payment_collections: Array<{
    id: string
    status: string
    amount: unknown
    payments?: Array<{ id: string; provider_id: string; amount: unknown; payment_session_id: string; canceled_at?: unknown; data?: { transaction_id?: string } | null }> | null
  }>
}

export default storeSuite({
  testSuite: ({ api: rawApi, getContainer }) => {
    const api = rawApi as unknown as Api
    const shop = adminOfSeededStore(api, getContainer, { shippingAmount: 0 })
    const as = shop.as
    /** A product of 0.008 DKK net: 0.01 with 25 % VAT. */
    let oneOre: { id: string; handle: string; title: string; variantId: string; sku: string; price: number }
    beforeAll(async () => {
      const { result } = await createProductsWorkflow(getContainer()).run({
        input: {
          products: [
            {
              title: "One øre",
              handle: "one-ore",
              status: "published",
              shipping_profile_id: shop.seed.shippingProfile.id,
              options: [{ title: "Size", values: ["One"] }],
              variants: [{ title: "One", sku: "ONE-ORE", options: { Size: "One" }, manage_inventory: false, prices: [{ currency_code: "dkk", amount: 0.008 }] }],
              sales_channels: [{ id: shop.seed.salesChannel.id }],
            },
          ],
        },
      })
      oneOre = { id: result[0].id, handle: "one-ore", title: "One øre", variantId: result[0].variants[0].id, sku: "ONE-ORE", price: 0.008 }
      await createPromotionsWorkflow(getContainer()).run({
        input: {
          promotionsData: [
            {
              code: "FREE",
              type: "standard",
              status: "active",
              is_automatic: false,
              application_method: { type: "percentage", target_type: "items", allocation: "across", value: 100, currency_code: "dkk" },
            },
          ],
        },
      })
    })
    beforeEach(() => store.sandbox().clearLedger())

    const ADDRESS = { first_name: "Karen", last_name: "Blixen", address_1: "Strandvejen 111", city: "Rungsted", postal_code: "2960", country_code: "dk" }

    async function orderRow(orderId: string): Promise<OrderRow> {
      const { data } = await getContainer()
        .resolve(ContainerRegistrationKeys.QUERY)
        .graph({
          entity: "order",
          fields: ["id", "status", "total", "summary", "payment_collections.id", "payment_collections.status", "payment_collections.amount", "payment_collections.payments.*"],
          filters: { id: orderId },
        })
      return data[0] as OrderRow
    }
    const pendingMinor = async (orderId: string) => dkk((await orderRow(orderId)).summary.pending_difference)
    /** The order's AltaPay payments that are not canceled, with what AltaPay holds of each. */
    async function altapayPayments(orderId: string) {
      const row = await orderRow(orderId)
      return row.payment_collections
        .flatMap((c) => c.payments ?? [])
        .filter((p) => p.provider_id === "pp_altapay_altapay" && !p.canceled_at)
        .map((p) => ({ id: p.id, session: p.payment_session_id, minor: dkk(p.amount), transactionId: p.data?.transaction_id }))
    }

    const sendLink = (orderId: string) => sendPaymentLink(api, orderId, as())

    /** The customer opens the link and pays on AltaPay's page (which sends its callback and the return): the transaction made. */
    async function payOnPage(link: PaymentLink): Promise<string | undefined> {
      const opened = await fetch(link.payment_link.url, { redirect: "manual" })
      await opened.text()
      expect(opened.status).toBe(302)
      const page = await submitPaymentPage(new URL(opened.headers.get("location")!, link.payment_link.url).toString())
      expect(page.status).toBeLessThan(400)
      return ledger("hosted.submit").at(-1)?.effect?.transactionId
    }

    /** The follow-up job on two runs a grace period apart (what releases a payment no order takes). */
    async function followUp(): Promise<void> {
      await paymentSessionsJob(getContainer(), { scheduledFor: new Date(Date.now() + 16 * MINUTE) })
      await paymentSessionsJob(getContainer(), { scheduledFor: new Date(Date.now() + 32 * MINUTE) })
    }

    /** A draft order of one coffee made in the admin (POST /admin/draft-orders). */
    async function draftOrder(): Promise<string> {
      const created = await api.post(
        "/admin/draft-orders",
        {
          region_id: shop.seed.region.id,
          sales_channel_id: shop.seed.salesChannel.id,
          email: "karen@example.com",
          items: [{ variant_id: shop.seed.products.coffee.variantId, quantity: 1 }],
          shipping_address: ADDRESS,
          billing_address: ADDRESS,
        },
        as()
      )
      expect({ status: created.status, message: created.data?.message }).toEqual({ status: 200, message: undefined })
      return created.data.draft_order.id as string
    }

    /** An edit of the draft in the admin (begin, `change`, confirm). */
    async function editDraft(draftId: string, change: () => Promise<{ status: number; data?: any }>): Promise<void> {
      expect((await api.post(`/admin/draft-orders/${draftId}/edit`, {}, as())).status).toBe(200)
      const changed = await change()
      expect({ status: changed.status, message: changed.data?.message }).toEqual({ status: 200, message: undefined })
      const confirmed = await api.post(`/admin/draft-orders/${draftId}/edit/confirm`, {}, as())
      expect({ status: confirmed.status, message: confirmed.data?.message }).toEqual({ status: 200, message: undefined })
    }
    const addTea = (draftId: string) =>
      editDraft(draftId, () => api.post(`/admin/draft-orders/${draftId}/edit/items`, { items: [{ variant_id: shop.seed.products.tea.variantId, quantity: 1 }] }, as()))

    describe("a draft order paid by payment link", () => {
      it("created, edited and converted: the link asks the order's total, paid on AltaPay's page, then captured and refunded; AltaPay's ledger equals Medusa's records", async () => {
        const draftId = await draftOrder()
        await addTea(draftId)
        const converted = await api.post(`/admin/draft-orders/${draftId}/convert-to-order`, {}, as())
        expect({ status: converted.status, message: converted.data?.message }).toEqual({ status: 200, message: undefined })
        const row = await orderRow(draftId)
        expect(row.status).toBe("pending")
        const totalMinor = dkk(row.total)
        expect(totalMinor).toBe(11244 + 5688 - 1) // 112.4375 + 56.875 = 169.3125: 169.31 DKK

        const link = await sendLink(draftId)
        expect([link.status, link.message, link.amount.minor]).toEqual([200, undefined, totalMinor])
        expect(await pendingMinor(draftId)).toBe(totalMinor)

        const transactionId = await payOnPage(link)
        const recorded = await eventually(
          () => altapayPayments(draftId),
          (ps) => ps.length > 0,
          WEBHOOK_PROCESSING_DELAY_MS + 10_000
        )
        expect(recorded.map((p) => [p.session, p.minor, p.transactionId])).toEqual([[link.payment_session_id, totalMinor, transactionId]])

        const captured = await api.post(`/admin/payments/${recorded[0].id}/capture`, {}, as())
        expect({ status: captured.status, message: captured.data?.message }).toEqual({ status: 200, message: undefined })
        expect(await pendingMinor(draftId)).toBe(0)
        const refunded = await api.post(`/admin/payments/${recorded[0].id}/refund`, { amount: 56.88 }, as())
        expect({ status: refunded.status, message: refunded.data?.message }).toEqual({ status: 200, message: undefined })

        const t = store.sandbox().transaction(transactionId!)!
        expect({ reserved: t.reservedMinor, captured: t.capturedMinor, refunded: t.refundedMinor }).toEqual({ reserved: totalMinor, captured: totalMinor, refunded: 5688 })
        // One payment, one capture, one refund: nothing moved twice.
        expect([movements("authorize").length, movements("capture").length, movements("refund").length]).toEqual([1, 1, 1])
        const { data: refunds } = await getContainer()
          .resolve(ContainerRegistrationKeys.QUERY)
          .graph({ entity: "refund", fields: ["amount"], filters: { payment_id: recorded[0].id } })
        expect(refunds.map((r: { amount: unknown }) => dkk(r.amount))).toEqual([5688])
      })

      // Medusa 2.21 edits a draft without an event (a link sent before would go on asking the old
      // amount) and deletes a draft with its payments left authorized: a draft takes no payment.
      it("a link or a saved-card charge for a draft is refused with a 400 that says to convert it first, and nothing reaches AltaPay; converted, the link is sent", async () => {
        const draftId = await draftOrder()
        await addTea(draftId)
        const link = await sendLink(draftId)
        expect([link.status, link.message]).toEqual([400, expect.stringMatching(/is a draft order: convert it to an order first/)])
        const charge = await api.post(`/admin/altapay/orders/${draftId}/agreement-charges`, { saved_card_id: "card_none" }, as())
        expect(charge.status).toBeGreaterThanOrEqual(400)
        expect(charge.status).toBeLessThan(500)
        const chargeable = expectOk("agreement charges", await api.get(`/admin/altapay/orders/${draftId}/agreement-charges`, as()))
        expect(JSON.stringify(chargeable)).toMatch(/is a draft order: convert it to an order first/)
        expect(ledger()).toEqual([])

        expect((await api.post(`/admin/draft-orders/${draftId}/convert-to-order`, {}, as())).status).toBe(200)
        const sent = await sendLink(draftId)
        expect([sent.status, sent.amount.minor]).toEqual([200, 16931])
      })
    })

    describe("carts with nothing, or almost nothing, to pay", () => {
      /** Two coffees and a tea, 100 % off, free shipping: a total of 0. */
      async function freeCart() {
        const cart = await createCart(api, { ...shop.seed, promotionCode: "FREE" })
        expect(dkk(cart.total)).toBe(0)
        return cart
      }

      it("a cart made free by a 100 % promotion: the plugin's session route answers 400 with what to do, and AltaPay gets nothing", async () => {
        const cart = await freeCart()
        const answer = await api.post(`/store/carts/${cart.id}/altapay-session`, {}, { headers: storeHeaders(shop.seed), validateStatus: () => true })
        expect([answer.status, answer.data?.message]).toEqual([400, expect.stringMatching(/has nothing to pay .*complete it without AltaPay/)])
        expect(ledger().filter((e) => e.api !== "hosted")).toEqual([])
      })

      it("the free cart through Medusa's own payment-session route with AltaPay: a 4xx the storefront can show, and no session opened at AltaPay", async () => {
        const cart = await freeCart()
        const headers = { headers: storeHeaders(shop.seed), validateStatus: () => true }
        const collection = await api.post("/store/payment-collections", { cart_id: cart.id }, headers)
        expect(collection.status).toBe(200)
        const answer = await api.post(`/store/payment-collections/${collection.data.payment_collection.id}/payment-sessions`, { provider_id: "pp_altapay_altapay" }, headers)
        expect({ status: answer.status, fourXX: answer.status >= 400 && answer.status < 500 }).toEqual({ status: answer.status, fourXX: true })
        expect(answer.data?.message).toMatch(/is for 0\.00 DKK, so there is nothing to pay with AltaPay\. Complete a free cart without a payment provider/)
        expect(ledger("session.create").filter((e) => e.status < 300)).toEqual([])
      })

      it("the free cart completes with Medusa's system provider, and nothing is reserved at AltaPay", async () => {
        const cart = await freeCart()
        const headers = { headers: storeHeaders(shop.seed), validateStatus: () => true }
        const collection = await api.post("/store/payment-collections", { cart_id: cart.id }, headers)
        const session = await api.post(`/store/payment-collections/${collection.data.payment_collection.id}/payment-sessions`, { provider_id: "pp_system_default" }, headers)
        expect(session.status).toBe(200)
        const completed = await api.post(`/store/carts/${cart.id}/complete`, {}, headers)
        expect([completed.status, completed.data.type]).toEqual([200, "order"])
        expect(await pendingMinor(completed.data.order.id)).toBe(0)
        expect(ledger().flatMap((e) => e.effects ?? [])).toEqual([])
      })

      it("a cart of 0.01 DKK: AltaPay reserves, captures and refunds exactly one øre, as Medusa records", async () => {
        const cart = await createCart(api, { ...shop.seed, products: { ...shop.seed.products, tea: oneOre } }, { items: [{ product: "tea", quantity: 1 }] })
        expect(dkk(cart.total)).toBe(1)
        const session = await startSession(api, shop.seed, cart.id)
        await payWithAltaPay(session, { sandbox: store.sandbox(), callback: false })
        const completed = await api.post(`/store/carts/${cart.id}/complete`, {}, { headers: storeHeaders(shop.seed), validateStatus: () => true })
        expect([completed.status, completed.data.type]).toEqual([200, "order"])
        const [payment] = await orderPayments(getContainer(), completed.data.order.id)
        expect(dkk(payment.amount)).toBe(1)

        const captured = await api.post(`/admin/payments/${payment.id}/capture`, {}, as())
        expect({ status: captured.status, message: captured.data?.message }).toEqual({ status: 200, message: undefined })
        const refunded = await api.post(`/admin/payments/${payment.id}/refund`, { amount: 0.01 }, as())
        expect({ status: refunded.status, message: refunded.data?.message }).toEqual({ status: 200, message: undefined })

        const t = store.sandbox().transaction(payment.data.transaction_id)!
        expect({ reserved: t.reservedMinor, captured: t.capturedMinor, refunded: t.refundedMinor }).toEqual({ reserved: 1, captured: 1, refunded: 1 })
        expect(await pendingMinor(completed.data.order.id)).toBe(0)
      })
    })

    describe("an amount due marked paid another way", () => {
      /** An AltaPay order of one coffee, captured, then an order edit adds a tea: 56.88 due on a not-paid collection. */
      async function orderWithTeaDue(): Promise<{ orderId: string; collectionId: string }> {
        const order = await createAltaPayOrder(api, shop.seed, getContainer(), store.sandbox(), { items: [{ product: "coffee", quantity: 1 }] })
        expect((await api.post(`/admin/payments/${order.paymentId}/capture`, {}, as())).status).toBe(200)
        expect((await api.post("/admin/order-edits", { order_id: order.orderId }, as())).status).toBe(200)
        await api.post(`/admin/order-edits/${order.orderId}/items`, { items: [{ variant_id: shop.seed.products.tea.variantId, quantity: 1 }] }, as())
        expect((await api.post(`/admin/order-edits/${order.orderId}/request`, {}, as())).status).toBe(200)
        expect((await api.post(`/admin/order-edits/${order.orderId}/confirm`, {}, as())).status).toBe(200)
        expect(await pendingMinor(order.orderId)).toBe(5688)
        const unpaid = (await orderRow(order.orderId)).payment_collections.find((c) => c.status === "not_paid")
        expect(unpaid).toBeDefined()
        store.sandbox().clearLedger()
        return { orderId: order.orderId, collectionId: unpaid!.id }
      }
      const markPaid = (orderId: string, collectionId: string, providerId?: string) =>
        api.post(`/admin/payment-collections/${collectionId}/mark-as-paid`, { order_id: orderId, ...(providerId ? { provider_id: providerId } : {}) }, as())

      it("marked paid in the admin (system provider): no link and no charge, each refused with what to do, and nothing sent to AltaPay", async () => {
        const { orderId, collectionId } = await orderWithTeaDue()
        expect((await markPaid(orderId, collectionId)).status).toBe(200)
        expect(await pendingMinor(orderId)).toBe(0)

        const link = await sendLink(orderId)
        expect([link.status, link.message]).toEqual([400, expect.stringMatching(/has nothing outstanding/)])
        const chargeable = await api.get(`/admin/altapay/orders/${orderId}/agreement-charges`, as())
        expect([chargeable.status, chargeable.data.outstanding?.minor, chargeable.data.reason]).toEqual([200, 0, expect.stringMatching(/has nothing outstanding/)])
        const charge = await api.post(`/admin/altapay/orders/${orderId}/agreement-charges`, { saved_card_id: "altapay_card_unknown" }, as())
        expect([charge.status, charge.data?.message]).toEqual([404, expect.stringMatching(/not found/)])
        expect(ledger().filter((e) => e.api !== "hosted")).toEqual([])
      })

      it("a link sent, then the same amount marked paid in the admin: the customer paying the link keeps no reservation, and the order shows one payment of the due", async () => {
        const { orderId, collectionId } = await orderWithTeaDue()
        const link = await sendLink(orderId)
        expect([link.status, link.amount.minor]).toEqual([200, 5688])
        expect((await markPaid(orderId, collectionId)).status).toBe(200)

        let transactionId: string | undefined
        try {
          transactionId = (await store.sandbox().simulatePayment(link.altapay_session_id, { callback: false })).transactionId
        } catch {
          transactionId = undefined // AltaPay no longer lets the customer pay it
        }
        expect((await postCustomerReturn(store.medusaUrl(), link.payment_session_id)).status).toBe(303)
        await followUp()

        expect({ held: heldAtAltaPay(transactionId), recorded: (await altapayPayments(orderId)).filter((p) => p.session === link.payment_session_id) }).toEqual({
          held: 0,
          recorded: [],
        })
        expect(await pendingMinor(orderId)).toBe(0)
      })

      it("Mark as paid with AltaPay as the provider (nothing paid at AltaPay): refused with a 4xx, the amount still due, nothing reserved or captured", async () => {
        const { orderId, collectionId } = await orderWithTeaDue()
        const marked = await markPaid(orderId, collectionId, "pp_altapay_altapay")
        // Medusa's own words: "Session: payses_... was not authorized with the provider."
        expect([marked.status, marked.data?.message]).toEqual([400, expect.stringMatching(/not authorized/)])
        expect(await pendingMinor(orderId)).toBe(5688)
        expect((await orderRow(orderId)).payment_collections.find((c) => c.id === collectionId)?.status).toBe("not_paid")
        expect(ledger().flatMap((e) => e.effects ?? [])).toEqual([])
        // And the merchant can still send a link for it.
        const link = await sendLink(orderId)
        expect([link.status, link.amount.minor]).toEqual([200, 5688])
      })
    })
  },
})
