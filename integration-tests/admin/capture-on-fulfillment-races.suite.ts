/**
 * Capture on shipment (option captureOn, run by item-captures.spec.ts's store: Klarna's strict
 * invoice terminal, captureOn "shipment") when things happen at once, through Medusa's real admin
 * routes: a shipment while the first's capture is at AltaPay, a shipment while the admin presses
 * Capture, the same shipment event delivered again while its capture runs, and a capture whose
 * answer AltaPay lost followed by the next shipment. captureOn "fulfillment" runs the same code
 * (lib/item-captures/fulfillment.ts captureFulfillment) on Medusa's other event. Not here: two
 * fulfillments (or two shipments) of one order made at the same moment, which Medusa 2.21 itself
 * does not survive (both write the order's next version: each item is listed twice, and the
 * plugin then finds the order's items no longer match AltaPay's lines and captures nothing).
 *
 * What a merchant relies on, asserted after each: AltaPay's captured money equals Medusa's
 * captures and what the order books as captured, no reserved line is captured twice, and nothing
 * is captured beyond the authorization.
 */
import { ContainerRegistrationKeys, Modules } from "@medusajs/framework/utils"
import uncertainMoneyJob from "../../src/jobs/altapay-uncertain-money"
import type { AdminAltaPayHealthResponse } from "../../src/lib/health/views"
import { toMinorUnits } from "../../src/lib/medusa-mapping/amounts"
import type { AltaPayPaymentData } from "../../src/lib/payment-data/data"
import { altapayStore, cleanSandboxEachTest } from "../../tools/test-store/store-app/altapay-store"
import { storeSuite } from "../../tools/test-store/store-app/runner"
import { adminOfSeededStore, createCoffeeTeaOrder, type CoffeeTeaOrder, eventually, type Api } from "../../tools/test-store/store"
import { eventsSettled } from "../../tools/test-store/store-app/events-settled"

const store = altapayStore()
const dkk = (amount: unknown) => toMinorUnits(amount as number, "DKK")

type Line = Record<string, string>
const lineKey = (l: Line) => `${l.goodsType}|${l.itemId}|${l.description}`

type PaidOrder = CoffeeTeaOrder

