/**
 * Charges the merchant starts (issue 32, item 5), in one Medusa app against the sandbox: a customer
 * pays an order, saves a card (an AltaPay agreement), and the merchant adds an item by phone (an
 * order edit, which leaves a payment collection for the difference). The admin charges the saved
 * card once; Medusa shows the order paid and AltaPay holds exactly one charge, also when the admin
 * asks twice, when AltaPay's answer is lost, and when the look-up after it fails too. A declined
 * card answers 400 with AltaPay's message.
 */
import type { MedusaContainer } from "@medusajs/framework/types"
import { ContainerRegistrationKeys } from "@medusajs/framework/utils"
import { storeSuite } from "../../tools/test-store/store-app/runner"
import { createAltaPayClient, type AltaPayClient } from "../../src/altapay"
import uncertainMoneyJob from "../../src/jobs/altapay-uncertain-money"
import { toMinorUnits } from "../../src/lib/medusa-mapping/amounts"
import { processStore } from "../../src/lib/scale-out/shared-state"
import { ALTAPAY_SAVED_CARDS_MODULE } from "../../src/modules/altapay-saved-cards"
import type AltaPaySavedCardsService from "../../src/modules/altapay-saved-cards/service"
import { API_PASSWORD, API_USER, PROVIDER_ID } from "../../tools/test-store/altapay-sandbox"
import { altapayStore } from "../../tools/test-store/store-app/altapay-store"
import { createAdminUser, createAltaPayOrder, createCustomer, seedStore, type Api, type SeededStore } from "../../tools/test-store/store"

const TERMINAL = "AltaPay Sandbox Test Terminal"
const store = altapayStore() // the group `saved-cards-store`: saved cards on
const dkk = (amount: unknown) => toMinorUnits(amount as number, "DKK")

