/**
 * Medusa's Cancel (POST /admin/orders/:id/cancel, cancelOrderWorkflow) beside the plugin's money
 * movements, through Medusa's real routes: cancel refunds what a payment captured and releases a
 * payment with nothing captured. Whatever runs beside it (Capture, Refund, a second Cancel),
 * AltaPay's books (the sandbox) must end equal to Medusa's records: the payment's captures and
 * refunds, the order's transactions and its payment collection; no money moves twice; a route
 * that answers an error has moved no money; and a canceled order keeps no captured money.
 * A slow AltaPay (a latency fault) makes the two requests overlap.
 *
 * Medusa's cancel swallows a failed refund (core-flows refundPaymentsStep logs it) and books the
 * refund on the order all the same, and it opens an order change for its credit line as Medusa's
 * Refund does: beside a Capture, a Refund or a second Cancel of the same order, only one money
 * change of the order at a time keeps the books right.
 */
import { ContainerRegistrationKeys, Modules } from "@medusajs/framework/utils"
import { storeSuite } from "../../tools/test-store/store-app/runner"
import { toMinorUnits } from "../../src/lib/medusa-mapping/amounts"
import type { AltaPayPaymentData } from "../../src/lib/payment-data/data"
import { altapayStore } from "../../tools/test-store/store-app/altapay-store"
import { eventsSettled } from "../../tools/test-store/store-app/events-settled"
import uncertainMoneyJob from "../../src/jobs/altapay-uncertain-money"
import { adminOfSeededStore, answered, type Answers, createAltaPayOrder, orderPayments, type Api, type ApiResponse } from "../../tools/test-store/store"

const store = altapayStore()

const dkk = (amount: unknown) => toMinorUnits(amount as never, "DKK")
const sum = (rows: Array<{ amount: unknown }> | undefined) => (rows ?? []).reduce((total, r) => total + dkk(r.amount), 0)
const pause = (ms: number) => new Promise((r) => setTimeout(r, ms))

interface Order {
  orderId: string
  paymentId: string
  transactionId: string
  amountMinor: number
}

