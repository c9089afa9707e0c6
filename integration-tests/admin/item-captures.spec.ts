/**
 * Captures of what was shipped, in one Medusa app (embedded Postgres) against the sandbox's Klarna
 * invoice terminal, which is as strict as AltaPay documents it: a partial capture must carry order
 * lines exactly as reserved. The registration captures on shipment (option captureOn): a
 * fulfillment alone captures nothing, its shipment does, with the shipment's labels as trackingInfo.
 */
import { Modules } from "@medusajs/framework/utils"
import { createAltaPayClient, decimalToMinor, proportionalAdjustmentLine, type OrderLine } from "../../src/altapay"
import { toMinorUnits } from "../../src/lib/medusa-mapping/amounts"
import { storeSuite, storeSuites } from "../../tools/test-store/store-app/runner"
import captureOnFulfillmentRaces from "./capture-on-fulfillment-races.suite"
import editsThenItemCaptures from "./edits-then-item-captures.suite"
import klarnaAfterSale from "./klarna-after-sale.suite"
import klarnaExchangesClaims from "./klarna-exchanges-claims.suite"
import { INVOICE_METHOD } from "../../src/sandbox"
import { API_PASSWORD, API_USER } from "../../tools/test-store/altapay-sandbox"
import { STORE_APP_DIR, useAltaPayStore } from "../../tools/test-store/store-app/altapay-store"
import { createAdminUser, createAltaPayOrder, eventually, orderPayments, seedStore, type Api, type SeededStore } from "../../tools/test-store/store"
import { eventsSettled } from "../../tools/test-store/store-app/events-settled"

const KLARNA = INVOICE_METHOD.terminalName
const store = useAltaPayStore({ terminal: KLARNA, captureOn: "shipment" }, { invoiceTerminal: true })

type SentLine = Record<string, string>
const capturesSent = () =>
  store
    .sandbox()
    .ledger()
    .filter((e) => e.operation === "captureReservation")
    .map((e) => e.params as { amount: string; orderLines?: SentLine[] })
/** A line as AltaPay's form carries it, in our shape. */
const asSent = (line: OrderLine): SentLine => ({
  description: line.description,
  itemId: line.itemId,
  quantity: String(line.quantity),
  unitPrice: (line.unitPriceMinor / 100).toFixed(2),
  taxAmount: (line.taxAmountMinor / 100).toFixed(2),
  taxPercent: String(line.taxPercent),
  goodsType: line.goodsType ?? "",
})
const sameLine = (sent: SentLine, line: OrderLine) =>
  Object.entries(asSent(line)).every(([k, v]) => (k === "unitPrice" || k === "taxAmount" ? decimalToMinor(sent[k], "DKK") === decimalToMinor(v, "DKK") : sent[k] === v))
const dkk = (amount: unknown) => toMinorUnits(amount as number, "DKK")

