/**
 * A Klarna (invoice terminal) order after the sale, through Medusa's real admin routes: Medusa's own
 * Refund (POST /admin/payments/:id/refund), its returns and Cancel, and the plugin's Refund items
 * (POST /admin/altapay/payments/:id/refunds), on the sandbox's strict Klarna terminal (invoice-rules.ts:
 * refunds carry lines that relate to the reservation's, or none for a goodwill refund, as AltaPay's
 * "Refund a Klarna payment" documents). Run on item-captures.spec.ts's store (captureOn "shipment").
 *
 * What a merchant relies on, whatever they press:
 * - AltaPay's captured and refunded totals equal Medusa's payment captures and refunds and the
 *   order's booked transactions, to the øre, after every step (tools/test-store/payment-books.ts);
 * - a refund AltaPay refuses reaches him as a clear 4xx saying why, never a 500, and Medusa then
 *   records no refund; Medusa's Refund of an amount works on Klarna as it does on a card (AltaPay
 *   takes a refund without lines as a goodwill refund), so what an order says is owed can be paid back;
 * - Refund items gives back only what was captured, with the lines it was captured with.
 *
 * The order: 2 coffee (89.95) + 1 tea (45.50), 10 % promotion, 25 % VAT, shipping 49.00: 314.83 DKK
 * (a coffee 101.19375, the tea 51.1875, shipping 61.25).
 */
import { ContainerRegistrationKeys } from "@medusajs/framework/utils"
import { altapayStore, cleanSandboxEachTest } from "../../tools/test-store/store-app/altapay-store"
import { storeSuite } from "../../tools/test-store/store-app/runner"
import { adminOfSeededStore, receivedReturn, answered, createCoffeeTeaOrder, eventually, expectOk, type Answers, type Api, type CoffeeTeaOrder } from "../../tools/test-store/store"
import { paymentBooks, wireLinesMinor, type PaymentOfOrder, type WireLine } from "../../tools/test-store/payment-books"
import { eventsSettled } from "../../tools/test-store/store-app/events-settled"

const store = altapayStore()
const sum = (xs: number[]) => xs.reduce((n, x) => n + x, 0)

