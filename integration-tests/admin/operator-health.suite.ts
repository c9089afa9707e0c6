/**
 * Issue 43 item 1 on a whole store (embedded Postgres, the sandbox over HTTP): each figure of the
 * admin's AltaPay page (GET /admin/altapay/health) from a real event. A callback AltaPay signed an
 * hour ago shows as the last post and how late it came; a forged signature, a post from an address
 * callbackSources does not name and a paid callback for a session Medusa deleted are counted as
 * refused; a capture whose answer is lost (a sandbox fault) is an uncertain attempt on its order
 * until the follow-up job settles it, and the job's run shows what it did; a reservation not captured
 * shows as about to expire on its order. The live check (GET
 * /admin/altapay/health/:provider/check) lists the sandbox's terminals, and nothing of either answer
 * is a secret.
 */
import { ContainerRegistrationKeys } from "@medusajs/framework/utils"
import { storeSuite } from "../../tools/test-store/store-app/runner"
import uncertainMoneyJob from "../../src/jobs/altapay-uncertain-money"
import type { AdminAltaPayCheckResponse, AdminAltaPayHealthResponse } from "../../src/lib/health/views"
import { altapayStore } from "../../tools/test-store/store-app/altapay-store"
import {
  createAdminUser,
  createCart,
  eventually,
  orderPayments,
  payWithAltaPay,
  seedStore,
  startSession,
  storeHeaders,
  type Api,
  type SeededStore,
} from "../../tools/test-store/store"

const PROVIDER = "pp_altapay_altapay"
// The group's store (groups/callback-proxy-store.spec.ts): a notice period longer than the sandbox's
// seven-day authorisations (every reservation is about to expire), and the test client 127.0.0.1 is
// listed as a proxy (its X-Forwarded-For stands for a post from elsewhere).
const store = altapayStore()
const anyStatus = { validateStatus: () => true }

