/**
 * A second customer, with nothing but Medusa's real store routes and the publishable key, goes
 * after the first customer's authorized, uncaptured payment: payment sessions on their own cart
 * whose `data` names the victim's session (all its fields, a forged seal, their own sealed data
 * with the victim's ids), sent concurrently with a cart update and a cart completion, so Medusa
 * deletes sessions whose stored data is still the browser's. AltaPay's ledger must show no call
 * for the victim's session, the reservation must be intact, and the victim's order must still
 * capture in full.
 *
 * Also here: a callback Medusa processes seconds after it arrived is judged on its arrival (the
 * plugin's middleware stamps it), with a tolerance shorter than Medusa's processing delay.
 */
import { storeSuite } from "../../tools/test-store/store-app/runner"
import type { AltaPayPaymentData } from "../../src/lib/payment-data/data"
import { PROVIDER_ID } from "../../tools/test-store/altapay-sandbox"
import {
  createAdminUser,
  createAltaPayOrder,
  createCart,
  createCustomer,
  orderForCart,
  orderPayments,
  returnsAfterCallback,
  seedStore,
  storeHeaders,
  waitForOrder,
  type Api,
  type SeededStore,
} from "../../tools/test-store/store"
import { altapayStore } from "../../tools/test-store/store-app/altapay-store"
import { shopOrderIdFor } from "../../src/lib/medusa-mapping/shop-order-id"

// The group `verified-redirect-store`: the redirect flow, with a callbackToleranceSeconds of 2.
// Medusa's subscriber handles a webhook 5 s after it arrived: a 2 s tolerance passes only if the
// signature is judged against the arrival time.
const store = altapayStore()
const anyStatus = { validateStatus: () => true }

