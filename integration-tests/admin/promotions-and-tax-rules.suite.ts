/**
 * Real carts of a Danish shop (DKK, 25 % VAT, prices without VAT) whose promotions, tax rates and
 * shipping are all made through Medusa's own admin routes: product types with their own tax rates
 * (POST /admin/tax-rates with product_type rules: books 0 %, food 12 %), a product's own rate beating
 * its type's (a pen at 6 %), a second shipping profile with its own shipping option (freight, taxed
 * 12 % by a shipping_option rule) so a cart carries two shipping methods, and promotions of every
 * kind (POST /admin/promotions): buy 2 get 1 free, 5.00 off each unit, 20.00 off across, 10 % and
 * 100 % off the shipping, 10 % off the items, an automatic 15 % off jam beside a code. Then paid
 * through the store routes, captured in part (Capture items) and in full (Medusa's Capture), and
 * refunded by item (Refund items) and by amount (Medusa's Refund).
 * What a merchant relies on:
 *
 * - the order lines AltaPay got add up to the amount sent, which is Medusa's cart total and its
 *   order's total, to the øre; each item's and shipping method's lines carry its Medusa total and
 *   tax, rounded to the øre, at its own rate (0, 6, 12 or 25 %);
 * - every capture and refund moves in AltaPay what Medusa records, its lines adding up to it;
 *   refunding every unit gives back exactly what was captured;
 * - the order panel states the shipping a refund gives back as what Refund items moves for it.
 */
import { MathBN, Modules } from "@medusajs/framework/utils"
import { storeSuite } from "../../tools/test-store/store-app/runner"
import { altapayStore } from "../../tools/test-store/store-app/altapay-store"
import { toMinorUnits } from "../../src/lib/medusa-mapping/amounts"
import { decimalToMinor } from "../../src/altapay"
import { shopOrderIdFor } from "../../src/lib/medusa-mapping/shop-order-id"
import type { AltaPayPaymentData } from "../../src/lib/payment-data/data"
import { entriesAgree, expectMovesAgree, linesAgainstEntries, roundedOnce, wireLinesMinor, wireTaxMinor, type WireLine } from "../../tools/test-store/payment-books"
import { adminOfSeededStore, expectOk, orderPayments, payWithAltaPay, startSession, storeHeaders, type Api } from "../../tools/test-store/store"

const store = altapayStore()

type Wire = WireLine
type Key = "book" | "mug" | "jam" | "pen" | "chair" | "clip" | "coffee"
const sum = (xs: number[]) => xs.reduce((s, x) => s + x, 0)
const dkk = (amount: unknown) => toMinorUnits(amount as never, "DKK")
const linesMinor = (lines: Wire[]) => wireLinesMinor(lines, "DKK")
const taxMinor = (lines: Wire[]) => wireTaxMinor(lines, "DKK")
const within = roundedOnce

interface Placed {
  orderId: string
  paymentId: string
  transactionId: string
  /** Order line item ids by product key. */
  item: Partial<Record<Key, string>>
  /** Item quantities by product key. */
  quantity: Partial<Record<Key, number>>
  reservedMinor: number
  /** The cart's total (GET /store/carts/:id) just before the session, in øre. */
  cartMinor: number
  /** The last session's amount and order lines, as AltaPay got them. */
  sentMinor: number
  reserved: Wire[]
}

