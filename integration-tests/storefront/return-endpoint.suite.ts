/**
 * The plugin's return endpoint (<backendUrl>/altapay/return/<id>/success|failure) is public: AltaPay
 * posts to it, and so can anyone. Nothing a sender posts is trusted: an unsigned or forged post, and
 * a plain browser GET, only name a payment session AltaPay is then asked about; without AltaPay's
 * confirmation nothing changes. With it (the customer really paid), the same request completes the cart.
 */
import { asValue } from "@medusajs/framework/awilix"
import { DistributedTransaction, SkipExecutionError } from "@medusajs/framework/orchestration"
import type { INotificationModuleService, MedusaContainer } from "@medusajs/framework/types"
import { ContainerRegistrationKeys, Modules } from "@medusajs/framework/utils"
import { deletePaymentSessionsWorkflow } from "@medusajs/medusa/core-flows"
import Medusa from "@medusajs/js-sdk"
import { storeSuite } from "../../tools/test-store/store-app/runner"
import { signCallbackBody } from "../../src/altapay"
import { PROVIDER_ID, captureAtAltaPay } from "../../tools/test-store/altapay-sandbox"
import { initiateRedirectSession, starterCartAtPayment } from "../setup/starter-checkout"
import { eventually, orderForCart, orderPayments, seedStore, type SeededStore } from "../../tools/test-store/store"
import { WEBHOOK_PROCESSING_DELAY_MS, altapayStore } from "../../tools/test-store/store-app/altapay-store"
import { eventsSettled } from "../../tools/test-store/store-app/events-settled"
import { shopOrderIdFor } from "../../src/lib/medusa-mapping/shop-order-id"
import { handleCustomerReturn } from "../../src/lib/customer-return/handle"

const store = altapayStore()

const ADDRESS = { first_name: "Karen", last_name: "Blixen", address_1: "Strandvejen 111", city: "Rungsted", postal_code: "2960", country_code: "dk" }

/** What a forger posts: AltaPay's field names, a payment that "succeeded" for the whole amount. */
function forgedForm(sessionId: string): string {
  return new URLSearchParams({
    shop_orderid: shopOrderIdFor(sessionId),
    status: "succeeded",
    payment_status: "preauth",
    amount: "275.00",
    currency: "208",
    type: "payment",
    transaction_id: "abc123",
    payment_id: "00000000-0000-0000-0000-000000000000",
  }).toString()
}

const returnUrl = (kind: "success" | "failure") => `${store.medusaUrl()}/altapay/return/altapay/${kind}`

async function postReturn(kind: "success" | "failure", body: string, headers: Record<string, string> = {}) {
  const answer = await fetch(returnUrl(kind), { method: "POST", headers: { "content-type": "application/x-www-form-urlencoded", ...headers }, body, redirect: "manual" })
  await answer.text()
  return { status: answer.status, landing: answer.headers.get("location") ? new URL(answer.headers.get("location")!) : undefined }
}

/**
 * Fault: Medusa's workflow engine stops the next cart completion once its order is made and linked
 * to the cart, as it does when a checkpoint finds no stored run (Medusa 2.12.6 under load, seen in
 * CI): its storage throws SkipExecutionError, and the engine takes the run as finished elsewhere and
 * stops it with no error, before the payment is authorized and the cart's lock let go. Returns the
 * undo and whether the stop happened (a later Medusa may name its steps otherwise).
 */
function stopNextCompletionAfterItsOrder(): { restore: () => void; stopped: () => boolean } {
  const storage = (DistributedTransaction as unknown as { keyValueStore: { save: (key: string, data: unknown, ttl: number, options?: { stepId?: string }) => Promise<unknown> } })
    .keyValueStore
  const save = storage.save
  let linked = false
  let stopped = false
  storage.save = async function (this: unknown, key, data, ttl, options) {
    if (!stopped && key.includes(":complete-cart:")) {
      linked ||= !!options?.stepId?.endsWith(".create-remote-links")
      // The engine's own checkpoint between steps (no step id): where a stop ends the run.
      if (linked && !options?.stepId) {
        stopped = true
        throw new SkipExecutionError("Already finished by another execution")
      }
    }
    return save.call(this, key, data, ttl, options)
  }
  return {
    restore: () => {
      storage.save = save
    },
    stopped: () => stopped,
  }
}

