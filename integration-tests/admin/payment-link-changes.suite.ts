/**
 * A payment link for an order's amount due, when the order changes before the customer pays it:
 * a second edit that leaves less (or nothing) due, a cancel, a second link for the same due, a
 * newer link replacing it. The customer pays through the sandbox and AltaPay's return reaches the
 * plugin's return endpoint (or its callback reaches Medusa's webhook), as in the link tests of
 * altapay-admin.suite.ts. What a merchant relies on, whatever changed:
 *
 * - the customer is never charged more than the order's amount due when they pay: the change
 *   retires a link that no longer fits (src/subscribers/altapay-stale-payment-links.ts), a
 *   reservation made on it is released; money captured on it is booked on no order and the
 *   merchant is told (the admin's notification feed, naming the AltaPay transaction);
 * - Medusa's records of the link's payment equal the money AltaPay holds for it.
 *
 * "Held" below is what AltaPay keeps of a transaction: reserved and not released (or captured),
 * less refunds; for Medusa, the order's payments of that transaction that are not canceled, less
 * their refunds.
 */
import type { INotificationModuleService } from "@medusajs/framework/types"
import { ContainerRegistrationKeys, Modules } from "@medusajs/framework/utils"
import { storeSuite } from "../../tools/test-store/store-app/runner"
import { heldAtAltaPay as heldAt } from "../../tools/test-store/payment-books"
import paymentSessionsJob from "../../src/jobs/altapay-payment-sessions"
import { toMinorUnits } from "../../src/lib/medusa-mapping/amounts"
import { WEBHOOK_PROCESSING_DELAY_MS, altapayStore } from "../../tools/test-store/store-app/altapay-store"
import { captureAtAltaPay } from "../../tools/test-store/altapay-sandbox"
import { adminOfSeededStore, createAltaPayOrder, eventually, sendPaymentLink, type Api, type PaymentLink } from "../../tools/test-store/store"
import { postCustomerReturn } from "../../tools/test-store/customer-return"

const store = altapayStore()

const dkk = (amount: unknown) => toMinorUnits(amount as number, "DKK")
const MINUTE = 60_000
const ledger = (operation: string) =>
  store
    .sandbox()
    .ledger()
    .filter((e) => e.operation === operation)

const heldAtAltaPay = (transactionId: string | undefined) => heldAt(store.sandbox(), transactionId)

interface PaymentRow {
  id: string
  amount: unknown
  captured_at?: unknown
  canceled_at?: unknown
  payment_session_id: string
  data?: { transaction_id?: string; transaction_status?: string } | null
  refunds?: Array<{ amount: unknown } | null> | null
}

interface OrderRow {
  status: string
  summary: { pending_difference: unknown }
  transactions: Array<{ reference: string; amount: unknown }>
  payment_collections: Array<{ id: string; status: string; amount: unknown; payments?: PaymentRow[] | null }>
}

