/**
 * Medusa's exchanges and claims (POST /admin/exchanges, /admin/claims: inbound, outbound, request,
 * receive) on a Klarna order (AltaPay's strict invoice terminal, captureOn "shipment": a shipment
 * captures what it sent), in a shop whose prices include VAT at two rates (coffee 25 %, tea 12 %).
 * Run on item-captures.spec.ts's store.
 *
 * What a merchant relies on, whatever the flow:
 * - the reservation's lines carry each item's total and tax at its own rate, to the øre, as Medusa's
 *   order does; every capture and refund by item is accepted by the strict terminal;
 * - after every step, AltaPay's captured and refunded totals (each AltaPay payment of the order)
 *   equal Medusa's captures and refunds and the order's booked transactions;
 * - what he is owed is refunded once; what the customer still owes after an exchange of a
 *   reservation captured in part is asked once, with a payment link for exactly what Medusa says is
 *   due, and nothing more is captured on the old reservation (its lines no longer pair with the
 *   order's, and Medusa counts only what was captured as paid);
 * - a refusal reaches the admin as a clear 4xx that says what to do, never a 500 or a refund booked
 *   that AltaPay did not make.
 *
 * The order: 2 coffee (89.95 incl. 25 %) + 1 tea (45.50 incl. 12 %), 10 % promotion, shipping 49.00 incl. 25 %.
 */
import { toMinorUnits } from "../../src/lib/medusa-mapping/amounts"
import type { AltaPayPaymentData } from "../../src/lib/payment-data/data"
import { altapayStore, cleanSandboxEachTest } from "../../tools/test-store/store-app/altapay-store"
import { storeSuite } from "../../tools/test-store/store-app/runner"
import { eventsSettled } from "../../tools/test-store/store-app/events-settled"
import { entriesAgree, expectMovesAgree, linesAgainstEntries, type PaymentBooks, type WireLine } from "../../tools/test-store/payment-books"
import { adminOfSeededStore, answered, createCoffeeTeaOrder, expectOk, orderPayments, type Api, type CoffeeTeaOrder } from "../../tools/test-store/store"

const store = altapayStore()
const dkk = (amount: unknown) => toMinorUnits(amount as never, "DKK")
const sum = (xs: number[]) => xs.reduce((n, x) => n + x, 0)