export default storeSuite({
  testSuite: ({ api: rawApi, getContainer }) => {
    const api = rawApi as unknown as Api
    const shop = adminOfSeededStore(api, getContainer)
    const as = shop.as
    const variant: Partial<Record<Key, string>> = {}
    const sku: Partial<Record<Key, string>> = {}
    let freightOptionId = ""
    afterEach(() => store.sandbox().faults.clear())

    beforeAll(async () => {
      const seed = shop.seed
      const post = async (step: string, url: string, body: unknown) => expectOk(step, await api.post(url, body, as()))
      const taxRegionId = await denmark()
      const books = (await post("type books", "/admin/product-types", { value: "Books" })).product_type.id as string
      const food = (await post("type food", "/admin/product-types", { value: "Food" })).product_type.id as string
      const rate = (code: string, rate: number, rules: Array<{ reference: string; reference_id: string }>) =>
        post(`tax rate ${code}`, "/admin/tax-rates", { tax_region_id: taxRegionId, rate, code, name: `${code} ${rate} %`, rules })
      await rate("BOOKS0", 0, [{ reference: "product_type", reference_id: books }])
      await rate("FOOD12", 12, [{ reference: "product_type", reference_id: food }])

      const bulky = (await post("bulky profile", "/admin/shipping-profiles", { name: "Bulky", type: "bulky" })).shipping_profile.id as string
      const zone = expectOk("seeded option", await api.get(`/admin/shipping-options/${seed.shippingOption.id}?fields=service_zone_id`, as())).shipping_option.service_zone_id
      freightOptionId = (
        await post("freight option", "/admin/shipping-options", {
          name: "Freight",
          service_zone_id: zone,
          shipping_profile_id: bulky,
          price_type: "flat",
          provider_id: "manual_manual",
          type: { label: "Freight", description: "Pallet", code: "freight" },
          prices: [{ currency_code: "dkk", amount: 99.95 }],
          rules: [
            { attribute: "enabled_in_store", value: "true", operator: "eq" },
            { attribute: "is_return", value: "false", operator: "eq" },
          ],
        })
      ).shipping_option.id
      await rate("FREIGHT12", 12, [{ reference: "shipping_option", reference_id: freightOptionId }])

      const product = async (key: Key, price: number, extra: Record<string, unknown>) => {
        const created = await post(`product ${key}`, "/admin/products", {
          title: key[0].toUpperCase() + key.slice(1),
          handle: `${key}-rules`,
          status: "published",
          shipping_profile_id: seed.shippingProfile.id,
          options: [{ title: "Size", values: ["One"] }],
          variants: [{ title: "One", sku: `P-${key.toUpperCase()}`, options: { Size: "One" }, manage_inventory: false, prices: [{ currency_code: "dkk", amount: price }] }],
          sales_channels: [{ id: seed.salesChannel.id }],
          ...extra,
        })
        variant[key] = created.product.variants[0].id
        sku[key] = created.product.variants[0].sku
        return created.product.id as string
      }
      const bookId = await product("book", 33.33, { type_id: books })
      await product("mug", 33.33, {})
      const jamId = await product("jam", 19.99, { type_id: food })
      const penId = await product("pen", 7.77, { type_id: food })
      await product("chair", 249.99, { shipping_profile_id: bulky })
      // Cheaper than 5.00 off each unit: free with EACH5.
      await product("clip", 2.5, {})
      variant.coffee = seed.products.coffee.variantId
      sku.coffee = seed.products.coffee.sku
      // The pen's own rate beats its type's 12 %.
      await rate("PEN6", 6, [{ reference: "product", reference_id: penId }])

      const promotion = (code: string, body: Record<string, unknown>, application_method: Record<string, unknown>) =>
        post(`promotion ${code}`, "/admin/promotions", { code, type: "standard", status: "active", is_automatic: false, ...body, application_method })
      const dkkOff = (value: number, allocation: string, more = {}) => ({ type: "fixed", target_type: "items", allocation, value, currency_code: "dkk", ...more })
      await promotion("TEN", {}, { type: "percentage", target_type: "items", allocation: "across", value: 10 })
      await promotion("EACH5", {}, dkkOff(5, "each", { max_quantity: 10 }))
      await promotion("ACROSS20", {}, dkkOff(20, "across"))
      // 10.00 with VAT off, on prices without VAT: each item's share is its gross.
      await promotion("GROSS10", { is_tax_inclusive: true }, dkkOff(10, "across"))
      await promotion("SHIP10", {}, { type: "percentage", target_type: "shipping_methods", allocation: "across", value: 10 })
      await promotion("FREESHIP", {}, { type: "percentage", target_type: "shipping_methods", allocation: "across", value: 100 })
      const ofBooks = [{ attribute: "items.product.id", operator: "in", values: [bookId] }]
      const oneFree = { type: "percentage", target_type: "items", allocation: "each", value: 100, max_quantity: 1, apply_to_quantity: 1, buy_rules_min_quantity: 2 }
      await promotion("BOOK3FOR2", { type: "buyget" }, { ...oneFree, buy_rules: ofBooks, target_rules: ofBooks })
      await promotion(
        "AUTOJAM",
        { is_automatic: true },
        { type: "percentage", target_type: "items", allocation: "across", value: 15, target_rules: [{ attribute: "items.product.id", operator: "in", values: [jamId] }] }
      )
    })

    const headers = () => ({ headers: storeHeaders(shop.seed) })
    const denmark = async () => (expectOk("tax regions", await api.get("/admin/tax-regions?country_code=dk", as())).tax_regions as any[]).find((r) => !r.parent_id).id as string
    /** The order as Medusa's admin shows it, with its totals and tax lines. */
    async function adminOrder(orderId: string) {
      const fields =
        "+total,+tax_total,+items.total,+items.tax_total,+items.subtotal,+items.discount_total,+shipping_methods.total,+shipping_methods.tax_total,+shipping_methods.name,*items.tax_lines,*items.adjustments,*shipping_methods.tax_lines,*shipping_methods.adjustments"
      return expectOk("order", await api.get(`/admin/orders/${orderId}?fields=${fields}`, as())).order
    }

    /** The last session AltaPay got for the payment session: its amount in øre and its lines. */
    function sentFor(paymentSessionId: string) {
      const sessions = store
        .sandbox()
        .ledger()
        .filter((e) => e.operation === "session.create" && (e.params as { order?: { orderId?: string } }).order?.orderId === shopOrderIdFor(paymentSessionId))
      const order = (sessions[sessions.length - 1].params as { order: { amount: { value: number | string }; orderLines: Wire[] } }).order
      return { sentMinor: decimalToMinor(String(order.amount.value), "DKK"), lines: order.orderLines }
    }

    /** A cart of `items` with the standard delivery (and the freight when it holds a chair), `codes` applied, before any session. */
    async function cartOf(items: Partial<Record<Key, number>>, codes: string[], province?: string) {
      const seed = shop.seed
      const address = { first_name: "Karen", last_name: "Blixen", address_1: "Strandvejen 111", city: "Rungsted", postal_code: "2960", country_code: "dk", province }
      const lines = Object.entries(items).map(([key, quantity]) => ({ variant_id: variant[key as Key], quantity }))
      const cart = { region_id: seed.region.id, sales_channel_id: seed.salesChannel.id, email: "karen@example.com", items: lines }
      const { data } = await api.post("/store/carts", { ...cart, shipping_address: address, billing_address: address }, headers())
      const cartId = data.cart.id as string
      if (Object.keys(items).some((k) => k !== "chair"))
        expectOk("standard delivery", await api.post(`/store/carts/${cartId}/shipping-methods`, { option_id: seed.shippingOption.id }, headers()))
      if (items.chair) expectOk("freight", await api.post(`/store/carts/${cartId}/shipping-methods`, { option_id: freightOptionId }, headers()))
      if (codes.length) expectOk("promotion", await api.post(`/store/carts/${cartId}/promotions`, { promo_codes: codes }, headers()))
      return cartId
    }

    /** Pays the cart on AltaPay (its latest session) and completes it. */
    async function paidAndPlaced(cartId: string, items: Partial<Record<Key, number>>): Promise<Placed> {
      const cartMinor = dkk(expectOk("cart", await api.get(`/store/carts/${cartId}`, headers())).cart.total)
      const session = await startSession(api, shop.seed, cartId)
      await payWithAltaPay(session, { sandbox: store.sandbox(), callback: false })
      const completed = await api.post(`/store/carts/${cartId}/complete`, {}, { ...headers(), validateStatus: () => true })
      expect({ status: completed.status, type: completed.data.type, error: completed.data.error?.message }).toEqual({ status: 200, type: "order", error: undefined })
      const orderId = completed.data.order.id as string
      const [payment] = await orderPayments(getContainer(), orderId)
      const transactionId = (payment.data as unknown as AltaPayPaymentData).transaction_id!
      const order = await adminOrder(orderId)
      const item: Placed["item"] = {}
      for (const key of Object.keys(items) as Key[]) item[key] = (order.items as Array<{ id: string; variant_sku: string }>).find((i) => i.variant_sku === sku[key])?.id
      const { sentMinor, lines } = sentFor(session.paymentSessionId)
      const reservedMinor = store.sandbox().transaction(transactionId)!.reservedMinor
      return { orderId, paymentId: payment.id, transactionId, item, quantity: items, reservedMinor, cartMinor, sentMinor, reserved: lines }
    }

    const placed = async (items: Partial<Record<Key, number>>, codes: string[]) => paidAndPlaced(await cartOf(items, codes), items)

    /**
     * The reservation against Medusa: lines = amount sent = reserved = cart total = order total; each
     * item's lines (goods and `discount-<sku>`) and each shipping method's (by its name) total its
     * Medusa total and tax rounded, every line at that entry's own rate.
     */
    async function expectReservationMatchesOrder(o: Placed) {
      const order = await adminOrder(o.orderId)
      const total = dkk(order.total)
      expect({ lines: linesMinor(o.reserved), sent: o.sentMinor, reserved: o.reservedMinor, cart: o.cartMinor }).toEqual({
        lines: total,
        sent: total,
        reserved: total,
        cart: total,
      })
      const ofItem = (s: string) => (l: Wire) => String(l.itemId).startsWith(s) || String(l.itemId).startsWith(`discount-${s}`)
      const entries = [
        ...(order.items as any[]).map((i) => ({ name: i.variant_sku as string, match: ofItem(i.variant_sku), medusa: i })),
        ...(order.shipping_methods as any[]).map((m) => ({ name: m.name as string, match: (l: Wire) => [m.name, `Discount: ${m.name}`].includes(l.description), medusa: m })),
      ]
      // Every line belongs to exactly one entry.
      expect(o.reserved.map((l) => entries.filter(({ match }) => match(l)).length)).toEqual(o.reserved.map(() => 1))
      expect(linesAgainstEntries(o.reserved, entries, "DKK")).toEqual(entriesAgree(entries))
      return order
    }

    const captureItems = (o: Placed, body: Record<string, unknown>) => api.post(`/admin/altapay/payments/${o.paymentId}/captures`, body, as())
    const refundItems = (o: Placed, body: Record<string, unknown>) => api.post(`/admin/altapay/payments/${o.paymentId}/refunds`, body, as())

    /** Both books agree, and Medusa's captures and refunds are AltaPay's one for one. */
    async function expectAgreement(o: Placed) {
      return expectMovesAgree(getContainer(), store.sandbox(), { ...o, currency: "DKK" })
    }

    /** What Medusa's payment still has to capture, exactly. */
    async function uncaptured(paymentId: string) {
      const [payment] = await getContainer()
        .resolve(Modules.PAYMENT)
        .listPayments({ id: paymentId }, { relations: ["captures"] })
      return Number(MathBN.sub(payment.raw_amount as never, MathBN.sum(0, ...(payment.captures ?? []).map((c) => c.raw_amount as never))).toFixed())
    }

    /**
     * One unit of `first` by Capture items (with the shipping), the rest by Medusa's Capture; then one
     * unit of `last` by Refund items and 10.01 by Medusa's Refund; books agree after each step.
     */
    async function captureInPartsAndRefund(o: Placed, first: Key, last: Key) {
      const one = expectOk(`capture 1 ${first} and the shipping`, await captureItems(o, { items: [{ line_item_id: o.item[first], quantity: 1 }], shipping: true }))
      expect(linesMinor(store.sandbox().transaction(o.transactionId)!.captures[0].orderLines as Wire[])).toBe(one.capture.amount_minor)
      await expectAgreement(o)
      expectOk("Medusa's Capture of the rest", await api.post(`/admin/payments/${o.paymentId}/capture`, { amount: await uncaptured(o.paymentId) }, as()))
      let b = await expectAgreement(o)
      expect(b.altapay.capturedMinor).toBe(o.reservedMinor)
      const refund = expectOk(`Refund items: 1 ${last}`, await refundItems(o, { items: [{ line_item_id: o.item[last], quantity: 1 }] }))
      expectOk("Medusa's Refund of 10.01", await api.post(`/admin/payments/${o.paymentId}/refund`, { amount: 10.01 }, as()))
      b = await expectAgreement(o)
      expect(b.altapay.refunds).toEqual([refund.refund.amount.minor, 1001])
      return b
    }

    it("5.00 off each unit and 20.00 off across, at once, on lines at 0, 6, 12 and 25 % (a product's own rate beating its type's): lines match Medusa item by item, books agree", async () => {
      const o = await placed({ mug: 2, jam: 3, pen: 4, book: 1 }, ["EACH5", "ACROSS20"])
      const order = await expectReservationMatchesOrder(o)
      const rates = Object.fromEntries((order.items as any[]).map((i) => [i.variant_sku, (i.tax_lines as Array<{ rate: number }>).map((t) => Number(t.rate))]))
      expect(rates).toEqual({ [sku.mug!]: [25], [sku.jam!]: [12], [sku.pen!]: [6], [sku.book!]: [0] })
      // Each item carries both promotions, the jam the automatic 15 % too.
      const codes = Object.fromEntries((order.items as any[]).map((i) => [i.variant_sku, (i.adjustments as Array<{ code: string }>).map((a) => a.code).sort()]))
      expect(codes).toEqual({
        [sku.mug!]: ["ACROSS20", "EACH5"],
        [sku.jam!]: ["ACROSS20", "AUTOJAM", "EACH5"],
        [sku.pen!]: ["ACROSS20", "EACH5"],
        [sku.book!]: ["ACROSS20", "EACH5"],
      })
      await captureInPartsAndRefund(o, "pen", "jam")
    })

    it("two shipping methods (standard at 25 %, freight at 12 % by its option's rule) with 10 % off the shipping: each method's lines at its own rate, captured and refunded in parts", async () => {
      const o = await placed({ chair: 1, jam: 2 }, ["SHIP10"])
      const order = await expectReservationMatchesOrder(o)
      const methods = Object.fromEntries(
        (order.shipping_methods as any[]).map((m) => [m.name, [Number(m.tax_lines[0]?.rate), Number(m.discount_total ?? 0) > 0 || m.adjustments.length > 0]])
      )
      expect(methods).toEqual({ "Standard delivery": [25, true], Freight: [12, true] })
      await captureInPartsAndRefund(o, "chair", "jam")
    })

    it("a province rate combined with the country's (2 % + 25, 2 % + 0 for books, 2 % + 12 on freight): lines at the summed rate match Medusa, 100.01 captured by amount (then Capture items refused), the rest by amount, refunds by item and amount", async () => {
      const province = {
        country_code: "dk",
        province_code: "dk-84",
        parent_id: await denmark(),
        default_tax_rate: { rate: 2, code: "CAP2", name: "Capital 2 %", is_combinable: true },
      }
      expectOk("province region", await api.post("/admin/tax-regions", province, as()))
      const items = { mug: 3, book: 2, jam: 1, chair: 1 }
      const o = await paidAndPlaced(await cartOf(items, ["TEN", "SHIP10"], "dk-84"), items)
      const order = await expectReservationMatchesOrder(o)
      const rates = (entries: any[], name: (e: any) => string) =>
        Object.fromEntries(entries.map((e) => [name(e), (e.tax_lines as Array<{ rate: number }>).map((t) => Number(t.rate)).sort((a, b) => a - b)]))
      expect({ items: rates(order.items, (i) => i.variant_sku), shipping: rates(order.shipping_methods, (m) => m.name) }).toEqual({
        items: { [sku.mug!]: [2, 25], [sku.book!]: [0, 2], [sku.jam!]: [2, 12], [sku.chair!]: [2, 25] },
        shipping: { "Standard delivery": [2, 25], Freight: [2, 12] },
      })
      expectOk("Medusa's Capture of 100.01", await api.post(`/admin/payments/${o.paymentId}/capture`, { amount: 100.01 }, as()))
      await expectAgreement(o)
      const state = expectOk("capture state", await api.get(`/admin/altapay/payments/${o.paymentId}/captures`, as())).capture_state
      // After a capture by amount, the rest is by amount too: said before, and refused with a 4xx that sends nothing.
      expect({ available: state.available, reason: state.reason }).toEqual({ available: false, reason: expect.stringMatching(/captured by amount/) })
      const captures = store.sandbox().transaction(o.transactionId)!.captures.length
      const chair = await captureItems(o, { items: [{ line_item_id: o.item.chair, quantity: 1 }] })
      expect({ status: chair.status, sent: store.sandbox().transaction(o.transactionId)!.captures.length - captures }).toEqual({ status: 400, sent: 0 })
      expectOk("Medusa's Capture of the rest", await api.post(`/admin/payments/${o.paymentId}/capture`, { amount: await uncaptured(o.paymentId) }, as()))
      const b = await expectAgreement(o)
      expect(b.altapay.capturedMinor).toBe(o.reservedMinor)
      const mugAndBook = [o.item.mug, o.item.book].map((line_item_id) => ({ line_item_id, quantity: 1 }))
      expectOk("Refund items: a mug and a book", await refundItems(o, { items: mugAndBook }))
      expectOk("Medusa's Refund of 33.33", await api.post(`/admin/payments/${o.paymentId}/refund`, { amount: 33.33 }, as()))
      await expectAgreement(o)
    })

    it("every unit captured one at a time with Capture items (buy 2 get 1, 5.00 each, rates 0 to 25 %): each capture's tax is its unit's share of Medusa's item tax, and they add up to the reservation", async () => {
      const o = await placed({ book: 3, jam: 2, pen: 3, mug: 1 }, ["BOOK3FOR2", "EACH5"])
      const order = await expectReservationMatchesOrder(o)
      const off: Array<[string, number, number, number]> = []
      for (const i of order.items as any[]) {
        for (let unit = 0; unit < Number(i.quantity); unit++) {
          const r = expectOk(`1 ${i.variant_sku}`, await captureItems(o, { items: [{ line_item_id: i.id, quantity: 1 }] }))
          const lines = store.sandbox().transaction(o.transactionId)!.captures.at(-1)!.orderLines as Wire[]
          const share = MathBN.div(i.tax_total, i.quantity)
          // Within one øre of the unit's exact tax: the units of one item share its rounded tax.
          if (Math.abs(taxMinor(lines) - Number(share.shiftedBy(2).toFixed())) >= 1) off.push([i.variant_sku, unit, taxMinor(lines), Number(share)])
          expect(linesMinor(lines)).toBe(r.capture.amount_minor)
        }
      }
      expectOk("the shipping", await captureItems(o, { items: [], shipping: true }))
      expect(off).toEqual([])
      const b = await expectAgreement(o)
      expect(b.altapay.capturedMinor).toBe(o.reservedMinor)
      // Every unit's capture sums, per item, to Medusa's item total rounded.
      const byItem = (order.items as any[]).map((i) => {
        const mine = b.captureLines.filter((lines) => lines.some((l) => String(l.itemId).startsWith(i.variant_sku)))
        return within(sum(mine.map(linesMinor)), i.total)
      })
      expect(byItem).toEqual((order.items as any[]).map(() => true))
    })

    it("the order panel's shipping to refund (two methods, 10 % off, VAT 25 and 12 %) states what Refund items of the shipping moves, as the capture drawer states what capturing it moves", async () => {
      const o = await placed({ chair: 1, jam: 2 }, ["SHIP10"])
      const order = await expectReservationMatchesOrder(o)
      const captureState = expectOk("capture state", await api.get(`/admin/altapay/payments/${o.paymentId}/captures`, as())).capture_state
      expectOk("Medusa's Capture", await api.post(`/admin/payments/${o.paymentId}/capture`, {}, as()))
      const view = expectOk("the order panel", await api.get(`/admin/altapay/payments/${o.paymentId}`, as())).altapay_payment
      const panel = Object.fromEntries((view.refundable.shipping as Array<{ name: string; amount: { minor: number } }>).map((m) => [m.name, m.amount.minor]))
      const refund = expectOk("Refund items: the shipping", await refundItems(o, { items: [], shipping: true }))
      // Medusa's shipping totals: 49.00 less 10 % plus 25 % VAT (55.125) and 99.95 less 10 % plus 12 % VAT (100.7496).
      const medusa = Object.fromEntries((order.shipping_methods as any[]).map((m) => [m.name, m.total]))
      expect({ capture: captureState.shipping.amount_minor, panel: sum(Object.values(panel)) }).toEqual({ capture: refund.refund.amount.minor, panel: refund.refund.amount.minor })
      expect(Object.entries(panel).map(([name, minor]) => [name, roundedOnce(minor, medusa[name])])).toEqual(Object.keys(panel).map((name) => [name, true]))
      await expectAgreement(o)

      // Free shipping: the panel offers no shipping money to refund, and asking for it sends nothing.
      const free = await placed({ chair: 1, jam: 1 }, ["FREESHIP"])
      expectOk("Medusa's Capture", await api.post(`/admin/payments/${free.paymentId}/capture`, {}, as()))
      const freeView = expectOk("the order panel", await api.get(`/admin/altapay/payments/${free.paymentId}`, as())).altapay_payment
      const offered = (freeView.refundable.shipping as Array<{ name: string; amount: { minor: number }; refunded: boolean }>).filter((m) => !m.refunded)
      const asked = await refundItems(free, { items: [], shipping: true })
      expect({
        offered: offered.map((m) => [m.name, m.amount.minor]).filter(([, minor]) => minor !== 0),
        status: asked.status,
        refunds: store
          .sandbox()
          .transaction(free.transactionId)!
          .refunds.map((r) => r.amountMinor),
      }).toEqual({ offered: [], status: 400, refunds: [] })
    })
  },
})
