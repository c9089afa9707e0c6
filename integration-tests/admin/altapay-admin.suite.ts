/**
 * The admin side in one Medusa app (embedded Postgres) against the AltaPay sandbox over HTTP:
 * Medusa's own refund button, item-level refunds, the AltaPay panel's data and payment links,
 * each through the admin API with a real admin user, compared with what AltaPay received.
 */
import type { MedusaContainer } from "@medusajs/framework/types"
import { ContainerRegistrationKeys, Modules } from "@medusajs/framework/utils"
import { createProductsWorkflow, createShippingOptionsWorkflow } from "@medusajs/medusa/core-flows"
import { storeSuite } from "../../tools/test-store/store-app/runner"
import { decimalToMinor } from "../../src/altapay"
import { toMinorUnits } from "../../src/lib/medusa-mapping/amounts"
import { WEBHOOK_PROCESSING_DELAY_MS, altapayStore } from "../../tools/test-store/store-app/altapay-store"
import { captureAtAltaPay } from "../../tools/test-store/altapay-sandbox"
import { createAdminUser, createAltaPayOrder, createCart, eventually, orderPayments, seedStore, waitForOrder, type Api, type SeededStore } from "../../tools/test-store/store"
import { postCustomerReturn } from "../../tools/test-store/customer-return"
import { shopOrderIdFor } from "../../src/lib/medusa-mapping/shop-order-id"

const store = altapayStore()

type SentLine = Record<string, string>
const ledger = (operation: string) =>
  store
    .sandbox()
    .ledger()
    .filter((e) => e.operation === operation)
const refundsSent = () =>
  ledger("refundCapturedReservation").map((e) => e.params as { transaction_id: string; amount: string; reconciliation_identifier: string; orderLines: SentLine[] })
const lineMinor = (line: SentLine) => decimalToMinor(line.unitPrice, "DKK") * Number(line.quantity) + decimalToMinor(line.taxAmount, "DKK")
const anyStatus = { validateStatus: () => true }
const dkk = (amount: unknown) => toMinorUnits(amount as number, "DKK")

