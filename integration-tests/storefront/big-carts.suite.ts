/**
 * Big carts and big numbers through Medusa's real routes: products made with POST /admin/products,
 * carts through the store API, the AltaPay session through the plugin's POST
 * /store/carts/:id/altapay-session (and Medusa's own POST /store/payment-collections/:id/payment-sessions),
 * paid on the sandbox, then the plugin's Capture items and Refund items and Medusa's Capture and Refund.
 * The carts: 100 distinct lines with 10 % off; 20 lines of 0.01 DKK with 10 % off and one of
 * 10,000 units; a yen cart of 15 digits; carts past AltaPay's 15 digits and past 2^53 minor units; a
 * quantity past what the line builder takes; KWD (3 decimals).
 * What a merchant relies on:
 *
 * - the session AltaPay gets has lines that total its amount to the minor unit, however many lines
 *   and however big the numbers; each capture's and refund's lines total what it moved;
 * - AltaPay's captured and refunded totals (the sandbox's books) equal Medusa's captures, refunds
 *   and the order's booked transactions;
 * - a cart AltaPay cannot take gets a 4xx that says why, before the customer reaches the payment
 *   page, never a 500, and nothing reaches AltaPay.
 */
import { ContainerRegistrationKeys, MathBN, Modules } from "@medusajs/framework/utils"
import { storeSuite } from "../../tools/test-store/store-app/runner"
import { altapayStore } from "../../tools/test-store/store-app/altapay-store"
import { toMinorUnits } from "../../src/lib/medusa-mapping/amounts"
import { decimalToMinor } from "../../src/altapay"
import { ALTAPAY_PROVIDER_ID } from "../../tools/store/seed"
import { expectBooksAgree as booksAgree, wireLinesMinor, type WireLine } from "../../tools/test-store/payment-books"
import { adminOfSeededStore, expectOk, orderPayments, payWithAltaPay, seedStore, startSession, storeHeaders, type Api, type SeededStore } from "../../tools/test-store/store"

const store = altapayStore()

type Wire = WireLine
const ADDRESS = { first_name: "Karen", last_name: "Blixen", address_1: "Strandvejen 111", city: "Rungsted", postal_code: "2960", phone: "+4512345678" }
const TWO_POW_53 = 2 ** 53

const linesMinor = wireLinesMinor

interface Placed {
  orderId: string
  paymentId: string
  transactionId: string
  currency: string
  /** The order's line item id of a variant. */
  item: (variantId: string) => string
  reservedMinor: number
}