export default storeSuite({
  testSuite: ({ api: rawApi, getContainer }) => {
    const api = rawApi as unknown as Api
    let seed: SeededStore
    // Seeded once: the runner snapshots the database after the suite's beforeAll and restores that before each test.
    beforeAll(async () => {
      seed = await seedStore(getContainer())
    })

    it("a second customer's crafted session data, sent concurrently with a cart update, never touches the first customer's payment", async () => {
      const sandbox = store.sandbox()
      const victimCustomer = await createCustomer(api, seed)
      const victim = await createAltaPayOrder(api, seed, getContainer(), sandbox, { customerToken: victimCustomer.token })
      const [victimPayment] = await orderPayments(getContainer(), victim.orderId)
      const victimData = victimPayment.data as AltaPayPaymentData & { altapay_seal: string }
      expect(victimData).toMatchObject({ transaction_id: expect.any(String), authorized_at: expect.any(String), order_id: shopOrderIdFor(victimPayment.payment_session_id) })
      const reservation = sandbox.transaction(victimData.transaction_id!)!
      expect(reservation).toMatchObject({ status: "preauth", capturedMinor: 0 })

      // The attacker: a customer of their own, a cart, its payment collection, one honest session.
      const attacker = await createCustomer(api, seed)
      const headers = storeHeaders(seed, attacker.token)
      const cart = await createCart(api, seed, { customerToken: attacker.token, email: attacker.email })
      const { data: created } = await api.post("/store/payment-collections", { cart_id: cart.id }, { headers })
      const collectionId = created.payment_collection.id as string
      const { data: honest } = await api.post(`/store/payment-collections/${collectionId}/payment-sessions`, { provider_id: PROVIDER_ID }, { headers })
      const ownSealed = honest.payment_collection.payment_sessions.find((s: { provider_id: string }) => s.provider_id === PROVIDER_ID).data as Record<string, unknown>

      // Everything the victim's data says (the session id travels in success URLs and AltaPay's
      // order reference), as the browser can write it: unsealed, forged seal, the attacker's own seal.
      const { altapay_seal: _seal, ...victimFields } = victimData
      const crafted: Record<string, unknown>[] = [
        { ...victimFields, authorized_at: null },
        { ...victimFields, authorized_at: null, altapay_seal: victimData.altapay_seal.replace(/.$/, (c) => (c === "A" ? "B" : "A")) },
        { ...ownSealed, order_id: victimData.order_id, altapay_session_id: victimData.altapay_session_id, transaction_id: victimData.transaction_id },
        { order_id: victimData.order_id, amount_minor: 1, currency: "SEK", order_lines: [] },
      ]
      const attackStart = sandbox.ledger().at(-1)?.seq ?? 0
      // AltaPay over the internet: each new session takes a while, and all that time Medusa's row
      // for it holds the browser's data only.
      sandbox.faults.add({ route: /\/session$/, kind: "latency", ms: 600, times: 1_000 })

      const session = (data: Record<string, unknown>) =>
        api.post(`/store/payment-collections/${collectionId}/payment-sessions`, { provider_id: PROVIDER_ID, data }, { headers, ...anyStatus })
      const later = <T>(ms: number, send: () => Promise<T>) => new Promise((r) => setTimeout(r, ms)).then(send)

      // The plugin's store route reuses a matching session of the cart and hands out a CUSTOMER
      // token for its AltaPay session: while a session's row holds only the browser's data (here
      // the victim's AltaPay session id with this cart's own lines), it must not be reused.
      const asReusable = { ...victimFields, authorized_at: null, order_lines: ownSealed.order_lines }
      const tokens = await Promise.all([
        session(asReusable),
        later(250, () => api.post(`/store/carts/${cart.id}/altapay-session`, {}, { headers, ...anyStatus })),
        later(350, () => api.post(`/store/carts/${cart.id}/altapay-session`, {}, { headers, ...anyStatus })),
      ])
      for (const answer of tokens.slice(1)) expect(answer.data?.altapay?.session_id).not.toBe(victimData.altapay_session_id)

      for (const first of crafted) {
        await Promise.all([
          session(first),
          // While that session waits for AltaPay: more sessions (each deletes the others) and a
          // cart update (Medusa refreshes the payment collection, deleting its sessions).
          ...crafted.map((data) => later(250, () => session(data))),
          later(250, () => api.post(`/store/carts/${cart.id}/line-items`, { variant_id: seed.products.tea.variantId, quantity: 1 }, { headers, ...anyStatus })),
          later(300, () => api.post(`/store/carts/${cart.id}/complete`, {}, { headers, ...anyStatus })),
        ])
      }
      sandbox.faults.clear()

      // No AltaPay call named the victim's session, AltaPay session or transaction.
      const victimIds = [victimData.order_id, victimData.altapay_session_id, victimData.transaction_id!]
      const touching = sandbox.ledger().filter((e) => e.seq > attackStart && victimIds.some((id) => JSON.stringify(e).includes(id)))
      expect(touching).toEqual([])
      expect(sandbox.transaction(victimData.transaction_id!)).toMatchObject({ status: "preauth", reservedMinor: reservation.reservedMinor, capturedMinor: 0 })
      // The attacker's cart did not become an order paid by someone else's reservation.
      expect(await orderForCart(getContainer(), cart.id)).toBeUndefined()

      // The victim's order captures in full.
      const admin = await createAdminUser(api, getContainer())
      const captured = await api.post(`/admin/payments/${victimPayment.id}/capture`, {}, { headers: admin.headers, ...anyStatus })
      expect(captured.status).toBe(200)
      expect(sandbox.transaction(victimData.transaction_id!)).toMatchObject({ status: "captured", capturedMinor: reservation.reservedMinor })
    })

    it("a signed callback is judged on when it reached the store, not on when Medusa processed it", async () => {
      const cart = await createCart(api, seed)
      const headers = storeHeaders(seed)
      const { data: created } = await api.post("/store/payment-collections", { cart_id: cart.id }, { headers })
      const { data } = await api.post(`/store/payment-collections/${created.payment_collection.id}/payment-sessions`, { provider_id: PROVIDER_ID }, { headers })
      const redirectUrl = data.payment_collection.payment_sessions[0].data.redirect_url as string

      // AltaPay's return post is held until the callback has completed the cart: only the callback can.
      const release = returnsAfterCallback(store.sandbox(), getContainer(), cart.id)
      const page = await fetch(redirectUrl, {
        method: "POST",
        headers: { "content-type": "application/x-www-form-urlencoded" },
        body: "outcome=authorize",
        redirect: "manual",
      }).finally(release)
      await page.text()
      expect(
        store
          .sandbox()
          .ledger()
          .filter((e) => e.operation === "callback.notification" && e.status === 200)
      ).not.toHaveLength(0)

      await expect(waitForOrder(getContainer(), cart.id, 20_000)).resolves.toMatchObject({ id: expect.any(String) })
    })
  },
})
