/**
 * A hostile browser holding the one thing the store route hands it, a CUSTOMER token for its own
 * cart's AltaPay session, attacks through Medusa's real store routes and AltaPay's Checkout API.
 * What a merchant relies on:
 *
 * - no browser can move another customer's money: a payment its token made under another order's
 *   shop_orderid (AltaPay lets the token rewrite `orderId`) never captures that order's reservation
 *   (docs/security.md says what such a payment does before that order is paid);
 * - the token reaches its own session only: no other session, payment or payment link, no gateway
 *   operation (capture, refund, release), and AltaPay's ledger shows no money moved for anyone else;
 * - the store route answers hostile carts and bodies with a clear 4xx and asks AltaPay for nothing;
 * - no store answer (the route's, GET /store/carts/:id with its payment sessions, an error) carries a
 *   token, the API password, the callback secret or a Basic header beyond the one CUSTOMER token.
 *
 * The sandbox signs callbacks with the store's callbackSecret, as AltaPay does with a webhook secret.
 */
import { ContainerRegistrationKeys } from "@medusajs/framework/utils"
import { storeSuite } from "../../tools/test-store/store-app/runner"
import { API_PASSWORD, API_USER, CALLBACK_SECRET, PROVIDER_ID } from "../../tools/test-store/altapay-sandbox"
import { altapayStore } from "../../tools/test-store/store-app/altapay-store"
import { eventsSettled } from "../../tools/test-store/store-app/events-settled"
import {
  createAltaPayOrder,
  createCart,
  createCustomer,
  orderForCart,
  orderPayments,
  payWithAltaPay,
  seedStore,
  startSession,
  storeHeaders,
  type Api,
  type SeededStore,
} from "../../tools/test-store/store"
import { shopOrderIdFor } from "../../src/lib/medusa-mapping/shop-order-id"
import type { AltaPaySession } from "../../src/storefront"

const store = altapayStore()
const anyStatus = { validateStatus: () => true }
const MONEY = ["captureReservation", "refundCapturedReservation", "releaseReservation", "chargeSubscription", "reserveSubscriptionCharge"]
const JWT = /eyJ[\w-]{8,}\.eyJ[\w-]{8,}\.[\w-]{8,}/

/** A call to AltaPay's Checkout API with a bearer token, as the browser makes it. */
async function checkout(token: string, method: string, path: string, body?: unknown): Promise<{ status: number; body: any }> {
  const res = await fetch(`${store.sandbox().checkoutUrl}/checkout/v1/api${path}`, {
    method,
    headers: { authorization: `Bearer ${token}`, "content-type": "application/json", accept: "application/json" },
    ...(body === undefined ? {} : { body: JSON.stringify(body) }),
  })
  const text = await res.text()
  let parsed: unknown = text
  try {
    parsed = JSON.parse(text)
  } catch {
    // kept as text
  }
  return { status: res.status, body: parsed }
}

/** A gateway merchant call (form post) with whatever authorization the browser has. */
async function gateway(operation: string, authorization: string, fields: Record<string, string>): Promise<number> {
  const res = await fetch(`${store.sandbox().gatewayUrl}/merchant/API/${operation}`, {
    method: "POST",
    headers: { authorization, "content-type": "application/x-www-form-urlencoded" },
    body: new URLSearchParams(fields).toString(),
  })
  await res.text()
  return res.status
}

/** Rewrites the browser's own AltaPay session with its CUSTOMER token; AltaPay (and the sandbox) accept it. */
async function rewrite(session: AltaPaySession, patch: Record<string, unknown>): Promise<void> {
  const res = await checkout(session.token, "PUT", `/session/${session.sessionId}`, patch)
  expect({ rewrite: res.status }).toEqual({ rewrite: 200 })
}

const moneyOn = (transactionId: string) =>
  store
    .sandbox()
    .ledger()
    .filter((e) => MONEY.includes(e.operation) && JSON.stringify(e.params ?? {}).includes(transactionId))
    .map((e) => ({ operation: e.operation, status: e.status }))

