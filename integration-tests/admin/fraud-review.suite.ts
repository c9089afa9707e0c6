/**
 * AltaPay's fraud recommendation through Medusa's real routes, against the sandbox's fraud amounts
 * (AltaPay's Testing page: 102.00 Challenge, 110.00 Deny), under the default `fraud` policy:
 * a Challenge places the order but Medusa's own Capture is refused until the merchant approves it
 * in the order panel's route; a Deny never becomes an order, its reservation is released and the
 * customer's return lands on `declined`.
 */
import { storeSuite } from "../../tools/test-store/store-app/runner"
import altapayExpiringReservationsJob from "../../src/jobs/altapay-expiring-reservations"
import { altapayStore } from "../../tools/test-store/store-app/altapay-store"
import {
  cartWithNewProduct,
  createAdminUser,
  eventually,
  orderPayments,
  payWithAltaPay,
  seedStore,
  startSession,
  storeHeaders,
  type Api,
  type SeededStore,
} from "../../tools/test-store/store"

const store = altapayStore()

export default storeSuite({
  testSuite: ({ api: rawApi, getContainer }) => {
    const api = rawApi as unknown as Api
    let admin: { headers: Record<string, string> }
    let seed: SeededStore
    const as = () => ({ headers: admin.headers, validateStatus: () => true })

    beforeAll(async () => {
      admin = await createAdminUser(api, getContainer())
      // Prices include tax: one item plus the seeded 49.00 shipping is exactly AltaPay's test amount.
      seed = await seedStore(getContainer(), { taxInclusive: true })
    })

    /** A cart of one product priced so that with shipping it totals `total` DKK. */
    async function cartOf(total: number): Promise<string> {
      const cart = await cartWithNewProduct(api, getContainer(), seed, total - 49)
      expect(cart.total).toBe(total)
      return cart.id
    }

    it("Challenge (102.00): the order is placed, Medusa's Capture is refused until the merchant approves it, then it captures", async () => {
      const cartId = await cartOf(102)
      await payWithAltaPay(await startSession(api, seed, cartId), { sandbox: store.sandbox(), callback: false })
      const { data: completed } = await api.post(`/store/carts/${cartId}/complete`, {}, { headers: storeHeaders(seed) })
      expect(completed.type).toBe("order")
      const [payment] = await orderPayments(getContainer(), completed.order.id)

      const view = await api.get(`/admin/altapay/payments/${payment.id}`, as())
      expect(view.data.altapay_payment.review.fraud).toMatchObject({ recommendation: "Challenge", decision: "hold", held: true })

      const refused = await api.post(`/admin/payments/${payment.id}/capture`, {}, as())
      expect(refused.status).toBe(400)
      expect(refused.data.message).toMatch(/held for review.*Approve the capture in the order's AltaPay panel first/)
      expect(
        store
          .sandbox()
          .ledger()
          .filter((e) => e.operation === "captureReservation")
      ).toHaveLength(0)

      const approved = await api.post(`/admin/altapay/payments/${payment.id}/fraud-approval`, {}, as())
      expect(approved.status).toBe(200)
      expect(approved.data.altapay_payment.review.fraud).toMatchObject({ held: false, approved_by: expect.stringMatching(/^user_/) })

      expect((await api.post(`/admin/payments/${payment.id}/capture`, {}, as())).status).toBe(200)
      const transactionId = view.data.altapay_payment.altapay.transaction_id
      expect(store.sandbox().transaction(transactionId)?.capturedMinor).toBe(10200)
    })

    it("an uncaptured reservation: the panel shows AltaPay's expiry date, the follow-up tells the merchant before it lapses, and a capture after a failed reauthorisation says what to do", async () => {
      const cartId = await cartOf(100)
      await payWithAltaPay(await startSession(api, seed, cartId), { sandbox: store.sandbox(), callback: false })
      const { data: completed } = await api.post(`/store/carts/${cartId}/complete`, {}, { headers: storeHeaders(seed) })
      const [payment] = await orderPayments(getContainer(), completed.order.id)
      const { review, altapay } = (await api.get(`/admin/altapay/payments/${payment.id}`, as())).data.altapay_payment
      expect(review.expiry).toMatchObject({ days_left: 6, lapsed: false, uncaptured_minor: 10000 })
      const expiresAt = Date.parse(review.expiry.expires_at)

      const early = await altapayExpiringReservationsJob(getContainer(), { scheduledFor: new Date(expiresAt - 4 * 24 * 3600_000) })
      expect(early.counts["told: reservation expiring"] ?? 0).toBe(0)
      const due = await altapayExpiringReservationsJob(getContainer(), { scheduledFor: new Date(expiresAt - 24 * 3600_000) })
      expect(due.counts["told: reservation expiring"]).toBe(1)

      store.sandbox().lapseReservation(altapay.transaction_id, "fails")
      const refused = await api.post(`/admin/payments/${payment.id}/capture`, {}, as())
      expect(refused.status).toBe(400)
      expect(refused.data.message).toMatch(/reservation had expired and AltaPay's new authorisation was declined.*\(reauth_failed\).*Ask the customer to pay again/)
    })

    it("Deny (110.00): no order, the reservation released, and the customer's return lands on declined", async () => {
      const cartId = await cartOf(110)
      const paid = await payWithAltaPay(await startSession(api, seed, cartId))
      expect(paid.returnUrl).toMatch(/outcome=declined/)
      const transactionId = store.sandbox().payment(paid.paymentId)?.transactionId
      const releases = () =>
        store
          .sandbox()
          .ledger()
          .filter((e) => e.operation === "releaseReservation" && (e.params as { transaction_id?: string }).transaction_id === transactionId)
      expect(releases().map((e) => e.status)).toEqual([200])
      const { data } = await api.get(`/store/carts/${cartId}`, { headers: storeHeaders(seed) })
      expect(data.cart.completed_at ?? null).toBeNull()
      // The notification callback's authorization (about 5 s later) finds it released and places no order either.
      const stillNoOrder = await eventually(
        async () => (await api.get(`/store/carts/${cartId}`, { headers: storeHeaders(seed) })).data.cart.completed_at ?? null,
        () => false,
        6_000
      )
      expect(stillNoOrder).toBeNull()
      expect(releases()).toHaveLength(1)
    })
  },
})