const lookUps = () =>
  store
    .sandbox()
    .ledger()
    .filter((e) => e.operation === "payments")

export default storeSuite({
  testSuite: ({ getContainer }) => {
    let seed: SeededStore
    let sdk: Medusa
    // Seeded once: the group keeps the database after this as the template every test starts from.
    beforeAll(async () => {
      seed = await seedStore(getContainer())
    })
    beforeEach(() => {
      sdk = new Medusa({ baseUrl: store.medusaUrl(), publishableKey: seed.publishableKey })
    })

    async function unpaidSession() {
      const cart = await starterCartAtPayment(sdk, seed, ADDRESS)
      const { paymentSessionId, redirectUrl } = await initiateRedirectSession(sdk, cart.id, PROVIDER_ID)
      return { cartId: cart.id, paymentSessionId, redirectUrl }
    }

    it("an unsigned or forged 'succeeded' post for an unpaid session changes nothing: AltaPay is asked and says no", async () => {
      const { cartId, paymentSessionId } = await unpaidSession()
      const body = forgedForm(paymentSessionId)
      const before = lookUps().length

      const unsigned = await postReturn("success", body)
      const forged = await postReturn("success", body, { "altapay-signature": signCallbackBody(body, "not-the-store-callback-secret", Math.floor(Date.now() / 1000)) })

      for (const answer of [unsigned, forged]) {
        expect(answer.status).toBe(303)
        expect(answer.landing?.searchParams.get("outcome")).toBe("unconfirmed")
        expect(answer.landing?.searchParams.get("order_id")).toBe("")
      }
      // Each was checked at AltaPay, by the session it names; nothing was completed.
      expect(
        lookUps()
          .slice(before)
          .map((e) => e.params.shop_orderid)
      ).toEqual([shopOrderIdFor(paymentSessionId), shopOrderIdFor(paymentSessionId)])
      expect(await orderForCart(getContainer(), cartId)).toBeUndefined()
      const { cart } = await sdk.store.cart.retrieve(cartId, { fields: "id,completed_at,payment_collection.payment_sessions.status" })
      expect(cart.completed_at ?? null).toBeNull()
      expect(cart.payment_collection?.payment_sessions?.[0]?.status).toBe("pending")
    })

    it("a plain browser GET changes nothing without AltaPay's confirmation; without a session it is a 400", async () => {
      const { cartId, paymentSessionId } = await unpaidSession()
      const get = await fetch(`${returnUrl("success")}?shop_orderid=${shopOrderIdFor(paymentSessionId)}&status=succeeded`, { redirect: "manual" })
      expect(get.status).toBe(303)
      expect(new URL(get.headers.get("location")!).searchParams.get("outcome")).toBe("unconfirmed")
      expect(await orderForCart(getContainer(), cartId)).toBeUndefined()

      expect((await fetch(returnUrl("success"), { redirect: "manual" })).status).toBe(400)
      expect((await fetch(`${store.medusaUrl()}/altapay/return/nosuch/success?shop_orderid=${shopOrderIdFor(paymentSessionId)}`, { redirect: "manual" })).status).toBe(404)
    })

    it("50 anonymous GETs for one session cost at most 5 look-ups (issue 29); AltaPay's signed post still completes the cart", async () => {
      const { cartId, paymentSessionId } = await unpaidSession()
      const asked = () => lookUps().filter((e) => e.params.shop_orderid === shopOrderIdFor(paymentSessionId)).length
      const before = asked()
      // Five waves of ten at once: the same session shares a running look-up, then meets its per-minute budget.
      for (let wave = 0; wave < 5; wave++) {
        const answers = await Promise.all(
          Array.from({ length: 10 }, () => fetch(`${returnUrl("success")}?shop_orderid=${shopOrderIdFor(paymentSessionId)}`, { redirect: "manual" }))
        )
        for (const answer of answers) {
          expect(answer.status).toBe(303)
          expect(new URL(answer.headers.get("location")!).searchParams.get("outcome")).toBe("unconfirmed")
        }
      }
      expect(asked() - before).toBeGreaterThanOrEqual(1)
      expect(asked() - before).toBeLessThanOrEqual(5)

      // The customer pays now: AltaPay's signed post is not capped.
      const session = (await sdk.store.cart.retrieve(cartId, { fields: "payment_collection.payment_sessions.data" })).cart.payment_collection!.payment_sessions![0]
      const paid = await store.sandbox().simulatePayment(session.data.altapay_session_id as string, { callback: false })
      const { rawBody, headers } = store.sandbox().callbackFor(paid.paymentId)
      const answer = await postReturn("success", rawBody, { "altapay-signature": headers["altapay-signature"] })
      const order = await orderForCart(getContainer(), cartId)
      expect(answer.landing?.searchParams.get("outcome")).toBe("paid")
      expect(answer.landing?.searchParams.get("order_id")).toBe(order!.id)
    })

    it("an unsigned post for a session AltaPay reports paid completes the cart: AltaPay's record, not the post, decided", async () => {
      const { cartId } = await unpaidSession()
      // The customer paid; neither the callback nor the return reached the store.
      const session = (await sdk.store.cart.retrieve(cartId, { fields: "payment_collection.payment_sessions.data" })).cart.payment_collection!.payment_sessions![0]
      const paid = await store.sandbox().simulatePayment(session.data.altapay_session_id as string, { callback: false })
      // The signed form AltaPay would post, sent without its signature, with a wrong amount.
      const { rawBody } = store.sandbox().callbackFor(paid.paymentId)
      const tampered = rawBody.replace(/amount=[^&]*/, "amount=1.00")

      const answer = await postReturn("failure", tampered)
      const order = await orderForCart(getContainer(), cartId)
      expect(answer.landing?.searchParams.get("outcome")).toBe("paid")
      // An unsigned post proves nothing about who sends it: it learns the outcome, not the order.
      expect(answer.landing?.searchParams.get("order_id")).toBe("")
      expect(answer.landing?.searchParams.get("cart_id")).toBe("")
      const [payment] = await orderPayments(getContainer(), order!.id)
      // The amount is AltaPay's reservation, not the posted 1.00.
      expect(payment.data).toMatchObject({ transaction_id: paid.transactionId, amount_minor: store.sandbox().transaction(paid.transactionId!)!.reservedMinor })
    })

    it("a correctly signed success post completes the cart without a look-up of its own", async () => {
      const { cartId, paymentSessionId } = await unpaidSession()
      const session = (await sdk.store.cart.retrieve(cartId, { fields: "payment_collection.payment_sessions.data" })).cart.payment_collection!.payment_sessions![0]
      const paid = await store.sandbox().simulatePayment(session.data.altapay_session_id as string, { callback: false })
      const { rawBody, headers } = store.sandbox().callbackFor(paid.paymentId)
      expect(headers["altapay-signature"]).toContain("s0=")

      const asked = () => lookUps().filter((e) => e.params.shop_orderid === shopOrderIdFor(paymentSessionId)).length
      const before = asked()
      const answer = await postReturn("success", rawBody, { "altapay-signature": headers["altapay-signature"] })
      // One read only: the provider's own at authorization (the raw body reached the signature check).
      expect(asked() - before).toBe(1)
      const order = await orderForCart(getContainer(), cartId)
      expect(answer.landing?.searchParams.get("outcome")).toBe("paid")
      expect(answer.landing?.searchParams.get("order_id")).toBe(order!.id)
      expect(await orderPayments(getContainer(), order!.id)).toHaveLength(1)
    })

    it("the customer's returns at once (a reload, a second tab) for a payment AltaPay captured: one order, one payment, its capture booked once", async () => {
      const { cartId } = await unpaidSession()
      const session = (await sdk.store.cart.retrieve(cartId, { fields: "payment_collection.payment_sessions.data" })).cart.payment_collection!.payment_sessions![0]
      const paid = await store.sandbox().simulatePayment(session.data.altapay_session_id as string, { callback: false })
      await captureAtAltaPay(store.sandbox(), paid.transactionId!)
      const { rawBody, headers } = store.sandbox().callbackFor(paid.paymentId)

      const answers = await Promise.all([1, 2, 3, 4].map(() => postReturn("success", rawBody, { "altapay-signature": headers["altapay-signature"] })))
      expect(answers.map((a) => [a.status, a.landing?.searchParams.get("outcome")])).toEqual(Array(4).fill([303, "paid"]))
      const query = getContainer().resolve(ContainerRegistrationKeys.QUERY)
      const { data: orders } = await query.graph({ entity: "order", fields: ["id", "summary", "transactions.reference", "transactions.amount"] })
      expect(orders).toHaveLength(1)
      const order = orders[0] as { id: string; summary: { pending_difference: number }; transactions: Array<{ reference: string; amount: unknown }> }
      const payments = await orderPayments(getContainer(), order.id)
      expect(payments).toHaveLength(1)
      expect(order.transactions.map((t) => [t.reference, Number(t.amount)])).toEqual([["capture", Number(payments[0].amount)]])
      expect(Number(order.summary.pending_difference)).toBe(0)
    })

    /** A paid session's signed return, handled while Medusa's workflow engine stops the cart's completion once its order is linked. */
    async function stoppedCompletionReturn(beforeReturn: (transactionId: string) => Promise<void> = async () => undefined) {
      const { cartId } = await unpaidSession()
      const session = (await sdk.store.cart.retrieve(cartId, { fields: "payment_collection.payment_sessions.data" })).cart.payment_collection!.payment_sessions![0]
      const paid = await store.sandbox().simulatePayment(session.data.altapay_session_id as string, { callback: false })
      await beforeReturn(paid.transactionId!)
      const { rawBody, headers } = store.sandbox().callbackFor(paid.paymentId)
      const placed: string[] = []
      const eventBus = getContainer().resolve(Modules.EVENT_BUS)
      const onPlaced = async (event: { data: unknown }) => void placed.push((event.data as { id: string }).id)
      await eventBus.subscribe("order.placed", onPlaced)

      const fault = stopNextCompletionAfterItsOrder()
      const answer = await postReturn("success", rawBody, { "altapay-signature": headers["altapay-signature"] }).finally(fault.restore)
      expect(fault.stopped()).toBe(true)

      const order = await orderForCart(getContainer(), cartId)
      expect(answer.landing?.searchParams.get("outcome")).toBe("paid")
      const payments = await orderPayments(getContainer(), order!.id)
      expect(payments).toHaveLength(1)
      expect(payments[0].data).toMatchObject({ transaction_id: paid.transactionId })
      // The stopped run's lock was let go: the storefront's own completion answers with the order
      // (held, Medusa would wait 30 s for it and answer 500).
      const completed = await sdk.store.cart.complete(cartId)
      expect(completed.type === "order" && completed.order.id).toBe(order!.id)
      // The events the stopped run held back were sent: order.placed once.
      expect(
        await eventually(
          async () => placed.filter((id) => id === order!.id),
          (ids) => ids.length > 0,
          10_000
        )
      ).toEqual([order!.id])
      await eventBus.unsubscribe("order.placed", onPlaced)
      return { orderId: order!.id, payment: payments[0] }
    }

    it("a cart completion Medusa's workflow engine stops part-way still ends in one order with its payment, a free cart and order.placed sent", async () => {
      await stoppedCompletionReturn()
    })

    it("the same stop for a payment AltaPay captured before the return: the capture is the order's transaction, as Medusa's completion books it", async () => {
      const { orderId, payment } = await stoppedCompletionReturn((transactionId) => captureAtAltaPay(store.sandbox(), transactionId))

      expect(payment.captured_at).toBeTruthy()
      const query = getContainer().resolve(ContainerRegistrationKeys.QUERY)
      const { data } = await query.graph({ entity: "order", fields: ["transactions.reference", "transactions.amount"], filters: { id: orderId } })
      const order = data[0] as { transactions: Array<{ reference: string; amount: unknown }> }
      expect(order.transactions.map((t) => [t.reference, Number(t.amount)])).toEqual([["capture", Number(payment.amount)]])
    })

    it("a paid return for a session Medusa deleted completes no cart, not even another customer's: the follow-up job takes it", async () => {
      // Another customer has paid; their callback and return are still on the way.
      const stranger = await unpaidSession()
      const strangers = (await sdk.store.cart.retrieve(stranger.cartId, { fields: "payment_collection.payment_sessions.data" })).cart.payment_collection!.payment_sessions![0]
      await store.sandbox().simulatePayment(strangers.data.altapay_session_id as string, { callback: false })
      const mine = await unpaidSession()
      const replaced = (await sdk.store.cart.retrieve(mine.cartId, { fields: "payment_collection.payment_sessions.data" })).cart.payment_collection!.payment_sessions![0]
      // A new session for the same cart: Medusa deletes the old one (and the provider's deletePayment runs).
      await initiateRedirectSession(sdk, mine.cartId, PROVIDER_ID)
      // The browser still holds the old AltaPay session's CUSTOMER token, and pays it anyway.
      const paid = await store.sandbox().simulatePayment(replaced.data.altapay_session_id as string, { callback: false })

      const answer = await fetch(`${returnUrl("success")}?shop_orderid=${shopOrderIdFor(mine.paymentSessionId)}`, { redirect: "manual" })

      expect(answer.status).toBe(303)
      const landing = new URL(answer.headers.get("location")!)
      expect(landing.searchParams.get("outcome")).toBe("unconfirmed")
      expect(landing.searchParams.get("cart_id")).toBe("")
      for (const cartId of [stranger.cartId, mine.cartId]) {
        expect(await orderForCart(getContainer(), cartId)).toBeUndefined()
        expect((await sdk.store.cart.retrieve(cartId, { fields: "id,completed_at" })).cart.completed_at ?? null).toBeNull()
      }
      // Kept for the follow-up job, which releases it once Medusa shows on two runs that nothing uses it.
      expect(store.sandbox().transaction(paid.transactionId!)!.status).toBe("preauth")
    })

    describe("a session Medusa deletes while its return is handled (issue 39, item 10)", () => {
      /**
       * The container the return handler gets, whose `query` deletes the session (as a shopper's new
       * session does: Medusa's workflow, without the cart's lock) right after the `nth` read of it
       * has been answered: deterministically between a read and what follows it.
       */
      function deletingAfterRead(sessionId: string, nth: number): MedusaContainer {
        const container = getContainer()
        const query = container.resolve(ContainerRegistrationKeys.QUERY)
        let reads = 0
        const graph = async (...args: Parameters<typeof query.graph>) => {
          const answer = await query.graph(...args)
          const [{ entity, filters }] = args as unknown as [{ entity: string; filters?: { id?: unknown } }]
          if (entity === "payment_session" && filters?.id === sessionId && ++reads === nth) {
            await deletePaymentSessionsWorkflow(container).run({ input: { ids: [sessionId] } })
          }
          return answer
        }
        const scope = container.createScope()
        scope.register(ContainerRegistrationKeys.QUERY, asValue(Object.assign(Object.create(query), { graph })))
        return scope as MedusaContainer
      }

      /** Another customer's cart, made first, with a payment session of Medusa's own provider: it completes whenever anything asks. */
      async function strangersCart(): Promise<string> {
        const cart = await starterCartAtPayment(sdk, seed, ADDRESS)
        await sdk.store.payment.initiatePaymentSession(cart, { provider_id: "pp_system_default" })
        return cart.id
      }

      async function paidReturn(cartId: string, paymentSessionId: string, scope: MedusaContainer) {
        const paid = await store.sandbox().simulatePayment(await altapaySessionOf(cartId), { callback: false })
        const { rawBody, headers } = store.sandbox().callbackFor(paid.paymentId)
        return handleCustomerReturn({
          scope,
          registration: "altapay",
          kind: "success",
          shopOrderId: shopOrderIdFor(paymentSessionId),
          rawBody: Buffer.from(rawBody),
          signatureHeader: headers["altapay-signature"],
        })
      }

      it.each([
        ["before the return reads it under the cart's lock", 1],
        ["after that read, while the cart is being completed", 2],
      ])("deleted %s: no cart is completed, not even another customer's", async (_when, nth) => {
        const stranger = await strangersCart()
        const mine = await unpaidSession()

        const answer = await paidReturn(mine.cartId, mine.paymentSessionId, deletingAfterRead(mine.paymentSessionId, nth))

        expect(answer).toMatchObject({ status: 303 })
        expect(await orderForCart(getContainer(), stranger)).toBeUndefined()
        expect(await orderForCart(getContainer(), mine.cartId)).toBeUndefined()
        const { data: sessions } = await getContainer()
          .resolve(ContainerRegistrationKeys.QUERY)
          .graph({ entity: "payment_session", fields: ["id"], filters: { id: mine.paymentSessionId } })
        expect(sessions).toEqual([])
      })

      it("not deleted: the same return completes its own cart, once", async () => {
        const stranger = await strangersCart()
        const mine = await unpaidSession()
        const answer = await paidReturn(mine.cartId, mine.paymentSessionId, getContainer())
        const order = await orderForCart(getContainer(), mine.cartId)
        expect(order).toBeDefined()
        expect("location" in answer && new URL(answer.location).searchParams.get("outcome")).toBe("paid")
        expect(await orderForCart(getContainer(), stranger)).toBeUndefined()
        expect(await orderPayments(getContainer(), order!.id)).toHaveLength(1)
      })
    })

    /** The AltaPay session behind the cart's payment session. */
    async function altapaySessionOf(cartId: string): Promise<string> {
      const session = (await sdk.store.cart.retrieve(cartId, { fields: "payment_collection.payment_sessions.data" })).cart.payment_collection!.payment_sessions![0]
      return session.data.altapay_session_id as string
    }

    it("a signed decline whose message must be shown lands with AltaPay's message; unsigned, the same text lands nowhere (issue 30)", async () => {
      const { cartId } = await unpaidSession()
      const declined = await store.sandbox().simulatePayment(await altapaySessionOf(cartId), { outcome: "decline", callback: false })
      const { rawBody, headers } = store.sandbox().callbackFor(declined.paymentId, { cardholderMessageMustBeShown: true })
      expect(new URLSearchParams(rawBody).get("cardholder_message_must_be_shown")).toBe("true")

      const signed = await postReturn("failure", rawBody, { "altapay-signature": headers["altapay-signature"] })
      expect(signed.status).toBe(303)
      expect(signed.landing?.searchParams.get("outcome")).toBe("declined")
      expect(signed.landing?.searchParams.get("message")).toBe("Your card was declined.")

      // The same form without AltaPay's signature, with an attacker's text: the outcome is AltaPay's, the text is dropped.
      const attacker = rawBody.replace(/error_message=[^&]*/, `error_message=${encodeURIComponent("Call +45 0000 0000 to finish paying")}`)
      const unsigned = await postReturn("failure", attacker)
      expect(unsigned.landing?.searchParams.get("outcome")).toBe("declined")
      expect(unsigned.landing?.searchParams.get("message")).toBe("")
      // Without cardholder_message_must_be_shown the shop's own text is enough: no message.
      const quiet = store.sandbox().callbackFor(declined.paymentId)
      expect((await postReturn("failure", quiet.rawBody, { "altapay-signature": quiet.headers["altapay-signature"] })).landing?.searchParams.get("message")).toBe("")
      expect(await orderForCart(getContainer(), cartId)).toBeUndefined()
    })

    it("an open payment (Klarna's review) lands as review with no order; once AltaPay authorizes it, its return places the order (issue 30)", async () => {
      const { cartId } = await unpaidSession()
      const open = await store.sandbox().simulatePayment(await altapaySessionOf(cartId), { outcome: "open", callback: false })
      const first = store.sandbox().callbackFor(open.paymentId)
      expect(new URLSearchParams(first.rawBody).get("status")).toBe("open")

      const signed = await postReturn("success", first.rawBody, { "altapay-signature": first.headers["altapay-signature"] })
      expect(signed.landing?.searchParams.get("outcome")).toBe("review")
      expect(signed.landing?.searchParams.get("order_id")).toBe("")
      // A browser asking about it learns the same, from AltaPay's record.
      const get = await fetch(`${returnUrl("failure")}?shop_orderid=${new URLSearchParams(first.rawBody).get("shop_orderid")}`, { redirect: "manual" })
      expect(new URL(get.headers.get("location")!).searchParams.get("outcome")).toBe("review")
      expect(await orderForCart(getContainer(), cartId)).toBeUndefined()

      store.sandbox().concludeOpenPayment(open.transactionId!, "authorize")
      const settled = store.sandbox().callbackFor(open.paymentId)
      const answer = await postReturn("success", settled.rawBody, { "altapay-signature": settled.headers["altapay-signature"] })
      const order = await orderForCart(getContainer(), cartId)
      expect(order).toBeDefined()
      expect(answer.landing?.searchParams.get("outcome")).toBe("paid")
      expect(answer.landing?.searchParams.get("order_id")).toBe(order!.id)
    })

    it("an open payment AltaPay declines after the customer left is told to the merchant; a decline during checkout is not (issue 39, item 11)", async () => {
      const feed = () => getContainer().resolve<INotificationModuleService>(Modules.NOTIFICATION).listNotifications({ channel: "feed" })
      const { cartId, paymentSessionId } = await unpaidSession()
      const open = await store.sandbox().simulatePayment(await altapaySessionOf(cartId), { outcome: "open", callback: false })
      const first = store.sandbox().callbackFor(open.paymentId)
      const told = await postReturn("success", first.rawBody, { "altapay-signature": first.headers["altapay-signature"] })
      expect(told.landing?.searchParams.get("outcome")).toBe("review")

      // The customer has left, told the order follows; the acquirer declines; AltaPay notifies the store.
      store.sandbox().concludeOpenPayment(open.transactionId!, "decline")
      const notified = await store.sandbox().sendCallback(open.paymentId)
      expect([notified.status, new URLSearchParams(store.sandbox().callbackFor(open.paymentId).rawBody).get("status")]).toEqual([200, "declined"])
      const notices = await eventually(feed, (found) => found.length > 0, WEBHOOK_PROCESSING_DELAY_MS + 15_000)
      expect(notices).toHaveLength(1)
      expect(notices[0].data).toMatchObject({ title: "AltaPay payment declined after review: no order" })
      expect(String(notices[0].data!.description)).toContain(
        `for cart ${cartId} (karen@example.com) after the customer was told it was being reviewed (AltaPay order ${shopOrderIdFor(paymentSessionId)})`
      )
      expect(await orderForCart(getContainer(), cartId)).toBeUndefined()

      // A card declined while its customer is still paying: they saw it, nobody else needs to.
      const paying = await unpaidSession()
      expect((await store.sandbox().simulatePayment(await altapaySessionOf(paying.cartId), { outcome: "decline", callback: true })).callbackStatus).toBe(200)
      await eventsSettled(getContainer())
      expect(await feed()).toHaveLength(1)
    })

    it("an anonymous GET names no cart: a session id never becomes a cart id, paid or not, AltaPay up or down", async () => {
      const { paymentSessionId } = await unpaidSession()
      const cartIdIn = async () => {
        const answer = await fetch(`${returnUrl("failure")}?shop_orderid=${shopOrderIdFor(paymentSessionId)}`, { redirect: "manual" })
        return new URL(answer.headers.get("location")!).searchParams.get("cart_id")
      }
      expect(await cartIdIn()).toBe("")
      store.sandbox().faults.add({ route: "payments", kind: "503", times: 10 })
      try {
        expect(await cartIdIn()).toBe("")
      } finally {
        store.sandbox().faults.clear()
      }
    })
  },
})
