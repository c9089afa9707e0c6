/**
 * A Danish shop whose prices include VAT (the region's and the currency's price preference, shipping
 * included), with awkward amounts: a mug at 99.95 (25 %), tea at 45.50 (0 %), stickers at 0.01 (25 %)
 * and shipping at 39.95. Promotions on those prices: 15 % off, and a fixed 10.00 spread across the
 * items (with VAT, as a Danish merchant enters it). Then Capture items, Medusa's Capture, Refund
 * items, a return refunded with Medusa's Refund, through Medusa's admin routes.
 * What a merchant relies on:
 *
 * - the order lines AltaPay reserves add up to the amount reserved, which is Medusa's order total
 *   rounded; each item's lines (goods, promotion) total that item's Medusa total and carry its tax
 *   rounded to the øre, at its own tax rate (25 or 0);
 * - every capture and refund moves the same øre in AltaPay as Medusa records, each request's lines add
 *   up to its amount, and item captures and refunds add up to what was captured, to the øre;
 * - the order ends settled: nothing due or owed, as Medusa's admin computes it.
 */
import { MathBN, Modules } from "@medusajs/framework/utils"
import { createProductsWorkflow } from "@medusajs/medusa/core-flows"
import { storeSuite } from "../../tools/test-store/store-app/runner"
import { altapayStore } from "../../tools/test-store/store-app/altapay-store"
import { toMinorUnits } from "../../src/lib/medusa-mapping/amounts"
import { decimalToMinor } from "../../src/altapay"
import { shopOrderIdFor } from "../../src/lib/medusa-mapping/shop-order-id"
import type { AltaPayPaymentData } from "../../src/lib/payment-data/data"
import { entriesAgree, expectMovesAgree, linesAgainstEntries, type WireLine } from "../../tools/test-store/payment-books"
import { adminOfSeededStore, expectOk, orderPayments, payWithAltaPay, receivedReturn, startSession, storeHeaders, type Api } from "../../tools/test-store/store"

const store = altapayStore()

const sum = (xs: number[]) => xs.reduce((s, x) => s + x, 0)
const dkk = (amount: unknown) => toMinorUnits(amount as never, "DKK")
type Wire = WireLine
/** An AltaPay order line's total in øre: quantity × unit price, plus its tax. */
const lineMinor = (l: Wire) => decimalToMinor(String(l.unitPrice), "DKK") * Number(l.quantity) + decimalToMinor(String(l.taxAmount ?? 0), "DKK")
const linesMinor = (lines: Wire[]) => sum(lines.map(lineMinor))

interface Placed {
  orderId: string
  paymentId: string
  transactionId: string
  /** Item ids by key. */
  item: Record<"mug" | "tea" | "sticker", string>
  reservedMinor: number
  /** The session's order lines, as AltaPay got them. */
  reserved: Wire[]
}