export default storeSuite({
  testSuite: ({ api: rawApi, getContainer }) => {
    const api = rawApi as unknown as Api

    const shop = adminOfSeededStore(api, getContainer, { promotion: { code: "TEN", percent: 10 } })
    const as = shop.as
    afterEach(() => store.sandbox().faults.clear())

    /** 2 coffee + 1 tea + shipping, paid at AltaPay (authorized, nothing captured). */
    async function authorizedOrder(): Promise<Order> {
      const order = await createAltaPayOrder(api, shop.seed, getContainer(), store.sandbox())
      const [payment] = await orderPayments(getContainer(), order.orderId)
      return { orderId: order.orderId, paymentId: order.paymentId, transactionId: (payment.data as AltaPayPaymentData).transaction_id!, amountMinor: dkk(payment.amount) }
    }

    async function capturedOrder(): Promise<Order> {
      const order = await authorizedOrder()
      expect((await api.post(`/admin/payments/${order.paymentId}/capture`, {}, as())).status).toBe(200)
      return order
    }

    const capture = (order: Order, amount?: number) => api.post(`/admin/payments/${order.paymentId}/capture`, amount ? { amount } : {}, as())
    const refund = (order: Order, amount: number) => api.post(`/admin/payments/${order.paymentId}/refund`, { amount }, as())
    const cancel = (order: Order) => api.post(`/admin/orders/${order.orderId}/cancel`, {}, as())

    /** AltaPay's books and Medusa's records of one order's payment, in minor units. */
    async function books(order: Order) {
      const moves = store
        .sandbox()
        .ledger()
        .flatMap((e) => e.effects ?? [])
        .filter((f) => f.transactionId === order.transactionId && f.type !== "authorize")
        .map((f) => `${f.type} ${f.amountMinor} ${f.result}`)
      const t = store.sandbox().transaction(order.transactionId)!
      const payment = await getContainer()
        .resolve(Modules.PAYMENT)
        .retrievePayment(order.paymentId, { relations: ["captures", "refunds"] })
      const { data } = await getContainer()
        .resolve(ContainerRegistrationKeys.QUERY)
        .graph({ entity: "order", fields: ["status", "summary", "payment_collections.status", "transactions.reference", "transactions.amount"], filters: { id: order.orderId } })
      const row = data[0] as {
        status: string
        summary: Record<string, unknown>
        payment_collections: Array<{ status: string }>
        transactions: Array<{ reference: string; amount: unknown }>
      }
      return {
        altapay: { status: t.status, capturedMinor: t.capturedMinor, refundedMinor: t.refundedMinor, moves },
        medusa: {
          order: row.status,
          collection: row.payment_collections.map((c) => c.status).join(","),
          paymentCanceled: !!payment.canceled_at,
          capturedMinor: sum(payment.captures),
          refundedMinor: sum(payment.refunds),
          bookedCaptures: row.transactions.filter((x) => x.reference === "capture").map((x) => dkk(x.amount)),
          bookedRefunds: row.transactions.filter((x) => x.reference === "refund").map((x) => -dkk(x.amount)),
          pendingDifferenceMinor: dkk(row.summary.pending_difference ?? 0),
        },
      }
    }
    type Books = Awaited<ReturnType<typeof books>>

    /**
     * What a merchant relies on, as a list of what is wrong (empty: all agree). `answers` names
     * each request: "capture…", "cancel…", or "refund <DKK>" for Medusa's Refund of that amount.
     */
    function disagreements(order: Order, answers: Answers, b: Books): string[] {
      const wrong: string[] = []
      const { altapay, medusa } = b
      const count = (move: string) => altapay.moves.filter((m) => m.startsWith(`${move} `) && m.endsWith(" Success")).length
      const ok = (name: string) => answers[name]?.status === 200
      for (const [name, a] of Object.entries(answers)) if (a.status >= 500) wrong.push(`${name} answered ${a.status}: ${a.message}`)
      if (altapay.capturedMinor !== medusa.capturedMinor) wrong.push(`AltaPay captured ${altapay.capturedMinor}, Medusa's captures total ${medusa.capturedMinor}`)
      if (altapay.refundedMinor !== medusa.refundedMinor) wrong.push(`AltaPay refunded ${altapay.refundedMinor}, Medusa's refunds total ${medusa.refundedMinor}`)
      const booked = (xs: number[]) => xs.reduce((s, x) => s + x, 0)
      if (booked(medusa.bookedCaptures) !== medusa.capturedMinor)
        wrong.push(`the order books captures ${JSON.stringify(medusa.bookedCaptures)}, the payment's captures total ${medusa.capturedMinor}`)
      if (booked(medusa.bookedRefunds) !== altapay.refundedMinor)
        wrong.push(`the order books refunds ${JSON.stringify(medusa.bookedRefunds)}, AltaPay refunded ${altapay.refundedMinor}`)
      if (altapay.capturedMinor > order.amountMinor) wrong.push(`AltaPay captured ${altapay.capturedMinor} of ${order.amountMinor} authorized`)
      if (count("release") > 1) wrong.push(`AltaPay released ${count("release")} times`)
      if (altapay.refundedMinor > altapay.capturedMinor) wrong.push(`AltaPay refunded more than it captured`)
      // A route that answered an error moved no money.
      const captureNames = Object.keys(answers).filter((n) => n.startsWith("capture"))
      if (captureNames.length > 0 && !captureNames.some(ok) && altapay.capturedMinor > 0)
        wrong.push(`Capture answered ${captureNames.map((n) => answers[n].status)} but AltaPay captured ${altapay.capturedMinor}`)
      const cancelNames = Object.keys(answers).filter((n) => n.startsWith("cancel"))
      const canceled = cancelNames.some(ok)
      const refundsAnswered = Object.keys(answers)
        .filter((n) => n.startsWith("refund ") && ok(n))
        .reduce((s, n) => s + Number(n.split(" ")[1]) * 100, 0)
      if (!canceled && cancelNames.length > 0 && altapay.refundedMinor !== refundsAnswered)
        wrong.push(`Cancel answered ${cancelNames.map((n) => answers[n].status)}, Refund answered ${refundsAnswered} refunded, yet AltaPay refunded ${altapay.refundedMinor}`)
      for (const n of Object.keys(answers).filter((x) => x.startsWith("refund ") && !ok(x))) {
        const minor = Number(n.split(" ")[1]) * 100
        if (altapay.moves.includes(`refund ${minor} Success`)) wrong.push(`${n} answered ${answers[n].status} (${answers[n].message}) but AltaPay refunded ${minor}`)
      }
      // Cancel's answer is the order's state, and a canceled order keeps no money and no reservation.
      if (canceled !== (medusa.order === "canceled")) wrong.push(`Cancel answered ${cancelNames.map((n) => answers[n].status)} and the order is ${medusa.order}`)
      if (medusa.order === "canceled") {
        if (medusa.collection !== "canceled") wrong.push(`the order is canceled, its payment collection ${medusa.collection}`)
        if (altapay.capturedMinor > altapay.refundedMinor)
          wrong.push(`the order is canceled with ${altapay.capturedMinor - altapay.refundedMinor} captured at AltaPay and not refunded`)
        if (altapay.capturedMinor === 0 && altapay.status !== "released") wrong.push(`the order is canceled with nothing captured, and AltaPay's reservation is ${altapay.status}`)
      } else if (medusa.collection === "canceled") wrong.push(`the order is ${medusa.order}, its payment collection canceled`)
      if (medusa.paymentCanceled && altapay.capturedMinor > 0) wrong.push(`Medusa shows the payment canceled, AltaPay captured ${altapay.capturedMinor}`)
      return wrong
    }

    /** Runs `first`, then `second` after `gapMs`, both at once. */
    async function atOnce(first: [string, () => Promise<ApiResponse>], second: [string, () => Promise<ApiResponse>], gapMs: number): Promise<Answers> {
      const a = first[1]()
      await pause(gapMs)
      const b = second[1]()
      const [ra, rb] = await Promise.all([a, b])
      return { [first[0]]: answered(ra), [second[0]]: answered(rb) }
    }

    it("a plain Cancel: an authorized order's reservation is released, a captured order's capture refunded, once each, as Medusa records", async () => {
      const authorized = await authorizedOrder()
      const answers1 = { cancel: answered(await cancel(authorized)) }
      const released = await books(authorized)
      expect({ answers: answers1, ...released, wrong: disagreements(authorized, answers1, released) }).toMatchObject({
        answers: { cancel: { status: 200 } },
        altapay: { status: "released", moves: [`release ${authorized.amountMinor} Success`] },
        medusa: { order: "canceled", paymentCanceled: true, capturedMinor: 0, refundedMinor: 0 },
        wrong: [],
      })

      const captured = await capturedOrder()
      const answers2 = { cancel: answered(await cancel(captured)) }
      const refunded = await books(captured)
      expect({ answers: answers2, ...refunded, wrong: disagreements(captured, answers2, refunded) }).toMatchObject({
        answers: { cancel: { status: 200 } },
        altapay: { moves: [`capture ${captured.amountMinor} Success`, `refund ${captured.amountMinor} Success`] },
        medusa: { order: "canceled", collection: "canceled", refundedMinor: captured.amountMinor, bookedRefunds: [captured.amountMinor], pendingDifferenceMinor: 0 },
        wrong: [],
      })
    })

    it("Capture and Cancel pressed at once on an authorized order, either first and at several gaps: AltaPay's books equal Medusa's every time", async () => {
      const outcomes: unknown[] = []
      // [which is pressed first, which AltaPay call is slow, ms between the two]
      const runs: Array<["capture" | "cancel", "captureReservation" | "releaseReservation", number]> = [
        ["capture", "captureReservation", 150],
        ["capture", "captureReservation", 0],
        ["cancel", "releaseReservation", 150],
        // Cancel reads the order before Capture has written its capture, and refunds after it has (10 of 11 runs at 0-20 ms).
        ...[0, 10].map((gapMs) => ["cancel", "releaseReservation", gapMs] as ["cancel", "releaseReservation", number]),
        ["cancel", "captureReservation", 0],
      ]
      for (const [first, slow, gapMs] of runs) {
        const order = await authorizedOrder()
        // The slow one is under way at AltaPay when the other arrives.
        store.sandbox().faults.add({ route: slow, kind: "latency", ms: 400, times: 1 })
        const requests = { capture: ["capture", () => capture(order)], cancel: ["cancel", () => cancel(order)] } as const
        const answers = await atOnce([...requests[first]], [...requests[first === "capture" ? "cancel" : "capture"]], gapMs)
        store.sandbox().faults.clear()
        const b = await books(order)
        outcomes.push({ run: `${first} first, ${gapMs} ms apart, ${slow} slow`, answers, moves: b.altapay.moves, medusa: b.medusa, wrong: disagreements(order, answers, b) })
      }
      expect(outcomes).toEqual(outcomes.map((o) => ({ ...(o as object), wrong: [] })))
    })

    it("Refund pressed and, while AltaPay is refunding it, Cancel: AltaPay refunds what Medusa records, and each answer says what happened", async () => {
      const order = await capturedOrder()
      store.sandbox().faults.add({ route: "refundCapturedReservation", kind: "latency", ms: 400, times: 1 })
      const answers = await atOnce(["refund 50", () => refund(order, 50)], ["cancel", () => cancel(order)], 150)
      const b = await books(order)
      expect({ answers, ...b, wrong: disagreements(order, answers, b) }).toMatchObject({ answers: { "refund 50": { status: 200 } }, wrong: [] })
    })

    it("Cancel and Refund pressed at once on a captured order, at several gaps: no refund booked that AltaPay did not make, none made that an answer denies", async () => {
      const outcomes: unknown[] = []
      for (const [first, gapMs] of [
        ["cancel", 0],
        ["cancel", 10],
        ["cancel", 150],
        ["refund", 0],
      ] as const) {
        const order = await capturedOrder()
        store.sandbox().faults.add({ route: "refundCapturedReservation", kind: "latency", ms: 400, times: 1 })
        const requests = { refund: ["refund 50", () => refund(order, 50)], cancel: ["cancel", () => cancel(order)] } as const
        const answers = await atOnce([...requests[first]], [...requests[first === "refund" ? "cancel" : "refund"]], gapMs)
        store.sandbox().faults.clear()
        const b = await books(order)
        outcomes.push({ run: `${first} first, ${gapMs} ms apart`, answers, moves: b.altapay.moves, medusa: b.medusa, wrong: disagreements(order, answers, b) })
      }
      expect(outcomes).toEqual(outcomes.map((o) => ({ ...(o as object), wrong: [] })))
    })

    it("Cancel pressed twice at once on a captured order: one refund at AltaPay, and the order stays canceled with its collection canceled and nothing due", async () => {
      const order = await capturedOrder()
      store.sandbox().faults.add({ route: "refundCapturedReservation", kind: "latency", ms: 400, times: 1 })
      const answers = await atOnce(["cancel", () => cancel(order)], ["cancel 2", () => cancel(order)], 0)
      const b = await books(order)
      expect({ answers, ...b, wrong: disagreements(order, answers, b) }).toMatchObject({
        altapay: { moves: [`capture ${order.amountMinor} Success`, `refund ${order.amountMinor} Success`] },
        medusa: { order: "canceled", collection: "canceled", refundedMinor: order.amountMinor, bookedRefunds: [order.amountMinor], pendingDifferenceMinor: 0 },
        wrong: [],
      })
    })

    it("Cancel pressed twice at once on an authorized order: one release at AltaPay, the order and payment canceled", async () => {
      const order = await authorizedOrder()
      store.sandbox().faults.add({ route: "releaseReservation", kind: "latency", ms: 400, times: 1 })
      const answers = await atOnce(["cancel", () => cancel(order)], ["cancel 2", () => cancel(order)], 0)
      const b = await books(order)
      expect({ answers, ...b, wrong: disagreements(order, answers, b) }).toMatchObject({
        altapay: { status: "released", capturedMinor: 0 },
        medusa: { order: "canceled", collection: "canceled", paymentCanceled: true, capturedMinor: 0, refundedMinor: 0, bookedRefunds: [] },
        wrong: [],
      })
      expect(b.altapay.moves.filter((m) => m.endsWith("Success"))).toEqual([`release ${order.amountMinor} Success`])
    })

    it("a partly captured order canceled: the captured part is refunded once, Medusa records the same, and the rest stays reserved (AltaPay releases no part)", async () => {
      const order = await authorizedOrder()
      expect((await capture(order, 100)).status).toBe(200)
      const answers = { cancel: answered(await cancel(order)) }
      const b = await books(order)
      // AltaPay cannot release part of a reservation (docs/altapay-wire-facts.md): the uncaptured rest lapses.
      expect({ answers, ...b }).toMatchObject({
        answers: { cancel: { status: 200 } },
        altapay: { capturedMinor: 10000, refundedMinor: 10000, moves: ["capture 10000 Success", "refund 10000 Success"] },
        medusa: { order: "canceled", collection: "canceled", paymentCanceled: false, capturedMinor: 10000, refundedMinor: 10000, bookedCaptures: [10000], bookedRefunds: [10000] },
      })
    })

    it("a cancel whose refund AltaPay fails while it runs: Medusa cancels all the same and books the refund, the merchant is told what AltaPay still holds, and Refund then gives it back", async () => {
      const order = await capturedOrder()
      store.sandbox().faults.add({ route: "refundCapturedReservation", kind: "503", times: Infinity })
      const canceled = answered(await cancel(order))
      await eventsSettled(getContainer())
      store.sandbox().faults.clear()
      const amount = `${(order.amountMinor / 100).toFixed(2)} DKK`
      const { data } = await getContainer()
        .resolve(ContainerRegistrationKeys.QUERY)
        .graph({ entity: "order", fields: ["display_id"], filters: { id: order.orderId } })
      const name = `#${(data[0] as { display_id: number }).display_id}`
      const notices = await getContainer().resolve(Modules.NOTIFICATION).listNotifications({ channel: "feed" })
      expect({ canceled, b: await books(order), told: notices.filter((n) => String(n.data?.title).includes(name)).map((n) => n.data) }).toMatchObject({
        canceled: { status: 200 },
        b: { altapay: { capturedMinor: order.amountMinor, refundedMinor: 0 }, medusa: { order: "canceled", refundedMinor: 0, bookedRefunds: [order.amountMinor] } },
        told: [
          {
            title: `AltaPay: canceled order ${name} still has ${amount} captured`,
            description: expect.stringContaining(`AltaPay did not refund ${amount} of payment ${order.paymentId}`),
          },
        ],
      })
      // As the notice says: Refund gives it back, recorded on the payment (the cancel booked it on the order).
      expect(answered(await refund(order, order.amountMinor / 100))).toEqual({ status: 200 })
      expect(await books(order)).toMatchObject({
        altapay: { capturedMinor: order.amountMinor, refundedMinor: order.amountMinor, moves: [`capture ${order.amountMinor} Success`, `refund ${order.amountMinor} Success`] },
        medusa: { order: "canceled", capturedMinor: order.amountMinor, refundedMinor: order.amountMinor, bookedRefunds: [order.amountMinor] },
      })
    })

    it("a cancel whose refund AltaPay made but whose answer was lost, and AltaPay cannot be asked: the follow-up job records it on the payment, nothing refunded twice", async () => {
      const order = await capturedOrder()
      // The cancel's check and the refund's look-up first answer; then the answer is lost and AltaPay cannot be asked.
      store.sandbox().faults.add({ route: "refundCapturedReservation", kind: "lost-answer" })
      store.sandbox().faults.add({ route: "payments", kind: "503", skip: 2, times: Infinity })
      expect(answered(await cancel(order))).toMatchObject({ status: 200 })
      await eventsSettled(getContainer())
      store.sandbox().faults.clear()
      expect(await books(order)).toMatchObject({
        altapay: { refundedMinor: order.amountMinor },
        medusa: { order: "canceled", refundedMinor: 0, bookedRefunds: [order.amountMinor] },
      })

      const run = await uncertainMoneyJob(getContainer())
      expect(run.counts).toMatchObject({ recorded: 1 })
      expect(run.counts["needs the merchant"] ?? 0).toBe(0)
      expect(await books(order)).toMatchObject({
        altapay: { refundedMinor: order.amountMinor, moves: [`capture ${order.amountMinor} Success`, `refund ${order.amountMinor} Success`] },
        medusa: { capturedMinor: order.amountMinor, refundedMinor: order.amountMinor, bookedRefunds: [order.amountMinor] },
      })
    })
  },
})