export default storeSuite({
  testSuite: ({ api: rawApi, getContainer }) => {
    const api = rawApi as unknown as Api
    let admin: { id: string; headers: Record<string, string> }
    const as = () => ({ headers: admin.headers, ...anyStatus })
    /** DKK store, prices without tax, 25 % VAT, a 10 % promotion code, shipping 49.00. */
    let seed: SeededStore
    /** The same store with one 7.728 DKK product (9.66 with VAT) and free shipping: the sandbox refuses every refund of a 9.66 payment. */
    let seed966: SeededStore

    // Seeded once: the runner snapshots the database after the suite's beforeAll and restores
    // that snapshot before every test, so each test starts from this store.
    beforeAll(async () => {
      admin = await createAdminUser(api, getContainer())
      seed = await seedStore(getContainer(), { promotion: { code: "TEN", percent: 10 } })
      seed966 = await addPayment966(seed)
    })
    beforeEach(() => store.sandbox().clearLedger())

    /** An AltaPay order (2 coffee + 1 tea + shipping, 10 % promotion), captured from the admin. */
    async function capturedOrder(from: SeededStore = seed) {
      const order = await createAltaPayOrder(api, from, getContainer(), store.sandbox(), from === seed966 ? { items: [{ product: "tea", quantity: 1 }], promotion: false } : {})
      const captured = await api.post(`/admin/payments/${order.paymentId}/capture`, {}, as())
      expect(captured.status).toBe(200)
      return order
    }

    async function orderItems(container: MedusaContainer, orderId: string) {
      const query = container.resolve(ContainerRegistrationKeys.QUERY)
      const { data } = await query.graph({ entity: "order", fields: ["id", "total", "items.id", "items.variant_sku", "items.quantity", "items.total"], filters: { id: orderId } })
      return data[0] as { id: string; total: number; items: Array<{ id: string; variant_sku: string; quantity: number; total: number }> }
    }

    /** Medusa's captures of a payment, the order's capture transactions and AltaPay's captured amount (minor units). */
    async function capturedBy(orderId: string, paymentId: string) {
      const paymentModule = getContainer().resolve(Modules.PAYMENT)
      const payment = await paymentModule.retrievePayment(paymentId, { relations: ["captures"] })
      const query = getContainer().resolve(ContainerRegistrationKeys.QUERY)
      const { data } = await query.graph({ entity: "order", fields: ["transactions.reference", "transactions.amount"], filters: { id: orderId } })
      const booked = (data[0] as { transactions: Array<{ reference: string; amount: unknown }> }).transactions.filter((t) => t.reference === "capture")
      const total = (amounts: unknown[]) => amounts.reduce<number>((sum, amount) => sum + dkk(amount), 0)
      const altapay = store.sandbox().transaction((payment.data as { transaction_id: string }).transaction_id)!.capturedMinor
      return { medusa: total(payment.captures!.map((c) => c.amount)), booked: total(booked.map((t) => t.amount)), altapay }
    }

    describe("authentication", () => {
      it("answers 401 to every AltaPay admin route without an admin", async () => {
        const get = await api.get("/admin/altapay/payments/pay_123", anyStatus)
        const refund = await api.post("/admin/altapay/payments/pay_123/refunds", { items: [] }, anyStatus)
        const link = await api.post("/admin/altapay/payment-links", { cart_id: "cart_123" }, anyStatus)
        const captureState = await api.get("/admin/altapay/payments/pay_123/captures", anyStatus)
        const capture = await api.post("/admin/altapay/payments/pay_123/captures", { shipping: true }, anyStatus)
        expect([get.status, refund.status, link.status, captureState.status, capture.status]).toEqual([401, 401, 401, 401, 401])
        const customerToken = await api.post("/admin/altapay/payment-links", { cart_id: "cart_123" }, { headers: { authorization: "Bearer not-a-token" }, ...anyStatus })
        expect(customerToken.status).toBe(401)
      })
    })

    describe("GET /admin/altapay/payments/:id", () => {
      it("shows AltaPay's live transaction next to Medusa's records and what is still refundable; the stored values when AltaPay is down", async () => {
        const order = await capturedOrder(seed)
        const { status, data } = await api.get(`/admin/altapay/payments/${order.paymentId}`, as())
        expect(status).toBe(200)
        const view = data.altapay_payment
        const totalMinor = dkk(order.cart.total)
        expect(view).toMatchObject({
          id: order.paymentId,
          order_id: order.orderId,
          medusa: { amount: { minor: totalMinor, currency: "DKK" }, captured: { minor: totalMinor }, refunded: { minor: 0 } },
          altapay: {
            live: true,
            error: null,
            status: "captured",
            // AltaPay holds the session id in the form its shop_orderid typing allows.
            shop_order_id: shopOrderIdFor(order.session.paymentSessionId),
            reserved: { minor: totalMinor, currency: "DKK" },
            captured: { minor: totalMinor, decimal: (totalMinor / 100).toFixed(2) },
            refunded: { minor: 0 },
            card: { masked_pan: expect.stringContaining("1111") },
          },
          refunds: [],
          open_refunds: 0,
          refundable: { amount: { minor: totalMinor } },
        })
        expect(view.altapay.transaction_id).toEqual(expect.any(String))
        expect(view.altapay.reconciliation_identifiers).toEqual([expect.objectContaining({ type: "captured", amount: expect.objectContaining({ minor: totalMinor }) })])
        expect(view.refundable.items).toEqual(
          expect.arrayContaining([
            expect.objectContaining({ sku: seed.products.coffee.sku, quantity: 2, refunded_quantity: 0, refundable_quantity: 2 }),
            expect.objectContaining({ sku: seed.products.tea.sku, quantity: 1, refundable_quantity: 1 }),
          ])
        )
        // Shipping 49.00 without VAT: 61.25 with it, what refunding it gives back.
        expect(view.refundable.shipping).toEqual([expect.objectContaining({ refunded: false, amount: expect.objectContaining({ minor: 6125 }) })])

        // AltaPay down: still an answer, with the stored values and the reason.
        store.sandbox().faults.add({ route: "payments", kind: "503", times: 10 })
        try {
          const down = await api.get(`/admin/altapay/payments/${order.paymentId}`, as())
          expect(down.status).toBe(200)
          expect(down.data.altapay_payment.altapay).toMatchObject({
            live: false,
            error: expect.stringContaining("AltaPay could not be reached"),
            status: "captured",
            captured: { minor: totalMinor },
          })
        } finally {
          store.sandbox().faults.clear()
        }
      })

      it("answers 404 for an unknown payment", async () => {
        expect((await api.get("/admin/altapay/payments/pay_unknown", as())).status).toBe(404)
      })
    })

    describe("Medusa's own refund button (POST /admin/payments/:id/refund)", () => {
      it("refunds an amount through AltaPay with order lines that total it", async () => {
        const order = await capturedOrder(seed)
        const { status } = await api.post(`/admin/payments/${order.paymentId}/refund`, { amount: 33.33, note: "Goodwill" }, as())
        expect(status).toBe(200)
        const [sent] = refundsSent()
        expect(sent.amount).toBe("33.33")
        expect(sent.orderLines.reduce((sum, line) => sum + lineMinor(line), 0)).toBe(3333)
        const [payment] = await orderPayments(getContainer(), order.orderId)
        expect(payment.data).toMatchObject({ refunded_minor: 3333, refunds: [expect.objectContaining({ amount_minor: 3333, status: "succeeded" })] })
      })
    })

    describe("POST /admin/altapay/payments/:id/refunds", () => {
      it("refunds one coffee with its own lines (tax, share of the promotion), and Medusa records the same refund", async () => {
        const order = await capturedOrder(seed)
        const items = await orderItems(getContainer(), order.orderId)
        const coffee = items.items.find((i) => i.variant_sku === seed.products.coffee.sku)!

        const { status, data } = await api.post(
          `/admin/altapay/payments/${order.paymentId}/refunds`,
          { items: [{ line_item_id: coffee.id, quantity: 1 }], note: "Broken bag" },
          as()
        )
        expect(status).toBe(200)
        // Half of the coffee line (2 x 89.95 less 10 %, plus 25 % VAT), to the minor unit.
        const expectedMinor = data.refund.amount.minor
        expect(Math.abs(expectedMinor - dkk(coffee.total) / 2)).toBeLessThanOrEqual(1)
        expect(data.refund).toMatchObject({
          amount: { currency: "DKK" },
          status: "succeeded",
          open: false,
          note: "Broken bag",
          source: "medusa",
          items: [{ line_item_id: coffee.id, quantity: 1, title: expect.stringContaining("Coffee") }],
        })

        // AltaPay got exactly the coffee's lines, for that amount.
        const [sent] = refundsSent()
        expect(decimalToMinor(sent.amount, "DKK")).toBe(expectedMinor)
        expect(sent.orderLines.reduce((sum, line) => sum + lineMinor(line), 0)).toBe(expectedMinor)
        expect(sent.orderLines[0]).toMatchObject({ itemId: seed.products.coffee.sku, quantity: "1", taxPercent: "25" })
        expect(sent.orderLines.find((l) => l.itemId === `discount-${seed.products.coffee.sku}`)).toBeDefined()

        // Medusa's refund: same amount, the admin as its author, the note.
        const payment = await getContainer()
          .resolve(Modules.PAYMENT)
          .retrievePayment(order.paymentId, { relations: ["refunds"] })
        expect(payment.refunds).toHaveLength(1)
        expect(payment.refunds![0]).toMatchObject({ created_by: admin.id, note: "Broken bag" })
        expect(dkk(payment.refunds![0].amount)).toBe(expectedMinor)
        expect(sent.reconciliation_identifier).toBe(`medusa-refund-${payment.refunds![0].id}`)
        expect((payment.data as Record<string, unknown>).pending_refund).toBeNull()

        // The panel: refunded quantity tracked, AltaPay's refunded amount.
        const view = data.altapay_payment
        expect(view.altapay.refunded).toMatchObject({ minor: expectedMinor })
        expect(view.refundable.items.find((i: { line_item_id: string }) => i.line_item_id === coffee.id)).toMatchObject({ refunded_quantity: 1, refundable_quantity: 1 })
        expect(view.altapay.reconciliation_identifiers).toEqual(expect.arrayContaining([expect.objectContaining({ type: "refunded", id: sent.reconciliation_identifier })]))
      })

      it("refunds a promotion order unit by unit until AltaPay has refunded exactly what it captured", async () => {
        // 2 coffee at 89.95 and a tea at 45.50, 10 % off, 25 % VAT on top: Medusa's totals have
        // four decimals (the coffees come to 202.3875), so each unit's share is rounded.
        const order = await capturedOrder(seed)
        const { items } = await orderItems(getContainer(), order.orderId)
        const coffee = items.find((i) => i.variant_sku === seed.products.coffee.sku)!
        const tea = items.find((i) => i.variant_sku === seed.products.tea.sku)!
        const requests = [
          { items: [{ line_item_id: coffee.id, quantity: 1 }] },
          { shipping: true },
          { items: [{ line_item_id: tea.id, quantity: 1 }] },
          { items: [{ line_item_id: coffee.id, quantity: 1 }] },
        ]
        for (const body of requests) {
          const { status, data } = await api.post(`/admin/altapay/payments/${order.paymentId}/refunds`, body, as())
          expect([status, data.message]).toEqual([200, undefined])
        }

        const sent = refundsSent()
        expect(sent).toHaveLength(4)
        for (const refund of sent) expect(refund.orderLines.reduce((sum, line) => sum + lineMinor(line), 0)).toBe(decimalToMinor(refund.amount, "DKK"))
        const [payment] = await orderPayments(getContainer(), order.orderId)
        const transaction = store.sandbox().transaction(payment.data.transaction_id)!
        expect(transaction.capturedMinor).toBe(dkk(order.cart.total))
        expect(transaction.refundedMinor).toBe(transaction.capturedMinor)
        const refunds = (
          await getContainer()
            .resolve(Modules.PAYMENT)
            .retrievePayment(order.paymentId, { relations: ["refunds"] })
        ).refunds!
        expect(refunds.reduce((sum, r) => sum + dkk(r.amount), 0)).toBe(transaction.capturedMinor)
      })

      it("tracks what each item and the shipping has had refunded: more is refused, nothing sent", async () => {
        const order = await capturedOrder(seed)
        const coffee = (await orderItems(getContainer(), order.orderId)).items.find((i) => i.variant_sku === seed.products.coffee.sku)!
        expect((await api.post(`/admin/altapay/payments/${order.paymentId}/refunds`, { items: [{ line_item_id: coffee.id, quantity: 1 }] }, as())).status).toBe(200)

        const { status, data } = await api.post(`/admin/altapay/payments/${order.paymentId}/refunds`, { items: [{ line_item_id: coffee.id, quantity: 2 }] }, as())
        expect(status).toBe(400)
        expect(data.message).toBe(`"Coffee beans – Standard" (${coffee.id}): 2 requested, but only 1 of 2 is still refundable (1 refunded before).`)
        expect(refundsSent()).toHaveLength(1)

        // The shipping: its own shipment line, once.
        const shipping = await api.post(`/admin/altapay/payments/${order.paymentId}/refunds`, { shipping: true }, as())
        expect(shipping.status).toBe(200)
        expect(shipping.data.refund.amount).toMatchObject({ minor: 6125 }) // 49.00 + 25 % VAT
        expect(refundsSent()[1].orderLines).toEqual([expect.objectContaining({ goodsType: "shipment", unitPrice: "49.00", taxAmount: "12.25" })])
        const again = await api.post(`/admin/altapay/payments/${order.paymentId}/refunds`, { shipping: true }, as())
        expect(again.status).toBe(400)
        expect(again.data.message).toBe("Shipping was already refunded.")
        expect(refundsSent()).toHaveLength(2)

        const bad = await api.post(`/admin/altapay/payments/${order.paymentId}/refunds`, { items: [{ line_item_id: coffee.id, quantity: 0 }], extra: true }, as())
        expect(bad.status).toBe(400)
        expect(bad.data.message).toMatch(/^Invalid request: /)
      })

      it("runs concurrent refunds of one payment one after the other: the second sees the first", async () => {
        const order = await capturedOrder(seed)
        const coffee = (await orderItems(getContainer(), order.orderId)).items.find((i) => i.variant_sku === seed.products.coffee.sku)!
        const body = { items: [{ line_item_id: coffee.id, quantity: 2 }] }
        const answers = await Promise.all([1, 2].map(() => api.post(`/admin/altapay/payments/${order.paymentId}/refunds`, body, as())))
        expect(answers.map((a) => a.status).sort()).toEqual([200, 400])
        expect(answers.find((a) => a.status === 400)!.data.message).toMatch(/only 0 of 2 are still refundable/)
        expect(refundsSent()).toHaveLength(1)
      })

      it("marks a refund AltaPay answers Open", async () => {
        const order = await capturedOrder(seed)
        const tea = (await orderItems(getContainer(), order.orderId)).items.find((i) => i.variant_sku === seed.products.tea.sku)!
        store.sandbox().faults.add({ route: "refundCapturedReservation", kind: "open" })
        const { status, data } = await api.post(`/admin/altapay/payments/${order.paymentId}/refunds`, { items: [{ line_item_id: tea.id, quantity: 1 }] }, as())
        expect(status).toBe(200)
        expect(data.refund).toMatchObject({ status: "open", open: true })
        expect(data.altapay_payment.open_refunds).toBe(1)
      })
    })

    describe("POST /admin/altapay/payments/:id/captures", () => {
      it("refuses a body that names nothing to capture, unknown fields or part of a unit, before anything is planned", async () => {
        const post = (body: unknown) => api.post("/admin/altapay/payments/pay_123/captures", body, as())
        const nothing = await post({ items: [], preview: true })
        expect(nothing.status).toBe(400)
        expect(nothing.data.message).toBe("Invalid request: body: choose at least one item or the shipping.")
        for (const body of [{ shipping: true, extra: 1 }, { items: [{ line_item_id: "ordli_1", quantity: 1.5 }] }, { items: [{ line_item_id: "", quantity: 1 }] }]) {
          const bad = await post(body)
          expect([bad.status, bad.data.message]).toEqual([400, expect.stringMatching(/^Invalid request: /)])
        }
      })
    })

    describe("partial capture from Medusa's admin (POST /admin/payments/:id/capture with an amount)", () => {
      it("captures exactly 40 % at AltaPay, and the rest can still be captured", async () => {
        const order = await createAltaPayOrder(api, seed, getContainer(), store.sandbox())
        const totalMinor = dkk(order.cart.total)
        const partMinor = Math.round(totalMinor * 0.4)
        const first = await api.post(`/admin/payments/${order.paymentId}/capture`, { amount: partMinor / 100 }, as())
        expect(first.status).toBe(200)
        const [payment] = await orderPayments(getContainer(), order.orderId)
        const transactionId = payment.data.transaction_id as string
        expect(store.sandbox().transaction(transactionId)).toMatchObject({ reservedMinor: totalMinor, capturedMinor: partMinor })
        const [sent] = ledger("captureReservation").map((e) => e.params as { amount: string; orderLines: SentLine[] })
        expect(decimalToMinor(sent.amount, "DKK")).toBe(partMinor)
        expect(sent.orderLines.reduce((sum, line) => sum + lineMinor(line), 0)).toBe(partMinor)

        // The rest, as the admin's Capture button sends it after a partial capture (what is left).
        const rest = await api.post(`/admin/payments/${order.paymentId}/capture`, { amount: (totalMinor - partMinor) / 100 }, as())
        expect(rest.status).toBe(200)
        expect(store.sandbox().transaction(transactionId)).toMatchObject({ capturedMinor: totalMinor })
        expect(ledger("captureReservation").map((e) => decimalToMinor((e.params as { amount: string }).amount, "DKK"))).toEqual([partMinor, totalMinor - partMinor])
        const captured = await getContainer()
          .resolve(Modules.PAYMENT)
          .retrievePayment(order.paymentId, { relations: ["captures"] })
        expect(captured.captured_at).toBeTruthy()
      })

      it("Capture pressed three times at once, in full or in part: one after the other, and Medusa's captures, the order's and AltaPay's agree", async () => {
        for (const share of [1, 0.4]) {
          const order = await createAltaPayOrder(api, seed, getContainer(), store.sandbox())
          const partMinor = Math.round(dkk(order.cart.total) * share)
          const body = share === 1 ? {} : { amount: partMinor / 100 }
          const answers = await Promise.all([1, 2, 3].map(() => api.post(`/admin/payments/${order.paymentId}/capture`, body, as())))
          // In full, the first captures and the others find the payment captured; in part, two fit and the third does not.
          const made = share === 1 ? partMinor : 2 * partMinor
          expect(answers.map((a) => a.status).sort()).toEqual(share === 1 ? [200, 200, 200] : [200, 200, 400])
          expect(await capturedBy(order.orderId, order.paymentId)).toEqual({ medusa: made, booked: made, altapay: made })
        }
      })
    })

    describe("when AltaPay refuses (a 9.66 DKK payment: the sandbox refuses every refund of it)", () => {
      it("both refund paths show AltaPay's merchant message, and nothing is recorded or left behind", async () => {
        const order = await capturedOrder(seed966)
        const refusal = /AltaPay refused the refund: Refund failed: test scenario for a payment of 9\.66/

        // Medusa's own refund button.
        const button = await api.post(`/admin/payments/${order.paymentId}/refund`, { amount: 9.66 }, as())
        expect(button.status).toBe(400)
        expect(button.data.message).toMatch(refusal)

        // The item refund.
        const item = (await orderItems(getContainer(), order.orderId)).items[0]
        const { status, data } = await api.post(`/admin/altapay/payments/${order.paymentId}/refunds`, { items: [{ line_item_id: item.id, quantity: 1 }] }, as())
        expect(status).toBe(400)
        expect(data.message).toMatch(refusal)
        expect(refundsSent()).toHaveLength(2) // both reached AltaPay, which refused them

        const payment = await getContainer()
          .resolve(Modules.PAYMENT)
          .retrievePayment(order.paymentId, { relations: ["refunds"] })
        expect(payment.refunds).toHaveLength(0)
        expect((payment.data as Record<string, unknown>).pending_refund).toBeNull()
        expect((payment.data as { refunds: unknown[] }).refunds).toHaveLength(0)
        // Nothing counted as refunded: the item can be refunded again once AltaPay allows it.
        const view = (await api.get(`/admin/altapay/payments/${order.paymentId}`, as())).data.altapay_payment
        expect(view.refundable.items[0]).toMatchObject({ refunded_quantity: 0, refundable_quantity: 1 })
      })
    })

    describe("POST /admin/altapay/payment-links", () => {
      it("gives a link for a cart that pays into the usual flow: the callback completes the cart", async () => {
        const cart = await createCart(api, seed)
        const { status, data } = await api.post("/admin/altapay/payment-links", { cart_id: cart.id, validity_seconds: 3600 }, as())
        expect(status).toBe(200)
        const totalMinor = dkk(cart.total)
        expect(data).toMatchObject({ cart_id: cart.id, order_id: null, amount: { minor: totalMinor, currency: "DKK" }, payment_session_id: expect.stringMatching(/^payses_/) })
        expect(data.payment_link.url).toMatch(/^http:\/\/127\.0\.0\.1:\d+\/sandbox\/link\//)
        const expiresIn = Date.parse(data.payment_link.expires_at) - Date.now()
        expect(expiresIn).toBeGreaterThan(3500_000)
        expect(expiresIn).toBeLessThanOrEqual(3600_000)
        // AltaPay counts validityTime in minutes (CreatePaymentLink): an hour is 60.
        expect(ledger("link.create").at(-1)?.params).toEqual({ validityTime: 60 })

        // AltaPay's session is the Medusa payment session's, with the cart's lines.
        const created = ledger("session.create").find((e) => (e.params as { order: { orderId: string } }).order.orderId === shopOrderIdFor(data.payment_session_id))
        expect((created!.params as { order: { orderLines: unknown[] } }).order.orderLines.length).toBeGreaterThan(1)

        // The customer pays through the link: AltaPay's callback completes the cart into an order.
        await store.sandbox().simulatePayment(data.altapay_session_id)
        const order = await waitForOrder(getContainer(), cart.id, WEBHOOK_PROCESSING_DELAY_MS + 10_000)
        // The cart's completion links the order first and its payment collection just after.
        const payments = await eventually(
          () => orderPayments(getContainer(), order.id),
          (found) => found.length > 0,
          5_000,
          100
        )
        expect(payments[0]).toMatchObject({ payment_session_id: data.payment_session_id, data: { transaction_status: "preauth" } })
      })

      /** The merchant adds a tea by phone to a paid order: an order edit leaves an amount due (in minor units). */
      async function leaveAmountDue(orderId: string): Promise<number> {
        const { data: edit } = await api.post("/admin/order-edits", { order_id: orderId }, as())
        const editId = edit.order_change.id
        await api.post(`/admin/order-edits/${orderId}/items`, { items: [{ variant_id: seed.products.tea.variantId, quantity: 1 }] }, as())
        await api.post(`/admin/order-edits/${orderId}/request`, {}, as())
        const confirmed = await api.post(`/admin/order-edits/${orderId}/confirm`, {}, as())
        expect([editId, confirmed.status]).toEqual([editId, 200])
        return dkk((await orderSummary(orderId)).pending_difference)
      }

      async function orderSummary(orderId: string): Promise<{ pending_difference: number }> {
        const query = getContainer().resolve(ContainerRegistrationKeys.QUERY)
        const { data } = await query.graph({ entity: "order", fields: ["summary"], filters: { id: orderId } })
        return (data[0] as { summary: { pending_difference: number } }).summary
      }

      /** AltaPay's post of the customer's return (no callback), to the plugin's return endpoint. */
      const postReturn = (paymentSessionId: string) => postCustomerReturn(store.medusaUrl(), paymentSessionId)

      it("gives a link for the amount due on an order, paid into the order's own payment collection", async () => {
        const order = await capturedOrder(seed)
        const paid = await api.post("/admin/altapay/payment-links", { order_id: order.orderId }, as())
        expect(paid.status).toBe(400)
        expect(paid.data.message).toMatch(/has nothing outstanding/)

        const dueMinor = await leaveAmountDue(order.orderId)
        expect(dueMinor).toBeGreaterThan(0)

        const { status, data } = await api.post("/admin/altapay/payment-links", { order_id: order.orderId }, as())
        expect(status).toBe(200)
        expect(data).toMatchObject({ order_id: order.orderId, cart_id: null, amount: { minor: dueMinor, currency: "DKK" } })
        const again = await api.post("/admin/altapay/payment-links", { order_id: order.orderId }, as())
        expect(again.data.payment_session_id).toBe(data.payment_session_id) // the same session, a new link
        expect(ledger("link.create")).toHaveLength(2)

        // The customer pays and AltaPay posts the return (no callback): the plugin's return endpoint
        // runs processPaymentWorkflow, which attaches the payment to the order's own collection, and
        // sends the payer to the paid landing page (the session has no cart).
        await store.sandbox().simulatePayment(data.altapay_session_id, { callback: false })
        const returned = await postReturn(data.payment_session_id)
        const landing = new URL(returned.headers.get("location")!)
        // Unsigned, so it proves nothing about who asks: the outcome, but no order id.
        expect([returned.status, landing.searchParams.get("outcome"), landing.searchParams.get("order_id")]).toEqual([303, "paid", ""])
        const payments = await orderPayments(getContainer(), order.orderId)
        expect(payments.find((p) => p.payment_session_id === data.payment_session_id)).toMatchObject({ data: { transaction_status: "preauth", amount_minor: dueMinor } })
        const query = getContainer().resolve(ContainerRegistrationKeys.QUERY)
        const { data: after } = await query.graph({ entity: "payment_collection", fields: ["status"], filters: { id: data.payment_collection_id } })
        expect(after[0]).toMatchObject({ status: "authorized" })
      })

      /**
       * A paid order with an amount due whose payment link the customer paid with autoCapture (or on a
       * terminal that captures as the customer pays): captured at AltaPay before Medusa hears of it.
       */
      async function linkPaidCapturedAtAltaPay(): Promise<{ order: { orderId: string }; dueMinor: number; data: { payment_session_id: string } }> {
        const order = await capturedOrder(seed)
        const dueMinor = await leaveAmountDue(order.orderId)
        const { data } = await api.post("/admin/altapay/payment-links", { order_id: order.orderId }, as())
        const paid = await store.sandbox().simulatePayment(data.altapay_session_id, { callback: false })
        await captureAtAltaPay(store.sandbox(), paid.transactionId!)
        return { order, dueMinor, data }
      }

      /** The link's payment on its order, the payment's captures, and the order's bookings of its first capture. */
      async function linkCaptureBookings(orderId: string, sessionId: string) {
        const payment = (await orderPayments(getContainer(), orderId)).find((p) => p.payment_session_id === sessionId)!
        const query = getContainer().resolve(ContainerRegistrationKeys.QUERY)
        const { data: captures } = await query.graph({ entity: "capture", fields: ["id"], filters: { payment_id: payment.id } })
        const { data: rows } = await query.graph({
          entity: "order",
          fields: ["transactions.reference", "transactions.reference_id", "transactions.amount"],
          filters: { id: orderId },
        })
        const transactions = (rows[0] as { transactions: Array<{ reference: string; reference_id: string; amount: unknown }> }).transactions
        return { payment, captures, booked: transactions.filter((t) => t.reference_id === captures[0]?.id) }
      }

      it("books a link's payment AltaPay captured at once as the order's transaction: nothing shows as due, no second link", async () => {
        const { order, dueMinor, data } = await linkPaidCapturedAtAltaPay()
        const eventBus = getContainer().resolve(Modules.EVENT_BUS)
        const captured: string[] = []
        const onCaptured = async (event: { data: unknown }) => void captured.push((event.data as { id: string }).id)
        eventBus.subscribe("payment.captured", onCaptured)
        expect((await postReturn(data.payment_session_id)).status).toBe(303)

        const { payment, captures, booked } = await linkCaptureBookings(order.orderId, data.payment_session_id)
        expect(payment).toMatchObject({ data: { transaction_status: "captured", captured_minor: dueMinor } })
        expect(captures).toHaveLength(1)
        expect(booked.map((t) => [t.reference, dkk(t.amount)])).toEqual([["capture", dueMinor]])
        // Medusa's order shows the money as paid, so the admin asks for it no more.
        expect(dkk((await orderSummary(order.orderId)).pending_difference)).toBe(0)
        expect((await api.post("/admin/altapay/payment-links", { order_id: order.orderId }, as())).data.message).toMatch(/has nothing outstanding/)
        expect(
          await eventually(
            async () => captured,
            (ids) => ids.length > 0,
            10_000
          )
        ).toEqual([payment.id])
        await eventBus.unsubscribe("payment.captured", onCaptured)
      })

      it("books the capture on a return that finds the payment recorded before without it (a run that ended between the two)", async () => {
        const { order, dueMinor, data } = await linkPaidCapturedAtAltaPay()
        // Recorded in Medusa's Payment module (payment and capture), and the process ended there.
        await getContainer().resolve(Modules.PAYMENT).authorizePaymentSession(data.payment_session_id, {})
        expect(dkk((await orderSummary(order.orderId)).pending_difference)).toBe(dueMinor)

        expect((await postReturn(data.payment_session_id)).status).toBe(303)
        expect(dkk((await orderSummary(order.orderId)).pending_difference)).toBe(0)
      })

      it("books the capture once when the customer's returns arrive at once (a reload, a second tab)", async () => {
        const { order, dueMinor, data } = await linkPaidCapturedAtAltaPay()
        await getContainer().resolve(Modules.PAYMENT).authorizePaymentSession(data.payment_session_id, {})

        const returns = await Promise.all([1, 2, 3, 4].map(() => postReturn(data.payment_session_id)))
        expect(returns.map((r) => r.status)).toEqual([303, 303, 303, 303])
        const { booked } = await linkCaptureBookings(order.orderId, data.payment_session_id)
        expect(booked).toHaveLength(1)
        // Booked twice, the order would show the customer as owed the amount again.
        expect(dkk((await orderSummary(order.orderId)).pending_difference)).toBe(0)
        expect(dueMinor).toBeGreaterThan(0)
      })

      it("gives admins who send an order's link at once the same session, and the order one session to pay", async () => {
        const order = await capturedOrder(seed)
        const dueMinor = await leaveAmountDue(order.orderId)
        const answers = await Promise.all([1, 2, 3].map(() => api.post("/admin/altapay/payment-links", { order_id: order.orderId }, as())))
        expect(answers.map((a) => [a.status, a.data.payment_session_id, a.data.amount.minor])).toEqual(Array(3).fill([200, answers[0].data.payment_session_id, dueMinor]))
        const query = getContainer().resolve(ContainerRegistrationKeys.QUERY)
        const { data } = await query.graph({ entity: "payment_collection", fields: ["payment_sessions.id"], filters: { id: answers[0].data.payment_collection_id } })
        expect((data[0] as { payment_sessions: unknown[] }).payment_sessions).toHaveLength(1)
      })

      it("refuses a body without exactly one of cart_id and order_id, and unknown carts", async () => {
        expect((await api.post("/admin/altapay/payment-links", { cart_id: "a", order_id: "b" }, as())).status).toBe(400)
        expect((await api.post("/admin/altapay/payment-links", {}, as())).status).toBe(400)
        expect((await api.post("/admin/altapay/payment-links", { cart_id: "cart_unknown" }, as())).status).toBe(404)
      })
    })

    /** A 7.728 DKK product (9.66 with 25 % VAT) standing in for the tea, and free shipping. */
    async function addPayment966(base: SeededStore): Promise<SeededStore> {
      const container = getContainer()
      const { result } = await createProductsWorkflow(container).run({
        input: {
          products: [
            {
              title: "Sample",
              handle: "sample-966",
              status: "published",
              shipping_profile_id: base.shippingProfile.id,
              options: [{ title: "Size", values: ["Standard"] }],
              variants: [{ title: "Standard", sku: "SAMPLE-966", options: { Size: "Standard" }, manage_inventory: false, prices: [{ currency_code: "dkk", amount: 7.728 }] }],
              sales_channels: [{ id: base.salesChannel.id }],
            },
          ],
        },
      })
      const fulfillment = container.resolve(Modules.FULFILLMENT)
      const [standard] = await fulfillment.listShippingOptions({ id: base.shippingOption.id })
      const {
        result: [free],
      } = await createShippingOptionsWorkflow(container).run({
        input: [
          {
            name: "Pick-up",
            price_type: "flat",
            provider_id: "manual_manual",
            service_zone_id: standard.service_zone_id,
            shipping_profile_id: base.shippingProfile.id,
            type: { label: "Pick-up", description: "In the shop", code: "pickup" },
            prices: [
              { currency_code: "dkk", amount: 0 },
              { region_id: base.region.id, amount: 0 },
            ],
            rules: [
              { attribute: "enabled_in_store", value: "true", operator: "eq" },
              { attribute: "is_return", value: "false", operator: "eq" },
            ],
          },
        ],
      })
      const variant = result[0].variants[0]
      return {
        ...base,
        shippingOption: { id: free.id, name: free.name },
        products: { ...base.products, tea: { id: result[0].id, handle: "sample-966", title: "Sample", variantId: variant.id, sku: "SAMPLE-966", price: 7.728 } },
      }
    }
  },
})