export default storeSuite({
  testSuite: ({ api: rawApi, getContainer }) => {
    const api = rawApi as unknown as Api
    let admin: { headers: Record<string, string> }
    let seed: SeededStore
    let client: AltaPayClient
    const as = () => ({ headers: admin.headers, validateStatus: () => true })
    const savedCards = (container: MedusaContainer = getContainer()) => container.resolve<AltaPaySavedCardsService>(ALTAPAY_SAVED_CARDS_MODULE)
    /** Charges AltaPay made on an agreement (successful chargeSubscription and reserveSubscriptionCharge calls). */
    const chargesOn = (agreementId: string) =>
      store
        .sandbox()
        .ledger()
        .filter((e) => ["chargeSubscription", "reserveSubscriptionCharge"].includes(e.operation) && e.effect?.result === "Success" && e.params?.["agreement[id]"] === agreementId)

    beforeAll(async () => {
      admin = await createAdminUser(api, getContainer())
      seed = await seedStore(getContainer())
      client = createAltaPayClient({ checkoutUrl: store.sandbox().checkoutUrl, gatewayUrl: store.sandbox().gatewayUrl, username: API_USER, password: API_PASSWORD })
    })
    afterAll(() => client.close())
    afterEach(() => {
      store.sandbox().faults.clear()
      store.sandbox().setClock(Date.now)
    })

    /** The customer's saved card on the agreement, as the plugin keeps it. */
    async function saveCard(customerId: string, agreementId: string, card: { expiryMonth?: string; expiryYear?: string } = {}) {
      const [saved] = await savedCards().createAltapaySavedCards([
        {
          customer_id: customerId,
          provider_id: PROVIDER_ID,
          agreement_id: agreementId,
          masked_pan: "411111******1111",
          expiry_month: Number(card.expiryMonth ?? 12),
          expiry_year: Number(card.expiryYear ?? 2035),
          scheme: "Visa",
          terminal: TERMINAL,
          currency: "DKK",
        },
      ])
      return saved
    }

    /**
     * A customer's captured order with a saved card, and an order edit adding a tea by phone: the
     * order, the card and the amount Medusa waits for.
     */
    async function orderWithDifference(card: { expiryMonth?: string; expiryYear?: string } = {}) {
      const customer = await createCustomer(api, seed)
      const order = await createAltaPayOrder(api, seed, getContainer(), store.sandbox(), { customerToken: customer.token, email: customer.email })
      expect((await api.post(`/admin/payments/${order.paymentId}/capture`, {}, as())).status).toBe(200)

      const request = await client.agreements.setupAgreement({
        terminal: TERMINAL,
        shopOrderId: `agr-${customer.id.slice(-12)}`,
        amountMinor: 100,
        currency: "DKK",
        agreement: { type: "unscheduled", unscheduledType: "charge" },
        callbacks: {},
      })
      const { agreementId } = await store.sandbox().agreements.submit(request.paymentRequestId, card)
      const saved = await saveCard(customer.id, agreementId!, card)

      await api.post("/admin/order-edits", { order_id: order.orderId }, as())
      await api.post(`/admin/order-edits/${order.orderId}/items`, { items: [{ variant_id: seed.products.tea.variantId, quantity: 1 }] }, as())
      await api.post(`/admin/order-edits/${order.orderId}/request`, {}, as())
      expect((await api.post(`/admin/order-edits/${order.orderId}/confirm`, {}, as())).status).toBe(200)
      const dueMinor = (await orderState(order.orderId)).pendingMinor
      expect(dueMinor).toBeGreaterThan(0)
      return { orderId: order.orderId, cardId: saved.id as string, agreementId: agreementId!, dueMinor }
    }

    async function orderState(orderId: string) {
      const query = getContainer().resolve(ContainerRegistrationKeys.QUERY)
      const { data } = await query.graph({
        entity: "order",
        fields: ["id", "summary", "payment_collections.id", "payment_collections.status", "payment_collections.payments.id", "payment_collections.payments.captured_at"],
        filters: { id: orderId },
      })
      const order = data[0] as {
        summary: { pending_difference: number }
        payment_collections: Array<{ id: string; status: string; payments: Array<{ id: string; captured_at: unknown }> }>
      }
      return { pendingMinor: dkk(order.summary.pending_difference), collections: order.payment_collections }
    }

    it("charges the saved card once for the order edit's difference; Medusa shows the order paid; a second charge charges nothing", async () => {
      const { orderId, cardId, agreementId, dueMinor } = await orderWithDifference()

      const offer = await api.get(`/admin/altapay/orders/${orderId}/agreement-charges`, as())
      expect(offer.status).toBe(200)
      expect(offer.data).toMatchObject({ order_id: orderId, outstanding: { minor: dueMinor, currency: "DKK" }, reason: null })
      expect(offer.data.saved_cards).toEqual([expect.objectContaining({ id: cardId, masked_pan: "411111******1111", auto_capture: false })])
      expect(JSON.stringify(offer.data)).not.toContain(agreementId)

      const charged = await api.post(`/admin/altapay/orders/${orderId}/agreement-charges`, { saved_card_id: cardId, capture: true }, as())
      expect(charged.status).toBe(200)
      expect(charged.data.agreement_charge).toMatchObject({ amount: { minor: dueMinor, currency: "DKK" }, status: "captured", charged: true })

      const charges = chargesOn(agreementId)
      expect(charges).toHaveLength(1)
      expect(charges[0]).toMatchObject({
        operation: "chargeSubscription",
        params: { "agreement[unscheduled_type]": "incremental", reconciliation_identifier: expect.stringMatching(/^medusa-charge-pay_col_/) },
      })
      const transaction = store.sandbox().transaction(charged.data.agreement_charge.transaction_id)
      expect(transaction).toMatchObject({ authType: "subscription_payment", status: "captured", capturedMinor: dueMinor })
      const [atAltaPay] = await client.gateway.payments({ transactionId: charged.data.agreement_charge.transaction_id })
      expect(atAltaPay.paymentInfos).toEqual(
        expect.arrayContaining([
          { name: "medusa_payment_collection_id", value: charged.data.agreement_charge.payment_collection_id },
          { name: "medusa_order_id", value: orderId },
        ])
      )

      const after = await orderState(orderId)
      expect(after.pendingMinor).toBe(0)
      const collection = after.collections.find((c) => c.id === charged.data.agreement_charge.payment_collection_id)!
      expect(collection.status).toBe("completed")
      expect(collection.payments).toEqual([expect.objectContaining({ id: charged.data.agreement_charge.payment_id, captured_at: expect.anything() })])

      const again = await api.post(`/admin/altapay/orders/${orderId}/agreement-charges`, { saved_card_id: cardId, capture: true }, as())
      expect([again.status, again.data.message]).toEqual([400, expect.stringMatching(/has nothing outstanding/)])
      expect(chargesOn(agreementId)).toHaveLength(1)
      expect((await api.get(`/admin/altapay/orders/${orderId}/agreement-charges`, as())).data).toMatchObject({
        outstanding: { minor: 0 },
        reason: expect.stringMatching(/nothing outstanding/),
      })
    })

    it("charges the saved card once when the admin's Charge is pressed three times at once, and books it once", async () => {
      const { orderId, cardId, agreementId, dueMinor } = await orderWithDifference()
      const answers = await Promise.all([1, 2, 3].map(() => api.post(`/admin/altapay/orders/${orderId}/agreement-charges`, { saved_card_id: cardId, capture: true }, as())))
      // One charges; each other answers that same charge (charged: false) or, once it is recorded, that nothing is outstanding.
      const ok = answers.filter((a) => a.status === 200)
      expect(ok.filter((a) => a.data.agreement_charge.charged)).toHaveLength(1)
      expect(new Set(ok.map((a) => a.data.agreement_charge.payment_id)).size).toBe(1)
      for (const refused of answers.filter((a) => a.status !== 200)) expect(refused.data.message).toMatch(/has nothing outstanding/)
      const charged = ok[0]
      expect(chargesOn(agreementId)).toHaveLength(1)
      expect(store.sandbox().transaction(charged.data.agreement_charge.transaction_id)).toMatchObject({ capturedMinor: dueMinor })
      const after = await orderState(orderId)
      expect(after.pendingMinor).toBe(0)
      expect(after.collections.find((c) => c.id === charged.data.agreement_charge.payment_collection_id)!.payments).toHaveLength(1)
      const query = getContainer().resolve(ContainerRegistrationKeys.QUERY)
      const { data } = await query.graph({ entity: "order", fields: ["transactions.reference", "transactions.amount"], filters: { id: orderId } })
      const captures = (data[0] as { transactions: Array<{ reference: string; amount: unknown }> }).transactions.filter((t) => t.reference === "capture")
      expect(captures.map((t) => dkk(t.amount)).filter((minor) => minor === dueMinor)).toHaveLength(1) // the first payment's capture, and the charge's once
    })

    it("a reserved charge is authorized in Medusa and captured through Medusa's capture", async () => {
      const { orderId, cardId, agreementId, dueMinor } = await orderWithDifference()
      const charged = await api.post(`/admin/altapay/orders/${orderId}/agreement-charges`, { saved_card_id: cardId }, as())
      expect(charged.status).toBe(200)
      expect(charged.data.agreement_charge).toMatchObject({ status: "authorized", amount: { minor: dueMinor } })
      expect(chargesOn(agreementId).map((e) => e.operation)).toEqual(["reserveSubscriptionCharge"])
      const { transaction_id: transactionId, payment_id: paymentId } = charged.data.agreement_charge
      expect(store.sandbox().transaction(transactionId)).toMatchObject({ status: "preauth", reservedMinor: dueMinor })

      // The money is reserved, not due again: nothing more to charge until it is captured.
      const twice = await api.post(`/admin/altapay/orders/${orderId}/agreement-charges`, { saved_card_id: cardId }, as())
      expect([twice.status, twice.data.message]).toEqual([400, expect.stringMatching(/authorized but not captured/)])

      expect((await api.post(`/admin/payments/${paymentId}/capture`, {}, as())).status).toBe(200)
      expect(store.sandbox().transaction(transactionId)).toMatchObject({ status: "captured", capturedMinor: dueMinor })
      expect((await orderState(orderId)).pendingMinor).toBe(0)
      expect(chargesOn(agreementId)).toHaveLength(1)
    })

    it("a lost answer is found at AltaPay and charged once; when the look-up after it fails too, the retry records that charge instead of charging again", async () => {
      const first = await orderWithDifference()
      store.sandbox().faults.add({ route: "chargeSubscription", kind: "lost-answer" })
      const recovered = await api.post(`/admin/altapay/orders/${first.orderId}/agreement-charges`, { saved_card_id: first.cardId, capture: true }, as())
      expect(recovered.status).toBe(200)
      expect(recovered.data.agreement_charge).toMatchObject({ status: "captured", charged: true, amount: { minor: first.dueMinor } })
      expect(chargesOn(first.agreementId)).toHaveLength(1)
      expect((await orderState(first.orderId)).pendingMinor).toBe(0)

      const second = await orderWithDifference()
      store.sandbox().faults.add({ route: "chargeSubscription", kind: "lost-answer" })
      // The agreement and the first look-up answer; every look-up after the lost answer fails.
      store.sandbox().faults.add({ route: "payments", kind: "500", skip: 2, times: 50 })
      const lost = await api.post(`/admin/altapay/orders/${second.orderId}/agreement-charges`, { saved_card_id: second.cardId, capture: true }, as())
      expect(lost.status).toBeGreaterThanOrEqual(400)
      expect(lost.data.message).toMatch(/trying again is safe/i)
      expect(chargesOn(second.agreementId)).toHaveLength(1)
      expect((await orderState(second.orderId)).pendingMinor).toBe(second.dueMinor)

      store.sandbox().faults.clear()
      const retry = await api.post(`/admin/altapay/orders/${second.orderId}/agreement-charges`, { saved_card_id: second.cardId, capture: true }, as())
      expect(retry.status).toBe(200)
      expect(retry.data.agreement_charge).toMatchObject({ status: "captured", charged: false, amount: { minor: second.dueMinor } })
      expect(chargesOn(second.agreementId)).toHaveLength(1)
      expect((await orderState(second.orderId)).pendingMinor).toBe(0)
      // The follow-up job finds that charge recorded by the retry: nothing for the merchant to settle.
      const run = await uncertainMoneyJob(getContainer(), { scheduledFor: new Date(Date.now() + 60 * 60_000) })
      expect(run.counts["needs the merchant"] ?? 0).toBe(0)
    })

    it("a charge Medusa failed to record gets no payment link beside it, and the follow-up job records it once", async () => {
      const edited = await orderWithDifference()
      // The agreement and the collection's charges answer; the charge goes through; every look-up after fails, so recording it does.
      store.sandbox().faults.add({ route: "payments", kind: "503", skip: 2, times: 50 })
      const charged = await api.post(`/admin/altapay/orders/${edited.orderId}/agreement-charges`, { saved_card_id: edited.cardId, capture: true }, as())
      store.sandbox().faults.clear()
      expect(charged.status).toBeGreaterThanOrEqual(400)
      expect(chargesOn(edited.agreementId)).toHaveLength(1)
      expect((await orderState(edited.orderId)).pendingMinor).toBe(edited.dueMinor)

      const link = await api.post("/admin/altapay/payment-links", { order_id: edited.orderId }, as())
      expect([link.status, link.data.message]).toEqual([400, expect.stringMatching(/may have been made without Medusa recording it.*No link was created/)])

      const run = await uncertainMoneyJob(getContainer(), { scheduledFor: new Date(Date.now() + 60 * 60_000) })
      expect(run.counts.recorded ?? 0).toBeGreaterThanOrEqual(1)
      expect(run.counts["needs the merchant"] ?? 0).toBe(0)
      expect((await orderState(edited.orderId)).pendingMinor).toBe(0)
      expect(chargesOn(edited.agreementId)).toHaveLength(1)
    })

    it("an expired card answers 400 with AltaPay's message, and nothing is recorded", async () => {
      const { orderId, cardId, agreementId, dueMinor } = await orderWithDifference({ expiryMonth: "01", expiryYear: "2030" })
      store.sandbox().setClock(() => Date.UTC(2030, 1, 1))
      const declined = await api.post(`/admin/altapay/orders/${orderId}/agreement-charges`, { saved_card_id: cardId, capture: true }, as())
      expect(declined.status).toBe(400)
      expect(declined.data.message).toMatch(/AltaPay refused the agreement charge: Card expired \(01\/2030\)/)
      expect(chargesOn(agreementId)).toHaveLength(0)
      expect((await orderState(orderId)).pendingMinor).toBe(dueMinor)
    })

    it("charges nothing when a later edit leaves the customer owed money, though Medusa keeps the earlier collection unpaid", async () => {
      const { orderId, cardId, agreementId } = await orderWithDifference()
      // A second edit removes the coffees: the order is now worth less than was paid.
      const query = getContainer().resolve(ContainerRegistrationKeys.QUERY)
      const { data } = await query.graph({ entity: "order", fields: ["id", "items.id", "items.title", "items.quantity"], filters: { id: orderId } })
      const coffee = (data[0] as { items: Array<{ id: string; title: string; quantity: number }> }).items.find((i) => /coffee/i.test(i.title))!
      await api.post("/admin/order-edits", { order_id: orderId }, as())
      expect((await api.post(`/admin/order-edits/${orderId}/items/item/${coffee.id}`, { quantity: 0 }, as())).status).toBe(200)
      await api.post(`/admin/order-edits/${orderId}/request`, {}, as())
      expect((await api.post(`/admin/order-edits/${orderId}/confirm`, {}, as())).status).toBe(200)
      const state = await orderState(orderId)
      expect(state.pendingMinor).toBeLessThan(0)
      // Medusa 2.21 left the first edit's collection unpaid, at its old amount.
      expect(state.collections.some((c) => c.status === "not_paid")).toBe(true)

      const offer = await api.get(`/admin/altapay/orders/${orderId}/agreement-charges`, as())
      expect(offer.data).toMatchObject({ outstanding: { minor: 0 }, reason: expect.stringMatching(/nothing outstanding: the customer is owed \d+\.\d\d DKK/) })
      const charged = await api.post(`/admin/altapay/orders/${orderId}/agreement-charges`, { saved_card_id: cardId, capture: true }, as())
      expect([charged.status, charged.data.message]).toEqual([400, expect.stringMatching(/the customer is owed .* There is nothing to charge/)])
      const link = await api.post("/admin/altapay/payment-links", { order_id: orderId }, as())
      expect([link.status, link.data.message]).toEqual([400, expect.stringMatching(/the customer is owed .* There is nothing to pay by link/)])
      expect(chargesOn(agreementId)).toHaveLength(0)
    })

    it("charges nothing while the order's own payment is under way: a payment link that can be paid, or a payment AltaPay has", async () => {
      const { orderId, cardId, agreementId } = await orderWithDifference()
      const link = await api.post("/admin/altapay/payment-links", { order_id: orderId }, as())
      expect(link.status).toBe(200)
      const refused = await api.post(`/admin/altapay/orders/${orderId}/agreement-charges`, { saved_card_id: cardId, capture: true }, as())
      expect([refused.status, refused.data.message]).toEqual([
        400,
        expect.stringMatching(/has a payment under way: a payment link sent for it can be paid until .* Nothing was charged/),
      ])
      expect(chargesOn(agreementId)).toHaveLength(0)

      // The customer paid by the link with a bank payment AltaPay still waits on; the link itself has lapsed.
      await store.sandbox().simulatePayment(link.data.altapay_session_id, { outcome: "open", callback: false })
      await processStore().delete(`altapay:payment-link:${link.data.payment_session_id}`)
      const stillRefused = await api.post(`/admin/altapay/orders/${orderId}/agreement-charges`, { saved_card_id: cardId, capture: true }, as())
      expect([stillRefused.status, stillRefused.data.message]).toEqual([400, expect.stringMatching(/has a payment under way: AltaPay has payment \d+ \(\w+\)/)])
      expect(chargesOn(agreementId)).toHaveLength(0)
    })

    it("the follow-up job records a capture and a charge that went through while nobody heard back, without moving money again, also run on two servers at once", async () => {
      // A capture of part of an order: the answer is lost and the look-up after it fails.
      const customer = await createCustomer(api, seed)
      const order = await createAltaPayOrder(api, seed, getContainer(), store.sandbox(), { customerToken: customer.token, email: customer.email })
      const part = 10
      store.sandbox().faults.add({ route: "captureReservation", kind: "lost-answer" })
      store.sandbox().faults.add({ route: "payments", kind: "503", times: 3 })
      const lostCapture = await api.post(`/admin/payments/${order.paymentId}/capture`, { amount: part }, as())
      expect(lostCapture.status).toBeGreaterThanOrEqual(400)
      store.sandbox().faults.clear()
      const capturesOf = async () => {
        const query = getContainer().resolve(ContainerRegistrationKeys.QUERY)
        const { data } = await query.graph({ entity: "payment", fields: ["id", "captures.amount", "data"], filters: { id: order.paymentId } })
        return data[0] as { captures: Array<{ amount: number }>; data: { transaction_id: string } }
      }
      expect((await capturesOf()).captures).toHaveLength(0)

      // A merchant charge of another order: lost the same way.
      const edited = await orderWithDifference()
      store.sandbox().faults.add({ route: "chargeSubscription", kind: "lost-answer" })
      store.sandbox().faults.add({ route: "payments", kind: "500", skip: 2, times: 50 })
      expect((await api.post(`/admin/altapay/orders/${edited.orderId}/agreement-charges`, { saved_card_id: edited.cardId, capture: true }, as())).status).toBeGreaterThanOrEqual(
        400
      )
      store.sandbox().faults.clear()
      expect((await orderState(edited.orderId)).pendingMinor).toBe(edited.dueMinor)

      // Nobody presses anything again: the next run records both, and AltaPay moves nothing more.
      const captureCalls = store
        .sandbox()
        .ledger()
        .filter((e) => e.operation === "captureReservation").length
      const later = { scheduledFor: new Date(Date.now() + 60 * 60_000) }
      // Two servers' runs at once: one records each attempt, the other finds it recorded (never "needs you").
      const runs = await Promise.all([uncertainMoneyJob(getContainer(), later), uncertainMoneyJob(getContainer(), later)])
      expect(runs.map((run) => run.counts["needs the merchant"] ?? 0)).toEqual([0, 0])
      expect(runs.map((run) => run.counts.recorded ?? 0).reduce((a, b) => a + b)).toBeGreaterThanOrEqual(2)
      const captured = await capturesOf()
      expect(captured.captures.map((c) => Number(c.amount))).toEqual([part])
      expect(store.sandbox().transaction(captured.data.transaction_id)).toMatchObject({ capturedMinor: part * 100 })
      expect(
        store
          .sandbox()
          .ledger()
          .filter((e) => e.operation === "captureReservation").length
      ).toBe(captureCalls)
      expect((await orderState(edited.orderId)).pendingMinor).toBe(0)
      expect(chargesOn(edited.agreementId)).toHaveLength(1)
      // A second run has nothing left to do.
      expect((await uncertainMoneyJob(getContainer(), later)).counts.recorded ?? 0).toBe(0)
    })

    it("refuses a body that is not one, the customer-initiated unscheduled type, and another customer's card", async () => {
      const { orderId, cardId } = await orderWithDifference()
      // Another customer's card: the refusal comes before AltaPay is asked, so no order or agreement of theirs is needed.
      const other = await saveCard((await createCustomer(api, seed)).id, "agreement-of-another-customer")
      const bad = await api.post(`/admin/altapay/orders/${orderId}/agreement-charges`, { saved_card_id: cardId, unscheduled_type: "charge" }, as())
      expect(bad.status).toBe(400)
      const stranger = await api.post(`/admin/altapay/orders/${orderId}/agreement-charges`, { saved_card_id: other.id }, as())
      expect([stranger.status, stranger.data.message]).toEqual([400, expect.stringMatching(/is not the card of order #\d+'s customer/)])
      const unauthenticated = await api.post(`/admin/altapay/orders/${orderId}/agreement-charges`, { saved_card_id: cardId }, { validateStatus: () => true })
      expect(unauthenticated.status).toBe(401)
    })
  },
})
