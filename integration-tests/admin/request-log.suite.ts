/**
 * The request log (issue 43) in one Medusa app (embedded Postgres) against the AltaPay sandbox over
 * HTTP: a registration with requestLog on, an order paid and captured through Medusa, and what the
 * order's AltaPay panel reads from GET /admin/altapay/payments/:id/requests. The group
 * `saved-cards-store` sets requestLog to { enabled: true, maxEntries: 20, retentionDays: 2 }.
 */
import { storeSuite } from "../../tools/test-store/store-app/runner"
import { altapayStore } from "../../tools/test-store/store-app/altapay-store"
import { createAdminUser, createAltaPayOrder, seedStore, type Api, type SeededStore } from "../../tools/test-store/store"
import { shopOrderIdFor } from "../../src/lib/medusa-mapping/shop-order-id"

const store = altapayStore()
const anyStatus = { validateStatus: () => true }

export default storeSuite({
  testSuite: ({ api: rawApi, getContainer }) => {
    const api = rawApi as unknown as Api
    let admin: { id: string; headers: Record<string, string> }
    let seed: SeededStore
    beforeAll(async () => {
      admin = await createAdminUser(api, getContainer())
      seed = await seedStore(getContainer())
    })

    it("answers 401 without an admin", async () => {
      expect((await api.get("/admin/altapay/payments/pay_123/requests", anyStatus)).status).toBe(401)
    })

    it("lists what the plugin said to AltaPay about the payment, oldest first, and nothing of the customer or the card", async () => {
      const order = await createAltaPayOrder(api, seed, getContainer(), store.sandbox())
      expect((await api.post(`/admin/payments/${order.paymentId}/capture`, {}, { headers: admin.headers })).status).toBe(200)
      const { status, data } = await api.get(`/admin/altapay/payments/${order.paymentId}/requests`, { headers: admin.headers })
      expect(status).toBe(200)
      const log = data.request_log
      expect(log).toMatchObject({ enabled: true, max_entries: 20, retention_days: 2 })
      const operations = log.entries.map((e: { operation: string }) => e.operation)
      // The session was made under the Medusa session's shop_orderid, the capture on the transaction.
      expect(operations[0]).toBe("POST /checkout/v1/api/session")
      expect(operations).toContain("POST /merchant/API/captureReservation")
      expect(log.entries.find((e: { operation: string }) => e.operation === "POST /merchant/API/captureReservation")).toMatchObject({
        status: 200,
        outcome: "success",
        result: "Success",
        reconciliation_identifier: expect.stringMatching(/^medusa-capture-capt_/),
      })
      const text = JSON.stringify(log)
      for (const personal of ["karen@example.com", "Karen", "Blixen", "Strandvejen", "4111111111111111", "+4512345678", shopOrderIdFor(order.session.paymentSessionId)]) {
        expect(text).not.toContain(personal)
      }
    })
  },
})
