/**
 * Issue 30 on a whole store (embedded Postgres, the sandbox over HTTP): a chargeback AltaPay
 * notifies (the sandbox's sendChargeback, signed like every callback) is recorded on the payment
 * once, shown by the AltaPay panel's route, told to the merchant in the notification feed and
 * listed among the payout exceptions, while Medusa starts no workflow for it. With
 * `callbackSources` naming this machine, the sandbox's posts are accepted, and the same posts
 * seen as coming from elsewhere (one proxy's X-Forwarded-For: Medusa sets `trust proxy` to 1)
 * are refused with 403 on the notification webhook and the return endpoint.
 */
import type { INotificationModuleService } from "@medusajs/framework/types"
import { Modules } from "@medusajs/framework/utils"
import { storeSuite } from "../../tools/test-store/store-app/runner"
import { altapayStore } from "../../tools/test-store/store-app/altapay-store"
import { eventsSettled } from "../../tools/test-store/store-app/events-settled"
import { createAdminUser, createAltaPayOrder, eventually, seedStore, type Api, type SeededStore } from "../../tools/test-store/store"

// The group's store (groups/callback-proxy-store.spec.ts) lists this machine as the proxy in front
// of Medusa: the X-Forwarded-For it adds is the sender.
const store = altapayStore()
const anyStatus = { validateStatus: () => true }

export default storeSuite({
  testSuite: ({ api: rawApi, getContainer }) => {
    const api = rawApi as unknown as Api
    let admin: { id: string; headers: Record<string, string> }
    let seed: SeededStore
    const as = () => ({ headers: admin.headers, ...anyStatus })

    beforeAll(async () => {
      admin = await createAdminUser(api, getContainer())
      seed = await seedStore(getContainer())
    })

    it("records a chargeback once, shows it on the panel, tells the merchant and lists it as a payout exception", async () => {
      const order = await createAltaPayOrder(api, seed, getContainer(), store.sandbox())
      expect((await api.post(`/admin/payments/${order.paymentId}/capture`, {}, as())).status).toBe(200)
      const before = await api.get(`/admin/altapay/payments/${order.paymentId}`, as())
      const transactionId = before.data.altapay_payment.altapay.transaction_id as string
      expect(before.data.altapay_payment.chargebacks).toEqual([])

      const event = { type: "Chargeback", reasonCode: "4837", reason: "No Cardholder Authorization", date: "2026-11-20T00:00:00+01:00", acquirerTransactionId: "acq-1" }
      expect((await store.sandbox().sendChargeback(transactionId, event)).status).toBe(200)
      // AltaPay may notify the same event again: it is recorded once.
      expect((await store.sandbox().sendChargeback(transactionId, event)).status).toBe(200)

      const view = await eventually(
        async () => (await api.get(`/admin/altapay/payments/${order.paymentId}`, as())).data.altapay_payment,
        (v) => v.chargebacks.length > 0
      )
      await eventsSettled(getContainer())
      const after = (await api.get(`/admin/altapay/payments/${order.paymentId}`, as())).data.altapay_payment
      expect(after.chargebacks).toEqual([
        expect.objectContaining({
          type: "Chargeback",
          reason_code: "4837",
          reason: "No Cardholder Authorization",
          acquirer_transaction_id: "acq-1",
          amount: view.altapay.captured,
        }),
      ])
      // No Medusa workflow ran for it: the payment is as captured, nothing refunded.
      expect(after.medusa.refunded.minor).toBe(0)

      const feed = await getContainer().resolve<INotificationModuleService>(Modules.NOTIFICATION).listNotifications({ channel: "feed" })
      const notices = feed.filter((n) => String((n.data as { title?: string })?.title).startsWith("AltaPay chargeback"))
      expect(notices).toHaveLength(1)
      expect((notices[0].data as { description: string }).description).toContain(`AltaPay chargeback on order ${order.orderId}: 4837 No Cardholder Authorization`)

      const exceptions = await api.get("/admin/altapay/payout-exceptions?kind=chargeback", as())
      expect(exceptions.status).toBe(200)
      expect(exceptions.data.count).toBe(1)
      expect(exceptions.data.exceptions[0]).toMatchObject({ kind: "chargeback", orderId: order.orderId, paymentId: order.paymentId })
    })

    it("refuses the notification webhook and the return post from an address callbackSources does not name (403)", async () => {
      const elsewhere = { ...anyStatus, headers: { "content-type": "application/x-www-form-urlencoded", "x-forwarded-for": "203.0.113.9" } }
      const webhook = await api.post("/hooks/payment/altapay_altapay", "shop_orderid=x&status=succeeded", elsewhere)
      expect(webhook.status).toBe(403)
      const ret = await api.post("/altapay/return/altapay/success", "shop_orderid=x&status=succeeded", elsewhere)
      expect(ret.status).toBe(403)
      // From this machine (the sandbox's own address) the same posts reach the routes.
      const local = { ...anyStatus, maxRedirects: 0, headers: { "content-type": "application/x-www-form-urlencoded" } }
      expect((await api.post("/hooks/payment/altapay_altapay", "shop_orderid=x&status=succeeded", local)).status).not.toBe(403)
      expect((await api.post("/altapay/return/altapay/success", "shop_orderid=x&status=succeeded", local)).status).not.toBe(403)
    })
  },
})
