/**
 * Medusa's order edits (POST /admin/order-edits, items add/update, request, confirm) on an order
 * paid with AltaPay and not yet captured in full, then the plugin's item captures
 * (/admin/altapay/payments/:id/captures), its capture on shipment (captureOn "shipment") and its
 * item refunds (/admin/altapay/payments/:id/refunds). Run by item-captures.spec.ts's store (Klarna's
 * strict invoice terminal, captureOn "shipment"), through probe-edits.spec.ts.
 *
 * What a merchant relies on, whatever the edit:
 * - AltaPay never captures more than the order's current items are worth, nor more than it reserved;
 *   an item (or unit) no longer on the order is never captured, nor refunded;
 * - each capture's and refund's order lines add up to its amount;
 * - AltaPay's captured and refunded totals equal Medusa's captures and refunds and the order's transactions;
 * - what the panel says is left to capture is what the order's items still owe;
 * - a refusal is a clear 4xx, and nothing reaches AltaPay.
 *
 * The order: 2 coffee (89.95) + 1 tea (45.50), 10 % promotion, 25 % VAT, shipping 49.00: 314.83 DKK
 * (a coffee 101.19375, the tea 51.1875, shipping 61.25).
 */
import { ContainerRegistrationKeys, Modules } from "@medusajs/framework/utils"
import uncertainMoneyJob from "../../src/jobs/altapay-uncertain-money"
import paymentSessionsJob from "../../src/jobs/altapay-payment-sessions"
import { decimalToMinor } from "../../src/altapay"
import { toMinorUnits } from "../../src/lib/medusa-mapping/amounts"
import { altapayStore, cleanSandboxEachTest } from "../../tools/test-store/store-app/altapay-store"
import { storeSuite } from "../../tools/test-store/store-app/runner"
import { adminOfSeededStore, createCoffeeTeaOrder, type CoffeeTeaOrder, eventually, orderPayments, type Api, type ApiResponse, expectOk } from "../../tools/test-store/store"
import { eventsSettled } from "../../tools/test-store/store-app/events-settled"

const store = altapayStore()
const dkk = (amount: unknown) => toMinorUnits(amount as number, "DKK")
const sum = (xs: number[]) => xs.reduce((n, x) => n + x, 0)

type Line = Record<string, string>
const lineMinor = (l: Line) => decimalToMinor(l.unitPrice, "DKK") * Number(l.quantity) + decimalToMinor(l.taxAmount ?? "0", "DKK")

type PaidOrder = CoffeeTeaOrder