export default storeSuite({
  testSuite: ({ api: rawApi, getContainer }) => {
    const api = rawApi as unknown as Api
    let admin: { headers: Record<string, string> }
    let seed: SeededStore
    const as = () => ({ headers: admin.headers, ...anyStatus })
    const health = async (): Promise<AdminAltaPayHealthResponse> => {
      const response = await api.get("/admin/altapay/health", as())
      expect(response.status).toBe(200)
      return response.data
    }
    const posts = async () => (await health()).registrations.find((r) => r.providerId === PROVIDER)!.posts

    beforeAll(async () => {
      admin = await createAdminUser(api, getContainer())
      seed = await seedStore(getContainer())
    })

    /** A cart paid at AltaPay without its callback; `complete`: the customer completes it into an order. */
    async function paidCart(complete: boolean) {
      const cart = await createCart(api, seed)
      const session = await startSession(api, seed, cart.id)
      const paid = await payWithAltaPay(session, { sandbox: store.sandbox(), callback: false })
      if (!complete) return { cartId: cart.id as string, altapayPaymentId: paid.paymentId }
      const { data } = await api.post(`/store/carts/${cart.id}/complete`, {}, { headers: storeHeaders(seed) })
      const [payment] = await orderPayments(getContainer(), data.order.id)
      return { cartId: cart.id as string, altapayPaymentId: paid.paymentId, orderId: data.order.id as string, paymentId: payment.id as string }
    }

    it("shows the last post AltaPay sent and how late it came after AltaPay signed it", async () => {
      const paid = await paidCart(true)
      const anHourAgo = Math.floor(Date.now() / 1000) - 3600
      expect((await store.sandbox().sendCallback(paid.altapayPaymentId, { timestamp: anHourAgo })).status).toBe(200)
      const last = (await eventually(posts, (p) => p.lastReceived !== null)).lastReceived!
      expect(last.road).toBe("callback")
      expect(last.lateMs).toBeGreaterThanOrEqual(3600_000)
      expect(last.lateMs).toBeLessThan(3700_000)
    })

    it("counts the posts refused in the last day: a forged signature, an unknown source, a session Medusa deleted", async () => {
      const paid = await paidCart(true)
      expect((await store.sandbox().sendCallback(paid.altapayPaymentId, { signature: "forged" })).status).toBe(200)
      await eventually(posts, (p) => p.refusedLastDay.signature === 1)

      const elsewhere = { ...anyStatus, headers: { "content-type": "application/x-www-form-urlencoded", "x-forwarded-for": "203.0.113.9" } }
      expect((await api.post("/hooks/payment/altapay_altapay", "shop_orderid=x&status=succeeded", elsewhere)).status).toBe(403)
      expect((await api.post("/altapay/return/altapay/success", "shop_orderid=x&status=succeeded", elsewhere)).status).toBe(403)

      // The shopper picks AltaPay again: Medusa deletes the paid session and makes a new one.
      const stranded = await paidCart(false)
      const query = getContainer().resolve(ContainerRegistrationKeys.QUERY)
      const { data } = await query.graph({ entity: "cart", fields: ["payment_collection.id"], filters: { id: stranded.cartId } })
      const collectionId = (data[0] as { payment_collection: { id: string } }).payment_collection.id
      await api.post(`/store/payment-collections/${collectionId}/payment-sessions`, { provider_id: PROVIDER }, { headers: storeHeaders(seed) })
      expect((await store.sandbox().sendCallback(stranded.altapayPaymentId)).status).toBe(200)

      const refused = await eventually(posts, (p) => p.refusedLastDay["unknown-session"] === 1)
      expect(refused.refusedLastDay).toEqual({ signature: 1, source: 2, "unknown-session": 1 })
      expect(refused.recentRefusals.map((r) => `${r.road} ${r.reason}`)).toEqual(["callback unknown-session", "return source", "callback source", "callback signature"])
    })

    it("shows a capture whose answer was lost as uncertain on its order until the follow-up job settles it, and the job's run", async () => {
      const paid = await paidCart(true)
      store.sandbox().faults.add({ route: "captureReservation", kind: "lost-answer" })
      store.sandbox().faults.add({ route: "payments", kind: "503", times: 3 })
      const capture = await api.post(`/admin/payments/${paid.paymentId}/capture`, {}, as())
      expect(capture.status).toBeGreaterThanOrEqual(400)
      expect(JSON.stringify(capture.data)).toMatch(/trying again is safe/)
      store.sandbox().faults.clear()

      const before = await health()
      expect(before.uncertain).toEqual([expect.objectContaining({ kind: "capture", providerId: PROVIDER, paymentId: paid.paymentId, orderId: paid.orderId })])

      await uncertainMoneyJob(getContainer())
      const after = await health()
      expect(after.uncertain).toEqual([])
      const run = after.jobs.find((j) => j.job === "money attempts without an answer")
      expect(run).toEqual(expect.objectContaining({ stopped: false, counts: expect.objectContaining({ checked: 1, recorded: 1 }) }))
      expect(run!.line).toMatch(/^AltaPay follow-up of money attempts without an answer: checked 1 of pp_altapay_altapay: 1 recorded/)
    })

    it("lists a reservation not captured whose authorisation ends within the notice period, with its order", async () => {
      const paid = await paidCart(true)
      const { expiring } = await health()
      const reservation = expiring.find((r) => r.paymentId === paid.paymentId)
      expect(reservation).toMatchObject({ providerId: PROVIDER, orderId: paid.orderId, currency: "DKK", lapsed: false })
      expect(reservation!.uncapturedMinor).toBeGreaterThan(0)
      const daysLeft = (Date.parse(reservation!.expiresAt) - Date.now()) / (24 * 3600_000)
      expect(daysLeft).toBeGreaterThan(5)
      expect(daysLeft).toBeLessThan(10)
    })

    it("shows the registration's set-up and, live, what altapay-check finds; never a secret", async () => {
      const [registration] = (await health()).registrations
      expect(registration).toMatchObject({
        providerId: PROVIDER,
        gateway: "sandbox",
        secrets: { password: true, callbackSecret: true },
        callbackSources: "list",
        urls: { notification: `${store.medusaUrl()}/hooks/payment/altapay_altapay` },
      })
      const check = await api.get(`/admin/altapay/health/${PROVIDER}/check`, as())
      expect(check.status).toBe(200)
      const body = check.data as AdminAltaPayCheckResponse
      expect(body.credentials).toBe("accepted")
      expect(body.terminals.length).toBeGreaterThan(0)
      expect(body.terminals[0].currencies.length).toBeGreaterThan(0)
      expect(body.lines).toContainEqual(expect.objectContaining({ status: "ok", text: expect.stringMatching(/accepts the API user \(the API user\)/) }))

      const options = store.altapay.options
      for (const secret of [options.password, options.username, options.callbackSecret, options.paymentDataSecret].filter((s): s is string => !!s)) {
        expect(JSON.stringify(body)).not.toContain(secret)
        expect(JSON.stringify(await health())).not.toContain(secret)
      }
      expect((await api.get(`/admin/altapay/health/pp_altapay_nothing/check`, as())).status).toBe(404)
      expect((await api.get("/admin/altapay/health", anyStatus)).status).toBe(401)
    })
  },
})