export default storeSuite({
  testSuite: ({ api: rawApi, getContainer }) => {
    const api = rawApi as unknown as Api

    const shop = adminOfSeededStore(api, getContainer, { promotion: { code: "TEN", percent: 10 } })
    const as = shop.as
    cleanSandboxEachTest()
    afterEach(() => store.sandbox().faults.clear())

    /** 2 coffee + 1 tea + shipping, 10 % off, authorized on the Klarna terminal. */
    async function paidOrder(): Promise<PaidOrder> {
      return createCoffeeTeaOrder(api, shop.seed, getContainer(), store.sandbox())
    }

    const fulfil = (order: PaidOrder, itemId: string, quantity: number) =>
      api.post(`/admin/orders/${order.orderId}/fulfillments`, { items: [{ id: itemId, quantity }], location_id: shop.seed.stockLocation.id }, as())

    /** The order's fulfillment of `itemId`. */
    async function fulfillmentOf(order: PaidOrder, itemId: string): Promise<string> {
      const { data } = await api.get(`/admin/orders/${order.orderId}?fields=fulfillments.id,fulfillments.items.line_item_id`, as())
      return (data.order.fulfillments as Array<{ id: string; items: Array<{ line_item_id: string }> }>).find((f) => f.items.some((i) => i.line_item_id === itemId))!.id
    }

    const ship = (order: PaidOrder, fulfillmentId: string, itemId: string, quantity: number, tracking: string) =>
      api.post(
        `/admin/orders/${order.orderId}/fulfillments/${fulfillmentId}/shipments`,
        {
          items: [{ id: itemId, quantity }],
          labels: [{ tracking_number: tracking, tracking_url: `https://track.example/${tracking}`, label_url: `https://labels.example/${tracking}.pdf` }],
        },
        as()
      )

    /** Fulfils `quantity` of an item (nothing is captured: the store captures on shipment); the fulfillment's id. */
    async function fulfilled(order: PaidOrder, itemId: string, quantity: number): Promise<string> {
      expect((await fulfil(order, itemId, quantity)).status).toBe(200)
      return fulfillmentOf(order, itemId)
    }

    /** AltaPay's side: what it reserved and captured, and each reserved line captured more than once. */
    function altapay(order: PaidOrder) {
      const t = store.sandbox().transaction(order.transactionId)!
      const counts = new Map<string, number>()
      for (const capture of t.captures) for (const line of capture.orderLines ?? []) counts.set(lineKey(line), (counts.get(lineKey(line)) ?? 0) + 1)
      return {
        reservedMinor: t.reservedMinor,
        capturedMinor: t.capturedMinor,
        captures: t.captures.map((c) => c.amountMinor),
        linesCapturedTwice: [...counts].filter(([, n]) => n > 1).map(([k]) => k),
      }
    }

    /** Medusa's side: its captures, the plugin's record of them, and the capture bookings on the order (its summary's basis). */
    async function medusa(order: PaidOrder) {
      const payment = await getContainer()
        .resolve(Modules.PAYMENT)
        .retrievePayment(order.paymentId, { relations: ["captures"] })
      const { data } = await getContainer()
        .resolve(ContainerRegistrationKeys.QUERY)
        .graph({ entity: "order", fields: ["summary", "transactions.reference", "transactions.reference_id", "transactions.amount"], filters: { id: order.orderId } })
      const row = data[0] as { summary: Record<string, unknown>; transactions: Array<{ reference: string; reference_id: string; amount: unknown }> }
      const bookings = row.transactions.filter((t) => t.reference === "capture")
      const captures = (payment.captures ?? []).map((c) => ({ id: c.id, minor: dkk(c.amount) }))
      const pluginData = payment.data as unknown as AltaPayPaymentData
      return {
        amountMinor: dkk(payment.amount),
        capturedMinor: captures.reduce((n, c) => n + c.minor, 0),
        captures,
        bookedMinor: bookings.reduce((n, t) => n + dkk(t.amount), 0),
        /** Each Medusa capture with what the order booked for it. */
        bookedPerCapture: captures.map((c) => ({ capture: c.minor, booked: bookings.filter((t) => t.reference_id === c.id).map((t) => dkk(t.amount)) })),
        fulfillmentsCaptured: pluginData.captures.filter((c) => c.status !== "failed" && c.fulfillment_id).map((c) => c.fulfillment_id!),
        pendingCapture: pluginData.pending_capture ?? null,
        summary: row.summary,
      }
    }

    /** Waits until Medusa's subscribers are done (a capture running in one has ended). */
    const quiet = () => eventsSettled(getContainer())

    /** What a merchant relies on: AltaPay, Medusa and the order agree, nothing captured twice or beyond the authorization. */
    async function expectBooksAgree(order: PaidOrder) {
      const a = altapay(order)
      const m = await medusa(order)
      expect({
        medusaCaptured: m.capturedMinor,
        bookedOnOrder: m.bookedMinor,
        bookedPerCapture: m.bookedPerCapture,
        linesCapturedTwice: a.linesCapturedTwice,
        beyondAuthorization: Math.max(a.capturedMinor - a.reservedMinor, 0),
      }).toEqual({
        medusaCaptured: a.capturedMinor,
        bookedOnOrder: a.capturedMinor,
        bookedPerCapture: m.captures.map((c) => ({ capture: c.minor, booked: [c.minor] })),
        linesCapturedTwice: [],
        beyondAuthorization: 0,
      })
      return { a, m }
    }

    /** Waits for the order's captures to reach `minor` in Medusa, then for AltaPay to go quiet. */
    async function settledAt(order: PaidOrder, minor: number) {
      await eventually(
        () => medusa(order),
        (m) => m.capturedMinor === minor,
        30_000
      )
      await quiet()
    }

    it("a second shipment while the first's capture is at AltaPay: each item and the shipping captured once, Medusa's captures equal AltaPay's", async () => {
      const order = await paidOrder()
      const coffeeF = await fulfilled(order, order.coffee, 2)
      const teaF = await fulfilled(order, order.tea, 1)
      store.sandbox().faults.add({ route: "captureReservation", kind: "latency", ms: 1_500, times: 2 })
      expect((await ship(order, coffeeF, order.coffee, 2, "RACE-1")).status).toBe(200)
      // The coffee's capture has left its lines for the provider: it is under way.
      await eventually(
        () => medusa(order),
        (m) => m.pendingCapture !== null || m.captures.length > 0,
        10_000,
        20
      )
      expect((await ship(order, teaF, order.tea, 1, "RACE-2")).status).toBe(200)
      const total = (await medusa(order)).amountMinor
      await settledAt(order, total)
      const { a, m } = await expectBooksAgree(order)
      expect(a.captures).toHaveLength(2)
      expect(a.capturedMinor).toBe(total)
      expect([...m.fulfillmentsCaptured].sort()).toEqual([coffeeF, teaF].sort())
    })

    it("Capture pressed (in full) and a shipment at once: never more than authorized at AltaPay, Medusa's captures equal AltaPay's", async () => {
      const order = await paidOrder()
      const coffeeF = await fulfilled(order, order.coffee, 2)
      store.sandbox().faults.add({ route: "captureReservation", kind: "latency", ms: 400, times: 2 })
      const [shipped, pressed] = await Promise.all([ship(order, coffeeF, order.coffee, 2, "RACE-3"), api.post(`/admin/payments/${order.paymentId}/capture`, {}, as())])
      expect(shipped.status).toBe(200)
      await quiet()
      const { a } = await expectBooksAgree(order)
      // Whoever came first took it: the whole payment (the button), or the coffee with the shipping (then the button is refused by Medusa).
      if (pressed.status === 200) expect(a.captures).toEqual([a.reservedMinor])
      else {
        expect({ status: pressed.status, message: pressed.data.message }).toEqual({ status: 400, message: expect.stringMatching(/cannot capture more than the authorized amount/) })
        expect(a.captures).toHaveLength(1)
        expect(a.capturedMinor).toBeLessThan(a.reservedMinor)
      }
    })

    it("Capture pressed (in full) while a shipment's capture is at AltaPay: refused by Medusa, the shipment's capture recorded once", async () => {
      const order = await paidOrder()
      const coffeeF = await fulfilled(order, order.coffee, 2)
      store.sandbox().faults.add({ route: "captureReservation", kind: "latency", ms: 1_500, times: 1 })
      expect((await ship(order, coffeeF, order.coffee, 2, "RACE-4")).status).toBe(200)
      // The item capture has left its lines for the provider: its capture is under way.
      await eventually(
        () => medusa(order),
        (m) => m.pendingCapture !== null || m.captures.length > 0,
        10_000,
        20
      )
      const pressed = await api.post(`/admin/payments/${order.paymentId}/capture`, {}, as())
      await quiet()
      const { a } = await expectBooksAgree(order)
      expect(pressed.status).toBe(400)
      expect(a.captures).toHaveLength(1)
    })

    it("a shipment while Medusa's full capture is at AltaPay: the whole payment captured once, the shipment captures nothing more", async () => {
      const order = await paidOrder()
      const coffeeF = await fulfilled(order, order.coffee, 2)
      store.sandbox().faults.add({ route: "captureReservation", kind: "latency", ms: 1_500, times: 1 })
      const pressing = api.post(`/admin/payments/${order.paymentId}/capture`, {}, as())
      // Medusa has recorded the capture and is asking the provider.
      await eventually(
        () => medusa(order),
        (m) => m.captures.length > 0,
        10_000,
        20
      )
      expect((await ship(order, coffeeF, order.coffee, 2, "RACE-5")).status).toBe(200)
      expect((await pressing).status).toBe(200)
      await quiet()
      const { a } = await expectBooksAgree(order)
      expect(a.captures).toEqual([a.reservedMinor])
    })

    it("Capture pressed for the tea's amount while the coffee's shipment capture is at AltaPay: each capture booked on the order at its own amount", async () => {
      const order = await paidOrder()
      const coffeeF = await fulfilled(order, order.coffee, 2)
      const { data: state } = await api.get(`/admin/altapay/payments/${order.paymentId}/captures`, as())
      expect(state.capture_state.available).toBe(true)
      const { data: teaPreview } = await api.post(`/admin/altapay/payments/${order.paymentId}/captures`, { items: [{ line_item_id: order.tea, quantity: 1 }], preview: true }, as())
      const teaMinor = teaPreview.capture.amount_minor as number
      store.sandbox().faults.add({ route: "captureReservation", kind: "latency", ms: 1_500, times: 1 })
      expect((await ship(order, coffeeF, order.coffee, 2, "RACE-6")).status).toBe(200)
      await eventually(
        () => medusa(order),
        (m) => m.pendingCapture !== null || m.captures.length > 0,
        10_000,
        20
      )
      const pressed = await api.post(`/admin/payments/${order.paymentId}/capture`, { amount: teaMinor / 100 }, as())
      expect({ status: pressed.status, message: pressed.data.message }).toEqual({ status: 200, message: undefined })
      await quiet()
      const { a } = await expectBooksAgree(order)
      expect(a.captures).toHaveLength(2)
      expect(a.capturedMinor).toBe(a.reservedMinor)
    })

    it("the same shipment's event delivered twice more while its capture runs: captured once", async () => {
      const order = await paidOrder()
      const coffeeF = await fulfilled(order, order.coffee, 2)
      store.sandbox().faults.add({ route: "captureReservation", kind: "latency", ms: 1_000, times: 3 })
      expect((await ship(order, coffeeF, order.coffee, 2, "RACE-7")).status).toBe(200)
      const bus = getContainer().resolve(Modules.EVENT_BUS)
      await Promise.all([bus.emit({ name: "shipment.created", data: { id: coffeeF } }), bus.emit({ name: "shipment.created", data: { id: coffeeF } })])
      await eventually(
        () => medusa(order),
        (m) => m.captures.length > 0,
        20_000
      )
      await quiet()
      const { a, m } = await expectBooksAgree(order)
      expect(a.captures).toHaveLength(1)
      expect(m.fulfillmentsCaptured).toEqual([coffeeF])
    })

    it("a shipment's capture whose answer AltaPay lost (AltaPay askable), then the next shipment: each captured once, Medusa equals AltaPay", async () => {
      const order = await paidOrder()
      const coffeeF = await fulfilled(order, order.coffee, 2)
      const teaF = await fulfilled(order, order.tea, 1)
      store.sandbox().faults.add({ route: "captureReservation", kind: "lost-answer" })
      expect((await ship(order, coffeeF, order.coffee, 2, "LOST-1")).status).toBe(200)
      await eventually(
        () => medusa(order),
        (m) => m.captures.length > 0,
        20_000
      )
      await quiet()
      const first = await expectBooksAgree(order)
      expect(first.a.captures).toHaveLength(1)
      expect(
        store
          .sandbox()
          .ledger()
          .filter((e) => e.operation === "captureReservation")
      ).toHaveLength(1) // adopted, never sent again

      expect((await ship(order, teaF, order.tea, 1, "LOST-2")).status).toBe(200)
      await eventually(
        () => medusa(order),
        (m) => m.capturedMinor === m.amountMinor,
        20_000
      )
      await quiet()
      const { a, m } = await expectBooksAgree(order)
      expect(a.captures).toHaveLength(2)
      expect(a.capturedMinor).toBe(a.reservedMinor)
      expect([...m.fulfillmentsCaptured].sort()).toEqual([coffeeF, teaF].sort())
    })

    it("a shipment's capture whose answer AltaPay lost and AltaPay cannot be asked, then the next shipment: nothing captured twice, the follow-up records the first, the merchant captures the rest", async () => {
      const order = await paidOrder()
      const coffeeF = await fulfilled(order, order.coffee, 2)
      const teaF = await fulfilled(order, order.tea, 1)
      store.sandbox().faults.add({ route: "captureReservation", kind: "lost-answer" })
      store.sandbox().faults.add({ route: "payments", kind: "503", times: 3 })
      expect((await ship(order, coffeeF, order.coffee, 2, "LOST-3")).status).toBe(200)
      const health = async () => (await api.get("/admin/altapay/health", as())).data as AdminAltaPayHealthResponse
      // The merchant's health page lists the capture as uncertain on its order.
      const listed = await eventually(health, (h) => h.uncertain.some((u) => u.paymentId === order.paymentId), 20_000)
      expect(listed.uncertain).toEqual([expect.objectContaining({ kind: "capture", paymentId: order.paymentId, orderId: order.orderId })])
      store.sandbox().faults.clear()
      await quiet()
      const coffeeMinor = altapay(order).capturedMinor
      expect(coffeeMinor).toBeGreaterThan(0) // AltaPay made it
      expect((await medusa(order)).capturedMinor).toBe(0) // Medusa could not know

      // The tea ships: AltaPay shows the coffee's capture, of another amount than the tea's, so nothing is sent.
      expect((await ship(order, teaF, order.tea, 1, "LOST-4")).status).toBe(200)
      await quiet()
      expect(altapay(order)).toMatchObject({ capturedMinor: coffeeMinor, captures: [coffeeMinor], linesCapturedTwice: [] })
      expect((await medusa(order)).capturedMinor).toBe(0)

      // The follow-up job records the coffee's capture in Medusa, nothing sent again.
      await uncertainMoneyJob(getContainer())
      const recorded = await expectBooksAgree(order)
      expect(recorded.m.capturedMinor).toBe(coffeeMinor)
      expect(recorded.m.fulfillmentsCaptured).toEqual([coffeeF])
      expect((await health()).uncertain).toEqual([])

      // The tea, which its shipment did not capture, from the order page: "Capture items".
      const teaCapture = await api.post(`/admin/altapay/payments/${order.paymentId}/captures`, { items: [{ line_item_id: order.tea, quantity: 1 }] }, as())
      expect({ status: teaCapture.status, message: teaCapture.data.message }).toEqual({ status: 200, message: undefined })
      const { a } = await expectBooksAgree(order)
      expect(a.capturedMinor).toBe(a.reservedMinor)
      expect(a.captures).toHaveLength(2)
    })
  },
})
