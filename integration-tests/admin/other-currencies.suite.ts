/**
 * Money after checkout in other currencies and price shapes, through Medusa's admin routes: a shop
 * in Japan (JPY, no decimals, 10 % tax) and one in Germany (EUR, 19 %), with a FIXED-amount
 * promotion made through POST /admin/promotions (across the items). Then Medusa's own Capture
 * (POST /admin/payments/:id/capture) in part and in full, the plugin's Refund items
 * (POST /admin/altapay/payments/:id/refunds) and Medusa's Refund (POST /admin/payments/:id/refund)
 * with odd amounts.
 * What a merchant relies on:
 *
 * - every request AltaPay gets (session, capture, refund) has order lines that add up to its amount
 *   exactly, each line in whole minor units (whole yen: JPY has no decimals);
 * - AltaPay's captured and refunded totals (the sandbox's books) equal Medusa's captures and
 *   refunds (rounded to the minor unit) and the order's booked transactions;
 * - refunding every unit brings AltaPay to exactly what it captured: no yen or cent left, none over;
 * - a request the plugin refuses is a 4xx that says why, and nothing reaches AltaPay.
 *
 * Japan: coffee 1,980, tea 735, shipping 700, plus 10 % tax. Germany: prices include 19 % VAT (coffee 12.99,
 * tea 6.49, shipping 4.90).
 */
import { ContainerRegistrationKeys, MathBN, Modules } from "@medusajs/framework/utils"
import { storeSuite } from "../../tools/test-store/store-app/runner"
import { expectBooksAgree, wireLinesMinor, type WireLine } from "../../tools/test-store/payment-books"
import { altapayStore } from "../../tools/test-store/store-app/altapay-store"
import { toMinorUnits } from "../../src/lib/medusa-mapping/amounts"
import { decimalToMinor } from "../../src/altapay"
import { shopOrderIdFor } from "../../src/lib/medusa-mapping/shop-order-id"
import type { AltaPayPaymentData } from "../../src/lib/payment-data/data"
import {
  createAdminUser,
  createCart,
  orderPayments,
  payWithAltaPay,
  seedStore,
  startSession,
  storeHeaders,
  type Api,
  type ApiResponse,
  type CreateCartOptions,
  type SeededStore,
  expectOk,
} from "../../tools/test-store/store"

const store = altapayStore()

type Wire = WireLine

const linesMinor = wireLinesMinor

interface Placed {
  orderId: string
  paymentId: string
  transactionId: string
  currency: string
  /** Line item ids by product key. */
  item: { coffee: string; tea: string }
  /** Medusa's exact order total and AltaPay's reservation, in minor units. */
  /** Medusa's order total, exact, as decimal text. */
  totalExact: string
  reservedMinor: number
}