export default storeSuite({
  testSuite: ({ api: rawApi, getContainer }) => {
    const api = rawApi as unknown as Api
    let seed: SeededStore
    beforeAll(async () => {
      seed = await seedStore(getContainer())
    })
    beforeEach(() => {
      store.sandbox().clearLedger()
      store.sandbox().faults.clear()
    })

    it("a payment the attacker's token captures at once under another customer's order captures nothing of that order's reservation", async () => {
      const container = getContainer()
      const victim = await createAltaPayOrder(api, seed, container, store.sandbox())
      const [victimPayment] = await orderPayments(container, victim.orderId)
      const victimData = victimPayment.data as { transaction_id: string; amount_minor: number; order_id: string }
      const before = store.sandbox().transaction(victimData.transaction_id)!
      expect(before).toMatchObject({ status: "preauth", capturedMinor: 0, reservedMinor: victimData.amount_minor })

      // The attacker's own cart; its AltaPay session rewritten: the victim's shop_orderid, 1.00 DKK, captured at once.
      const attackerCart = await createCart(api, seed, { email: "attacker@example.com" })
      const attacker = await startSession(api, seed, attackerCart.id)
      const oneLine = { amount: { value: 1, currency: "DKK" }, orderLines: [{ description: "All", itemId: "all", quantity: 1, unitPrice: 1, taxAmount: 0 }] }
      await rewrite(attacker, { order: { ...oneLine, orderId: victimData.order_id }, configuration: { autoCapture: true } })
      const paid = await payWithAltaPay(attacker)
      const attackerTx = store.sandbox().payment(paid.paymentId)!.transactionId as string
      expect(store.sandbox().transaction(attackerTx)).toMatchObject({ status: "captured", capturedMinor: 100 })
      await eventsSettled(container)

      const [paymentAfter] = await orderPayments(container, victim.orderId)
      const { data: captures } = await container
        .resolve(ContainerRegistrationKeys.QUERY)
        .graph({ entity: "capture", fields: ["amount", "created_by"], filters: { payment_id: victimPayment.id } })
      expect({
        medusaCaptures: captures.map((c: { amount: unknown }) => Number(c.amount)),
        victimReservation: {
          status: store.sandbox().transaction(victimData.transaction_id)!.status,
          capturedMinor: store.sandbox().transaction(victimData.transaction_id)!.capturedMinor,
        },
        gatewayCallsOnVictim: moneyOn(victimData.transaction_id),
        medusaCapturedAt: paymentAfter.captured_at ? "captured" : null,
        attackerOrder: (await orderForCart(container, attackerCart.id)) ? "order" : "none",
      }).toEqual({
        medusaCaptures: [],
        victimReservation: { status: "preauth", capturedMinor: 0 },
        gatewayCallsOnVictim: [],
        medusaCapturedAt: null,
        attackerOrder: "none",
      })
    })

    it("the CUSTOMER token reaches its own session only: no other session, payment or link, no second session, no gateway operation", async () => {
      const container = getContainer()
      const victim = await createAltaPayOrder(api, seed, container, store.sandbox())
      const [victimPayment] = await orderPayments(container, victim.orderId)
      const victimTx = (victimPayment.data as { transaction_id: string }).transaction_id
      const victimPaymentId = (victimPayment.data as { payment_id?: string }).payment_id ?? store.sandbox().transaction(victimTx)!.paymentId!
      const openCart = await createCart(api, seed, { email: "other@example.com" })
      const open = await startSession(api, seed, openCart.id)

      const attackerCart = await createCart(api, seed, { email: "attacker@example.com" })
      const attacker = await startSession(api, seed, attackerCart.id)
      const t = attacker.token
      const order = { orderId: "attacker-order-1", amount: { value: 1, currency: "DKK" } }
      const statuses = {
        createSession: (await checkout(t, "POST", "/session", { order })).status,
        readOtherSession: (await checkout(t, "GET", `/session/${open.sessionId}`)).status,
        rewriteOtherSession: (await checkout(t, "PUT", `/session/${open.sessionId}`, { order: { amount: { value: 1, currency: "DKK" } } })).status,
        rewritePaidSession: (await checkout(t, "PUT", `/session/${victim.session.sessionId}`, { order: { orderId: "x" } })).status,
        methodsOfOtherSession: (await checkout(t, "GET", `/session/${open.sessionId}/payment-methods`)).status,
        payOtherSession: (await checkout(t, "POST", "/payment", { sessionId: open.sessionId, paymentMethodId: "card" })).status,
        readOtherPayment: (await checkout(t, "GET", `/payment/${victimPaymentId}`)).status,
        linkForOwnSession: (await checkout(t, "POST", `/session/${attacker.sessionId}/link`, {})).status,
        linkForOtherSession: (await checkout(t, "POST", `/session/${open.sessionId}/link`, {})).status,
        merchantTokenFromCustomerToken: (await checkout(t, "POST", "/authenticate", { role: "MERCHANT" })).status,
        capture: await gateway("captureReservation", `Bearer ${t}`, { transaction_id: victimTx, amount: "1.00" }),
        refund: await gateway("refundCapturedReservation", `Bearer ${t}`, { transaction_id: victimTx, amount: "1.00" }),
        release: await gateway("releaseReservation", `Bearer ${t}`, { transaction_id: victimTx }),
        captureWithTokenAsBasic: await gateway("captureReservation", `Basic ${Buffer.from(`${API_USER}:${t}`).toString("base64")}`, { transaction_id: victimTx }),
        paymentsList: await gateway("payments", `Bearer ${t}`, { transaction_id: victimTx }),
      }
      expect(statuses).toEqual({
        createSession: 403,
        readOtherSession: 403,
        rewriteOtherSession: 403,
        rewritePaidSession: 403,
        methodsOfOtherSession: 403,
        payOtherSession: 403,
        readOtherPayment: 403,
        linkForOwnSession: 403,
        linkForOtherSession: 403,
        merchantTokenFromCustomerToken: 401,
        capture: 401,
        refund: 401,
        release: 401,
        captureWithTokenAsBasic: 401,
        paymentsList: 401,
      })
      const ledger = store.sandbox().ledger()
      expect(ledger.filter((e) => e.operation === "session.create" && e.auth === "bearer:CUSTOMER" && e.status < 400)).toEqual([])
      expect(ledger.filter((e) => MONEY.includes(e.operation) && e.status === 200)).toEqual([])
      expect(store.sandbox().transaction(victimTx)).toMatchObject({ status: "preauth", capturedMinor: 0 })
      // The other open session is as its cart made it: the cart's own amount, its own shop_orderid.
      const otherSession = (await checkout(open.token, "GET", `/session/${open.sessionId}`)).body
      expect(otherSession.order).toMatchObject({ orderId: shopOrderIdFor(open.paymentSessionId), amount: { value: Number(openCart.total), currency: "DKK" } })
    })

    it("the store route answers hostile carts and bodies with a 4xx that names no secret, and asks AltaPay for nothing", async () => {
      const container = getContainer()
      const owner = await createCustomer(api, seed)
      const stranger = await createCustomer(api, seed)
      const ownersCart = await createCart(api, seed, { customerToken: owner.token, email: owner.email })
      const completed = await createAltaPayOrder(api, seed, container, store.sandbox())
      const empty = await createCart(api, seed, { items: [], shipping: false })
      const cart = await createCart(api, seed)
      store.sandbox().clearLedger()

      const url = (id: string) => `${store.medusaUrl()}/store/carts/${encodeURIComponent(id)}/altapay-session`
      const raw = async (what: string, id: string, body: string, headers: Record<string, string> = {}) => {
        const res = await fetch(url(id), { method: "POST", headers: { ...storeHeaders(seed), "content-type": "application/json", ...headers }, body })
        return { what, status: res.status, text: await res.text() }
      }
      const json = (what: string, id: string, body: unknown, headers?: Record<string, string>) => raw(what, id, JSON.stringify(body), headers)
      const answers = [
        await json("another customer's cart, signed in as someone else", ownersCart.id, {}, { authorization: `Bearer ${stranger.token}` }),
        await json("another customer's cart, as a guest", ownersCart.id, {}),
        await json("a completed cart", completed.cart.id, {}),
        await json("an empty cart", empty.id, {}),
        await json("an unknown cart", "cart_01HOSTILE", {}),
        await json("a cart id with a quote and a path", "cart_01'; drop table cart;--/../../admin", {}),
        await json("a 5,000-character cart id", `cart_${"A".repeat(5_000)}`, {}),
        await json("an amount", cart.id, { amount: 1 }),
        await json("the session data", cart.id, { provider_id: PROVIDER_ID, data: { amount_minor: 1, order_id: "x" } }),
        await json("a context", cart.id, { context: { altapay: { order_lines: [] } } }),
        await json("__proto__", cart.id, JSON.parse('{"__proto__": {"provider_id": "pp_altapay_altapay", "isAdmin": true}}')),
        await json("provider_id a number", cart.id, { provider_id: 123 }),
        await json("provider_id an array", cart.id, { provider_id: [PROVIDER_ID, PROVIDER_ID] }),
        await json("provider_id an object", cart.id, { provider_id: { $ne: null } }),
        await json("provider_id empty", cart.id, { provider_id: "" }),
        await json("provider_id of another provider", cart.id, { provider_id: "pp_system_default" }),
        await json("provider_id 100,000 characters", cart.id, { provider_id: `pp_altapay_${"x".repeat(100_000)}` }),
        await json("a body that is an array", cart.id, [{ provider_id: PROVIDER_ID }]),
        await raw("a body that is not JSON", cart.id, "{provider_id: pp_altapay_altapay"),
        await raw("a 2 MB body", cart.id, JSON.stringify({ provider_id: PROVIDER_ID, pad: "x".repeat(2_000_000) })),
      ]
      const outcome = answers.map((a) => ({ what: a.what, status: a.status >= 400 && a.status < 500 ? "4xx" : a.status }))
      expect(outcome).toEqual(answers.map((a) => ({ what: a.what, status: "4xx" })))
      expect(Object.fromEntries(answers.slice(0, 5).map((a) => [a.what, a.status]))).toEqual({
        "another customer's cart, signed in as someone else": 403,
        "another customer's cart, as a guest": 401,
        "a completed cart": 400,
        "an empty cart": 400,
        "an unknown cart": 404,
      })
      for (const a of answers) {
        expect({ what: a.what, leaks: [API_PASSWORD, CALLBACK_SECRET, "Basic ", "node_modules", "/work/"].filter((s) => a.text.includes(s)) }).toEqual({ what: a.what, leaks: [] })
      }
      // Nothing was created or asked at AltaPay for any of them.
      expect(
        store
          .sandbox()
          .ledger()
          .filter((e) => e.api === "checkout")
          .map((e) => e.operation)
      ).toEqual([])
      // The honest request still works afterwards.
      expect((await json("honest", cart.id, {})).status).toBe(200)
    })

    it("a 100,000-character provider_id is refused without being echoed back whole", async () => {
      const cart = await createCart(api, seed)
      const huge = `pp_altapay_${"x".repeat(100_000)}`
      const res = await api.post(`/store/carts/${cart.id}/altapay-session`, { provider_id: huge }, { headers: storeHeaders(seed), ...anyStatus })
      expect({ status: res.status, answerChars: JSON.stringify(res.data).length > 2_000 ? "over 2,000" : "short" }).toEqual({ status: 400, answerChars: "short" })
    })

    it("no store answer carries a token or credential beyond the one CUSTOMER token: not the cart's payment sessions, not an order, not a 502", async () => {
      const customer = await createCustomer(api, seed)
      const headers = storeHeaders(seed, customer.token)
      const cart = await createCart(api, seed, { customerToken: customer.token, email: customer.email })
      const route = await api.post(`/store/carts/${cart.id}/altapay-session`, {}, { headers })
      expect(route.status).toBe(200)
      const token = route.data.altapay.token as string
      // The one token appears exactly once in the route's answer; nothing else looks like a token.
      const routeText = JSON.stringify(route.data)
      expect(routeText.split(token)).toHaveLength(2)
      expect(routeText.replace(token, "")).not.toMatch(JWT)

      const secrets = [token, API_PASSWORD, CALLBACK_SECRET, `Basic ${Buffer.from(`${API_USER}:${API_PASSWORD}`).toString("base64")}`]
      const leaked = (what: string, body: unknown) => ({
        what,
        leaks: [...secrets.filter((s) => JSON.stringify(body).includes(s)), ...(JWT.test(JSON.stringify(body)) ? ["a JWT"] : [])],
      })
      const cartFields = "?fields=*payment_collection,*payment_collection.payment_sessions,payment_collection.payment_sessions.data,payment_collection.payment_sessions.context"
      const beforePaying = (await api.get(`/store/carts/${cart.id}${cartFields}`, { headers })).data
      expect(beforePaying.cart.payment_collection.payment_sessions[0].data).toMatchObject({ altapay_session_id: route.data.altapay.session_id })

      const session = await startSession(api, seed, cart.id, customer.token)
      secrets.push(session.token)
      await payWithAltaPay(session, { sandbox: store.sandbox(), callback: false })
      const afterPaying = (await api.get(`/store/carts/${cart.id}${cartFields}`, { headers })).data
      const completed = (await api.post(`/store/carts/${cart.id}/complete`, {}, { headers })).data
      expect(completed.type).toBe("order")
      const order = (await api.get(`/store/orders/${completed.order.id}?fields=*payment_collections,*payment_collections.payments`, { headers, ...anyStatus })).data

      // AltaPay down while the token is issued: the 502's message and reference name no credential.
      const second = await createCart(api, seed, { customerToken: customer.token, email: customer.email })
      store.sandbox().faults.add({ route: /authenticate$/, kind: "500", times: 10 })
      const down = await api.post(`/store/carts/${second.id}/altapay-session`, {}, { headers, ...anyStatus })
      store.sandbox().faults.clear()
      expect(down.status).toBe(502)

      expect([
        leaked("cart before paying", beforePaying),
        leaked("cart after paying", afterPaying),
        leaked("completed cart", completed),
        leaked("order", order),
        leaked("502", down.data),
      ]).toEqual([
        { what: "cart before paying", leaks: [] },
        { what: "cart after paying", leaks: [] },
        { what: "completed cart", leaks: [] },
        { what: "order", leaks: [] },
        { what: "502", leaks: [] },
      ])
    })
  },
})
