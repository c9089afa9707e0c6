/**
 * Hostile and unusual data flowing from Medusa's catalog and admin into AltaPay, through Medusa's real
 * routes: products made with POST /admin/products (titles with XML specials, control characters,
 * emoji, right-to-left text, 300+ characters; SKUs duplicated, empty or too long; thumbnails that
 * are relative, javascript: or 3,000 characters), prices of 0, of one øre and of 99,999,999.99 DKK,
 * 10,000 units, 100 % promotions and free shipping made with POST /admin/promotions; carts through
 * the store API, the AltaPay session through POST /store/carts/:id/altapay-session, paid on the
 * sandbox, then Medusa's Capture and Refund and the plugin's Capture items and Refund items.
 * What a merchant relies on:
 *
 * - AltaPay gets valid order lines (the sandbox validates them as AltaPay documents them) that
 *   total the amount sent to the minor unit; text is cut or cleaned, never the reason for a refusal;
 * - a cart AltaPay cannot take gets a 4xx that says what to change, and nothing reaches AltaPay;
 * - a hostile body to the plugin's admin routes gets a 4xx naming the field, never a 500, and no
 *   money moves (the sandbox's ledger is the witness);
 * - AltaPay's captured and refunded totals equal Medusa's.
 */
import { ContainerRegistrationKeys } from "@medusajs/framework/utils"
import { storeSuite } from "../../tools/test-store/store-app/runner"
import { altapayStore } from "../../tools/test-store/store-app/altapay-store"
import { toMinorUnits } from "../../src/lib/medusa-mapping/amounts"
import { adminOfSeededStore, expectOk, orderPayments, payWithAltaPay, startSession, storeHeaders, type Api } from "../../tools/test-store/store"

const store = altapayStore()

const dkk = (amount: unknown) => toMinorUnits(amount as never, "DKK")
const sum = (xs: number[]) => xs.reduce((s, x) => s + x, 0)
const codePoints = (s: string) => Array.from(s).length
/** An AltaPay order line as sent (JSON numbers on the Checkout API, form text on the gateway): its total in minor units. */
const lineMinor = (l: Record<string, unknown>) => Math.round((Number(l.quantity) * Number(l.unitPrice) + Number(l.taxAmount ?? 0)) * 100)
const ADDRESS = { first_name: "Karen", last_name: "Blixen", address_1: "Strandvejen 111", city: "Rungsted", postal_code: "2960", phone: "+4512345678", country_code: "dk" }

interface VariantSpec {
  title: string
  sku?: string
  price: number
}