export default storeSuite({
  testSuite: ({ api: rawApi, getContainer }) => {
    const api = rawApi as unknown as Api
    let headers: Record<string, string>
    let jpy: SeededStore
    let eur: SeededStore
    const as = () => ({ headers, validateStatus: () => true })
    afterEach(() => store.sandbox().faults.clear())

    /** A fixed-amount promotion made as the admin makes one. */
    async function promotion(code: string, currency: string, applicationMethod: Record<string, unknown>, taxInclusive = false) {
      const r = await api.post(
        "/admin/promotions",
        {
          code,
          type: "standard",
          status: "active",
          is_automatic: false,
          is_tax_inclusive: taxInclusive,
          application_method: { type: "fixed", currency_code: currency, ...applicationMethod },
        },
        as()
      )
      expect({ code, status: r.status, message: r.data?.message }).toEqual({ code, status: 200, message: undefined })
    }

    beforeAll(async () => {
      headers = (await createAdminUser(api, getContainer())).headers
      jpy = await seedStore(getContainer(), { currency: "jpy" })
      eur = await seedStore(getContainer(), { currency: "eur" })
      // German prices include VAT: set as the admin does, on the region and on the currency's price preference (Medusa made one for EUR).
      expectOk("region with VAT in prices", await api.post(`/admin/regions/${eur.region.id}`, { is_tax_inclusive: true }, as()))
      const prefs = expectOk("price preferences", await api.get("/admin/price-preferences?attribute=currency_code&value=eur", as())).price_preferences as Array<{ id: string }>
      if (prefs.length) expectOk("EUR prices with VAT", await api.post(`/admin/price-preferences/${prefs[0].id}`, { is_tax_inclusive: true }, as()))
      else expectOk("EUR prices with VAT", await api.post("/admin/price-preferences", { attribute: "currency_code", value: "eur", is_tax_inclusive: true }, as()))
      await promotion("YEN100", "jpy", { target_type: "items", allocation: "across", value: 100 })
    })

    /** Checkout with `code`, paid at AltaPay; the session AltaPay got is checked: its lines total its amount in whole minor units. */
    async function placed(seed: SeededStore, code: string | undefined, items: CreateCartOptions["items"]): Promise<Placed> {
      const currency = seed.currency.toUpperCase()
      // As a storefront's promo field does: the code is applied once the cart has its shipping.
      const cart = await createCart(api, seed, { items, promotion: false })
      if (code) {
        const applied = await api.post(`/store/carts/${cart.id}/promotions`, { promo_codes: [code] }, { headers: storeHeaders(seed) })
        expect((applied.data.cart?.promotions ?? []).map((p: { code: string }) => p.code)).toEqual([code])
      }
      const session = await startSession(api, seed, cart.id)
      await payWithAltaPay(session, { sandbox: store.sandbox(), callback: false })
      const completed = await api.post(`/store/carts/${cart.id}/complete`, {}, { headers: storeHeaders(seed) })
      expect(completed.data.type).toBe("order")
      const order = { orderId: completed.data.order.id as string, paymentId: (await orderPayments(getContainer(), completed.data.order.id))[0].id, session }
      const sessions = store
        .sandbox()
        .ledger()
        .filter((e) => e.operation === "session.create" && (e.params as { order?: { orderId?: string } }).order?.orderId === shopOrderIdFor(order.session.paymentSessionId))
      const sent = (sessions[sessions.length - 1].params as { order: { amount: { value: number; currency: string }; orderLines: Wire[] } }).order
      const amountMinor = decimalToMinor(String(sent.amount.value), currency)
      expect({ currency: sent.amount.currency, linesMinor: linesMinor(sent.orderLines, currency) }).toEqual({ currency, linesMinor: amountMinor })
      const { data } = await getContainer()
        .resolve(ContainerRegistrationKeys.QUERY)
        .graph({ entity: "order", fields: ["total", "items.id", "items.variant_sku", "payment_collections.payments.data"], filters: { id: order.orderId } })
      const row = data[0] as { total: unknown; items: Array<{ id: string; variant_sku: string }>; payment_collections: Array<{ payments: Array<{ data: AltaPayPaymentData }> }> }
      const id = (key: "coffee" | "tea") => row.items.find((i) => i.variant_sku === seed.products[key].sku)?.id ?? ""
      const transactionId = row.payment_collections[0].payments[0].data.transaction_id!
      const reservedMinor = store.sandbox().transaction(transactionId)!.reservedMinor
      // AltaPay reserves Medusa's exact total rounded half up.
      expect(reservedMinor).toBe(toMinorUnits(row.total as never, currency))
      expect(reservedMinor).toBe(amountMinor)
      return {
        orderId: order.orderId,
        paymentId: order.paymentId,
        transactionId,
        currency,
        item: { coffee: id("coffee"), tea: id("tea") },
        totalExact: MathBN.convert(row.total as never).toFixed(),
        reservedMinor,
      }
    }

    /** Both books agree (expectBooksAgree), and every capture and refund moved money. */
    async function expectAgreement(o: Placed) {
      const b = await expectBooksAgree(getContainer(), store.sandbox(), o)
      for (const x of [...b.altapay.captures, ...b.altapay.refunds]) expect(x).toBeGreaterThan(0)
      return b
    }

    /** Gateway money requests for the order's transaction (each capture or refund AltaPay received). */
    const moneyRequests = (o: Placed) =>
      store
        .sandbox()
        .ledger()
        .filter((e) => ["captureReservation", "refundCapturedReservation"].includes(e.operation) && (e.params as { transaction_id?: string }).transaction_id === o.transactionId)
        .length

    /** A request the plugin or Medusa must refuse: a 4xx with a message, and nothing sent to AltaPay. */
    async function refusedAndNothingSent(o: Placed, step: string, request: () => Promise<ApiResponse>, message: RegExp) {
      const before = moneyRequests(o)
      const r = await request()
      expect({ step, status: r.status >= 400 && r.status < 500 ? "4xx" : r.status, message: message.test(String(r.data?.message)) ? "says why" : r.data?.message }).toEqual({
        step,
        status: "4xx",
        message: "says why",
      })
      expect(moneyRequests(o)).toBe(before)
    }

    const capture = (o: Placed, amount?: number) => api.post(`/admin/payments/${o.paymentId}/capture`, amount === undefined ? {} : { amount }, as())
    /** Medusa's Capture of what is left (Medusa's own route captures the whole amount when none is given, refused after a part). */
    async function captureRest(o: Placed) {
      const [payment] = await getContainer()
        .resolve(Modules.PAYMENT)
        .listPayments({ id: o.paymentId }, { relations: ["captures"] })
      const rest = MathBN.sub(payment.raw_amount as never, MathBN.sum(0, ...(payment.captures ?? []).map((c) => c.raw_amount as never)))
      return capture(o, Number(rest.toFixed()))
    }
    const refund = (o: Placed, amount: number) => api.post(`/admin/payments/${o.paymentId}/refund`, { amount }, as())
    const refundItems = (o: Placed, body: Record<string, unknown>) => api.post(`/admin/altapay/payments/${o.paymentId}/refunds`, body, as())
    const captureItems = (o: Placed, body: Record<string, unknown>) => api.post(`/admin/altapay/payments/${o.paymentId}/captures`, body, as())

    describe("Japan (JPY, whole yen)", () => {
      it("a cart of exactly half a yen (100 yen off across 3 coffee and a tea: 8,002.5) can be paid: AltaPay reserves Medusa's amount rounded, 8,003", async () => {
        // (5,940 + 735 - 100) × 1.1 + 700 × 1.1 = 8,002.5: Medusa's payment collection asks 8,002.5, so AltaPay must reserve 8,003.
        const o = await placed(jpy, "YEN100", [
          { product: "coffee", quantity: 3 },
          { product: "tea", quantity: 1 },
        ])
        expect(MathBN.convert(o.totalExact).toFixed(6)).toBe("8002.500000")
        expect(o.reservedMinor).toBe(8003)
        expectOk("capture", await capture(o))
        await expectAgreement(o)
      })

      it("100 yen off across 3 coffee and 2 tea: Medusa's part and final capture, then every unit refunded by item, lands on exactly what was captured", async () => {
        const o = await placed(jpy, "YEN100", [
          { product: "coffee", quantity: 3 },
          { product: "tea", quantity: 2 },
        ])
        // (5,940 + 1,470 - 100) × 1.1 + 700 × 1.1 = 8,041 + 770 = 8,811.
        expect(o.reservedMinor).toBe(8811)

        expectOk("capture in part", await capture(o, 3333))
        expectOk("capture the rest", await captureRest(o))
        let b = await expectAgreement(o)
        expect(b.altapay).toMatchObject({ capturedMinor: 8811, captures: [3333, 5478] })

        const steps: Array<[string, Record<string, unknown>]> = [
          ["coffee 1", { items: [{ line_item_id: o.item.coffee, quantity: 1 }] }],
          ["coffee 2", { items: [{ line_item_id: o.item.coffee, quantity: 1 }] }],
          ["tea", { items: [{ line_item_id: o.item.tea, quantity: 1 }] }],
          ["shipping", { shipping: true }],
          ["tea 2", { items: [{ line_item_id: o.item.tea, quantity: 1 }] }],
          ["coffee 3", { items: [{ line_item_id: o.item.coffee, quantity: 1 }] }],
        ]
        for (const [step, body] of steps) expectOk(`Refund items: ${step}`, await refundItems(o, body))
        b = await expectAgreement(o)
        expect(b.altapay.refundedMinor).toBe(8811)
        expect(b.altapay.refunds).toHaveLength(6)
        // The shipping's own lines: 700 + 70 tax.
        expect(b.altapay.refunds[3]).toBe(770)

        await refusedAndNothingSent(o, "one more coffee", () => refundItems(o, steps[0][1]), /still refundable|Nothing is left/)
        await refusedAndNothingSent(o, "Medusa's Refund of 1 yen more", () => refund(o, 1), /refund more|refundable/)
      })

      it("refusals in yen: a capture beyond the reservation and a refund before any capture are 4xx, and nothing reaches AltaPay", async () => {
        const o = await placed(jpy, "YEN100", [{ product: "coffee", quantity: 3 }])
        await refusedAndNothingSent(o, "Refund items before capture", () => refundItems(o, { items: [{ line_item_id: o.item.coffee, quantity: 1 }] }), /not captured/)
        await refusedAndNothingSent(o, "capture beyond the reservation", () => capture(o, Number(MathBN.add(o.totalExact, 1).toFixed())), /more than/)
        await refusedAndNothingSent(o, "Capture items of 4 coffees", () => captureItems(o, { items: [{ line_item_id: o.item.coffee, quantity: 4 }] }), /.+/)
        expectOk("capture in full", await capture(o))
        await expectAgreement(o)
      })
    })

    describe("Germany (EUR, prices with 19 % VAT)", () => {
      it("Medusa's Refund in odd parts (0.004, 0.005, 1.111, the rest): AltaPay moves whole cents as a running total and ends at what it captured", async () => {
        const o = await placed(eur, undefined, [{ product: "tea", quantity: 3 }])
        // 19.47 + 4.90 = 24.37, VAT included.
        expect(o.reservedMinor).toBe(2437)
        expectOk("capture", await capture(o))
        await refusedAndNothingSent(o, "0.004", () => refund(o, 0.004), /rounds to no money/)
        expectOk("0.005", await refund(o, 0.005))
        expectOk("1.111", await refund(o, 1.111))
        const rest = Number(MathBN.sub(o.totalExact, 1.116).toFixed())
        expectOk("the rest", await refund(o, rest))
        const b = await expectAgreement(o)
        expect(b.altapay.refunds).toEqual([1, 111, 2325])
        expect(b.altapay.refundedMinor).toBe(2437)
      })
    })
  },
})