export default storeSuite({
  testSuite: ({ api: rawApi, getContainer }) => {
    const api = rawApi as unknown as Api
    const shop = adminOfSeededStore(api, getContainer, { promotion: { code: "TEN", percent: 10 } })
    const as = shop.as
    const sandbox = () => store.sandbox()
    let jpy: SeededStore
    let kwd: { region: string }
    let made = 0
    afterEach(() => sandbox().faults.clear())
    beforeAll(async () => {
      jpy = await seedStore(getContainer(), { currency: "jpy", promotion: { code: "YENTEN", percent: 10 } })
      // A region in Kuwaiti dinar (3 decimals), made as the admin makes one; no tax region, no shipping.
      const region = await api.post("/admin/regions", { name: "Kuwait", currency_code: "kwd", countries: ["kw"], payment_providers: [ALTAPAY_PROVIDER_ID] }, as())
      kwd = { region: expectOk("KWD region", region).region.id }
    })

    /** A product made through POST /admin/products in `seed`'s sales channel, one variant per price: the variant ids in that order. */
    async function product(seed: SeededStore, prices: number[], currency = seed.currency as string): Promise<string[]> {
      const n = ++made
      const body = {
        title: `Big ${n}`,
        handle: `big-${n}-${Date.now()}`,
        status: "published",
        shipping_profile_id: seed.shippingProfile.id,
        sales_channels: [{ id: seed.salesChannel.id }],
        options: [{ title: "Kind", values: prices.map((_, i) => `k${i}`) }],
        variants: prices.map((price, i) => ({
          title: `Kind ${i}`,
          sku: `BIG-${n}-${i}`,
          options: { Kind: `k${i}` },
          manage_inventory: false,
          prices: [{ currency_code: currency, amount: price }],
        })),
      }
      const created = expectOk("create product", await api.post("/admin/products", body, as()))
      const byOption = (i: number) => created.product.variants.find((v: any) => v.options?.some((o: any) => o.value === `k${i}`))
      return prices.map((_, i) => (byOption(i) ?? created.product.variants[i]).id as string)
    }

    /** A cart through the store API (with the seeded shipping unless `shipping: false`, then `codes`), as GET /store/carts/:id answers. */
    async function cart(
      seed: SeededStore,
      items: Array<{ variant_id: string; quantity: number }>,
      opts: { codes?: string[]; shipping?: boolean; region?: string; country?: string } = {}
    ) {
      const headers = { headers: storeHeaders(seed), validateStatus: () => true }
      const address = { ...ADDRESS, country_code: opts.country ?? seed.countryCode }
      const body = {
        region_id: opts.region ?? seed.region.id,
        sales_channel_id: seed.salesChannel.id,
        email: "karen@example.com",
        items,
        shipping_address: address,
        billing_address: address,
      }
      const id = expectOk("cart", await api.post("/store/carts", body, headers)).cart.id as string
      if (opts.shipping ?? true) expectOk("shipping", await api.post(`/store/carts/${id}/shipping-methods`, { option_id: seed.shippingOption.id }, headers))
      if (opts.codes?.length) expectOk("promotions", await api.post(`/store/carts/${id}/promotions`, { promo_codes: opts.codes }, headers))
      return expectOk("read cart", await api.get(`/store/carts/${id}`, headers)).cart
    }

    /** POST /store/carts/:id/altapay-session as the storefront sends it, answered whatever the status. */
    const sessionRoute = (seed: SeededStore, cartId: string) => api.post(`/store/carts/${cartId}/altapay-session`, {}, { headers: storeHeaders(seed), validateStatus: () => true })

    /** Medusa's own route: a payment collection for the cart, then an AltaPay payment session on it; the session's answer. */
    async function medusaSessionRoute(seed: SeededStore, cartId: string) {
      const headers = { headers: storeHeaders(seed), validateStatus: () => true }
      const collection = expectOk("payment collection", await api.post("/store/payment-collections", { cart_id: cartId }, headers)).payment_collection
      return api.post(`/store/payment-collections/${collection.id}/payment-sessions`, { provider_id: ALTAPAY_PROVIDER_ID }, headers)
    }

    /** The newest session AltaPay accepted: its amount (minor units) and lines. */
    function sentSession(currency: string): { amountMinor: number; lines: Wire[] } {
      const entry = [...sandbox().ledger()].reverse().find((e) => e.operation === "session.create" && e.status < 300)!
      const order = (entry.params as { order: { amount: { value: number; currency: string }; orderLines: Wire[] } }).order
      expect(order.amount.currency).toBe(currency)
      return { amountMinor: decimalToMinor(String(order.amount.value), currency), lines: order.orderLines }
    }

    const lastSeq = () => sandbox().ledger().at(-1)?.seq ?? 0
    const sentSince = (from: number, operations = ["session.create", "session.update", "captureReservation", "refundCapturedReservation", "releaseReservation"]) =>
      sandbox()
        .ledger()
        .filter((e) => e.seq > from && operations.includes(e.operation))

    /** Paid through the plugin's store route and the sandbox, completed by the customer; the session's lines total its amount and the cart. */
    async function paidOrder(seed: SeededStore, c: { id: string; total: unknown }): Promise<Placed> {
      const currency = seed.currency.toUpperCase()
      const session = await startSession(api, seed, c.id)
      const sent = sentSession(currency)
      expect({ amount: sent.amountMinor, lines: linesMinor(sent.lines, currency) }).toEqual({ amount: toMinorUnits(c.total as never, currency), lines: sent.amountMinor })
      await payWithAltaPay(session, { sandbox: sandbox(), callback: false })
      const completed = expectOk("complete", await api.post(`/store/carts/${c.id}/complete`, {}, { headers: storeHeaders(seed), validateStatus: () => true }))
      expect(completed.type).toBe("order")
      const orderId = completed.order.id as string
      const [payment] = await orderPayments(getContainer(), orderId)
      const { data } = await getContainer()
        .resolve(ContainerRegistrationKeys.QUERY)
        .graph({ entity: "order", fields: ["items.id", "items.variant_id"], filters: { id: orderId } })
      const items = (data[0] as { items: Array<{ id: string; variant_id: string }> }).items
      const transactionId = payment.data.transaction_id as string
      const reservedMinor = sandbox().transaction(transactionId)!.reservedMinor
      expect(reservedMinor).toBe(sent.amountMinor)
      return { orderId, paymentId: payment.id, transactionId, currency, item: (v) => items.find((i) => i.variant_id === v)!.id, reservedMinor }
    }

    /** Both books agree (expectBooksAgree): AltaPay's transaction, for further checks. */
    const expectBooksAgree = async (o: Placed) => (await booksAgree(getContainer(), sandbox(), o)).transaction

    const captureItems = (o: Placed, body: Record<string, unknown>) => api.post(`/admin/altapay/payments/${o.paymentId}/captures`, body, as())
    const refundItems = (o: Placed, body: Record<string, unknown>) => api.post(`/admin/altapay/payments/${o.paymentId}/refunds`, body, as())
    /** Medusa's Capture of what is left of the payment. */
    async function captureRest(o: Placed) {
      const [payment] = await getContainer()
        .resolve(Modules.PAYMENT)
        .listPayments({ id: o.paymentId }, { relations: ["captures"] })
      const rest = MathBN.sub(payment.raw_amount as never, MathBN.sum(0, ...(payment.captures ?? []).map((c) => c.raw_amount as never)))
      return api.post(`/admin/payments/${o.paymentId}/capture`, { amount: Number(rest.toFixed()) }, as())
    }

    /** The order's payment status as the admin shows it. */
    const paymentStatus = async (o: Placed) => expectOk("order", await api.get(`/admin/orders/${o.orderId}?fields=id,payment_status`, as())).order.payment_status as string

    /** A 4xx with a message matching `why`, and no session (nor money) sent to AltaPay. */
    async function refusedBeforeAltaPay(step: string, request: () => Promise<{ status: number; data: any }>, why: RegExp) {
      const before = lastSeq()
      const r = await request()
      const fourXX = r.status >= 400 && r.status < 500
      // Beside a status that is not a 4xx, the body as Medusa answered it (its type and message).
      expect({ step, status: fourXX ? "4xx" : r.status, message: why.test(String(r.data?.message)) ? "says why" : r.data?.message, ...(fourXX ? {} : { body: r.data }) }).toEqual({
        step,
        status: "4xx",
        message: "says why",
      })
      expect(sentSince(before).map((e) => e.operation)).toEqual([])
    }

    describe("many lines", () => {
      it("100 distinct lines with 10 % off: the session's lines total the cart to the øre; Capture items of 50 lines, Medusa's capture of the rest, Refund items of 40 lines: AltaPay's books equal Medusa's", async () => {
        const prices = Array.from({ length: 100 }, (_, i) => Number((1 + i * 0.37).toFixed(2)))
        const variants = await product(shop.seed, prices)
        const c = await cart(
          shop.seed,
          variants.map((variant_id, i) => ({ variant_id, quantity: (i % 3) + 1 })),
          { codes: ["TEN"] }
        )
        expect(c.items).toHaveLength(100)
        const o = await paidOrder(shop.seed, c)
        const sent = sentSession("DKK")
        // A goods line per item (two when its quantity does not divide it), a promotion line per item, the shipping.
        expect(sent.lines.length).toBeGreaterThanOrEqual(201)

        const first = variants.slice(0, 50).map((v, i) => ({ line_item_id: o.item(v), quantity: (i % 3) + 1 }))
        const captured = expectOk("Capture items: 50 lines", await captureItems(o, { items: first }))
        expect(captured.capture.amount_minor).toBeGreaterThan(0)
        expectOk("Medusa's capture of the rest", await captureRest(o))
        let t = await expectBooksAgree(o)
        expect(t.capturedMinor).toBe(o.reservedMinor)
        expect(t.captures.map((x) => x.amountMinor)).toEqual([captured.capture.amount_minor, o.reservedMinor - captured.capture.amount_minor])

        const back = variants.slice(40, 80).map((v, i) => ({ line_item_id: o.item(v), quantity: ((i + 40) % 3) + 1 }))
        expectOk("Refund items: 40 lines", await refundItems(o, { items: back }))
        t = await expectBooksAgree(o)
        expect(t.refunds).toHaveLength(1)
        expect(t.refundedMinor).toBeGreaterThan(0)
      })

      it("20 lines of 0.01 DKK (one of them 10,000 units) with 10 % off across: each capture and refund by item moves its reserved øre, and both books end at the reservation", async () => {
        const variants = await product(
          shop.seed,
          Array.from({ length: 20 }, () => 0.01)
        )
        const c = await cart(
          shop.seed,
          variants.map((variant_id, i) => ({ variant_id, quantity: i === 0 ? 10_000 : 1 })),
          { codes: ["TEN"] }
        )
        // (100.00 + 0.19) × 0.9 × 1.25 + 61.25 = 173.96375: Medusa asks 173.96.
        expect(MathBN.convert(c.total).toFixed(5)).toBe("173.96375")
        const o = await paidOrder(shop.seed, c)
        expect(o.reservedMinor).toBe(17396)

        const steps: Array<[string, Array<{ line_item_id: string; quantity: number }>]> = [
          ["3,333 of the 10,000 units", [{ line_item_id: o.item(variants[0]), quantity: 3333 }]],
          ["one 0.01 line", [{ line_item_id: o.item(variants[1]), quantity: 1 }]],
          ["another 0.01 line", [{ line_item_id: o.item(variants[2]), quantity: 1 }]],
          ["10 0.01 lines", variants.slice(3, 13).map((v) => ({ line_item_id: o.item(v), quantity: 1 }))],
        ]
        for (const [step, items] of steps) expectOk(`Capture items: ${step}`, await captureItems(o, { items }))
        expectOk(
          "Capture items: the rest and the shipping",
          await captureItems(o, {
            items: [{ line_item_id: o.item(variants[0]), quantity: 6667 }, ...variants.slice(13).map((v) => ({ line_item_id: o.item(v), quantity: 1 }))],
            shipping: true,
          })
        )
        let t = await expectBooksAgree(o)
        expect(t.capturedMinor).toBe(17396)
        expect(t.captures).toHaveLength(5)
        // Medusa's exact 173.96375 is captured in full, not left "partially captured" by its 0.00375.
        expect(await paymentStatus(o)).toBe("captured")

        for (const [step, items] of steps) expectOk(`Refund items: ${step}`, await refundItems(o, { items }))
        expectOk(
          "Refund items: the rest and the shipping",
          await refundItems(o, {
            items: [{ line_item_id: o.item(variants[0]), quantity: 6667 }, ...variants.slice(13).map((v) => ({ line_item_id: o.item(v), quantity: 1 }))],
            shipping: true,
          })
        )
        t = await expectBooksAgree(o)
        expect(t.refundedMinor).toBe(17396)
        // Each refund by item moved what the capture of the same items moved.
        expect(t.refunds.map((r) => r.amountMinor)).toEqual(t.captures.map((x) => x.amountMinor))
        expect(await paymentStatus(o)).toBe("refunded")
      })

      it("40 lines of 1 yen with 10 % off (0.99 yen each with tax: some lines are worth nothing once rounded): lines total the cart, Capture items and Refund items of every line end both books at the reservation", async () => {
        const variants = await product(
          jpy,
          Array.from({ length: 40 }, () => 1),
          "jpy"
        )
        const c = await cart(
          jpy,
          variants.map((variant_id) => ({ variant_id, quantity: 1 })),
          { codes: ["YENTEN"] }
        )
        // 40 × 0.9 × 1.1 + 770 = 809.6: Medusa asks 810.
        expect(MathBN.convert(c.total).toFixed(2)).toBe("809.60")
        const o = await paidOrder(jpy, c)
        expect(o.reservedMinor).toBe(810)
        const halves = [variants.slice(0, 20), variants.slice(20)].map((vs) => vs.map((v) => ({ line_item_id: o.item(v), quantity: 1 })))
        expectOk("Capture items: 20 lines", await captureItems(o, { items: halves[0] }))
        expectOk("Capture items: 20 lines and the shipping", await captureItems(o, { items: halves[1], shipping: true }))
        let t = await expectBooksAgree(o)
        expect(t.capturedMinor).toBe(810)
        expect(await paymentStatus(o)).toBe("captured")
        expectOk("Refund items: 20 lines", await refundItems(o, { items: halves[0] }))
        expectOk("Refund items: 20 lines and the shipping", await refundItems(o, { items: halves[1], shipping: true }))
        t = await expectBooksAgree(o)
        expect(t.refundedMinor).toBe(810)
        expect(await paymentStatus(o)).toBe("refunded")
      })
    })

    describe("big numbers", () => {
      it("990,000,000,000,770 yen (15 digits, JPY has no decimals): reserved, captured by item and in full, refunded by item, to the yen", async () => {
        const [big] = await product(jpy, [900_000_000_000], "jpy")
        const c = await cart(jpy, [{ variant_id: big, quantity: 1000 }])
        // 9 × 10^14 + 10 % tax + 770 shipping.
        expect(toMinorUnits(c.total, "JPY")).toBe(990_000_000_000_770)
        const o = await paidOrder(jpy, c)
        expect(o.reservedMinor).toBe(990_000_000_000_770)
        const part = expectOk("Capture items: 333 units", await captureItems(o, { items: [{ line_item_id: o.item(big), quantity: 333 }] }))
        expect(part.capture.amount_minor).toBe(329_670_000_000_000)
        expectOk("Medusa's capture of the rest", await captureRest(o))
        expectOk("Refund items: 1 unit", await refundItems(o, { items: [{ line_item_id: o.item(big), quantity: 1 }] }))
        expectOk("Refund items: the shipping", await refundItems(o, { shipping: true }))
        const t = await expectBooksAgree(o)
        expect({ captured: t.capturedMinor, refunded: t.refundedMinor }).toEqual({ captured: 990_000_000_000_770, refunded: 990_000_000_770 })
      })

      it("a DKK cart past 2^53 øre (99,999,999.99 × 1,000,000 units) at the plugin's session route: a 4xx that says it is too large, never a 500, and nothing reaches AltaPay", async () => {
        const [big] = await product(shop.seed, [99_999_999.99])
        const c = await cart(shop.seed, [{ variant_id: big, quantity: 1_000_000 }])
        expect(MathBN.convert(c.total).shiftedBy(2).toNumber()).toBeGreaterThan(TWO_POW_53)
        await refusedBeforeAltaPay("the plugin's session route", () => sessionRoute(shop.seed, c.id), /more than one AltaPay payment takes \(at most/)
      })

      it("a yen cart past 2^53 yen (900,000,000,000 × 10,000 units) at the plugin's session route: a 4xx that says it is too large, and nothing reaches AltaPay", async () => {
        const [big] = await product(jpy, [900_000_000_000], "jpy")
        const c = await cart(jpy, [{ variant_id: big, quantity: 10_000 }])
        expect(MathBN.convert(c.total).toNumber()).toBeGreaterThan(TWO_POW_53)
        await refusedBeforeAltaPay("the plugin's session route", () => sessionRoute(jpy, c.id), /more than one AltaPay payment takes \(at most/)
      })

      it("Medusa's own payment-session route for a cart of 10^15 øre or more (below 2^53): a 4xx that says it is too large, and nothing reaches AltaPay", async () => {
        const [big] = await product(shop.seed, [99_999_999.99])
        const c = await cart(shop.seed, [{ variant_id: big, quantity: 100_000 }])
        expect(toMinorUnits(c.total, "DKK")).toBeGreaterThan(999_999_999_999_999)
        await refusedBeforeAltaPay("Medusa's payment-session route", () => medusaSessionRoute(shop.seed, c.id), /more than one AltaPay payment takes \(at most/)
      })

      it("Medusa's own payment-session route for a cart past 2^53 øre: a 4xx that says it is too large, and nothing reaches AltaPay", async () => {
        const [big] = await product(shop.seed, [99_999_999.99])
        const c = await cart(shop.seed, [{ variant_id: big, quantity: 1_000_000 }])
        await refusedBeforeAltaPay("Medusa's payment-session route", () => medusaSessionRoute(shop.seed, c.id), /more than one AltaPay payment takes \(at most/)
      })

      it("2,000,000,000 units of 0.01 DKK (a total AltaPay can take, a quantity the line builder cannot): a 4xx that names the quantity, and nothing reaches AltaPay", async () => {
        const [tiny] = await product(shop.seed, [0.01])
        const c = await cart(shop.seed, [{ variant_id: tiny, quantity: 2_000_000_000 }])
        expect(toMinorUnits(c.total, "DKK")).toBe(2_500_006_125)
        await refusedBeforeAltaPay("the plugin's session route", () => sessionRoute(shop.seed, c.id), /quantity is 2000000000, more than the 1,000,000,000 units/)
      })
    })

    describe("three decimals (KWD)", () => {
      it("12.340 KWD × 3 is sent as 37.02 with lines that total it; 12.345 KWD gets a 4xx before AltaPay (AltaPay takes 2 decimals)", async () => {
        const [even, odd] = await product(shop.seed, [12.34, 12.345], "kwd")
        const ok = await cart(shop.seed, [{ variant_id: even, quantity: 3 }], { shipping: false, region: kwd.region, country: "kw" })
        expectOk("session for 37.020 KWD", await sessionRoute(shop.seed, ok.id))
        const sent = sentSession("KWD")
        expect({ amount: sent.amountMinor, lines: linesMinor(sent.lines, "KWD") }).toEqual({ amount: 37020, lines: 37020 })
        const bad = await cart(shop.seed, [{ variant_id: odd, quantity: 3 }], { shipping: false, region: kwd.region, country: "kw" })
        await refusedBeforeAltaPay("session for 37.035 KWD", () => sessionRoute(shop.seed, bad.id), /decimals/)
      })
    })
  },
})