export default storeSuite({
  testSuite: ({ api: rawApi, getContainer }) => {
    const api = rawApi as unknown as Api
    /** DKK store, prices without tax, 25 % VAT, a 10 % promotion code, shipping 49.00: a tea is 56.88 with VAT and promotion. */

    const shop = adminOfSeededStore(api, getContainer, { promotion: { code: "TEN", percent: 10 } })
    const as = shop.as
    beforeEach(() => store.sandbox().clearLedger())

    /** An AltaPay order (2 coffee + 1 tea + shipping, 10 % promotion: 314.83 DKK), captured from the admin. */
    async function capturedOrder(): Promise<string> {
      const order = await createAltaPayOrder(api, shop.seed, getContainer(), store.sandbox())
      expect((await api.post(`/admin/payments/${order.paymentId}/capture`, {}, as())).status).toBe(200)
      return order.orderId
    }

    /** A confirmed order edit (Medusa's admin routes) of `change`. */
    async function edit(orderId: string, change: () => Promise<{ status: number }>): Promise<void> {
      expect((await api.post("/admin/order-edits", { order_id: orderId }, as())).status).toBe(200)
      expect((await change()).status).toBe(200)
      expect((await api.post(`/admin/order-edits/${orderId}/request`, {}, as())).status).toBe(200)
      expect((await api.post(`/admin/order-edits/${orderId}/confirm`, {}, as())).status).toBe(200)
    }
    const addTeas = (orderId: string, quantity: number) =>
      edit(orderId, () => api.post(`/admin/order-edits/${orderId}/items`, { items: [{ variant_id: shop.seed.products.tea.variantId, quantity }] }, as()))
    const setQuantity = (orderId: string, itemId: string, quantity: number) =>
      edit(orderId, () => api.post(`/admin/order-edits/${orderId}/items/item/${itemId}`, { quantity }, as()))

    async function orderRow(orderId: string): Promise<OrderRow> {
      const query = getContainer().resolve(ContainerRegistrationKeys.QUERY)
      const { data } = await query.graph({
        entity: "order",
        fields: [
          "status",
          "summary",
          "transactions.reference",
          "transactions.amount",
          "payment_collections.id",
          "payment_collections.status",
          "payment_collections.amount",
          "payment_collections.payments.*",
          "payment_collections.payments.refunds.amount",
        ],
        filters: { id: orderId },
      })
      return data[0] as OrderRow
    }
    const pendingMinor = async (orderId: string) => dkk((await orderRow(orderId)).summary.pending_difference)

    /** The order's item lines of a product, oldest first (an edit that adds a product adds a line). */
    async function linesOf(orderId: string, sku: string): Promise<string[]> {
      const query = getContainer().resolve(ContainerRegistrationKeys.QUERY)
      const { data } = await query.graph({ entity: "order", fields: ["items.id", "items.variant_sku", "items.created_at"], filters: { id: orderId } })
      const items = (data[0] as { items: Array<{ id: string; variant_sku: string; created_at: string }> }).items
      return items
        .filter((i) => i.variant_sku === sku)
        .sort((a, b) => Date.parse(a.created_at) - Date.parse(b.created_at))
        .map((i) => i.id)
    }

    /** Medusa's record of a link's payment: the payment made from its session, what Medusa holds of it, and its collection. */
    async function medusaRecord(orderId: string, paymentSessionId: string) {
      const row = await orderRow(orderId)
      for (const collection of row.payment_collections) {
        const payment = (collection.payments ?? []).find((p) => p.payment_session_id === paymentSessionId)
        if (!payment) continue
        const refunded = (payment.refunds ?? []).reduce((sum, r) => sum + (r ? dkk(r.amount) : 0), 0)
        return { payment, collectionStatus: collection.status, heldMinor: payment.canceled_at ? 0 : dkk(payment.amount) - refunded }
      }
      return { payment: undefined, collectionStatus: undefined, heldMinor: 0 }
    }
    const sendLink = (orderId: string) => sendPaymentLink(api, orderId, as())

    /** AltaPay's post of the customer's return (no callback) to the plugin's return endpoint: the landing's outcome. */
    async function postReturn(paymentSessionId: string): Promise<string | null> {
      const returned = await postCustomerReturn(store.medusaUrl(), paymentSessionId)
      expect(returned.status).toBe(303)
      return new URL(returned.headers.get("location")!).searchParams.get("outcome")
    }

    /**
     * The customer pays the link on AltaPay's page (captured there at once when `captured`: autoCapture)
     * and comes back. A link AltaPay no longer lets them pay takes no money: no transaction.
     */
    async function payLink(link: PaymentLink, options: { captured?: boolean } = {}): Promise<{ transactionId?: string; outcome: string | null }> {
      let transactionId: string | undefined
      try {
        transactionId = (await store.sandbox().simulatePayment(link.altapay_session_id, { callback: false })).transactionId
      } catch {
        transactionId = undefined
      }
      if (transactionId && options.captured) await captureAtAltaPay(store.sandbox(), transactionId)
      return { transactionId, outcome: await postReturn(link.payment_session_id) }
    }

    /** The follow-up job on two runs a grace period apart (what releases a payment no order takes). */
    async function followUp(): Promise<void> {
      await paymentSessionsJob(getContainer(), { scheduledFor: new Date(Date.now() + 16 * MINUTE) })
      await paymentSessionsJob(getContainer(), { scheduledFor: new Date(Date.now() + 32 * MINUTE) })
    }

    const feed = () => getContainer().resolve<INotificationModuleService>(Modules.NOTIFICATION).listNotifications({ channel: "feed" })
    /** Whether the admin's notification feed names the transaction. */
    const merchantToldOf = async (transactionId: string) => (await feed()).some((n) => JSON.stringify(n.data ?? {}).includes(transactionId))

    /** The order change retires the link's session (a subscriber, after Medusa's workflow): the customer pays after that. */
    async function retired(link: PaymentLink): Promise<void> {
      const gone = async () => (await getContainer().resolve(Modules.PAYMENT).listPaymentSessions({ id: link.payment_session_id })).length === 0
      expect(await eventually(gone, Boolean)).toBe(true)
    }

    /** An order whose edit added two teas (113.75 DKK due) and a link for that due, then a second edit: `lower` the total. */
    async function linkThenLowered(lower: (orderId: string) => Promise<void>) {
      const orderId = await capturedOrder()
      await addTeas(orderId, 2)
      const link = await sendLink(orderId)
      expect([link.status, link.amount.minor]).toEqual([200, 11375])
      await lower(orderId)
      await retired(link)
      return { orderId, link }
    }
    const removeTheCoffee = async (orderId: string) => setQuantity(orderId, (await linesOf(orderId, shop.seed.products.coffee.sku))[0], 0)
    const oneTeaLess = async (orderId: string) => setQuantity(orderId, (await linesOf(orderId, shop.seed.products.tea.sku)).at(-1)!, 1)

    describe("an edit after the link lowered the total", () => {
      it("nothing due any more: the customer paying the old link keeps no reservation, and Medusa records none", async () => {
        const { orderId, link } = await linkThenLowered(removeTheCoffee)
        // The customer is owed 88.64 now: the panel sends no new link ...
        expect(await pendingMinor(orderId)).toBe(-8864)
        expect((await sendLink(orderId)).message).toMatch(/has nothing outstanding: the customer is owed 88\.64 DKK/)

        // ... but the one sent before still takes 113.75.
        const paid = await payLink(link)
        await followUp()

        const medusa = await medusaRecord(orderId, link.payment_session_id)
        expect({ altapay: heldAtAltaPay(paid.transactionId), medusa: medusa.heldMinor }).toEqual({ altapay: 0, medusa: 0 })
        // The order still shows only what the edit left: the 88.64 owed to the customer.
        expect(await pendingMinor(orderId)).toBe(-8864)
      })

      it("nothing due any more, paid captured at once (autoCapture): not booked on the order, and the merchant told to refund it", async () => {
        const { orderId, link } = await linkThenLowered(removeTheCoffee)
        const paid = await payLink(link, { captured: true })
        await followUp()

        // The edit retired the link's session: the capture pays no order, and a person refunds it (the plugin refunds nothing by itself).
        const held = heldAtAltaPay(paid.transactionId)
        const medusa = await medusaRecord(orderId, link.payment_session_id)
        const told = !!paid.transactionId && (await merchantToldOf(paid.transactionId))
        expect({ held, medusa: medusa.heldMinor, told }).toEqual({ held: 11375, medusa: 0, told: true })
        expect(await pendingMinor(orderId)).toBe(-8864)
      })

      it("less due (56.88): the old link's 113.75 is never what the customer is charged, and Medusa records what AltaPay holds", async () => {
        const { orderId, link } = await linkThenLowered(oneTeaLess)
        const dueWhenPaying = await pendingMinor(orderId)
        expect(dueWhenPaying).toBe(5688)

        const paid = await payLink(link)
        await followUp()

        const held = heldAtAltaPay(paid.transactionId)
        const medusa = await medusaRecord(orderId, link.payment_session_id)
        expect(medusa.heldMinor).toBe(held)
        // More than the amount due may not stay reserved: the merchant's Capture would take it all.
        expect(held).toBeLessThanOrEqual(dueWhenPaying)
      })
    })

    describe("the order canceled after the link", () => {
      /** An order with 56.88 due (one more tea), its link, then Medusa's cancel (which refunds the order's capture). */
      async function linkThenCanceled() {
        const orderId = await capturedOrder()
        await addTeas(orderId, 1)
        const link = await sendLink(orderId)
        expect([link.status, link.amount.minor]).toEqual([200, 5688])
        expect((await api.post(`/admin/orders/${orderId}/cancel`, {}, as())).status).toBe(200)
        expect((await orderRow(orderId)).status).toBe("canceled")
        expect((await sendLink(orderId)).message).toMatch(/is canceled: it takes no payment/)
        await retired(link)
        return { orderId, link }
      }

      it("paid through the customer's return: AltaPay keeps no reservation, and the canceled order shows no payment", async () => {
        const { orderId, link } = await linkThenCanceled()
        const paid = await payLink(link)
        await followUp()

        const medusa = await medusaRecord(orderId, link.payment_session_id)
        expect({ altapay: heldAtAltaPay(paid.transactionId), medusa: medusa.heldMinor }).toEqual({ altapay: 0, medusa: 0 })
        // Medusa canceled the link's collection with the order; a payment must not make it authorized again.
        expect(medusa.collectionStatus ?? "canceled").toBe("canceled")
      })

      it("canceled where no event said so (the order module's own cancel): the customer's return finds the link stale when it would record it, and nothing is kept", async () => {
        const orderId = await capturedOrder()
        await addTeas(orderId, 1)
        const link = await sendLink(orderId)
        expect([link.status, link.amount.minor]).toEqual([200, 5688])
        await getContainer().resolve(Modules.ORDER).cancel(orderId)
        const paid = await payLink(link)
        expect(paid.outcome).not.toBe("paid")
        await followUp()

        const medusa = await medusaRecord(orderId, link.payment_session_id)
        expect({ altapay: heldAtAltaPay(paid.transactionId), medusa: medusa.heldMinor }).toEqual({ altapay: 0, medusa: 0 })
      })

      it("paid through AltaPay's callback (Medusa's webhook): AltaPay keeps no reservation, and the canceled order shows no payment", async () => {
        const { orderId, link } = await linkThenCanceled()
        const paid = await store.sandbox().simulatePayment(link.altapay_session_id, { callback: true })
        expect(paid.callbackStatus).toBe(200)
        // Medusa processes the webhook WEBHOOK_PROCESSING_DELAY_MS later: wait until it recorded or released it.
        await eventually(
          async () => ({ medusa: await medusaRecord(orderId, link.payment_session_id), altapay: heldAtAltaPay(paid.transactionId) }),
          (now) => !!now.medusa.payment || now.altapay === 0,
          WEBHOOK_PROCESSING_DELAY_MS + 10_000
        )
        await followUp()

        const medusa = await medusaRecord(orderId, link.payment_session_id)
        expect({ altapay: heldAtAltaPay(paid.transactionId), medusa: medusa.heldMinor }).toEqual({ altapay: 0, medusa: 0 })
        expect(medusa.collectionStatus ?? "canceled").toBe("canceled")
      })
    })

    describe("more than one link for the same due", () => {
      it("sent twice: one session, so the customer pays it once; the second link answers already paid", async () => {
        const orderId = await capturedOrder()
        await addTeas(orderId, 1)
        const first = await sendLink(orderId)
        const second = await sendLink(orderId)
        expect([first.status, second.status]).toEqual([200, 200])
        expect(second.payment_session_id).toBe(first.payment_session_id)
        expect(second.payment_link.url).not.toBe(first.payment_link.url)

        const paid = await payLink(first)
        expect(paid.outcome).toBe("paid")
        // The customer opens the second link too.
        const opened = await fetch(second.payment_link.url, { redirect: "manual" })
        await opened.text()
        expect(opened.status).toBe(409)
        await expect(store.sandbox().simulatePayment(second.altapay_session_id, { callback: false })).rejects.toThrow(/already has an authorized payment/)

        const medusa = await medusaRecord(orderId, first.payment_session_id)
        expect({ altapay: heldAtAltaPay(paid.transactionId), medusa: medusa.heldMinor }).toEqual({ altapay: 5688, medusa: 5688 })
        expect(ledger("payment.simulate")).toHaveLength(2) // the order's own payment and the link's
      })

      it("a link sent again after the customer paid the first (authorized, not yet captured) is refused, and the customer's payment is kept", async () => {
        const orderId = await capturedOrder()
        await addTeas(orderId, 1)
        const first = await sendLink(orderId)
        const paid = await payLink(first)
        expect(paid.outcome).toBe("paid")
        // Medusa counts captures only: the order still shows 56.88 pending while the payment waits for Capture.
        expect(await pendingMinor(orderId)).toBe(5688)

        const again = await sendLink(orderId)
        const medusa = await medusaRecord(orderId, first.payment_session_id)
        // Seen together: the answer, and what became of the customer's payment.
        expect({
          status: again.status,
          releases: ledger("releaseReservation").length,
          altapay: heldAtAltaPay(paid.transactionId),
          medusa: medusa.heldMinor,
          collection: medusa.collectionStatus,
        }).toEqual({ status: 400, releases: 0, altapay: 5688, medusa: 5688, collection: "authorized" })
        expect(again.message).toMatch(/authorized/)
      })

      it("a link replaced by a newer one for a higher due, both paid: the older one's reservation is released and the merchant told", async () => {
        const orderId = await capturedOrder()
        await addTeas(orderId, 1)
        const older = await sendLink(orderId)
        await addTeas(orderId, 1)
        const newer = await sendLink(orderId)
        expect([older.amount.minor, newer.amount.minor]).toEqual([5688, 11375])
        expect(newer.payment_session_id).not.toBe(older.payment_session_id)

        const paidNewer = await payLink(newer)
        const paidOlder = await payLink(older)
        expect([paidNewer.outcome, paidOlder.outcome]).toEqual(["paid", "unconfirmed"])
        await followUp()

        expect(heldAtAltaPay(paidNewer.transactionId)).toBe(11375)
        expect(heldAtAltaPay(paidOlder.transactionId)).toBe(0)
        expect((await medusaRecord(orderId, newer.payment_session_id)).heldMinor).toBe(11375)
        expect((await medusaRecord(orderId, older.payment_session_id)).payment).toBeUndefined()
        const notices = await feed()
        expect(notices.map((n) => n.data?.title)).toEqual(["AltaPay payment released: no order"])
        expect(String(notices[0].data?.description)).toMatch(/A customer paid 56\.88 DKK/)
      })
    })
  },
})