export default storeSuite({
  testSuite: ({ api: rawApi, getContainer }) => {
    const api = rawApi as unknown as Api
    const shop = adminOfSeededStore(api, getContainer, { promotion: { code: "TEN", percent: 10 }, taxInclusive: true, reducedTaxRate: 12 })
    const as = shop.as
    cleanSandboxEachTest()
    const settled = () => eventsSettled(getContainer())

    /** Medusa's admin view of the order with its totals. */
    async function adminOrder(orderId: string) {
      const fields =
        "+total,+tax_total,+summary,+items.total,+items.tax_total,+items.quantity,+items.variant_sku,+shipping_methods.total,+shipping_methods.tax_total,*items.tax_lines,*shipping_methods.tax_lines"
      return expectOk("order", await api.get(`/admin/orders/${orderId}?fields=${fields}`, as())).order
    }

    /** What the admin shows as due (positive) or owed (negative). */
    async function pendingDifference(orderId: string): Promise<number> {
      const { data } = await api.get(`/admin/orders/${orderId}?fields=total,credit_line_total,+summary,*credit_lines`, as())
      return Number(data.order.summary.pending_difference)
    }

    /** The order, paid on Klarna; its reservation's lines checked against Medusa's order, item by item, at each item's rate. */
    async function klarnaOrder(): Promise<CoffeeTeaOrder> {
      const order = await createCoffeeTeaOrder(api, shop.seed, getContainer(), store.sandbox())
      const t = store.sandbox().transaction(order.transactionId)!
      expect(t.nature).toBe("Invoice")
      const reserved = t.invoiceLines!.map((l) => l.fields as WireLine)
      const medusa = await adminOrder(order.orderId)
      const items = (medusa.items as any[]).map((i) => ({
        name: i.variant_sku as string,
        match: (l: WireLine) => [i.variant_sku, `discount-${i.variant_sku}`].includes(String(l.itemId)),
        medusa: i,
      }))
      const ofNoItem = (l: WireLine) => !items.some(({ match }) => match(l))
      const entries = [...items, ...(medusa.shipping_methods as any[]).map((m) => ({ name: "shipping", match: ofNoItem, medusa: m }))]
      expect({ reserved: t.reservedMinor, rates: [...new Set(reserved.map((l) => String(l.taxPercent)))].sort(), lines: linesAgainstEntries(reserved, entries, "DKK") }).toEqual({
        reserved: dkk(medusa.total),
        rates: ["12", "25"],
        lines: entriesAgree(entries),
      })
      return order
    }

    /** Every AltaPay payment of the order: its books agree with Medusa's (expectMovesAgree). */
    async function allBooks(orderId: string): Promise<Array<PaymentBooks & { paymentId: string }>> {
      await settled()
      const payments = (await orderPayments(getContainer(), orderId)).filter((p) => (p.data as unknown as AltaPayPaymentData)?.transaction_id)
      const out: Array<PaymentBooks & { paymentId: string }> = []
      for (const p of payments) {
        const b = await expectMovesAgree(getContainer(), store.sandbox(), {
          orderId,
          paymentId: p.id,
          transactionId: (p.data as unknown as AltaPayPaymentData).transaction_id!,
          currency: "DKK",
        })
        out.push({ ...b, paymentId: p.id })
      }
      return out
    }
    const totals = (books: PaymentBooks[]) => ({
      captured: sum(books.map((b) => b.altapay.capturedMinor)),
      refunded: sum(books.map((b) => b.altapay.refundedMinor)),
    })

    /** Fulfils and ships `items` in one fulfillment (the store captures on shipment); events settled. */
    async function fulfilAndShip(orderId: string, items: Array<{ id: string; quantity: number }>, tracking: string) {
      expectOk("fulfillment", await api.post(`/admin/orders/${orderId}/fulfillments`, { items, location_id: shop.seed.stockLocation.id }, as()))
      const { data } = await api.get(`/admin/orders/${orderId}?fields=fulfillments.id,fulfillments.shipped_at,fulfillments.items.line_item_id`, as())
      const fulfillment = (data.order.fulfillments as Array<{ id: string; shipped_at: unknown; items: Array<{ line_item_id: string }> }>).find(
        (f) => !f.shipped_at && f.items.some((i) => i.line_item_id === items[0].id)
      )!
      const label = { tracking_number: tracking, tracking_url: `https://track.example/${tracking}`, label_url: `https://labels.example/${tracking}.pdf` }
      expectOk("shipment", await api.post(`/admin/orders/${orderId}/fulfillments/${fulfillment.id}/shipments`, { items, labels: [label] }, as()))
      await settled()
    }

    /** Receives a requested return's item and confirms it. */
    async function receive(returnId: string, itemId: string) {
      expectOk("receive", await api.post(`/admin/returns/${returnId}/receive`, {}, as()))
      expectOk("receive items", await api.post(`/admin/returns/${returnId}/receive-items`, { items: [{ id: itemId, quantity: 1 }] }, as()))
      expectOk("confirm receive", await api.post(`/admin/returns/${returnId}/receive/confirm`, {}, as()))
      await settled()
    }

    /** An exchange of one `inbound` for one of `outboundVariantId`, requested and received; the outbound order item's id. */
    async function exchangeReceived(orderId: string, inbound: string, outboundVariantId: string): Promise<string> {
      const before = new Set(((await adminOrder(orderId)).items as Array<{ id: string }>).map((i) => i.id))
      const id = expectOk("exchange", await api.post("/admin/exchanges", { order_id: orderId }, as())).exchange.id as string
      expectOk("inbound", await api.post(`/admin/exchanges/${id}/inbound/items`, { items: [{ id: inbound, quantity: 1 }], location_id: shop.seed.stockLocation.id }, as()))
      expectOk("outbound", await api.post(`/admin/exchanges/${id}/outbound/items`, { items: [{ variant_id: outboundVariantId, quantity: 1 }] }, as()))
      const requested = expectOk("request exchange", await api.post(`/admin/exchanges/${id}/request`, {}, as()))
      await settled()
      await receive(requested.exchange.return_id as string, inbound)
      return ((await adminOrder(orderId)).items as Array<{ id: string }>).map((i) => i.id).find((i) => !before.has(i))!
    }

    /** The order, paid on Klarna and shipped whole in one fulfillment: captured in full. */
    async function shippedKlarnaOrder(): Promise<CoffeeTeaOrder> {
      const order = await klarnaOrder()
      const all = [
        { id: order.coffee, quantity: 2 },
        { id: order.tea, quantity: 1 },
      ]
      await fulfilAndShip(order.orderId, all, "PKG-ALL")
      return order
    }

    const medusaRefund = (paymentId: string, minor: number) => api.post(`/admin/payments/${paymentId}/refund`, { amount: minor / 100 }, as())

    it("an exchange of a shipped coffee for a cheaper tea: Medusa's Refund of what the order owes is made at AltaPay once, the new tea's shipment captures nothing, nothing left owed", async () => {
      const order = await shippedKlarnaOrder()
      const captured = store.sandbox().transaction(order.transactionId)!.capturedMinor
      const outbound = await exchangeReceived(order.orderId, order.coffee, shop.seed.products.tea.variantId)
      const owedMinor = dkk(-(await pendingDifference(order.orderId)))
      expect(owedMinor).toBeGreaterThan(0)
      // A link is refused, saying the customer is owed money.
      const link = answered(await api.post("/admin/altapay/payment-links", { order_id: order.orderId }, as()))
      const refund = answered(await medusaRefund(order.paymentId, owedMinor))
      await fulfilAndShip(order.orderId, [{ id: outbound, quantity: 1 }], "PKG-NEW")
      const b = await allBooks(order.orderId)
      expect({
        link: { status: link.status, saysOwed: /owed/.test(link.message ?? "") },
        refund,
        totals: totals(b),
        settled: Math.abs(await pendingDifference(order.orderId)) < 0.005,
      }).toEqual({
        link: { status: 400, saysOwed: true },
        refund: { status: 200 },
        totals: { captured, refunded: owedMinor },
        settled: true,
      })
    })

    it("an exchange on a partly shipped Klarna order (coffee shipped and captured, tea not yet): nothing more is captured on the changed reservation, every capture says to collect what is due with a link, and the link asks exactly that", async () => {
      const order = await klarnaOrder()
      await fulfilAndShip(order.orderId, [{ id: order.coffee, quantity: 2 }], "PKG-COFFEE")
      const t = store.sandbox().transaction(order.transactionId)!
      const capturedCoffee = t.capturedMinor
      expect(capturedCoffee).toBeGreaterThan(0)
      expect(capturedCoffee).toBeLessThan(t.reservedMinor)

      // One shipped coffee back, a tea out. Medusa counts what was captured as paid and asks for the
      // rest as an amount due; the reserved tea's lines no longer pair with the changed order's.
      await exchangeReceived(order.orderId, order.coffee, shop.seed.products.tea.variantId)
      const dueMinor = Math.round((await pendingDifference(order.orderId)) * 100)
      const link = await api.post("/admin/altapay/payment-links", { order_id: order.orderId }, as())

      await fulfilAndShip(order.orderId, [{ id: order.tea, quantity: 1 }], "PKG-TEA")
      const afterTea = store.sandbox().transaction(order.transactionId)!
      const teaItems = answered(await api.post(`/admin/altapay/payments/${order.paymentId}/captures`, { items: [{ line_item_id: order.tea, quantity: 1 }] }, as()))
      const rest = afterTea.reservedMinor - afterTea.capturedMinor
      const captureRest = answered(await api.post(`/admin/payments/${order.paymentId}/capture`, { amount: rest / 100 }, as()))
      const b = await allBooks(order.orderId)
      const saysUseALink = (r: { status: number; message?: string }) => r.status >= 400 && r.status < 500 && /payment link/.test(r.message ?? "")
      expect({
        due: dueMinor > 0,
        link: { status: link.status, amount: link.data?.amount?.minor },
        reservationKept: afterTea.status !== "released" && afterTea.reservedMinor === t.reservedMinor,
        capturedAfterTea: afterTea.capturedMinor,
        teaItemsSaysUseALink: saysUseALink(teaItems),
        captureRestSaysUseALink: saysUseALink(captureRest),
        totals: totals(b),
      }).toEqual({
        due: true,
        link: { status: 200, amount: dueMinor },
        reservationKept: true,
        capturedAfterTea: capturedCoffee,
        teaItemsSaysUseALink: true,
        captureRestSaysUseALink: true,
        totals: { captured: capturedCoffee, refunded: 0 },
      })
    })

    it("a refund claim of the shipped tea (12 %): Refund items gives back the tea's captured lines at 12 %, which the strict terminal accepts, Medusa records the same, nothing left owed", async () => {
      const order = await shippedKlarnaOrder()
      const claim = expectOk("claim", await api.post("/admin/claims", { order_id: order.orderId, type: "refund" }, as())).claim
      expectOk(
        "claim inbound",
        await api.post(`/admin/claims/${claim.id}/inbound/items`, { items: [{ id: order.tea, quantity: 1 }], location_id: shop.seed.stockLocation.id }, as())
      )
      const requested = expectOk("request claim", await api.post(`/admin/claims/${claim.id}/request`, {}, as()))
      await settled()
      await receive(requested.claim.return_id as string, order.tea)
      const owedMinor = dkk(-(await pendingDifference(order.orderId)))
      const refund = await api.post(`/admin/altapay/payments/${order.paymentId}/refunds`, { items: [{ line_item_id: order.tea, quantity: 1 }], note: "Claim" }, as())
      const b = await allBooks(order.orderId)
      const lines = b[0].refundLines[0] ?? []
      expect({
        refund: answered(refund),
        refunded: refund.data?.refund?.amount?.minor,
        rates: [...new Set(lines.map((l) => String(l.taxPercent)))],
        totals: totals(b),
        settled: Math.abs(await pendingDifference(order.orderId)) < 0.005,
      }).toEqual({ refund: { status: 200 }, refunded: owedMinor, rates: ["12"], totals: { captured: b[0].altapay.capturedMinor, refunded: owedMinor }, settled: true })
    })
  },
})