const itemCaptures = storeSuite({
  testSuite: ({ api: rawApi, getContainer }) => {
    const api = rawApi as unknown as Api
    let admin: { headers: Record<string, string> }
    let seed: SeededStore
    const as = () => ({ headers: admin.headers, validateStatus: () => true })

    beforeAll(async () => {
      admin = await createAdminUser(api, getContainer())
      seed = await seedStore(getContainer(), { promotion: { code: "TEN", percent: 10 } })
    })
    beforeEach(() => store.sandbox().clearLedger())

    async function paymentOf(paymentId: string) {
      const { data } = await api.get(`/admin/payments/${paymentId}?fields=id,amount,captures.amount,data`, as())
      return data.payment as { amount: number; captures: Array<{ amount: number }>; data: { order_lines: OrderLine[]; transaction_id: string } }
    }
    const medusaCaptured = async (paymentId: string) => (await paymentOf(paymentId)).captures.reduce((n, c) => n + dkk(c.amount), 0)

    async function orderItems(orderId: string) {
      const { data } = await api.get(`/admin/orders/${orderId}?fields=id,items.id,items.quantity,items.variant_sku`, as())
      return data.order.items as Array<{ id: string; quantity: number; variant_sku: string }>
    }

    /** Fulfils and ships `quantity` of an order item with one tracking label; the fulfillment's id. */
    async function fulfilAndShip(orderId: string, itemId: string, quantity: number, trackingNumber: string): Promise<string> {
      const fulfilled = await api.post(`/admin/orders/${orderId}/fulfillments`, { items: [{ id: itemId, quantity }], location_id: seed.stockLocation.id }, as())
      expect(fulfilled.status).toBe(200)
      const { data } = await api.get(`/admin/orders/${orderId}?fields=fulfillments.id,fulfillments.items.line_item_id`, as())
      const fulfillment = (data.order.fulfillments as Array<{ id: string; items: Array<{ line_item_id: string }> }>).find((f) => f.items.some((i) => i.line_item_id === itemId))!
      const label = { tracking_number: trackingNumber, tracking_url: `https://track.example/${trackingNumber}`, label_url: `https://labels.example/${trackingNumber}.pdf` }
      const shipped = await api.post(`/admin/orders/${orderId}/fulfillments/${fulfillment.id}/shipments`, { items: [{ id: itemId, quantity }], labels: [label] }, as())
      expect(shipped.status).toBe(200)
      return fulfillment.id
    }

    it("two shipments give two captures of exactly the reserved lines with their tracking, and Medusa's captured total agrees after each", async () => {
      // 2 coffee + 1 tea, shipping, 10 % promotion: paid on the Klarna terminal.
      const order = await createAltaPayOrder(api, seed, getContainer(), store.sandbox())
      const reserved = (await paymentOf(order.paymentId)).data.order_lines
      const transactionId = (await paymentOf(order.paymentId)).data.transaction_id
      expect(store.sandbox().transaction(transactionId)?.nature).toBe("Invoice")
      const items = await orderItems(order.orderId)
      const coffee = items.find((i) => i.variant_sku === seed.products.coffee.sku)!
      const tea = items.find((i) => i.variant_sku === seed.products.tea.sku)!

      await fulfilAndShip(order.orderId, coffee.id, 2, "PKG-1")
      const afterFirst = await eventually(
        async () => capturesSent(),
        (c) => c.length === 1
      )
      expect(afterFirst).toHaveLength(1)
      expect(store.sandbox().transaction(transactionId)?.captures[0].trackingInfo).toEqual([
        expect.objectContaining({ trackingNumber: "PKG-1", trackingUri: "https://track.example/PKG-1" }),
      ])
      // The coffee's goods and promotion lines, and the shipping line, exactly as reserved; no tea.
      const coffeeLines = reserved.filter((l) => l.description.includes(seed.products.coffee.title))
      const shippingLines = reserved.filter((l) => l.goodsType === "shipment")
      expect(coffeeLines.length).toBeGreaterThanOrEqual(2)
      const firstLines = afterFirst[0].orderLines ?? []
      expect(firstLines).toHaveLength(coffeeLines.length + shippingLines.length)
      for (const line of [...coffeeLines, ...shippingLines]) expect(firstLines.some((sent) => sameLine(sent, line))).toBe(true)
      const firstMinor = decimalToMinor(afterFirst[0].amount, "DKK")
      expect(
        await eventually(
          () => medusaCaptured(order.paymentId),
          (n) => n === firstMinor
        )
      ).toBe(firstMinor)
      expect(store.sandbox().transaction(transactionId)?.capturedMinor).toBe(firstMinor)

      const teaFulfillment = await fulfilAndShip(order.orderId, tea.id, 1, "PKG-2")
      const afterSecond = await eventually(
        async () => capturesSent(),
        (c) => c.length === 2
      )
      expect(afterSecond).toHaveLength(2)
      const teaLines = reserved.filter((l) => l.description.includes(seed.products.tea.title))
      const secondLines = afterSecond[1].orderLines ?? []
      expect(secondLines).toHaveLength(teaLines.length)
      for (const line of teaLines) expect(secondLines.some((sent) => sameLine(sent, line))).toBe(true)
      // Everything is captured, at AltaPay and in Medusa, to the minor unit.
      const total = (await paymentOf(order.paymentId)).amount
      expect(
        await eventually(
          () => medusaCaptured(order.paymentId),
          (n) => n === dkk(total)
        )
      ).toBe(dkk(total))
      expect(store.sandbox().transaction(transactionId)?.capturedMinor).toBe(dkk(total))

      // The same event again (an event bus delivers at least once) captures nothing twice.
      await getContainer()
        .resolve(Modules.EVENT_BUS)
        .emit({ name: "shipment.created", data: { id: teaFulfillment } })
      await eventsSettled(getContainer())
      expect(capturesSent()).toHaveLength(2)
    })

    it("Medusa's own Capture button with an amount that is not whole items: refused by the plugin, and the old proportional line declined by AltaPay", async () => {
      const order = await createAltaPayOrder(api, seed, getContainer(), store.sandbox())
      const { data, amount } = await paymentOf(order.paymentId)
      const part = Math.floor(dkk(amount) / 3)
      const refused = await api.post(`/admin/payments/${order.paymentId}/capture`, { amount: part / 100 }, as())
      expect(refused.status).toBe(400)
      expect(refused.data.message).toMatch(/can only be captured with its order lines exactly as reserved.*Capture items/)
      expect(capturesSent()).toHaveLength(0)
      expect(await medusaCaptured(order.paymentId)).toBe(0)

      // What the plugin sent before: one proportional line. The strict terminal declines it, saying why.
      const client = createAltaPayClient({ checkoutUrl: store.sandbox().checkoutUrl, gatewayUrl: store.sandbox().gatewayUrl, username: API_USER, password: API_PASSWORD })
      await expect(
        client.gateway.captureReservation({
          transactionId: data.transaction_id,
          amountMinor: part,
          currency: "DKK",
          orderLines: proportionalAdjustmentLine(data.order_lines, part, { itemId: "capture", description: "Partial capture" }),
        })
      ).rejects.toThrow(/does not match any order line of the reservation/)
      await client.close()
      store.sandbox().clearLedger()

      // The amount of whole items (the tea's lines) is captured with exactly those lines.
      const tea = data.order_lines.filter((l) => l.description.includes(seed.products.tea.title))
      const teaMinor = tea.reduce((n, l) => n + l.unitPriceMinor * l.quantity + l.taxAmountMinor, 0)
      const captured = await api.post(`/admin/payments/${order.paymentId}/capture`, { amount: teaMinor / 100 }, as())
      expect(captured.status).toBe(200)
      const [sent] = capturesSent()
      expect(sent.orderLines).toHaveLength(tea.length)
      for (const line of tea) expect(sent.orderLines!.some((s) => sameLine(s, line))).toBe(true)
    })

    it("refunds one unit of an item of a Klarna payment at its reserved unit price, which the strict terminal accepts", async () => {
      const order = await createAltaPayOrder(api, seed, getContainer(), store.sandbox())
      expect((await api.post(`/admin/payments/${order.paymentId}/capture`, {}, as())).status).toBe(200)
      const { data } = await paymentOf(order.paymentId)
      const coffee = (await orderItems(order.orderId)).find((i) => i.variant_sku === seed.products.coffee.sku)!
      const refund = await api.post(`/admin/altapay/payments/${order.paymentId}/refunds`, { items: [{ line_item_id: coffee.id, quantity: 1 }] }, as())
      expect({ status: refund.status, message: refund.data.message }).toEqual({ status: 200, message: undefined })
      const [sent] = store
        .sandbox()
        .ledger()
        .filter((e) => e.operation === "refundCapturedReservation")
        .map((e) => e.params as { amount: string; orderLines: SentLine[] })
      const reservedGoods = data.order_lines.find((l) => l.description === sent.orderLines[0].description && l.goodsType !== "handling")!
      expect(sent.orderLines[0]).toMatchObject({ itemId: reservedGoods.itemId, quantity: "1" })
      expect(decimalToMinor(sent.orderLines[0].unitPrice, "DKK")).toBe(reservedGoods.unitPriceMinor)
      expect(store.sandbox().transaction(data.transaction_id)?.refundedMinor).toBe(decimalToMinor(sent.amount, "DKK"))
    })

    it("refunds an item keeping a return fee as AltaPay documents it: the goods then the fee, Medusa and the panel at the goods less the fee", async () => {
      const order = await createAltaPayOrder(api, seed, getContainer(), store.sandbox())
      expect((await api.post(`/admin/payments/${order.paymentId}/capture`, {}, as())).status).toBe(200)
      const { data } = await paymentOf(order.paymentId)
      const items = await orderItems(order.orderId)
      const coffee = items.find((i) => i.variant_sku === seed.products.coffee.sku)!
      const tea = items.find((i) => i.variant_sku === seed.products.tea.sku)!
      const refundsSent = () =>
        store
          .sandbox()
          .ledger()
          .filter((e) => e.operation === "refundCapturedReservation")
          .map((e) => e.params as { amount: string; orderLines: SentLine[] })

      const refund = await api.post(
        `/admin/altapay/payments/${order.paymentId}/refunds`,
        { items: [{ line_item_id: coffee.id, quantity: 1 }], return_fee: { amount: "5.00" } },
        as()
      )
      expect({ status: refund.status, message: refund.data.message }).toEqual({ status: 200, message: undefined })

      // AltaPay: the coffee's reserved lines, then the fee as a positive handling line at the coffee's rate; the amount is the goods less the fee.
      const [sent] = refundsSent()
      const fee = sent.orderLines.at(-1)!
      const goods = sent.orderLines.slice(0, -1)
      const minor = (text: string) => decimalToMinor(text, "DKK")
      const lineMinor = (l: SentLine) => minor(l.unitPrice) * Number(l.quantity) + minor(l.taxAmount)
      expect(fee).toMatchObject({ goodsType: "handling", description: "Return fee", itemId: "return-fee", quantity: "1", taxPercent: goods[0].taxPercent })
      expect(minor(fee.unitPrice)).toBeGreaterThan(0)
      expect(lineMinor(fee)).toBe(500)
      expect(goods.length).toBeGreaterThan(0)
      expect(goods.every((l) => l.description.includes(seed.products.coffee.title))).toBe(true)
      const goodsMinor = goods.reduce((n, l) => n + lineMinor(l), 0)
      expect(minor(sent.amount)).toBe(goodsMinor - 500)
      expect(store.sandbox().transaction(data.transaction_id)?.refundedMinor).toBe(goodsMinor - 500)

      // Medusa: one refund of what the customer got back.
      const { data: medusa } = await api.get(`/admin/payments/${order.paymentId}?fields=id,captures.amount,refunds.amount`, as())
      expect((medusa.payment.refunds as Array<{ amount: number }>).map((r) => dkk(r.amount))).toEqual([goodsMinor - 500])

      // The order panel: the refund with its fee, the coffee counted as refunded, the fee not refundable.
      const { data: panel } = await api.get(`/admin/altapay/payments/${order.paymentId}`, as())
      const view = panel.altapay_payment
      expect(view.refunds).toEqual([
        expect.objectContaining({
          amount: expect.objectContaining({ minor: goodsMinor - 500 }),
          return_fee: { amount: { minor: 500, decimal: "5.00", currency: "DKK" }, tax_percent: Number(fee.taxPercent) },
        }),
      ])
      expect(view.refundable.items.find((i: { line_item_id: string }) => i.line_item_id === coffee.id)).toMatchObject({ refunded_quantity: 1, refundable_quantity: 1 })
      const captured = (medusa.payment.captures as Array<{ amount: number }>).reduce((n, c) => n + dkk(c.amount), 0)
      expect(view.refundable.amount.minor).toBe(captured - goodsMinor)

      // A fee of the whole goods or more is refused, nothing sent.
      const tooMuch = await api.post(
        `/admin/altapay/payments/${order.paymentId}/refunds`,
        { items: [{ line_item_id: tea.id, quantity: 1 }], return_fee: { amount: "1000.00" } },
        as()
      )
      expect(tooMuch.status).toBe(400)
      expect(tooMuch.data.message).toMatch(/The return fee of 1000\.00 DKK is not less than the .* DKK of goods refunded/)
      expect(refundsSent()).toHaveLength(1)
    })

    it("order edits before shipping keep Klarna's reservation, updated to the order's new total and lines, as the new collection's payment, whose shipment captures them", async () => {
      // Medusa, confirming an edit of an order whose payment is authorized, cancels that payment and asks a
      // new collection for the edited total (core-flows createOrUpdateOrderPaymentCollection, medusajs/medusa#14984).
      const order = await createAltaPayOrder(api, seed, getContainer(), store.sandbox(), { promotion: false })
      const transactionId = (await paymentOf(order.paymentId)).data.transaction_id
      const items = await orderItems(order.orderId)
      const tea = items.find((i) => i.variant_sku === seed.products.tea.sku)!
      const coffee = items.find((i) => i.variant_sku === seed.products.coffee.sku)!
      const reservedBefore = store.sandbox().transaction(transactionId)!.invoiceLines!.length

      /** One edit through Medusa's admin order-edit routes, as its order page makes it (:id is the order's); the new total. */
      async function edit(itemId: string, quantity: number): Promise<number> {
        expect((await api.post("/admin/order-edits", { order_id: order.orderId }, as())).status).toBe(200)
        expect((await api.post(`/admin/order-edits/${order.orderId}/items/item/${itemId}`, { quantity }, as())).status).toBe(200)
        expect((await api.post(`/admin/order-edits/${order.orderId}/request`, {}, as())).status).toBe(200)
        expect((await api.post(`/admin/order-edits/${order.orderId}/confirm`, {}, as())).status).toBe(200)
        const { data } = await api.get(`/admin/orders/${order.orderId}?fields=id,total`, as())
        return dkk(data.order.total)
      }
      /** The order's payment Medusa has not canceled, once the subscriber recorded it for `amountMinor`. */
      const paymentFor = (amountMinor: number) =>
        eventually(
          async () => (await orderPayments(getContainer(), order.orderId)).find((p) => !p.canceled_at && dkk(p.amount) === amountMinor),
          (p) => !!p
        )
      const updatesAndReleases = () =>
        store
          .sandbox()
          .ledger()
          .filter((e) => e.operation === "updateOrder" || e.operation === "releaseReservation")

      const withoutTea = await edit(tea.id, 0)
      // AltaPay still holds the reservation, now for the edited order's total and lines: not released.
      const held = store.sandbox().transaction(transactionId)!
      expect(held.status).not.toBe("released")
      expect(held.reservedMinor).toBe(withoutTea)
      expect(updatesAndReleases()).toMatchObject([{ operation: "updateOrder", status: 200 }])
      // The tea's line is gone; the coffee's and the shipping's stay (lines name items by SKU).
      expect(held.invoiceLines).toHaveLength(reservedBefore - 1)
      expect(held.invoiceLines?.map((l) => l.fields.itemId)).toContain(coffee.variant_sku)
      expect(held.invoiceLines?.map((l) => l.fields.itemId)).not.toContain(tea.variant_sku)

      // The subscriber records it as the payment of the collection Medusa made for the edited total.
      const carried = await paymentFor(withoutTea)
      expect(carried!.id).not.toBe(order.paymentId)
      expect(carried!.data.transaction_id).toBe(transactionId)
      expect((carried!.data.order_lines as OrderLine[]).map((l) => l.itemId)).toEqual(held.invoiceLines?.map((l) => l.fields.itemId))

      // A second edit (one coffee less) lowers the same reservation again and carries it on.
      const oneCoffee = await edit(coffee.id, 1)
      expect(oneCoffee).toBeLessThan(withoutTea)
      expect(store.sandbox().transaction(transactionId)?.reservedMinor).toBe(oneCoffee)
      expect(updatesAndReleases()).toMatchObject([{ operation: "updateOrder" }, { operation: "updateOrder", status: 200 }])
      const carriedAgain = await paymentFor(oneCoffee)
      expect(carriedAgain!.id).not.toBe(carried!.id)
      expect(carriedAgain!.data.transaction_id).toBe(transactionId)

      // Shipping the coffee captures (captureOn: shipment) the lines AltaPay now reserves: the strict terminal accepts them.
      await fulfilAndShip(order.orderId, coffee.id, 1, "PKG-EDIT")
      const [capture] = await eventually(
        async () => capturesSent(),
        (c) => c.length === 1
      )
      const kept = carriedAgain!.data.order_lines as OrderLine[]
      expect(capture.orderLines).toHaveLength(kept.length)
      for (const line of kept) expect(capture.orderLines!.some((sent) => sameLine(sent, line))).toBe(true)
      expect(store.sandbox().transaction(transactionId)?.capturedMinor).toBe(oneCoffee)
      expect(
        await eventually(
          () => medusaCaptured(carriedAgain!.id),
          (n) => n === oneCoffee
        )
      ).toBe(oneCoffee)
    })
  },
})

// The same store (Klarna, captureOn "shipment") runs the races of capture on shipment, captures after order edits, the refunds after the sale, and exchanges and claims.
storeSuites({
  cwd: STORE_APP_DIR,
  suites: {
    "item captures": itemCaptures,
    "capture-on-fulfillment races": captureOnFulfillmentRaces,
    "order edits, then item captures and refunds": editsThenItemCaptures,
    "a Klarna order after the sale": klarnaAfterSale,
    "Klarna exchanges and claims at two VAT rates": klarnaExchangesClaims,
  },
})