export default storeSuite({
  testSuite: ({ api: rawApi, getContainer }) => {
    const api = rawApi as unknown as Api
    const shop = adminOfSeededStore(api, getContainer)
    const as = shop.as
    const sandbox = () => store.sandbox()
    let made = 0
    afterEach(() => sandbox().faults.clear())

    /** A product made through POST /admin/products; its variants' ids in the order given. */
    async function product(title: string, variants: VariantSpec[], thumbnail?: string): Promise<string[]> {
      const n = ++made
      const body = {
        title,
        handle: `hostile-${n}-${Date.now()}`,
        status: "published",
        shipping_profile_id: shop.seed.shippingProfile.id,
        sales_channels: [{ id: shop.seed.salesChannel.id }],
        ...(thumbnail !== undefined ? { thumbnail } : {}),
        options: [{ title: "Kind", values: variants.map((_, i) => `k${i}`) }],
        variants: variants.map((v, i) => ({
          title: v.title,
          ...(v.sku !== undefined ? { sku: v.sku } : {}),
          options: { Kind: `k${i}` },
          manage_inventory: false,
          prices: [{ currency_code: "dkk", amount: v.price }],
        })),
      }
      const created = expectOk("create product", await api.post("/admin/products", body, as()))
      const byOption = (i: number) => created.product.variants.find((v: any) => v.options?.some((o: any) => o.value === `k${i}`))
      return variants.map((_, i) => (byOption(i) ?? created.product.variants[i]).id as string)
    }

    /** A promotion code made through POST /admin/promotions: `percent` off the given products' items, or off shipping. */
    async function promotion(code: string, target: { productIds: string[] } | "shipping" | "order", percent = 100) {
      const application_method =
        target === "shipping"
          ? { type: "percentage", target_type: "shipping_methods", allocation: "each", value: percent, currency_code: "dkk", max_quantity: 1 }
          : target === "order"
            ? { type: "percentage", target_type: "items", allocation: "across", value: percent, currency_code: "dkk" }
            : {
                type: "percentage",
                target_type: "items",
                allocation: "each",
                value: percent,
                currency_code: "dkk",
                max_quantity: 100000,
                target_rules: [{ attribute: "items.product.id", operator: "in", values: target.productIds }],
              }
      expectOk("create promotion", await api.post("/admin/promotions", { code, type: "standard", status: "active", is_automatic: false, application_method }, as()))
    }

    /** A cart through the store API with the seeded shipping (and `codes`); as GET /store/carts/:id answers. */
    async function cart(items: Array<{ variant_id: string; quantity: number }>, codes: string[] = []): Promise<any> {
      const headers = { headers: storeHeaders(shop.seed), validateStatus: () => true }
      const created = expectOk(
        "cart",
        await api.post(
          "/store/carts",
          { region_id: shop.seed.region.id, sales_channel_id: shop.seed.salesChannel.id, email: "karen@example.com", items, shipping_address: ADDRESS, billing_address: ADDRESS },
          headers
        )
      )
      const id = created.cart.id as string
      expectOk("shipping", await api.post(`/store/carts/${id}/shipping-methods`, { option_id: shop.seed.shippingOption.id }, headers))
      if (codes.length) expectOk("promotions", await api.post(`/store/carts/${id}/promotions`, { promo_codes: codes }, headers))
      return expectOk("read cart", await api.get(`/store/carts/${id}`, headers)).cart
    }

    /** POST /store/carts/:id/altapay-session as the storefront sends it, answered whatever the status. */
    const sessionRoute = (cartId: string) => api.post(`/store/carts/${cartId}/altapay-session`, {}, { headers: storeHeaders(shop.seed), validateStatus: () => true })

    /** The cart paid through the store route and the sandbox, then completed by the customer: the order and its AltaPay payment. */
    async function paidOrder(cartId: string) {
      const session = await startSession(api, shop.seed, cartId)
      await payWithAltaPay(session, { sandbox: sandbox(), callback: false })
      const completed = expectOk("complete", await api.post(`/store/carts/${cartId}/complete`, {}, { headers: storeHeaders(shop.seed), validateStatus: () => true }))
      expect(completed.type).toBe("order")
      const orderId = completed.order.id as string
      const [payment] = await orderPayments(getContainer(), orderId)
      const { data } = await getContainer()
        .resolve(ContainerRegistrationKeys.QUERY)
        .graph({ entity: "order", fields: ["items.id", "items.variant_id", "items.quantity"], filters: { id: orderId } })
      const items = (data[0] as { items: Array<{ id: string; variant_id: string }> }).items
      const item = (variantId: string) => items.find((i) => i.variant_id === variantId)!.id
      return { orderId, paymentId: payment.id, transactionId: payment.data.transaction_id as string, sessionId: session.sessionId, item }
    }

    /** The order lines the sandbox accepted for the newest session, and the amount they were sent with. */
    function sentSession(): { status: number; amountMinor: number; lines: Array<Record<string, any>> } {
      const entry = [...sandbox().ledger()].reverse().find((e) => e.operation === "session.create")!
      const order = (entry.params as { order: { amount: { value: number }; orderLines: Array<Record<string, any>> } }).order
      return { status: entry.status, amountMinor: Math.round(order.amount.value * 100), lines: order.orderLines }
    }

    /** Gateway money operations (captures, refunds, releases) in the ledger since `from`. */
    const moneyCalls = (from: number) =>
      sandbox()
        .ledger()
        .filter(
          (e) => e.seq > from && ["captureReservation", "refundCapturedReservation", "releaseReservation", "chargeSubscription", "reserveSubscriptionCharge"].includes(e.operation)
        )
    const lastSeq = () => sandbox().ledger().at(-1)?.seq ?? 0

    /** Medusa's Capture of what AltaPay still holds reserved, as the admin's button sends it after a partial capture. */
    async function captureRest(paymentId: string, transactionId: string) {
      const t = sandbox().transaction(transactionId)!
      expectOk("Medusa's capture of the rest", await api.post(`/admin/payments/${paymentId}/capture`, { amount: (t.reservedMinor - t.capturedMinor) / 100 }, as()))
    }

    /** AltaPay's captured and refunded totals of a transaction and Medusa's of the payment, each capture's and refund's lines totalling it. */
    async function expectBooksAgree(paymentId: string, transactionId: string) {
      const snap = sandbox().transaction(transactionId)!
      const [payment] = await getContainer()
        .resolve("payment")
        .listPayments({ id: paymentId }, { relations: ["captures", "refunds"] })
      const medusa = {
        captured: sum((payment.captures ?? []).map((c: any) => dkk(c.amount))),
        refunded: sum((payment.refunds ?? []).map((r: any) => dkk(r.amount))),
      }
      expect({ captured: snap.capturedMinor, refunded: snap.refundedMinor }).toEqual(medusa)
      for (const op of [...snap.captures, ...snap.refunds]) {
        if (op.orderLines?.length) expect(sum(op.orderLines.map(lineMinor))).toBe(op.amountMinor)
      }
      return snap
    }

    /** What every set of lines sent must be: unique itemIds of at most 100, descriptions of 1 to 255, only absolute http(s) URLs. */
    function expectWellFormed(lines: Array<Record<string, any>>) {
      const ids = lines.map((l) => String(l.itemId))
      expect(new Set(ids).size).toBe(ids.length)
      for (const l of lines) {
        expect(codePoints(String(l.itemId))).toBeLessThanOrEqual(100)
        expect(codePoints(String(l.description))).toBeGreaterThan(0)
        expect(codePoints(String(l.description))).toBeLessThanOrEqual(255)
        for (const url of [l.imageUrl, l.productUrl].filter((u) => u !== undefined)) expect(String(url)).toMatch(/^https?:\/\/[^\s]{1,247}$/)
      }
    }

    describe("hostile text from the catalog", () => {
      it("XML specials, control characters, right-to-left text, duplicate, empty and over-long SKUs, bad thumbnails: valid lines, paid, Capture items and Refund items agree", async () => {
        const xml = `Tea & <Biscuits> "Earl" 'Grey' ]]> &amp;`
        const [tin, tinRtl] = await product(
          xml,
          [
            { title: "Tin \u0007bell\u001b[31mred\u0008", sku: "  ", price: 40 },
            { title: "\u202Eevil\u202C שלום עולם مرحبا", sku: "", price: 60 },
          ],
          "/static/relative.png"
        )
        // Medusa refuses a SKU used twice; two variants whose SKUs differ only past AltaPay's 100 characters collide once cut.
        const longSku = "S".repeat(120)
        const [jsThumb] = await product("Kaffe \u2615 \u{1F468}\u200D\u{1F469}\u200D\u{1F467} Ærø", [{ title: "One", price: 25 }], "javascript:alert(document.cookie)")
        const [longA, longB] = await product(
          "L".repeat(320),
          [
            { title: "A", sku: `${longSku}-A`, price: 10 },
            { title: "B", sku: `${longSku}-B`, price: 10 },
          ],
          `https://cdn.example/${"x".repeat(3000)}.png`
        )
        const c = await cart([
          { variant_id: tin, quantity: 2 },
          { variant_id: tinRtl, quantity: 1 },
          { variant_id: jsThumb, quantity: 1 },
          { variant_id: longA, quantity: 1 },
          { variant_id: longB, quantity: 3 },
        ])
        const order = await paidOrder(c.id)
        const sent = sentSession()
        expect(sent.status).toBe(200)
        expect(sum(sent.lines.map(lineMinor))).toBe(sent.amountMinor)
        expect(sent.amountMinor).toBe(dkk(c.total))
        expectWellFormed(sent.lines)
        // XML specials go as text, unescaped and whole; nothing carries a thumbnail AltaPay would refuse.
        expect(sent.lines.some((l) => String(l.description).startsWith(xml))).toBe(true)
        expect(sent.lines.filter((l) => l.imageUrl !== undefined)).toEqual([])

        // Capture items: the two right-to-left tins' item and the two long SKUs; then the rest with Medusa's Capture.
        const before = lastSeq()
        expectOk(
          "Capture items",
          await api.post(
            `/admin/altapay/payments/${order.paymentId}/captures`,
            {
              items: [
                { line_item_id: order.item(tinRtl), quantity: 1 },
                { line_item_id: order.item(longB), quantity: 2 },
              ],
            },
            as()
          )
        )
        await captureRest(order.paymentId, order.transactionId)
        expectOk("Refund items", await api.post(`/admin/altapay/payments/${order.paymentId}/refunds`, { items: [{ line_item_id: order.item(tin), quantity: 1 }] }, as()))
        expectOk("Medusa's refund", await api.post(`/admin/payments/${order.paymentId}/refund`, { amount: 10 }, as()))
        expect(moneyCalls(before).map((e) => [e.operation, e.effect?.result])).toEqual([
          ["captureReservation", "Success"],
          ["captureReservation", "Success"],
          ["refundCapturedReservation", "Success"],
          ["refundCapturedReservation", "Success"],
        ])
        const snap = await expectBooksAgree(order.paymentId, order.transactionId)
        expect(snap.capturedMinor).toBe(sent.amountMinor)
        for (const op of [...snap.captures, ...snap.refunds]) if (op.orderLines?.length) expectWellFormed(op.orderLines)
      })

      it("a title of 250 characters with 10 emoji, and one of 300 emoji: accepted by AltaPay (cut where needed), and the cart is paid", async () => {
        // 240 letters and 10 emoji: 250 code points, 260 UTF-16 units: within 255 only when counted in code points, so it is cut.
        const gift = `Julegaveæske ${"med kaffe, te og småkager ".repeat(9)}`.slice(0, 240) + "\u{1F381}\u{1F384}\u{1F385}\u{1F98C}\u{1F514}".repeat(2)
        expect([codePoints(gift), gift.length]).toEqual([250, 260])
        const [v] = await product(gift, [{ title: "One", sku: "GIFT-BOX", price: 50 }])
        const [w] = await product("\u{1F600}".repeat(300), [{ title: "One", sku: "EMOJI-300", price: 50 }])
        for (const variant of [v, w]) {
          const c = await cart([{ variant_id: variant, quantity: 1 }])
          const answer = await sessionRoute(c.id)
          expect({ status: answer.status, message: answer.data?.message }).toEqual({ status: 200, message: undefined })
          const sent = sentSession()
          expect(sent.status).toBe(200)
          expect(sum(sent.lines.map(lineMinor))).toBe(sent.amountMinor)
        }
      })
    })

    describe("prices and quantities at the edges", () => {
      it("a free item and a one-øre item beside a paid one: valid lines; Capture items and Refund items of the free item are refused with nothing sent", async () => {
        const [free] = await product("Free sample", [{ title: "One", sku: "FREE-0", price: 0 }])
        const [ore] = await product("One øre", [{ title: "One", sku: "ORE-1", price: 0.01 }])
        const c = await cart([
          { variant_id: free, quantity: 1 },
          { variant_id: ore, quantity: 1 },
          { variant_id: shop.seed.products.coffee.variantId, quantity: 1 },
        ])
        const order = await paidOrder(c.id)
        const sent = sentSession()
        expect(sum(sent.lines.map(lineMinor))).toBe(sent.amountMinor)
        expect(sent.amountMinor).toBe(dkk(c.total))
        expectWellFormed(sent.lines)

        const before = lastSeq()
        const freeCapture = await api.post(`/admin/altapay/payments/${order.paymentId}/captures`, { items: [{ line_item_id: order.item(free), quantity: 1 }] }, as())
        expect(freeCapture.status).toBeGreaterThanOrEqual(400)
        expect(freeCapture.status).toBeLessThan(500)
        expect(freeCapture.data.message).toMatch(/nothing to capture/)
        expect(moneyCalls(before)).toEqual([])

        expectOk(
          "Capture items: the øre and the coffee",
          await api.post(
            `/admin/altapay/payments/${order.paymentId}/captures`,
            {
              items: [
                { line_item_id: order.item(ore), quantity: 1 },
                { line_item_id: order.item(shop.seed.products.coffee.variantId), quantity: 1 },
              ],
            },
            as()
          )
        )
        await captureRest(order.paymentId, order.transactionId)
        const afterCaptures = lastSeq()
        const freeRefund = await api.post(`/admin/altapay/payments/${order.paymentId}/refunds`, { items: [{ line_item_id: order.item(free), quantity: 1 }] }, as())
        expect(freeRefund.status).toBeGreaterThanOrEqual(400)
        expect(freeRefund.status).toBeLessThan(500)
        expect(freeRefund.data.message).toMatch(/nothing|no money|zero/i)
        expect(moneyCalls(afterCaptures)).toEqual([])
        expectOk("Refund items: the øre", await api.post(`/admin/altapay/payments/${order.paymentId}/refunds`, { items: [{ line_item_id: order.item(ore), quantity: 1 }] }, as()))
        const snap = await expectBooksAgree(order.paymentId, order.transactionId)
        expect(snap.capturedMinor).toBe(sent.amountMinor)
        expect(snap.refundedMinor).toBe(1)
      })

      it("99,999,999.99 DKK × 10,000 units: reserved, captured and refunded to the øre, AltaPay and Medusa agree", async () => {
        const [big] = await product("Yacht", [{ title: "One", sku: "YACHT", price: 99_999_999.99 }])
        const c = await cart([{ variant_id: big, quantity: 10_000 }])
        // 999,999,999,900.00 + 25 % VAT + 61.25 shipping.
        expect(dkk(c.total)).toBe(124_999_999_993_625)
        const order = await paidOrder(c.id)
        const sent = sentSession()
        expect(sent.amountMinor).toBe(124_999_999_993_625)
        expect(sum(sent.lines.map(lineMinor))).toBe(sent.amountMinor)
        expectOk("Medusa's capture", await api.post(`/admin/payments/${order.paymentId}/capture`, {}, as()))
        expectOk("Refund items: 3 yachts", await api.post(`/admin/altapay/payments/${order.paymentId}/refunds`, { items: [{ line_item_id: order.item(big), quantity: 3 }] }, as()))
        const snap = await expectBooksAgree(order.paymentId, order.transactionId)
        expect({ captured: snap.capturedMinor, refunded: snap.refundedMinor }).toEqual({ captured: 124_999_999_993_625, refunded: 37_499_999_996 })
      })

      it("a cart too large for AltaPay's amounts (10^15 øre or more): a 4xx that says so, and nothing reaches AltaPay", async () => {
        const [big] = await product("Fleet", [{ title: "One", sku: "FLEET", price: 99_999_999.99 }])
        const c = await cart([{ variant_id: big, quantity: 100_000 }])
        const before = lastSeq()
        const answer = await sessionRoute(c.id)
        expect(answer.status).toBeGreaterThanOrEqual(400)
        expect(answer.status).toBeLessThan(500)
        expect(answer.data.message).toMatch(/comes to 12499999998811.25 DKK, more than one AltaPay payment takes \(at most 9999999999999.99 DKK\)/)
        expect(
          sandbox()
            .ledger()
            .filter((e) => e.seq > before && e.operation === "session.create")
        ).toEqual([])
      })
    })

    describe("100 % promotions and free shipping", () => {
      it("an item 100 % off and free shipping: valid lines for the rest; Capture items and Refund items of the free item move nothing, the rest agree", async () => {
        const [gift] = await product("Gift mug", [{ title: "One", sku: "GIFT-MUG", price: 100 }])
        const giftProduct = (await api.get(`/admin/products?fields=id,variants.id&limit=200`, as())).data.products.find((p: any) => p.variants.some((v: any) => v.id === gift)).id
        await promotion("MUG100", { productIds: [giftProduct] })
        await promotion("FREESHIP", "shipping")
        const c = await cart(
          [
            { variant_id: gift, quantity: 2 },
            { variant_id: shop.seed.products.coffee.variantId, quantity: 1 },
          ],
          ["MUG100", "FREESHIP"]
        )
        // Only the coffee is paid for: 89.95 + 25 % VAT.
        expect(dkk(c.total)).toBe(11244)
        const order = await paidOrder(c.id)
        const sent = sentSession()
        expect(sent.amountMinor).toBe(11244)
        expect(sum(sent.lines.map(lineMinor))).toBe(11244)
        expectWellFormed(sent.lines)

        const before = lastSeq()
        const giftCapture = await api.post(`/admin/altapay/payments/${order.paymentId}/captures`, { items: [{ line_item_id: order.item(gift), quantity: 2 }] }, as())
        expect([giftCapture.status, giftCapture.data.message]).toEqual([400, expect.stringMatching(/nothing to capture/)])
        // Whatever the answer, AltaPay is never asked to capture nothing.
        expect(moneyCalls(before).filter((e) => (e.effect?.amountMinor ?? Number(e.params.amount ?? 0) * 100) === 0)).toEqual([])
        expectOk(
          "Capture items: the coffee",
          await api.post(`/admin/altapay/payments/${order.paymentId}/captures`, { items: [{ line_item_id: order.item(shop.seed.products.coffee.variantId), quantity: 1 }] }, as())
        )
        const afterCaptures = lastSeq()
        const giftRefund = await api.post(`/admin/altapay/payments/${order.paymentId}/refunds`, { items: [{ line_item_id: order.item(gift), quantity: 1 }] }, as())
        expect(giftRefund.status).toBeGreaterThanOrEqual(400)
        expect(giftRefund.status).toBeLessThan(500)
        expect(giftRefund.data.message).toMatch(/nothing|no money|zero/i)
        expect(moneyCalls(afterCaptures)).toEqual([])
        expectOk(
          "Refund items: the coffee",
          await api.post(`/admin/altapay/payments/${order.paymentId}/refunds`, { items: [{ line_item_id: order.item(shop.seed.products.coffee.variantId), quantity: 1 }] }, as())
        )
        const snap = await expectBooksAgree(order.paymentId, order.transactionId)
        expect({ captured: snap.capturedMinor, refunded: snap.refundedMinor }).toEqual({ captured: 11244, refunded: 11244 })
      })

      it("a cart whose total is 0 (100 % off everything, free shipping): a 4xx saying to complete it without AltaPay, nothing reaches AltaPay", async () => {
        await promotion("ALL100", "order")
        await promotion("SHIPFREE", "shipping")
        const c = await cart([{ variant_id: shop.seed.products.coffee.variantId, quantity: 2 }], ["ALL100", "SHIPFREE"])
        expect(dkk(c.total)).toBe(0)
        const before = lastSeq()
        const answer = await sessionRoute(c.id)
        expect({ status: answer.status, message: answer.data.message }).toEqual({ status: 400, message: expect.stringMatching(/has nothing to pay .*complete it without AltaPay/) })
        expect(
          sandbox()
            .ledger()
            .filter((e) => e.seq > before && e.api === "checkout")
        ).toEqual([])
      })
    })

    describe("hostile bodies to the plugin's admin routes", () => {
      /** Every answer a 4xx with a message (never a 500), and no money call at AltaPay since `from`. */
      function expectRefusedQuietly(answers: Array<{ body: unknown; status: number; message: unknown }>, from: number) {
        expect(answers.filter((a) => !(a.status >= 400 && a.status < 500 && typeof a.message === "string" && a.message.length > 0))).toEqual([])
        expect(moneyCalls(from)).toEqual([])
      }

      it("Capture items and Refund items: bad quantities, strings, unknown or missing fields, another order's lines, a line twice: 4xx naming the field, nothing sent", async () => {
        const other = await paidOrder((await cart([{ variant_id: shop.seed.products.tea.variantId, quantity: 1 }])).id)
        const order = await paidOrder((await cart([{ variant_id: shop.seed.products.coffee.variantId, quantity: 2 }])).id)
        const coffee = order.item(shop.seed.products.coffee.variantId)
        const foreign = other.item(shop.seed.products.tea.variantId)
        const bodies: unknown[] = [
          { items: [{ line_item_id: coffee, quantity: -1 }] },
          { items: [{ line_item_id: coffee, quantity: 0 }] },
          { items: [{ line_item_id: coffee, quantity: 0.5 }] },
          { items: [{ line_item_id: coffee, quantity: 1e308 }] },
          { items: [{ line_item_id: coffee, quantity: Number.MAX_SAFE_INTEGER + 2 }] },
          { items: [{ line_item_id: coffee, quantity: "1" }] },
          { items: [{ line_item_id: coffee, quantity: null }] },
          { items: [{ line_item_id: coffee }] },
          { items: [{ quantity: 1 }] },
          { items: [{ line_item_id: 42, quantity: 1 }] },
          { items: [{ line_item_id: coffee, quantity: 1, amount: 1 }] },
          { items: [{ line_item_id: coffee, quantity: 1 }], amount: 100 },
          { items: { line_item_id: coffee, quantity: 1 } },
          { items: "all" },
          { shipping: "yes" },
          { items: [{ line_item_id: foreign, quantity: 1 }] },
          { items: [{ line_item_id: "ordli_does_not_exist", quantity: 1 }] },
          { items: [{ line_item_id: coffee, quantity: 3 }] },
          {
            items: [
              { line_item_id: coffee, quantity: 2 },
              { line_item_id: coffee, quantity: 1 },
            ],
          },
          { items: Array.from({ length: 501 }, () => ({ line_item_id: coffee, quantity: 1 })) },
          [],
          {},
        ]
        const post = async (path: string, body: unknown) => {
          const r = await api.post(`/admin/altapay/payments/${order.paymentId}/${path}`, body, as())
          return { path, body, status: r.status, message: r.data?.message }
        }
        const before = lastSeq()
        const captures = [] as Array<Awaited<ReturnType<typeof post>>>
        for (const body of bodies) captures.push(await post("captures", body))
        expectRefusedQuietly(captures, before)
        // Each refusal names the field it refuses.
        expect(captures[0].message).toMatch(/items\.0\.quantity/)
        expect(captures[5].message).toMatch(/items\.0\.quantity/)
        expect(captures[10].message).toMatch(/amount/)
        expect(captures[15].message).toMatch(new RegExp(foreign))

        expectOk("Medusa's capture", await api.post(`/admin/payments/${order.paymentId}/capture`, {}, as()))
        const captured = lastSeq()
        const refunds = [] as Array<Awaited<ReturnType<typeof post>>>
        for (const body of [
          ...bodies,
          { items: [{ line_item_id: coffee, quantity: 1 }], note: 42 },
          { items: [{ line_item_id: coffee, quantity: 1 }], return_fee: { amount: "-5" } },
          { items: [{ line_item_id: coffee, quantity: 1 }], return_fee: { amount: 5 } },
        ])
          refunds.push(await post("refunds", body))
        expectRefusedQuietly(refunds, captured)
        expect(refunds[15].message).toMatch(new RegExp(foreign))

        // Medusa's own Capture and Refund routes with hostile amounts: refused, never a 500, nothing more moved.
        const medusa = [] as Array<{ body: unknown; status: number; message: unknown }>
        for (const amount of [-1, 0, "abc", 1e20, "10; DROP TABLE"]) {
          const r = await api.post(`/admin/payments/${order.paymentId}/refund`, { amount }, as())
          medusa.push({ body: { amount }, status: r.status, message: r.data?.message })
        }
        expectRefusedQuietly(medusa, captured)
        await expectBooksAgree(order.paymentId, order.transactionId)
        await expectBooksAgree(other.paymentId, other.transactionId)
      })

      it("payment links and saved-card charges: bad validity, strings, unknown fields, unknown ids: 4xx naming the field, nothing created at AltaPay", async () => {
        const order = await paidOrder((await cart([{ variant_id: shop.seed.products.coffee.variantId, quantity: 1 }])).id)
        const open = await cart([{ variant_id: shop.seed.products.tea.variantId, quantity: 1 }])
        const before = lastSeq()
        const answers = [] as Array<{ body: unknown; status: number; message: unknown }>
        for (const body of [
          { cart_id: open.id, validity_seconds: "3600" },
          { cart_id: open.id, validity_seconds: -1 },
          { cart_id: open.id, validity_seconds: 299 },
          { cart_id: open.id, validity_seconds: 1e12 },
          { cart_id: open.id, validity_seconds: 3600.5 },
          { cart_id: open.id, amount: 1 },
          { cart_id: 42 },
          { cart_id: "" },
          { order_id: "order_does_not_exist" },
          { cart_id: open.id, provider_id: "pp_altapay_nope" },
          [],
        ]) {
          const r = await api.post("/admin/altapay/payment-links", body, as())
          answers.push({ body, status: r.status, message: r.data?.message })
        }
        for (const body of [
          {},
          { saved_card_id: "" },
          { saved_card_id: 7 },
          { saved_card_id: "sc_nope", unscheduled_type: "charge" },
          { saved_card_id: "sc_nope", amount: 5 },
          { saved_card_id: "sc_nope" },
        ]) {
          const r = await api.post(`/admin/altapay/orders/${order.orderId}/agreement-charges`, body, as())
          answers.push({ body, status: r.status, message: r.data?.message })
        }
        expectRefusedQuietly(answers, before)
        expect(answers[0].message).toMatch(/validity_seconds/)
        expect(answers[5].message).toMatch(/amount/)
        expect(
          sandbox()
            .ledger()
            .filter((e) => e.seq > before && ["link.create", "session.create"].includes(e.operation))
        ).toEqual([])
      })
    })
  },
})