export default storeSuite({
  testSuite: ({ api: rawApi, getContainer }) => {
    const api = rawApi as unknown as Api
    const shop = adminOfSeededStore(api, getContainer, { currency: "dkk", taxInclusive: true, reducedTaxRate: 0, shippingAmount: 39.95 })
    const as = shop.as
    const sku: Record<"mug" | "tea" | "sticker", string> = { mug: "", tea: "", sticker: "" }
    const variant: Record<"mug" | "tea" | "sticker", string> = { mug: "", tea: "", sticker: "" }
    afterEach(() => store.sandbox().faults.clear())

    beforeAll(async () => {
      const seed = shop.seed
      const product = (key: "mug" | "sticker", title: string, price: number) => ({
        title,
        handle: `${key}-incl`,
        status: "published" as const,
        shipping_profile_id: seed.shippingProfile.id,
        options: [{ title: "Size", values: ["One"] }],
        variants: [{ title: "One", sku: `${key.toUpperCase()}-INCL`, options: { Size: "One" }, manage_inventory: false, prices: [{ currency_code: "dkk", amount: price }] }],
        sales_channels: [{ id: seed.salesChannel.id }],
      })
      const { result } = await createProductsWorkflow(getContainer()).run({ input: { products: [product("mug", "Mug", 99.95), product("sticker", "Sticker", 0.01)] } })
      for (const p of result) {
        const key = p.handle === "mug-incl" ? "mug" : "sticker"
        variant[key] = p.variants[0].id
        sku[key] = p.variants[0].sku ?? ""
      }
      variant.tea = seed.products.tea.variantId
      sku.tea = seed.products.tea.sku
      const promotion = (code: string, application_method: Record<string, unknown>, is_tax_inclusive: boolean) =>
        api.post("/admin/promotions", { code, type: "standard", status: "active", is_automatic: false, is_tax_inclusive, application_method }, as())
      expectOk("15 % off", await promotion("PCT15", { type: "percentage", target_type: "items", allocation: "across", value: 15 }, true))
      expectOk("10.00 off across, VAT incl.", await promotion("FIXED10", { type: "fixed", target_type: "items", allocation: "across", value: 10, currency_code: "dkk" }, true))
      expectOk("10.00 off across, VAT excl.", await promotion("FIXED10NET", { type: "fixed", target_type: "items", allocation: "across", value: 10, currency_code: "dkk" }, false))
      expectOk(
        "4.99 off shipping, VAT incl.",
        await promotion("SHIP499", { type: "fixed", target_type: "shipping_methods", allocation: "across", value: 4.99, currency_code: "dkk" }, true)
      )
      expectOk("33 % off shipping", await promotion("SHIP33", { type: "percentage", target_type: "shipping_methods", allocation: "across", value: 33 }, true))
    })

    /** The order as Medusa's admin shows it, with its totals. */
    async function adminOrder(orderId: string) {
      const fields =
        "+total,+tax_total,+summary,+items.total,+items.tax_total,+items.subtotal,+items.discount_total,+shipping_methods.total,+shipping_methods.tax_total,*items.tax_lines,*shipping_methods.tax_lines"
      return expectOk("order", await api.get(`/admin/orders/${orderId}?fields=${fields}`, as())).order
    }

    /** Checkout of `items` with `codes` (applied once the cart has its shipping), paid at AltaPay, completed. */
    async function placed(items: Partial<Record<"mug" | "tea" | "sticker", number>>, codes: string[] = []): Promise<Placed> {
      const seed = shop.seed
      const headers = { headers: storeHeaders(seed) }
      const address = { first_name: "Karen", last_name: "Blixen", address_1: "Strandvejen 111", city: "Rungsted", postal_code: "2960", country_code: "dk" }
      const { data } = await api.post(
        "/store/carts",
        {
          region_id: seed.region.id,
          sales_channel_id: seed.salesChannel.id,
          email: "karen@example.com",
          items: Object.entries(items).map(([key, quantity]) => ({ variant_id: variant[key as "mug"], quantity })),
          shipping_address: address,
          billing_address: address,
        },
        headers
      )
      const cartId = data.cart.id as string
      expectOk("shipping", await api.post(`/store/carts/${cartId}/shipping-methods`, { option_id: seed.shippingOption.id }, headers))
      if (codes.length) expectOk("promotion", await api.post(`/store/carts/${cartId}/promotions`, { promo_codes: codes }, headers))
      const session = await startSession(api, seed, cartId)
      await payWithAltaPay(session, { sandbox: store.sandbox(), callback: false })
      const completed = await api.post(`/store/carts/${cartId}/complete`, {}, headers)
      expect(completed.data.type).toBe("order")
      const orderId = completed.data.order.id as string
      const [payment] = await orderPayments(getContainer(), orderId)
      const transactionId = (payment.data as unknown as AltaPayPaymentData).transaction_id!
      const sessions = store
        .sandbox()
        .ledger()
        .filter((e) => e.operation === "session.create" && (e.params as { order?: { orderId?: string } }).order?.orderId === shopOrderIdFor(session.paymentSessionId))
      const sent = (sessions[sessions.length - 1].params as { order: { amount: { value: number }; orderLines: Wire[] } }).order
      const order = await adminOrder(orderId)
      const itemId = (key: "mug" | "tea" | "sticker") => (order.items as Array<{ id: string; variant_sku: string }>).find((i) => i.variant_sku === sku[key])?.id ?? ""
      return {
        orderId,
        paymentId: payment.id,
        transactionId,
        item: { mug: itemId("mug"), tea: itemId("tea"), sticker: itemId("sticker") },
        reservedMinor: store.sandbox().transaction(transactionId)!.reservedMinor,
        reserved: sent.orderLines,
      }
    }

    /** The reservation against Medusa's order: its lines add up to it, and each item's lines carry that item's total and tax at its rate. */
    async function expectReservationMatchesOrder(o: Placed) {
      const order = await adminOrder(o.orderId)
      expect({ reserved: o.reservedMinor, lines: linesMinor(o.reserved) }).toEqual({ reserved: dkk(order.total), lines: dkk(order.total) })
      // An item's lines are its goods line and `discount-<sku>`; the one shipping method's are the rest (the session named the cart's method).
      const items = (order.items as any[]).map((i) => ({
        name: i.variant_sku as string,
        match: (l: Wire) => [i.variant_sku, `discount-${i.variant_sku}`].includes(String(l.itemId)),
        medusa: i,
      }))
      const ofNoItem = (l: Wire) => !items.some(({ match }) => match(l))
      const entries = [...items, ...(order.shipping_methods as any[]).map((m) => ({ name: "shipping", match: ofNoItem, medusa: m }))]
      expect(o.reserved.filter(ofNoItem).map((l) => l.goodsType)).toEqual(expect.arrayContaining(["shipment"]))
      expect(linesAgainstEntries(o.reserved, entries, "DKK")).toEqual(entriesAgree(entries))
      return order
    }

    /** Both books agree (expectBooksAgree), and Medusa's captures and refunds are AltaPay's one for one. */
    async function expectAgreement(o: Placed) {
      return expectMovesAgree(getContainer(), store.sandbox(), { ...o, currency: "DKK" })
    }

    const captureItems = (o: Placed, body: Record<string, unknown>) => api.post(`/admin/altapay/payments/${o.paymentId}/captures`, body, as())
    const refundItems = (o: Placed, body: Record<string, unknown>) => api.post(`/admin/altapay/payments/${o.paymentId}/refunds`, body, as())

    /** What the admin shows as due (positive) or owed (negative): Medusa's pending difference. */
    async function pendingDifference(orderId: string): Promise<number> {
      const { data } = await api.get(`/admin/orders/${orderId}?fields=total,credit_line_total,+summary,*credit_lines`, as())
      return Number(data.order.summary.pending_difference)
    }

    async function fulfilAll(o: Placed) {
      const order = await adminOrder(o.orderId)
      const items = (order.items as Array<{ id: string; quantity: number }>).map((i) => ({ id: i.id, quantity: Number(i.quantity) }))
      expectOk("fulfillment", await api.post(`/admin/orders/${o.orderId}/fulfillments`, { items, location_id: shop.seed.stockLocation.id }, as()))
    }

    /** A return of `quantity` of `itemId`, requested, received and confirmed through Medusa's return routes. */
    const returnReceived = (o: Placed, itemId: string, quantity: number) => receivedReturn(api, shop, o.orderId, itemId, quantity)

    it("the reservation matches Medusa's order item by item, whatever the promotions on VAT-inclusive prices: fixed with and without VAT, stacked, larger than the items", async () => {
      const carts: Array<[Partial<Record<"mug" | "tea" | "sticker", number>>, string[]]> = [
        [{ mug: 3, tea: 2, sticker: 3 }, ["FIXED10"]],
        [{ mug: 3, tea: 2, sticker: 3 }, ["FIXED10NET"]],
        [{ mug: 1, tea: 1, sticker: 7 }, ["PCT15", "FIXED10"]],
        [{ mug: 2, sticker: 1 }, ["PCT15", "FIXED10NET"]],
        [{ sticker: 3 }, ["FIXED10"]],
        [{ tea: 1, sticker: 1 }, ["FIXED10NET"]],
        [{ mug: 1, tea: 1 }, ["SHIP499", "PCT15"]],
        [{ tea: 3 }, ["SHIP33"]],
      ]
      for (const [items, codes] of carts) {
        const o = await placed(items, codes)
        await expectReservationMatchesOrder(o)
      }
    })

    it("15 % off 3 mugs (25 %), 2 teas (0 %) and 3 stickers of 0.01: four Capture items add up to the reservation, each as Medusa records it, and Refund items give back the captured lines", async () => {
      const o = await placed({ mug: 3, tea: 2, sticker: 3 }, ["PCT15"])
      const order = await expectReservationMatchesOrder(o)
      // 254.8725 + 77.35 + 0.0255 + 39.95 = 372.198: AltaPay reserves 372.20.
      expect({ total: String(order.total), reserved: o.reservedMinor }).toEqual({ total: "372.198", reserved: 37220 })

      const captured = [
        expectOk("1 mug", await captureItems(o, { items: [{ line_item_id: o.item.mug, quantity: 1 }] })),
        expectOk("1 tea and the shipping", await captureItems(o, { items: [{ line_item_id: o.item.tea, quantity: 1 }], shipping: true })),
        expectOk("1 sticker", await captureItems(o, { items: [{ line_item_id: o.item.sticker, quantity: 1 }] })),
        expectOk(
          "the rest",
          await captureItems(o, {
            items: [
              { line_item_id: o.item.mug, quantity: 2 },
              { line_item_id: o.item.tea, quantity: 1 },
              { line_item_id: o.item.sticker, quantity: 2 },
            ],
          })
        ),
      ].map((r) => r.capture.amount_minor)
      // A mug: 79.96 + 19.99 VAT less 11.99 + 3.00 of the promotion; the promotion's øre the quantity does not divide go with the last units.
      expect(captured).toEqual([8496, 7862, 1, 20861])
      let b = await expectAgreement(o)
      expect(b.altapay.capturedMinor).toBe(o.reservedMinor)
      // Each capture's tax is the tax of its items at their own rates: the tea's lines carry none.
      expect(
        b.captureLines[1].filter((l) => String(l.itemId).startsWith(sku.tea) || String(l.itemId).startsWith(`discount-${sku.tea}`)).map((l) => [l.taxPercent, l.taxAmount])
      ).toEqual([
        ["0", "0.00"],
        ["0", "0.00"],
      ])

      const refunded = [
        expectOk("Refund items: 1 mug", await refundItems(o, { items: [{ line_item_id: o.item.mug, quantity: 1 }] })),
        expectOk("Refund items: 1 sticker", await refundItems(o, { items: [{ line_item_id: o.item.sticker, quantity: 1 }] })),
        expectOk("Refund items: the shipping", await refundItems(o, { shipping: true })),
        expectOk("Refund items: 2 teas", await refundItems(o, { items: [{ line_item_id: o.item.tea, quantity: 2 }] })),
        expectOk(
          "Refund items: the rest",
          await refundItems(o, {
            items: [
              { line_item_id: o.item.mug, quantity: 2 },
              { line_item_id: o.item.sticker, quantity: 2 },
            ],
          })
        ),
      ].map((r) => r.refund.amount.minor)
      b = await expectAgreement(o)
      // Refunds of a fully captured order give back what its captures took, item for item.
      expect(refunded).toEqual([8496, 1, 3995, 7735, 16993])
      expect(b.altapay.refundedMinor).toBe(37220)
    })

    it("a returned mug (10.00 off across, VAT included) refunded with Medusa's Refund of what the order owes: AltaPay refunds the same øre and nothing is left owed", async () => {
      const o = await placed({ mug: 3, tea: 2 }, ["FIXED10"])
      const order = await expectReservationMatchesOrder(o)
      expectOk("capture", await api.post(`/admin/payments/${o.paymentId}/capture`, {}, as()))
      await fulfilAll(o)
      await returnReceived(o, o.item.mug, 1)
      const mug = (order.items as any[]).find((i) => i.id === o.item.mug)
      const owed = -(await pendingDifference(o.orderId))
      expect(owed).toBeCloseTo(Number(mug.total) / 3, 6)
      expectOk("Medusa's Refund", await api.post(`/admin/payments/${o.paymentId}/refund`, { amount: dkk(owed) / 100 }, as()))
      const b = await expectAgreement(o)
      expect(b.altapay.refunds).toEqual([dkk(owed)])
      // An amount, not items: one line whose tax is its net at the line's (blended) rate.
      const [line] = b.refundLines[0]
      expect(lineMinor(line)).toBe(dkk(owed))
      expect(Math.abs(decimalToMinor(String(line.taxAmount), "DKK") - (decimalToMinor(String(line.unitPrice), "DKK") * Number(line.taxPercent)) / 100)).toBeLessThanOrEqual(1)
      expect(Math.abs(await pendingDifference(o.orderId))).toBeLessThan(0.005)
    })

    it("a mug captured alone with Capture items and then refunded with Refund items comes back at what its capture took, and an uncaptured tea is refused", async () => {
      const o = await placed({ mug: 3, tea: 2 }, ["PCT15"])
      const capture = expectOk("1 mug", await captureItems(o, { items: [{ line_item_id: o.item.mug, quantity: 1 }] }))
      expect(capture.capture.amount_minor).toBe(8496)
      // The order panel offers only what was captured for Refund items.
      const view = expectOk("the order panel", await api.get(`/admin/altapay/payments/${o.paymentId}`, as())).altapay_payment
      const refundable = Object.fromEntries(view.refundable.items.map((i: { line_item_id: string; refundable_quantity: number }) => [i.line_item_id, i.refundable_quantity]))
      expect(refundable).toEqual({ [o.item.mug]: 1, [o.item.tea]: 0 })
      const mug = await refundItems(o, { items: [{ line_item_id: o.item.mug, quantity: 1 }] })
      const refundsBefore = store.sandbox().transaction(o.transactionId)!.refunds.length
      const tea = await refundItems(o, { items: [{ line_item_id: o.item.tea, quantity: 1 }] })
      const t = store.sandbox().transaction(o.transactionId)!
      // The mug's capture took 79.96 + 19.99 less 11.99 + 3.00 (84.96): a refund of that mug gives back the same. No tea was captured.
      expect({
        mug: { status: mug.status, refunded: mug.data?.refund?.amount?.minor },
        tea: { status: tea.status, sentToAltaPay: t.refunds.length - refundsBefore },
      }).toEqual({ mug: { status: 200, refunded: 8496 }, tea: { status: 400, sentToAltaPay: 0 } })
      await expectAgreement(o)
    })

    it("15 % and 10.00 (VAT excluded) off, stacked: a mug by Capture items, the rest by Medusa's Capture, then every unit refunded one by one lands on exactly what was captured", async () => {
      const o = await placed({ mug: 3, tea: 2, sticker: 7 }, ["PCT15", "FIXED10NET"])
      await expectReservationMatchesOrder(o)
      expectOk("1 mug", await captureItems(o, { items: [{ line_item_id: o.item.mug, quantity: 1 }] }))
      const [payment] = await getContainer()
        .resolve(Modules.PAYMENT)
        .listPayments({ id: o.paymentId }, { relations: ["captures"] })
      const rest = MathBN.sub(payment.raw_amount as never, MathBN.sum(0, ...(payment.captures ?? []).map((c) => c.raw_amount as never)))
      expectOk("Medusa's Capture of the rest", await api.post(`/admin/payments/${o.paymentId}/capture`, { amount: Number(rest.toFixed()) }, as()))
      let b = await expectAgreement(o)
      expect(b.altapay.capturedMinor).toBe(o.reservedMinor)
      // The rest is the remaining items' own reserved lines.
      expect(linesMinor(b.captureLines[1])).toBe(o.reservedMinor - b.altapay.captures[0])

      const units: Array<[string, Record<string, unknown>]> = [
        ["sticker", { items: [{ line_item_id: o.item.sticker, quantity: 1 }] }],
        ["tea", { items: [{ line_item_id: o.item.tea, quantity: 1 }] }],
        ["mug", { items: [{ line_item_id: o.item.mug, quantity: 1 }] }],
        ["3 stickers", { items: [{ line_item_id: o.item.sticker, quantity: 3 }] }],
        ["shipping", { shipping: true }],
        ["mug", { items: [{ line_item_id: o.item.mug, quantity: 1 }] }],
        ["tea", { items: [{ line_item_id: o.item.tea, quantity: 1 }] }],
        ["3 stickers", { items: [{ line_item_id: o.item.sticker, quantity: 3 }] }],
        ["mug", { items: [{ line_item_id: o.item.mug, quantity: 1 }] }],
      ]
      const refunded: Array<[string, number, string]> = []
      for (const [name, body] of units) {
        const r = await refundItems(o, body)
        refunded.push([name, r.status, r.data?.message ?? ""])
      }
      expect(refunded.filter(([, status]) => status !== 200)).toEqual([])
      b = await expectAgreement(o)
      expect(b.altapay.refundedMinor).toBe(b.altapay.capturedMinor)
      // Each refund's lines carry the tax of their item's own rate: none on the tea's.
      const teaLines = b.refundLines.flat().filter((l) => String(l.itemId).includes(sku.tea))
      expect(teaLines.map((l) => l.taxAmount)).toEqual(teaLines.map(() => "0.00"))
    })

    it("shipping with VAT and 33 % off it, beside a tea at 0 %: Capture items of the shipping alone, Refund items of the shipping, both its own lines at 25 %", async () => {
      const o = await placed({ mug: 1, tea: 3 }, ["SHIP33"])
      const order = await expectReservationMatchesOrder(o)
      const shipping = (order.shipping_methods as any[])[0]
      const captured = expectOk("the shipping", await captureItems(o, { items: [], shipping: true }))
      expect(captured.capture.amount_minor).toBe(dkk(shipping.total))
      // Captured by item, not in full: the shipping comes back as its capture took it.
      const refund = expectOk("Refund items: the shipping", await refundItems(o, { items: [], shipping: true }))
      expectOk(
        "the rest",
        await captureItems(o, {
          items: [
            { line_item_id: o.item.mug, quantity: 1 },
            { line_item_id: o.item.tea, quantity: 3 },
          ],
        })
      )
      const b = await expectAgreement(o)
      expect(refund.refund.amount.minor).toBe(captured.capture.amount_minor)
      expect(b.refundLines[0].map((l) => l.taxPercent)).toEqual(b.refundLines[0].map(() => "25"))
      // The whole shipping back: the same net and VAT its capture took (26.7665 with 5.3533 VAT: 31.96 + 7.99 less 10.54 + 2.64, VAT 5.35).
      const netAndTax = (lines: Wire[]) => lines.map((l) => [l.goodsType, l.quantity, l.unitPrice, l.taxAmount])
      expect(netAndTax(b.refundLines[0])).toEqual(netAndTax(b.captureLines[0]))
    })
  },
})