export default storeSuite({
  testSuite: ({ api: rawApi, getContainer }) => {
    const api = rawApi as unknown as Api
    const shop = adminOfSeededStore(api, getContainer, { promotion: { code: "TEN", percent: 10 } })
    const as = shop.as
    cleanSandboxEachTest()

    const of = (order: CoffeeTeaOrder): PaymentOfOrder => ({ orderId: order.orderId, paymentId: order.paymentId, transactionId: order.transactionId, currency: "DKK" })
    const settled = () => eventsSettled(getContainer())

    /**
     * AltaPay's books against Medusa's, as one comparable object: every figure the merchant reads must
     * be AltaPay's (captured, refunded; Medusa's payment; the order's booked transactions). The sandbox
     * itself refuses a refund whose lines do not add up to it.
     */
    async function books(order: CoffeeTeaOrder) {
      await settled()
      const b = await paymentBooks(getContainer(), store.sandbox(), of(order))
      return {
        altapay: { capturedMinor: b.altapay.capturedMinor, refundedMinor: b.altapay.refundedMinor },
        medusa: { capturedMinor: b.medusa.capturedMinor, refundedMinor: b.medusa.refundedMinor },
        booked: { capturedMinor: b.medusa.bookedCapturesMinor, refundedMinor: b.medusa.bookedRefundsMinor },
      }
    }
    /** What `books` must be when AltaPay's figures are `captured` and `refunded`. */
    const agreeing = (capturedMinor: number, refundedMinor: number) => ({
      altapay: { capturedMinor, refundedMinor },
      medusa: { capturedMinor, refundedMinor },
      booked: { capturedMinor, refundedMinor },
    })

    const medusaRefund = (order: CoffeeTeaOrder, minor: number) => api.post(`/admin/payments/${order.paymentId}/refund`, { amount: minor / 100 }, as())
    const itemRefund = (order: CoffeeTeaOrder, body: Record<string, unknown>) => api.post(`/admin/altapay/payments/${order.paymentId}/refunds`, body, as())
    /** A 4xx that says why (not Medusa's generic "An unknown error occurred."), or a 200. */
    const clear = (r: { status: number; message?: string }) => r.status === 200 || (r.status >= 400 && r.status < 500 && !!r.message && !/unknown error/i.test(r.message))

    /** Fulfils and ships `quantity` of an item (the store captures on shipment); waits until its capture ran. */
    async function ship(order: CoffeeTeaOrder, itemId: string, quantity: number, tracking: string) {
      expectOk("fulfillment", await api.post(`/admin/orders/${order.orderId}/fulfillments`, { items: [{ id: itemId, quantity }], location_id: shop.seed.stockLocation.id }, as()))
      const { data } = await api.get(`/admin/orders/${order.orderId}?fields=fulfillments.id,fulfillments.shipped_at,fulfillments.items.line_item_id`, as())
      const fulfillment = (data.order.fulfillments as Array<{ id: string; shipped_at: unknown; items: Array<{ line_item_id: string }> }>).find(
        (f) => !f.shipped_at && f.items.some((i) => i.line_item_id === itemId)
      )!
      const label = { tracking_number: tracking, tracking_url: `https://track.example/${tracking}`, label_url: `https://labels.example/${tracking}.pdf` }
      expectOk("shipment", await api.post(`/admin/orders/${order.orderId}/fulfillments/${fulfillment.id}/shipments`, { items: [{ id: itemId, quantity }], labels: [label] }, as()))
      await eventually(
        async () => store.sandbox().transaction(order.transactionId)!.capturedMinor,
        (n) => n > 0
      )
      await settled()
    }

    /** The order's pending difference as the admin shows it: positive due, negative owed. */
    async function pendingDifference(orderId: string): Promise<number> {
      const { data } = await api.get(`/admin/orders/${orderId}?fields=total,credit_line_total,+summary,*credit_lines`, as())
      return Number(data.order.summary.pending_difference)
    }

    /** The reservation's lines of one product (goods and its promotion), in minor units. */
    function reservedMinorOf(order: CoffeeTeaOrder, match: (l: WireLine) => boolean): number {
      const lines = store
        .sandbox()
        .transaction(order.transactionId)!
        .invoiceLines!.map((l) => l.fields as WireLine)
      return wireLinesMinor(lines.filter(match), "DKK")
    }

    it("Medusa's Refund on a fully captured Klarna payment: 10.00 (no lines' sum), the shipping's 61.25, the rest, then once more: each refunded at AltaPay or a clear 4xx, the books agreeing after each", async () => {
      const order = await createCoffeeTeaOrder(api, shop.seed, getContainer(), store.sandbox())
      expectOk("capture", await api.post(`/admin/payments/${order.paymentId}/capture`, {}, as()))
      expect(await books(order)).toEqual(agreeing(31483, 0))

      const answers: Answers = {}
      const after: Record<string, unknown> = {}
      answers.tenKroner = answered(await medusaRefund(order, 1000))
      after.tenKroner = await books(order)
      answers.shipping = answered(await medusaRefund(order, 6125))
      after.shipping = await books(order)
      const refunded = store.sandbox().transaction(order.transactionId)!.refundedMinor
      answers.theRest = answered(await medusaRefund(order, 31483 - refunded))
      after.theRest = await books(order)
      answers.onceMore = answered(await medusaRefund(order, 100))
      after.onceMore = await books(order)

      // Whatever AltaPay did, Medusa recorded exactly that; no answer is a 500 or says nothing.
      const t = store.sandbox().transaction(order.transactionId)!
      expect({ clear: Object.values(answers).every(clear), books: after.onceMore }).toEqual({ clear: true, books: agreeing(31483, t.refundedMinor) })
      // AltaPay takes each of the first three (goodwill refunds where the amount is no lines' sum): all 314.83 back, the fourth refused (nothing left).
      expect({ answers, refunded: t.refundedMinor, refunds: t.refunds.map((r) => r.amountMinor) }).toEqual({
        answers: {
          tenKroner: { status: 200 },
          shipping: { status: 200 },
          theRest: { status: 200 },
          onceMore: { status: 400, message: expect.stringMatching(/refund/) },
        },
        refunded: 31483,
        refunds: [1000, 6125, 31483 - 7125],
      })
    })

    it("a return of a coffee (10 % off, shipping) received on a captured Klarna order: Medusa's Refund of the 101.19 the order says is owed is refunded at AltaPay, and nothing is left owed", async () => {
      const order = await createCoffeeTeaOrder(api, shop.seed, getContainer(), store.sandbox())
      expectOk("capture", await api.post(`/admin/payments/${order.paymentId}/capture`, {}, as()))
      const items = [
        { id: order.coffee, quantity: 2 },
        { id: order.tea, quantity: 1 },
      ]
      expectOk("fulfillment", await api.post(`/admin/orders/${order.orderId}/fulfillments`, { items, location_id: shop.seed.stockLocation.id }, as()))
      await receivedReturn(api, shop, order.orderId, order.coffee)
      expect(await pendingDifference(order.orderId)).toBeCloseTo(-101.19375, 5)

      const refund = answered(await medusaRefund(order, 10119))
      const b = await books(order)
      expect({ clear: clear(refund), books: b }).toEqual({ clear: true, books: agreeing(31483, b.altapay.refundedMinor) })
      expect({ refund, books: b, owed: Math.abs(await pendingDifference(order.orderId)) < 0.005 }).toEqual({ refund: { status: 200 }, books: agreeing(31483, 10119), owed: true })
    })

    it("the coffee shipped and captured with the shipping: Refund items refuses the uncaptured tea, gives back a coffee and the shipping with their captured lines, and Medusa's Refund of 10.00 more (goodwill) is made at AltaPay", async () => {
      const order = await createCoffeeTeaOrder(api, shop.seed, getContainer(), store.sandbox())
      await ship(order, order.coffee, 2, "PKG-COFFEE")
      const captured = store.sandbox().transaction(order.transactionId)!.capturedMinor
      const coffeeMinor = reservedMinorOf(order, (l) => String(l.itemId).includes(shop.seed.products.coffee.sku))
      const shippingMinor = reservedMinorOf(order, (l) => l.goodsType === "shipment")
      expect({ captured, books: await books(order) }).toEqual({ captured: coffeeMinor + shippingMinor, books: agreeing(coffeeMinor + shippingMinor, 0) })

      // The tea was never captured: refused, saying so, nothing sent.
      const tea = answered(await itemRefund(order, { items: [{ line_item_id: order.tea, quantity: 1 }] }))
      const sentAfterTea = store
        .sandbox()
        .ledger()
        .filter((e) => e.operation === "refundCapturedReservation")
      // One coffee and the shipping, by item: the captured lines.
      const coffeeAndShipping = await itemRefund(order, { items: [{ line_item_id: order.coffee, quantity: 1 }], shipping: true })
      const t = store.sandbox().transaction(order.transactionId)!
      const sentLines = (t.refunds[0]?.orderLines ?? []) as WireLine[]
      const capturedLines = (t.captures[0]?.orderLines ?? []) as WireLine[]
      expect({
        tea: { status: tea.status, saysWhy: /captured/i.test(tea.message ?? "") },
        sentAfterTea,
        coffeeAndShipping: answered(coffeeAndShipping),
        // Its goods lines are captured lines (a promotion's share goes back as a handling line, invoice-rules.ts).
        everyLineCaptured: sentLines
          .filter((l) => l.goodsType !== "handling")
          .every((l) => capturedLines.some((c) => c.itemId === l.itemId && c.unitPrice === l.unitPrice && c.taxPercent === l.taxPercent)),
        shippingBack: wireLinesMinor(
          sentLines.filter((l) => l.goodsType === "shipment"),
          "DKK"
        ),
        books: await books(order),
      }).toEqual({
        tea: { status: 400, saysWhy: true },
        sentAfterTea: [],
        coffeeAndShipping: { status: 200 },
        everyLineCaptured: true,
        shippingBack: shippingMinor,
        books: agreeing(captured, t.refundedMinor),
      })
      expect(Math.abs(t.refundedMinor - (10119 + shippingMinor))).toBeLessThanOrEqual(1)
      // Two more coffees by item: one is captured and not refunded, refused saying so, nothing sent.
      const twoMore = answered(await itemRefund(order, { items: [{ line_item_id: order.coffee, quantity: 2 }] }))
      expect({
        status: twoMore.status,
        saysWhy: /1 captured and not refunded/.test(twoMore.message ?? ""),
        refunds: store.sandbox().transaction(order.transactionId)!.refunds.length,
      }).toEqual({
        status: 400,
        saysWhy: true,
        refunds: 1,
      })

      // Medusa's Refund of 10.00 more (a goodwill refund of what is captured and not refunded).
      const goodwill = answered(await medusaRefund(order, 1000))
      const b = await books(order)
      expect({ clear: clear(goodwill), books: b }).toEqual({ clear: true, books: agreeing(captured, b.altapay.refundedMinor) })
      expect(goodwill).toEqual({ status: 200 })
    })

    it("Cancel of a Klarna order whose coffee and shipping were captured by item: Medusa books a refund of the captured part only if AltaPay made it, and a later Refund is refused clearly", async () => {
      // Medusa cancels no order with a fulfillment (nor a shipped one's fulfillment): the coffee and shipping are captured by item, unshipped.
      const order = await createCoffeeTeaOrder(api, shop.seed, getContainer(), store.sandbox())
      expectOk(
        "Capture items",
        await api.post(`/admin/altapay/payments/${order.paymentId}/captures`, { items: [{ line_item_id: order.coffee, quantity: 2 }], shipping: true }, as())
      )
      await settled()
      const captured = store.sandbox().transaction(order.transactionId)!.capturedMinor
      expect(captured).toBeLessThan(31483)

      const cancel = answered(await api.post(`/admin/orders/${order.orderId}/cancel`, {}, as()))
      const afterCancel = await books(order)
      const t = store.sandbox().transaction(order.transactionId)!
      const { data } = await getContainer()
        .resolve(ContainerRegistrationKeys.QUERY)
        .graph({ entity: "order", fields: ["status", "payment_collections.status"], filters: { id: order.orderId } })
      const row = data[0] as { status: string; payment_collections: Array<{ status: string }> }
      const refusals = store
        .sandbox()
        .ledger()
        .filter((e) => e.operation === "refundCapturedReservation")
        .flatMap((e) => e.effects ?? [])
        .filter((f) => f.result !== "Success")
        .map((f) => `${f.type} ${f.amountMinor} ${f.result}`)
      // Cancel refunds what was captured at AltaPay, as Medusa books it (or it is refused and nothing is booked); the tea's line stays uncaptured.
      expect({
        cancel,
        order: row.status,
        books: afterCancel,
        refusals,
        teaUncaptured: t.invoiceLines!.some((l) => !l.captured && l.fields.itemId.includes(shop.seed.products.tea.sku)),
      }).toEqual({
        cancel: { status: 200 },
        order: "canceled",
        books: agreeing(captured, captured),
        refusals: [],
        teaUncaptured: true,
      })

      // Nothing is left to refund: a later Refund is a clear 4xx and moves nothing.
      const later = answered(await medusaRefund(order, 1000))
      expect({ clear: clear(later), status: later.status, books: await books(order) }).toEqual({ clear: true, status: 400, books: agreeing(captured, captured) })
      expect(sum(t.refunds.map((r) => r.amountMinor))).toBe(t.refundedMinor)
    })
  },
})