export default storeSuite({
  testSuite: ({ api: rawApi, getContainer }) => {
    const api = rawApi as unknown as Api
    const shop = adminOfSeededStore(api, getContainer, { promotion: { code: "TEN", percent: 10 } })
    const as = shop.as
    cleanSandboxEachTest()

    /** 2 coffee + 1 tea + shipping, 10 % off, authorized on the Klarna terminal (314.83 DKK). */
    async function paidOrder(): Promise<PaidOrder> {
      return createCoffeeTeaOrder(api, shop.seed, getContainer(), store.sandbox())
    }

    /** One order edit through Medusa's admin routes, as its order page makes it; the order's new total in minor units. */
    async function edit(order: PaidOrder, changes: Array<() => Promise<ApiResponse>>): Promise<number> {
      expectOk("edit", await api.post("/admin/order-edits", { order_id: order.orderId }, as()))
      for (const change of changes) expectOk("edit change", await change())
      expectOk("edit request", await api.post(`/admin/order-edits/${order.orderId}/request`, {}, as()))
      expectOk("edit confirm", await api.post(`/admin/order-edits/${order.orderId}/confirm`, {}, as()))
      const { data } = await api.get(`/admin/orders/${order.orderId}?fields=id,total`, as())
      return dkk(data.order.total)
    }
    const setQuantity = (order: PaidOrder, itemId: string, quantity: number) => () => api.post(`/admin/order-edits/${order.orderId}/items/item/${itemId}`, { quantity }, as())
    const addTea = (order: PaidOrder, quantity: number) => () =>
      api.post(`/admin/order-edits/${order.orderId}/items`, { items: [{ variant_id: shop.seed.products.tea.variantId, quantity }] }, as())

    /** The order's items now (a removed item stays with quantity 0). */
    async function itemsOf(order: PaidOrder) {
      const { data } = await api.get(`/admin/orders/${order.orderId}?fields=id,total,items.id,items.quantity,items.variant_sku,items.total`, as())
      return data.order.items as Array<{ id: string; quantity: number; variant_sku: string; total: number }>
    }

    /** Fulfils and ships `quantity` of an item (the store captures on shipment). */
    async function fulfilAndShip(order: PaidOrder, itemId: string, quantity: number, tracking: string): Promise<ApiResponse> {
      const fulfilled = await api.post(`/admin/orders/${order.orderId}/fulfillments`, { items: [{ id: itemId, quantity }], location_id: shop.seed.stockLocation.id }, as())
      if (fulfilled.status !== 200) return fulfilled
      const { data } = await api.get(`/admin/orders/${order.orderId}?fields=fulfillments.id,fulfillments.shipped_at,fulfillments.items.line_item_id`, as())
      const fulfillment = (data.order.fulfillments as Array<{ id: string; shipped_at: unknown; items: Array<{ line_item_id: string }> }>).find(
        (f) => !f.shipped_at && f.items.some((i) => i.line_item_id === itemId)
      )!
      const label = { tracking_number: tracking, tracking_url: `https://track.example/${tracking}`, label_url: `https://labels.example/${tracking}.pdf` }
      return api.post(`/admin/orders/${order.orderId}/fulfillments/${fulfillment.id}/shipments`, { items: [{ id: itemId, quantity }], labels: [label] }, as())
    }

    const sent = (operation: string) =>
      store
        .sandbox()
        .ledger()
        .filter((e) => e.operation === operation && e.status === 200)
        .map((e) => e.params as { amount: string; orderLines?: Line[] })
    const capturesSent = () => sent("captureReservation")
    const refundsSent = () => sent("refundCapturedReservation")

    /** Ships the tea, whose shipment captures it and the shipping: that capture, once its subscriber has ended. */
    async function shipTheTea(order: PaidOrder) {
      expect((await fulfilAndShip(order, order.tea, 1, "PKG-TEA")).status).toBe(200)
      const [capture] = await eventually(
        async () => capturesSent(),
        (c) => c.length === 1
      )
      await quiet()
      return capture
    }

    /** Ships both coffees after an edit removed the tea: that shipment captures the whole edited order, `totalMinor`. */
    async function shipTheCoffees(order: PaidOrder, totalMinor: number) {
      expect((await fulfilAndShip(order, order.coffee, 2, "PKG-COFFEE")).status).toBe(200)
      await eventually(
        async () => capturesSent(),
        (c) => c.length === 1
      )
      await quiet()
      expect(sum(capturesSent().map((c) => decimalToMinor(c.amount, "DKK")))).toBe(totalMinor)
    }

    /** Waits until Medusa's subscribers are done (a capture running in one has ended). */
    const quiet = () => eventsSettled(getContainer())

    /** AltaPay's books against Medusa's: every payment of the order, and the order's capture and refund transactions. */
    async function books(order: PaidOrder) {
      const t = store.sandbox().transaction(order.transactionId)!
      const { data } = await getContainer()
        .resolve(ContainerRegistrationKeys.QUERY)
        .graph({
          entity: "order",
          fields: ["id", "total", "transactions.reference", "transactions.amount", "payment_collections.payments.captures.amount", "payment_collections.payments.refunds.amount"],
          filters: { id: order.orderId },
        })
      const row = data[0] as {
        total: unknown
        transactions: Array<{ reference: string; amount: unknown }>
        payment_collections: Array<{ payments: Array<{ captures?: Array<{ amount: unknown }>; refunds?: Array<{ amount: unknown }> }> }>
      }
      const payments = row.payment_collections.flatMap((c) => c.payments ?? [])
      return {
        altapay: { reservedMinor: t.reservedMinor, capturedMinor: t.capturedMinor, refundedMinor: t.refundedMinor },
        medusa: {
          capturedMinor: sum(payments.flatMap((p) => (p.captures ?? []).map((c) => dkk(c.amount)))),
          refundedMinor: sum(payments.flatMap((p) => (p.refunds ?? []).map((r) => dkk(r.amount)))),
        },
        booked: {
          capturedMinor: sum(row.transactions.filter((x) => x.reference === "capture").map((x) => dkk(x.amount))),
          refundedMinor: 0 - sum(row.transactions.filter((x) => x.reference === "refund").map((x) => dkk(x.amount))) || 0,
        },
        orderTotalMinor: dkk(row.total),
      }
    }
    /** AltaPay's, Medusa's and the order's captured and refunded totals agree; every capture's and refund's lines add up to it. */
    async function expectBooksAgree(order: PaidOrder) {
      const b = await books(order)
      expect({ medusa: b.medusa, booked: b.booked }).toEqual({
        medusa: { capturedMinor: b.altapay.capturedMinor, refundedMinor: b.altapay.refundedMinor },
        booked: { capturedMinor: b.altapay.capturedMinor, refundedMinor: b.altapay.refundedMinor },
      })
      for (const op of [...capturesSent(), ...refundsSent()]) {
        expect({ amount: decimalToMinor(op.amount, "DKK"), lines: sum((op.orderLines ?? []).map(lineMinor)) }).toEqual({
          amount: decimalToMinor(op.amount, "DKK"),
          lines: decimalToMinor(op.amount, "DKK"),
        })
      }
      expect(b.altapay.capturedMinor).toBeLessThanOrEqual(b.altapay.reservedMinor)
      return b
    }

    const captureState = async (paymentId: string) => (await api.get(`/admin/altapay/payments/${paymentId}/captures`, as())).data.capture_state
    /** The order's AltaPay payment Medusa has not canceled, once recorded for `amountMinor` (an edit's carried reservation). */
    const livePaymentFor = (order: PaidOrder, amountMinor: number) =>
      eventually(
        async () => (await orderPayments(getContainer(), order.orderId)).find((p) => !p.canceled_at && dkk(p.amount) === amountMinor),
        (p) => !!p
      )

    it("an edit raising a quantity before capture: the reservation is released, item captures are refused with a 400 and the shipment captures nothing", async () => {
      const order = await paidOrder()
      const total = await edit(order, [setQuantity(order, order.coffee, 3)])
      expect(total).toBeGreaterThan(31483)
      // AltaPay does not raise a reservation: released, the payment canceled, the new total due in a new collection.
      await eventually(
        async () => store.sandbox().transaction(order.transactionId)!.status,
        (s) => s === "released"
      )
      expect(store.sandbox().transaction(order.transactionId)!.status).toBe("released")
      const payments = await orderPayments(getContainer(), order.orderId)
      expect(payments.filter((p) => !p.canceled_at)).toHaveLength(0)

      const state = await captureState(order.paymentId)
      expect(state).toMatchObject({ available: false, reason: expect.stringMatching(/canceled/) })
      const refused = await api.post(`/admin/altapay/payments/${order.paymentId}/captures`, { items: [{ line_item_id: order.coffee, quantity: 2 }] }, as())
      expect({ status: refused.status, message: refused.data.message }).toEqual({ status: 400, message: expect.stringMatching(/canceled/) })

      expect((await fulfilAndShip(order, order.coffee, 3, "PKG-RAISED")).status).toBe(200)
      await quiet()
      expect(capturesSent()).toEqual([])
      const b = await expectBooksAgree(order)
      expect(b.altapay.capturedMinor).toBe(0)
    })

    it("an edit removing the tea before capture: the tea cannot be captured nor refunded by item, the coffee's capture and refund take its reserved lines", async () => {
      const order = await paidOrder()
      const total = await edit(order, [setQuantity(order, order.tea, 0)])
      const carried = await livePaymentFor(order, total)
      expect(carried).toBeDefined()
      expect(store.sandbox().transaction(order.transactionId)!.reservedMinor).toBe(total)

      // The tea is no longer on the order: refused, nothing sent.
      const state = await captureState(carried!.id)
      expect(state.available).toBe(true)
      expect(state.remaining_minor).toBe(total)
      const teaCapture = await api.post(`/admin/altapay/payments/${carried!.id}/captures`, { items: [{ line_item_id: order.tea, quantity: 1 }] }, as())
      expect(teaCapture.status).toBe(400)
      expect(capturesSent()).toEqual([])

      // Shipping the coffee captures the coffee and the shipping: all the order now holds.
      await shipTheCoffees(order, total)

      const teaRefund = await api.post(`/admin/altapay/payments/${carried!.id}/refunds`, { items: [{ line_item_id: order.tea, quantity: 1 }] }, as())
      expect(teaRefund.status).toBe(400)
      expect(refundsSent()).toEqual([])
      const coffeeRefund = await api.post(`/admin/altapay/payments/${carried!.id}/refunds`, { items: [{ line_item_id: order.coffee, quantity: 1 }] }, as())
      expect({ status: coffeeRefund.status, message: coffeeRefund.data.message }).toEqual({ status: 200, message: undefined })
      // One coffee with the promotion and VAT: 101.19 (or 101.20) DKK.
      expect(Math.abs(decimalToMinor(refundsSent()[0].amount, "DKK") - 10119)).toBeLessThanOrEqual(1)
      await expectBooksAgree(order)
    })

    it("an edit lowering an uncaptured item after a partial capture: the panel offers, and item captures and the shipment take, no more than the order still owes", async () => {
      const order = await paidOrder()
      // The tea ships first: its lines and the shipping are captured.
      await shipTheTea(order)
      const capturedFirst = (await books(order)).altapay.capturedMinor
      // Then one coffee less: Medusa's new total (it keeps the coffee's promotion as it was for two).
      const total = await edit(order, [setQuantity(order, order.coffee, 1)])
      expect(total).toBeLessThan(31483)
      store.sandbox().clearLedger()

      const state = await captureState(order.paymentId)
      const two = await api.post(`/admin/altapay/payments/${order.paymentId}/captures`, { items: [{ line_item_id: order.coffee, quantity: 2 }] }, as())
      const one = await api.post(`/admin/altapay/payments/${order.paymentId}/captures`, { items: [{ line_item_id: order.coffee, quantity: 1 }] }, as())
      const { data: panel } = await api.get(`/admin/altapay/payments/${order.paymentId}`, as())
      // The one coffee left ships.
      expect((await fulfilAndShip(order, order.coffee, 1, "PKG-COFFEE")).status).toBe(200)
      await quiet()
      const b = await expectBooksAgree(order)
      // What the order still owes: the one coffee left (89.95 DKK); AltaPay still holds two coffees' lines (202.39 DKK).
      expect({
        offeredToCapture: state.remaining_minor,
        panelSaysCapturable: panel.altapay_payment.reservation_left && !panel.altapay_payment.reservation_left.abandoned ? panel.altapay_payment.reservation_left.amount.minor : 0,
        twoCoffees: two.status >= 400 && two.status < 500,
        altapayCapturedWithinOrder: b.altapay.capturedMinor <= total,
      }).toEqual({
        offeredToCapture: total - capturedFirst,
        panelSaysCapturable: total - capturedFirst,
        twoCoffees: true,
        altapayCapturedWithinOrder: true,
      })
      expect(one.status).toBeLessThan(500)
    })

    it("item refund of a captured item after an edit lowered an uncaptured one: the tea comes back at what was captured for it, with its reserved lines", async () => {
      const order = await paidOrder()
      const teaCapture = await shipTheTea(order)
      const teaLines = (teaCapture.orderLines ?? []).filter((l) => l.goodsType !== "shipment")
      const teaMinor = sum(teaLines.map(lineMinor))
      expect(Math.abs(teaMinor - 5119)).toBeLessThanOrEqual(1)
      await edit(order, [setQuantity(order, order.coffee, 1)])

      const refund = await api.post(`/admin/altapay/payments/${order.paymentId}/refunds`, { items: [{ line_item_id: order.tea, quantity: 1 }] }, as())
      expect({ status: refund.status, message: refund.data.message }).toEqual({ status: 200, message: undefined })
      const [sentRefund] = refundsSent()
      expect(decimalToMinor(sentRefund.amount, "DKK")).toBe(teaMinor)
      expect((sentRefund.orderLines ?? []).map((l) => ({ ...l, itemId: l.itemId }))).toEqual(
        teaLines.map((l) => expect.objectContaining({ unitPrice: l.unitPrice, quantity: l.quantity }))
      )
      await expectBooksAgree(order)
    })

    it("an edit that lowers a coffee and adds a tea (an order with a promotion): the kept reservation's lines are what item captures and shipments take, to the order's new total", async () => {
      const order = await paidOrder()
      const total = await edit(order, [setQuantity(order, order.coffee, 1), addTea(order, 1)])
      const items = (await itemsOf(order)).filter((i) => Number(i.quantity) > 0)
      expect(items).toHaveLength(3)
      const newTea = items.find((i) => i.variant_sku === shop.seed.products.tea.sku && i.id !== order.tea)!
      // Medusa prices the added tea without the promotion (56.88) and keeps the coffee's for two units: the order's total is Medusa's.
      const carried = await livePaymentFor(order, total)
      expect(carried).toBeDefined()
      expect(store.sandbox().transaction(order.transactionId)!.reservedMinor).toBe(total)

      const state = await captureState(carried!.id)
      expect({ available: state.available, reason: state.reason, remaining: state.remaining_minor }).toEqual({ available: true, reason: undefined, remaining: total })
      // The new tea by item: its lines as AltaPay now reserves them (the strict terminal checks).
      const capture = await api.post(`/admin/altapay/payments/${carried!.id}/captures`, { items: [{ line_item_id: newTea.id, quantity: 1 }] }, as())
      expect({ status: capture.status, message: capture.data.message }).toEqual({ status: 200, message: undefined })
      // The rest ships.
      expect((await fulfilAndShip(order, order.coffee, 1, "PKG-C"))?.status).toBe(200)
      expect((await fulfilAndShip(order, order.tea, 1, "PKG-T"))?.status).toBe(200)
      await quiet()
      const b = await expectBooksAgree(order)
      expect(b.altapay.capturedMinor).toBe(total)
    })
    it("an edit removing the tea after the coffee and shipping were captured: the order is paid, and neither the panel nor any capture offers the tea's reservation", async () => {
      const order = await paidOrder()
      expect((await fulfilAndShip(order, order.coffee, 2, "PKG-COFFEE")).status).toBe(200)
      await eventually(
        async () => capturesSent(),
        (c) => c.length === 1
      )
      await quiet()
      const total = await edit(order, [setQuantity(order, order.tea, 0)])
      const captured = (await books(order)).altapay.capturedMinor
      expect(captured).toBe(total)
      store.sandbox().clearLedger()

      const teaCapture = await api.post(`/admin/altapay/payments/${order.paymentId}/captures`, { items: [{ line_item_id: order.tea, quantity: 1 }] }, as())
      const medusaCapture = await api.post(`/admin/payments/${order.paymentId}/capture`, {}, as())
      const teaRefund = await api.post(`/admin/altapay/payments/${order.paymentId}/refunds`, { items: [{ line_item_id: order.tea, quantity: 1 }] }, as())
      await quiet()
      expect({
        teaCapture: teaCapture.status,
        medusaCapture: medusaCapture.status,
        teaRefund: teaRefund.status,
        sent: store
          .sandbox()
          .ledger()
          .filter((e) => e.api === "gateway" && /capture|refund/i.test(e.operation)),
      }).toEqual({ teaCapture: 400, medusaCapture: 400, teaRefund: 400, sent: [] })
      // Medusa's Capture of the rest is refused too (by Medusa itself: the rest is more than the order's payment may still capture).
      expect(medusaCapture.status).toBeLessThan(500)
      const b = await expectBooksAgree(order)
      expect(b.altapay.capturedMinor).toBe(total)
      // The panel: nothing owed on the order; what AltaPay still holds is not offered as capturable.
      const { data: panel } = await api.get(`/admin/altapay/payments/${order.paymentId}`, as())
      const state = await captureState(order.paymentId)
      expect({
        reservationLeft: panel.altapay_payment.reservation_left?.amount?.minor ?? 0,
        canBeCaptured: panel.altapay_payment.reservation_left ? !panel.altapay_payment.reservation_left.abandoned : false,
        remaining: state.remaining_minor,
      }).toEqual({
        reservationLeft: 31483 - total,
        canBeCaptured: false,
        remaining: 0,
      })
    })
    /** updateOrder made without an answer, and AltaPay's payments look-up failing meanwhile. */
    const LOST_WHILE_UNASKABLE = [
      { route: "updateOrder", kind: "lost-answer" },
      { route: "payments", kind: "503", skip: 0, times: Infinity },
    ] as const

    /**
     * An edit removing the tea, confirmed while AltaPay's updateOrder fails (`faults`), an hour before the follow-up
     * runs (`{ justNow: true }`: a moment ago). Medusa's edit goes on when its cancel of the old payment fails:
     * confirmed, the old payment live, a new collection waiting. Returns the order's new total; AltaPay answers again.
     */
    async function editWhileUpdateFails(
      order: PaidOrder,
      faults: ReadonlyArray<Parameters<ReturnType<typeof store.sandbox>["faults"]["add"]>[0]>,
      { justNow = false }: { justNow?: boolean } = {}
    ) {
      for (const fault of faults) store.sandbox().faults.add(fault)
      const total = await edit(order, [setQuantity(order, order.tea, 0)])
      await quiet()
      store.sandbox().faults.clear()
      expect((await orderPayments(getContainer(), order.orderId)).filter((p) => !p.canceled_at).map((p) => dkk(p.amount))).toEqual([31483])
      if (justNow) return total
      const orders = getContainer().resolve(Modules.ORDER)
      const [change] = (await orders.listOrderChanges({ order_id: order.orderId, status: "confirmed" })).filter((c) => c.change_type === "edit")
      await orders.updateOrderChanges([{ id: change.id, confirmed_at: new Date(Date.now() - 60 * 60 * 1000) }])
      return total
    }

    /**
     * The follow-up job's run counts `outcome` and completes the edit: the reservation, updated once, pays the edited
     * order alone, the feed says `notice`, and shipping the coffees captures it.
     */
    async function expectFollowUpCompletes(order: PaidOrder, total: number, outcome: "recorded" | "made", notice: string) {
      const run = await uncertainMoneyJob(getContainer())
      expect({ outcome: run.counts[outcome], needs: run.counts["needs the merchant"] ?? 0 }).toEqual({ outcome: 1, needs: 0 })
      const carried = await livePaymentFor(order, total)
      expect((await orderPayments(getContainer(), order.orderId)).filter((p) => !p.canceled_at).map((p) => p.id)).toEqual([carried!.id])
      expect(store.sandbox().transaction(order.transactionId)!).toMatchObject({ reservedMinor: total, status: expect.not.stringMatching(/released/) })
      const updatesMade = store
        .sandbox()
        .ledger()
        .filter((e) => e.operation === "updateOrder" && (e.status === 200 || e.fault === "lost-answer"))
      expect(updatesMade).toHaveLength(1)
      const notices = await getContainer().resolve(Modules.NOTIFICATION).listNotifications({ channel: "feed" })
      expect(notices.map((n) => n.data?.title)).toContain(notice)
      await shipTheCoffees(order, total)
      await expectBooksAgree(order)
    }

    it("an edit whose reservation update got no answer while AltaPay could not be asked: the follow-up completes the edit, sending no second update", async () => {
      const order = await paidOrder()
      const total = await editWhileUpdateFails(order, LOST_WHILE_UNASKABLE)
      await expectFollowUpCompletes(order, total, "recorded", "AltaPay: an unanswered movement recorded")
    })

    it("an edit whose reservation update AltaPay answered with 503s: the follow-up makes the update once AltaPay answers, and completes the edit", async () => {
      const order = await paidOrder()
      const total = await editWhileUpdateFails(order, [{ route: "updateOrder", kind: "503", skip: 0, times: Infinity }])
      await expectFollowUpCompletes(order, total, "made", "AltaPay: an order edit's reservation update made")
    })

    it("an edit whose reservation update got no answer, then the merchant cancels the order: the reservation is released and the follow-up neither updates nor alarms", async () => {
      const order = await paidOrder()
      await editWhileUpdateFails(order, LOST_WHILE_UNASKABLE)
      expect((await api.post(`/admin/orders/${order.orderId}/cancel`, {}, as())).status).toBe(200)
      await quiet()
      expect(store.sandbox().transaction(order.transactionId)!.status).toBe("released")
      const run = await uncertainMoneyJob(getContainer())
      // The release recorded AltaPay's lowered reservation on the canceled payment: nothing left to do, nothing to tell.
      expect({ made: run.counts.made ?? 0, needs: run.counts["needs the merchant"] ?? 0 }).toEqual({ made: 0, needs: 0 })
      const notices = await getContainer().resolve(Modules.NOTIFICATION).listNotifications({ channel: "feed" })
      expect(notices.map((n) => n.data?.title)).not.toContain("AltaPay: an unanswered movement needs you")
      expect(
        store
          .sandbox()
          .ledger()
          .filter((e) => e.operation === "updateOrder")
      ).toHaveLength(1)
      expect((await orderPayments(getContainer(), order.orderId)).filter((p) => !p.canceled_at)).toEqual([])
    })

    it("an edit whose reservation update AltaPay answered with 503s, then the merchant cancels the order minutes later: the reservation is released, not kept for the edit", async () => {
      const order = await paidOrder()
      await editWhileUpdateFails(order, [{ route: "updateOrder", kind: "503", skip: 0, times: Infinity }], { justNow: true })
      // Within the edit's minutes Medusa's cancel of the order looks like the edit's own cancel to the provider.
      expect((await api.post(`/admin/orders/${order.orderId}/cancel`, {}, as())).status).toBe(200)
      await quiet()
      expect(store.sandbox().transaction(order.transactionId)!.status).toBe("released")
      expect((await orderPayments(getContainer(), order.orderId)).filter((p) => !p.canceled_at)).toEqual([])
      const run = await uncertainMoneyJob(getContainer())
      expect({ made: run.counts.made ?? 0, needs: run.counts["needs the merchant"] ?? 0 }).toEqual({ made: 0, needs: 0 })
      expect(store.sandbox().transaction(order.transactionId)!.status).toBe("released")
    })

    /**
     * An edit removing the tea, kept at AltaPay (updateOrder made) while the carried session cannot authorize: it does
     * so only once AltaPay's record is read, and that look-up answers 503. The new collection waits, unpaid.
     */
    async function editWhileCarryFails(order: PaidOrder): Promise<number> {
      store.sandbox().faults.add({ route: "payments", kind: "503", skip: 0, times: Infinity })
      const total = await edit(order, [setQuantity(order, order.tea, 0)])
      await quiet()
      store.sandbox().faults.clear()
      expect(store.sandbox().transaction(order.transactionId)!).toMatchObject({ reservedMinor: total, status: "invoice_initialized" })
      expect((await orderPayments(getContainer(), order.orderId)).filter((p) => !p.canceled_at)).toEqual([])
      return total
    }
    const sessionsFollowUp = () => paymentSessionsJob(getContainer(), { scheduledFor: new Date(Date.now() + 16 * 60_000) })

    it("an edit whose kept reservation Medusa's new collection did not take at once: the follow-up records it there, and the shipment captures it", async () => {
      const order = await paidOrder()
      const total = await editWhileCarryFails(order)
      const run = await sessionsFollowUp()
      expect(run.counts).toMatchObject({ "payment recorded": 1 })
      expect((await orderPayments(getContainer(), order.orderId)).filter((p) => !p.canceled_at).map((p) => dkk(p.amount))).toEqual([total])
      await shipTheCoffees(order, total)
      await expectBooksAgree(order)
    })

    it("an edit whose kept reservation Medusa's new collection did not take, then the merchant cancels the order: the reservation is released", async () => {
      const order = await paidOrder()
      await editWhileCarryFails(order)
      expect((await api.post(`/admin/orders/${order.orderId}/cancel`, {}, as())).status).toBe(200)
      await quiet()
      expect(store.sandbox().transaction(order.transactionId)!.status).toBe("released")
      // Nothing is left for the follow-up to find, nor to tell: the merchant canceled the order.
      expect((await sessionsFollowUp()).counts).toEqual({})
      const notices = await getContainer().resolve(Modules.NOTIFICATION).listNotifications({ channel: "feed" })
      expect(notices.map((n) => n.data?.title)).toEqual([])
    })
  },
})
