/**
 * Two admin tabs (or a double click) moving one order's money at once, through Medusa's real admin
 * routes: "Refund items" of everything beside Medusa's full Refund, a Refund of a half øre pressed
 * three times, Cancel beside "Capture items" and "Refund items", and an order edit confirmed while
 * Capture is at AltaPay (its confirm moves the order to its next version: without the order's money
 * lock, the capture was booked on the version replaced, or lost with the confirm's rollback, and a
 * payment link asked for the captured money again). A slow AltaPay (a latency fault) makes the two
 * requests overlap; each race runs at several gaps, either first.
 *
 * Not here (covered elsewhere): Capture pressed three times (altapay-admin.suite.ts), Medusa's Refund
 * pressed three times for amounts that fit and Refund items beside Refund (refund-records.suite.ts),
 * two Refund items of the same lines (altapay-admin.suite.ts), Cancel beside Medusa's Capture and
 * Refund (order-cancel.suite.ts), two payment links at once (altapay-admin.suite.ts), shipments
 * beside Capture (capture-on-fulfillment-races.suite.ts), two captures or refunds of one payment
 * (money-door.spec.ts).
 *
 * What a merchant relies on, after every race, payment by payment: AltaPay's captures and refunds
 * (the sandbox's ledger) are Medusa's captures and refunds, one for one and to the øre, and what the
 * order books; nothing is captured beyond the authorization nor refunded beyond the capture; a
 * request answered with an error moved no money; and the loser of a race gets a 4xx saying why,
 * never a 500.
 *
 * The order: 2 coffee + 1 tea + shipping, 10 % promotion, 25 % VAT: 314.83 DKK.
 */
import { ContainerRegistrationKeys, Modules } from "@medusajs/framework/utils"
import { storeSuite } from "../../tools/test-store/store-app/runner"
import { toMinorUnits } from "../../src/lib/medusa-mapping/amounts"
import type { AltaPayPaymentData } from "../../src/lib/payment-data/data"
import { altapayStore } from "../../tools/test-store/store-app/altapay-store"
import { adminOfSeededStore, answered, type Answers, createCoffeeTeaOrder, expectOk, type Api, type ApiResponse, type CoffeeTeaOrder } from "../../tools/test-store/store"
import { eventsSettled } from "../../tools/test-store/store-app/events-settled"

const store = altapayStore()

const dkk = (amount: unknown) => toMinorUnits(amount as never, "DKK")
const sum = (xs: number[]) => xs.reduce((s, x) => s + x, 0)
const sorted = (xs: number[]) => [...xs].sort((a, b) => a - b)
const pause = (ms: number) => new Promise((r) => setTimeout(r, ms))

type Order = CoffeeTeaOrder & { amountMinor: number }
type Slow = "captureReservation" | "refundCapturedReservation" | "releaseReservation"

export default storeSuite({
  testSuite: ({ api: rawApi, getContainer }) => {
    const api = rawApi as unknown as Api
    const shop = adminOfSeededStore(api, getContainer, { promotion: { code: "TEN", percent: 10 } })
    const as = shop.as
    afterEach(() => store.sandbox().faults.clear())

    async function authorizedOrder(): Promise<Order> {
      const order = await createCoffeeTeaOrder(api, shop.seed, getContainer(), store.sandbox())
      return { ...order, amountMinor: store.sandbox().transaction(order.transactionId)!.reservedMinor }
    }
    async function capturedOrder(): Promise<Order> {
      const order = await authorizedOrder()
      expectOk("capture", await capture(order))
      return order
    }

    const capture = (order: Order, amount?: number) => api.post(`/admin/payments/${order.paymentId}/capture`, amount ? { amount } : {}, as())
    const refund = (order: Order, amount: number) => api.post(`/admin/payments/${order.paymentId}/refund`, { amount }, as())
    const cancel = (order: Order) => api.post(`/admin/orders/${order.orderId}/cancel`, {}, as())
    const captureItems = (order: Order, items: Array<[string, number]>, shipping?: boolean) =>
      api.post(`/admin/altapay/payments/${order.paymentId}/captures`, { items: items.map(([line_item_id, quantity]) => ({ line_item_id, quantity })), shipping }, as())
    const refundItems = (order: Order, items: Array<[string, number]>, shipping?: boolean) =>
      api.post(`/admin/altapay/payments/${order.paymentId}/refunds`, { items: items.map(([line_item_id, quantity]) => ({ line_item_id, quantity })), shipping }, as())

    /** AltaPay's books (the sandbox: its ledger and the transaction) and Medusa's records of the order's AltaPay payment, in minor units. */
    async function books(order: Order) {
      const effects = store
        .sandbox()
        .ledger()
        .flatMap((e) => e.effects ?? [])
        .filter((f) => f.transactionId === order.transactionId && f.result === "Success")
      const moved = (type: string) => effects.filter((f) => f.type === type).map((f) => f.amountMinor)
      const t = store.sandbox().transaction(order.transactionId)!
      const payment = await getContainer()
        .resolve(Modules.PAYMENT)
        .retrievePayment(order.paymentId, { relations: ["captures", "refunds"] })
      const { data } = await getContainer()
        .resolve(ContainerRegistrationKeys.QUERY)
        .graph({ entity: "order", fields: ["status", "summary", "transactions.reference", "transactions.reference_id", "transactions.amount"], filters: { id: order.orderId } })
      const row = data[0] as { status: string; summary: Record<string, unknown>; transactions: Array<{ reference: string; reference_id: string; amount: unknown }> }
      return {
        altapay: {
          status: t.status,
          reservedMinor: t.reservedMinor,
          capturedMinor: t.capturedMinor,
          refundedMinor: t.refundedMinor,
          captures: moved("capture"),
          refunds: moved("refund"),
          releases: moved("release").length,
        },
        medusa: {
          order: row.status,
          paymentCanceled: !!payment.canceled_at,
          captures: (payment.captures ?? []).map((c) => dkk(c.amount)),
          refunds: (payment.refunds ?? []).map((r) => dkk(r.amount)),
          bookedCaptures: row.transactions.filter((x) => x.reference === "capture").map((x) => dkk(x.amount)),
          // Medusa books a refund of its Refund under the refund's id, and one of its Cancel under another: every refund booked counts.
          bookedRefunds: row.transactions.filter((x) => x.reference === "refund").map((x) => -dkk(x.amount)),
          recordedRefunds: ((payment.data as unknown as AltaPayPaymentData).refunds ?? []).filter((r) => r.status !== "failed").map((r) => r.amount_minor),
        },
      }
    }
    type Books = Awaited<ReturnType<typeof books>>

    /** What is wrong after a race (empty: all agree), payment by payment. */
    function disagreements(order: Order, answers: Answers, b: Books): string[] {
      const wrong: string[] = []
      const { altapay: a, medusa: m } = b
      for (const [name, x] of Object.entries(answers)) if (x.status >= 500) wrong.push(`${name} answered ${x.status}: ${x.message}`)
      if (JSON.stringify(sorted(a.captures)) !== JSON.stringify(sorted(m.captures)))
        wrong.push(`AltaPay captured ${JSON.stringify(a.captures)}, Medusa's captures are ${JSON.stringify(m.captures)}`)
      if (JSON.stringify(sorted(a.refunds)) !== JSON.stringify(sorted(m.refunds)))
        wrong.push(`AltaPay refunded ${JSON.stringify(a.refunds)}, Medusa's refunds are ${JSON.stringify(m.refunds)}`)
      if (sum(a.captures) !== a.capturedMinor) wrong.push(`AltaPay's ledger captured ${sum(a.captures)}, its transaction ${a.capturedMinor}`)
      if (sum(a.refunds) !== a.refundedMinor) wrong.push(`AltaPay's ledger refunded ${sum(a.refunds)}, its transaction ${a.refundedMinor}`)
      if (JSON.stringify(sorted(m.bookedCaptures)) !== JSON.stringify(sorted(m.captures)))
        wrong.push(`the order books captures ${JSON.stringify(m.bookedCaptures)}, the payment's captures are ${JSON.stringify(m.captures)}`)
      if (JSON.stringify(sorted(m.bookedRefunds)) !== JSON.stringify(sorted(m.refunds)))
        wrong.push(`the order books refunds ${JSON.stringify(m.bookedRefunds)}, the payment's refunds are ${JSON.stringify(m.refunds)}`)
      if (JSON.stringify(sorted(m.recordedRefunds)) !== JSON.stringify(sorted(a.refunds)))
        wrong.push(`the plugin's refund records are ${JSON.stringify(m.recordedRefunds)}, AltaPay refunded ${JSON.stringify(a.refunds)}`)
      if (a.capturedMinor > order.amountMinor) wrong.push(`AltaPay captured ${a.capturedMinor} of ${order.amountMinor} authorized`)
      if (a.refundedMinor > a.capturedMinor) wrong.push(`AltaPay refunded ${a.refundedMinor} of ${a.capturedMinor} captured`)
      if (a.releases > 1) wrong.push(`AltaPay released ${a.releases} times`)
      if (m.paymentCanceled && a.capturedMinor > 0) wrong.push(`Medusa shows the payment canceled, AltaPay captured ${a.capturedMinor}`)
      if (m.paymentCanceled && a.status !== "released") wrong.push(`Medusa shows the payment canceled, AltaPay's reservation is ${a.status}`)
      if (!m.paymentCanceled && a.status === "released" && a.capturedMinor === 0) wrong.push(`AltaPay released the reservation, Medusa's payment is not canceled`)
      if (m.order === "canceled" && a.capturedMinor > a.refundedMinor) wrong.push(`the order is canceled with ${a.capturedMinor - a.refundedMinor} captured and not refunded`)
      return wrong
    }

    /** Waits until Medusa's subscribers are done (a subscriber's movement after the answers has ended). */
    const quiet = () => eventsSettled(getContainer())

    /** Sends `first`, then `second` after `gapMs`, with both under way at once. */
    async function atOnce(first: [string, () => Promise<ApiResponse>], second: [string, () => Promise<ApiResponse>], gapMs: number): Promise<Answers> {
      const a = first[1]()
      await pause(gapMs)
      const b = second[1]()
      const [ra, rb] = await Promise.all([a, b])
      return { [first[0]]: answered(ra), [second[0]]: answered(rb) }
    }

    /**
     * Each run: a fresh order from `make`, AltaPay's `slow` call held 400 ms, `requests` (two, by name)
     * sent with `first` first and `gapMs` between. Then what each answered and what is wrong.
     */
    async function race(
      make: () => Promise<Order>,
      requests: (order: Order) => Record<string, () => Promise<ApiResponse>>,
      runs: Array<[first: string, slow: Slow, gapMs: number]>,
      expectAlso: (order: Order, answers: Answers, b: Books) => string[] | Promise<string[]> = () => []
    ) {
      const outcomes: Array<{ run: string; answers: Answers; altapay: Books["altapay"]; medusa: Books["medusa"]; wrong: string[] }> = []
      for (const [first, slow, gapMs] of runs) {
        const order = await make()
        const named = requests(order)
        const second = Object.keys(named).find((n) => n !== first)!
        store.sandbox().faults.add({ route: slow, kind: "latency", ms: 400, times: 1 })
        const answers = await atOnce([first, named[first]], [second, named[second]], gapMs)
        store.sandbox().faults.clear()
        await quiet()
        const b = await books(order)
        outcomes.push({
          run: `${first} first, ${gapMs} ms apart, ${slow} slow`,
          answers,
          altapay: b.altapay,
          medusa: b.medusa,
          wrong: [...disagreements(order, answers, b), ...(await expectAlso(order, answers, b))],
        })
      }
      expect(outcomes).toEqual(outcomes.map((o) => ({ ...o, wrong: [] })))
      return outcomes
    }

    /** Exactly one of two requests that cannot both fit went through; the other was told why with a 4xx. */
    const oneWonOneRefused = (names: [string, string]) => (_order: Order, answers: Answers) => {
      const statuses = names.map((n) => answers[n].status)
      const ok = statuses.filter((s) => s === 200).length
      const refused = statuses.filter((s) => s >= 400 && s < 500).length
      return ok === 1 && refused === 1 ? [] : [`expected one 200 and one 4xx, got ${names.map((n, i) => `${n} ${statuses[i]}`).join(", ")}`]
    }

    it("Refund items of everything and Medusa's full Refund at once, either first: refunded once, the other refused with a 4xx", async () => {
      await race(
        capturedOrder,
        (order) => ({
          "refund items": () =>
            refundItems(
              order,
              [
                [order.coffee, 2],
                [order.tea, 1],
              ],
              true
            ),
          refund: () => refund(order, order.amountMinor / 100),
        }),
        [
          ["refund items", "refundCapturedReservation", 0],
          ["refund", "refundCapturedReservation", 150],
        ],
        oneWonOneRefused(["refund items", "refund"])
      )
    })

    it("Medusa's Refund of 10.005 DKK pressed three times at once: AltaPay refunds whole øre as a running total (30.02 for Medusa's 30.015), each booked", async () => {
      const order = await capturedOrder()
      store.sandbox().faults.add({ route: "refundCapturedReservation", kind: "latency", ms: 400, times: 1 })
      const answers = await Promise.all([1, 2, 3].map(() => refund(order, 10.005)))
      await quiet()
      const b = await books(order)
      const payment = await getContainer()
        .resolve(Modules.PAYMENT)
        .retrievePayment(order.paymentId, { relations: ["refunds"] })
      const exact = (payment.refunds ?? []).map((r) => Number((r as unknown as { raw_amount: { value: string } }).raw_amount.value))
      expect({
        answers: answers.map((a) => a.status),
        medusaExact: exact,
        altapayRefunds: sorted(b.altapay.refunds),
        altapayRefunded: b.altapay.refundedMinor,
        recorded: sorted(b.medusa.recordedRefunds),
        bookedOnOrder: b.medusa.bookedRefunds.length,
      }).toEqual({
        answers: [200, 200, 200],
        medusaExact: [10.005, 10.005, 10.005],
        altapayRefunds: [1000, 1001, 1001],
        altapayRefunded: 3002,
        recorded: [1000, 1001, 1001],
        bookedOnOrder: 3,
      })
    })

    it("Cancel and Capture items at once on an authorized order, either first: AltaPay's books equal Medusa's, a canceled order keeps nothing", async () => {
      await race(
        authorizedOrder,
        (order) => ({ cancel: () => cancel(order), "capture coffee": () => captureItems(order, [[order.coffee, 2]]) }),
        [
          ["capture coffee", "captureReservation", 0],
          ["cancel", "releaseReservation", 150],
        ],
        (_order, answers, b) =>
          (answers.cancel.status === 200) === (b.medusa.order === "canceled") ? [] : [`Cancel answered ${answers.cancel.status}, the order is ${b.medusa.order}`]
      )
    })

    it("Cancel and Refund items of the tea at once on a captured order, either first: AltaPay refunds what Medusa records, once each", async () => {
      await race(
        capturedOrder,
        (order) => ({ cancel: () => cancel(order), "refund tea": () => refundItems(order, [[order.tea, 1]]) }),
        [
          ["refund tea", "refundCapturedReservation", 0],
          ["cancel", "refundCapturedReservation", 150],
        ],
        (_order, answers, b) =>
          (answers.cancel.status === 200) === (b.medusa.order === "canceled") ? [] : [`Cancel answered ${answers.cancel.status}, the order is ${b.medusa.order}`]
      )
    })

    it("an order edit adding a tea confirmed while Medusa's Capture is at AltaPay, either first: captured or released, never both, and the order (and a payment link) asks only for what AltaPay does not hold", async () => {
      /** An authorized order with an edit (one more tea) requested, waiting for its confirmation. */
      const editRequested = async () => {
        const order = await authorizedOrder()
        expectOk("edit", await api.post("/admin/order-edits", { order_id: order.orderId }, as()))
        expectOk("add tea", await api.post(`/admin/order-edits/${order.orderId}/items`, { items: [{ variant_id: shop.seed.products.tea.variantId, quantity: 1 }] }, as()))
        expectOk("request edit", await api.post(`/admin/order-edits/${order.orderId}/request`, {}, as()))
        return order
      }
      const outcomes = await race(
        editRequested,
        (order) => ({ capture: () => capture(order), "confirm edit": () => api.post(`/admin/order-edits/${order.orderId}/confirm`, {}, as()) }),
        [
          // Capture at AltaPay while the edit's confirmation runs: at 100-150 ms the confirmation fails and is rolled back
          // after Medusa booked the capture on the edit's version; at 300-400 ms both succeed with the capture on the old one.
          ["capture", "captureReservation", 100],
          ["capture", "captureReservation", 400],
          ["confirm edit", "releaseReservation", 0],
        ],
        async (order, answers, b) => {
          const wrong: string[] = []
          // What the order then asks the customer for (a payment link): its new total less what AltaPay holds for it.
          const { data } = await api.get(`/admin/orders/${order.orderId}?fields=total,+summary,payment_collections.status,payment_collections.amount`, as())
          const heldMinor = b.altapay.capturedMinor > 0 ? b.altapay.capturedMinor - b.altapay.refundedMinor : b.altapay.status === "released" ? 0 : b.altapay.reservedMinor
          const dueMinor = dkk(data.order.total) - heldMinor
          const pendingMinor = dkk(data.order.summary.pending_difference)
          if (Math.abs(pendingMinor - dueMinor) > 1)
            wrong.push(`the order shows ${pendingMinor} due, its total ${dkk(data.order.total)} less the ${heldMinor} AltaPay holds is ${dueMinor}`)
          const link = await api.post("/admin/altapay/payment-links", { order_id: order.orderId }, as())
          if (link.status !== 200 || Math.abs(link.data.amount.minor - dueMinor) > 1)
            wrong.push(
              `a payment link asks for ${link.data?.amount?.minor} (${link.status} ${link.data?.message ?? ""}), the order still owes ${dueMinor}; collections ${JSON.stringify(data.order.payment_collections)}`
            )
          if ((answers.capture.status === 200) !== b.altapay.capturedMinor > 0)
            wrong.push(`Capture answered ${answers.capture.status}, AltaPay captured ${b.altapay.capturedMinor}`)
          if (b.altapay.capturedMinor > 0 && b.altapay.capturedMinor !== order.amountMinor) wrong.push(`AltaPay captured ${b.altapay.capturedMinor} of ${order.amountMinor}`)
          if (b.altapay.capturedMinor === 0 && b.altapay.status !== "released") wrong.push(`nothing captured and AltaPay's reservation is ${b.altapay.status}`)
          return wrong
        }
      )
      // Each run ends with the payment either captured (one capture) or canceled, not both and not neither.
      for (const o of outcomes)
        expect({ run: o.run, captures: o.medusa.captures.length, canceled: o.medusa.paymentCanceled }).toEqual({
          run: o.run,
          captures: o.medusa.paymentCanceled ? 0 : 1,
          canceled: o.medusa.paymentCanceled,
        })
    })
  },
})
