/**
 * Money moved in AltaPay's merchant interface (the back office) instead of Medusa's admin: a
 * capture, a refund or a release made at AltaPay, with and without AltaPay's notification
 * (callback_notification, the sandbox's sendCallback: the payment's callback with its current
 * state) reaching Medusa. The sandbox is the back office: it moves the money over its merchant API
 * as the merchant interface would, before Medusa hears of anything.
 *
 * What a merchant relies on ("nothing reconciled by hand"): either Medusa's records follow
 * AltaPay's money, or the merchant is told (the admin's notification feed, or the order's AltaPay
 * panel showing AltaPay's state); never a silent disagreement, and no money moved twice. Each test
 * records AltaPay's books, Medusa's records, the panel and the feed (`look`).
 */
import type { INotificationModuleService } from "@medusajs/framework/types"
import { ContainerRegistrationKeys, Modules } from "@medusajs/framework/utils"
import { minorToDecimal } from "../../src/altapay"
import expiringReservationsJob from "../../src/jobs/altapay-expiring-reservations"
import { toMinorUnits } from "../../src/lib/medusa-mapping/amounts"
import type { AltaPayPaymentData } from "../../src/lib/payment-data/data"
import { API_PASSWORD, API_USER, captureAtAltaPay } from "../../tools/test-store/altapay-sandbox"
import { storeSuite } from "../../tools/test-store/store-app/runner"
import { altapayStore } from "../../tools/test-store/store-app/altapay-store"
import { eventsSettled } from "../../tools/test-store/store-app/events-settled"
import { adminOfSeededStore, createAltaPayOrder, orderPayments, type Api, type ApiResponse } from "../../tools/test-store/store"

const store = altapayStore()

const dkk = (amount: unknown) => toMinorUnits(amount as never, "DKK")
const sum = (xs: Array<{ amount: unknown }> | undefined) => (xs ?? []).reduce((s, x) => s + dkk(x.amount), 0)
const DAY = 24 * 60 * 60 * 1000

interface Order {
  orderId: string
  paymentId: string
  transactionId: string
  /** AltaPay's payment id (the notification's payment_id). */
  altapayPaymentId: string
  amountMinor: number
}

export default storeSuite({
  testSuite: ({ api: rawApi, getContainer }) => {
    const api = rawApi as unknown as Api
    const shop = adminOfSeededStore(api, getContainer)
    const as = shop.as
    afterEach(() => store.sandbox().faults.clear())

    /** 2 coffee + 1 tea + shipping, paid at AltaPay (authorized, nothing captured), no callback. */
    async function authorizedOrder(): Promise<Order> {
      const order = await createAltaPayOrder(api, shop.seed, getContainer(), store.sandbox())
      const [payment] = await orderPayments(getContainer(), order.orderId)
      const data = payment.data as AltaPayPaymentData
      return { orderId: order.orderId, paymentId: order.paymentId, transactionId: data.transaction_id!, altapayPaymentId: data.payment_id!, amountMinor: dkk(payment.amount) }
    }

    async function capturedOrder(): Promise<Order> {
      const order = await authorizedOrder()
      expect((await capture(order)).status).toBe(200)
      return order
    }

    const capture = (order: Order, amount?: number) => api.post(`/admin/payments/${order.paymentId}/capture`, amount ? { amount } : {}, as())
    const refund = (order: Order, amountMinor: number) => api.post(`/admin/payments/${order.paymentId}/refund`, { amount: amountMinor / 100 }, as())
    const cancel = (order: Order) => api.post(`/admin/orders/${order.orderId}/cancel`, {}, as())
    const answered = (r: ApiResponse) => ({ status: r.status, message: (r.data as { message?: string })?.message })

    /** The merchant in AltaPay's merchant interface: the same gateway call, made outside Medusa. */
    async function atAltaPay(operation: "captureReservation" | "refundCapturedReservation" | "releaseReservation", fields: Record<string, string>): Promise<string> {
      const answer = await fetch(`${store.sandbox().url}/merchant/API/${operation}`, {
        method: "POST",
        headers: { authorization: `Basic ${Buffer.from(`${API_USER}:${API_PASSWORD}`).toString("base64")}`, "content-type": "application/x-www-form-urlencoded" },
        body: new URLSearchParams(fields).toString(),
      })
      const text = await answer.text()
      if (!text.includes("<Result>Success</Result>")) throw new Error(`the back office's ${operation} did not go through: ${text.slice(0, 300)}`)
      return text
    }
    const captureAtBackOffice = (o: Order, minor?: number) =>
      minor === undefined
        ? captureAtAltaPay(store.sandbox(), o.transactionId)
        : atAltaPay("captureReservation", { transaction_id: o.transactionId, amount: minorToDecimal(minor, "DKK") })
    const refundAtBackOffice = (o: Order, minor: number) => atAltaPay("refundCapturedReservation", { transaction_id: o.transactionId, amount: minorToDecimal(minor, "DKK") })
    const releaseAtBackOffice = (o: Order) => atAltaPay("releaseReservation", { transaction_id: o.transactionId })

    /** AltaPay's notification of the payment as it now stands, processed by Medusa (its webhook runs ~5 s later). */
    async function notify(o: Order): Promise<number> {
      const delivery = await store.sandbox().sendCallback(o.altapayPaymentId)
      await eventsSettled(getContainer())
      return delivery.status
    }

    /** AltaPay's books, Medusa's records, the AltaPay panel and the admin's feed, for one order (minor units). */
    async function look(o: Order) {
      const t = store.sandbox().transaction(o.transactionId)!
      const moves = store
        .sandbox()
        .ledger()
        .flatMap((e) => e.effects ?? [])
        .filter((f) => f.transactionId === o.transactionId && f.type !== "authorize" && f.result === "Success")
        .map((f) => `${f.type} ${f.amountMinor}`)
      const payment = await getContainer()
        .resolve(Modules.PAYMENT)
        .retrievePayment(o.paymentId, { relations: ["captures", "refunds"] })
      const { data } = await getContainer()
        .resolve(ContainerRegistrationKeys.QUERY)
        .graph({ entity: "order", fields: ["status", "payment_collections.status", "transactions.reference", "transactions.amount"], filters: { id: o.orderId } })
      const row = data[0] as { status: string; payment_collections: Array<{ status: string }>; transactions: Array<{ reference: string; amount: unknown }> }
      const adminOrder = (await api.get(`/admin/orders/${o.orderId}?fields=id,payment_status`, as())).data.order as { payment_status: string }
      const view = (await api.get(`/admin/altapay/payments/${o.paymentId}`, as())).data.altapay_payment
      const feed = await getContainer().resolve<INotificationModuleService>(Modules.NOTIFICATION).listNotifications({ channel: "feed" })
      const about = [o.orderId, o.paymentId, o.transactionId]
      const notices = feed
        .map((n) => n.data as { title?: string; description?: string })
        .filter((n) => about.some((id) => `${n.title} ${n.description}`.includes(id)))
        .map((n) => `${n.title}: ${n.description}`)
      return {
        altapay: { status: t.status, capturedMinor: t.capturedMinor, refundedMinor: t.refundedMinor, moves },
        medusa: {
          order: row.status,
          orderPaymentStatus: adminOrder.payment_status,
          collection: row.payment_collections.map((c) => c.status).join(","),
          paymentCaptured: !!payment.captured_at,
          paymentCanceled: !!payment.canceled_at,
          capturedMinor: sum(payment.captures),
          refundedMinor: sum(payment.refunds),
          bookedCapturesMinor: sum(row.transactions.filter((x) => x.reference === "capture")),
          bookedRefundsMinor: -sum(row.transactions.filter((x) => x.reference === "refund")),
        },
        panel: {
          status: view.altapay.status as string,
          live: view.altapay.live as boolean,
          capturedMinor: view.altapay.captured?.minor as number,
          refundedMinor: view.altapay.refunded?.minor as number,
          refundableMinor: view.refundable.amount.minor as number,
          refunds: (view.refunds as Array<{ amount: { minor: number }; source: string }>).map((r) => `${r.source} ${r.amount.minor}`),
        },
        notices,
      }
    }
    type Look = Awaited<ReturnType<typeof look>>

    /**
     * Where AltaPay's money and what the merchant sees disagree, as a list (empty: all is well).
     * Medusa's records must equal AltaPay's books, unless the merchant is told: a feed notice about
     * the order, or (`panelTells`) the panel showing AltaPay's state of the money in question.
     */
    function silentDisagreements(b: Look, panelTells: { captured?: boolean; refunded?: boolean; released?: boolean } = {}): string[] {
      const wrong: string[] = []
      const told = b.notices.length > 0
      const { altapay, medusa, panel } = b
      const panelShows = {
        captured: panel.status === altapay.status && panel.capturedMinor === altapay.capturedMinor,
        refunded: panel.refundedMinor === altapay.refundedMinor && panel.refundableMinor === altapay.capturedMinor - altapay.refundedMinor,
        released: panel.status === "released",
      }
      if (altapay.capturedMinor !== medusa.capturedMinor && !told && !(panelTells.captured && panelShows.captured))
        wrong.push(`AltaPay captured ${altapay.capturedMinor}, Medusa's captures total ${medusa.capturedMinor}, and nobody is told`)
      if (altapay.refundedMinor !== medusa.refundedMinor && !told && !(panelTells.refunded && panelShows.refunded))
        wrong.push(`AltaPay refunded ${altapay.refundedMinor}, Medusa's refunds total ${medusa.refundedMinor}, and nobody is told`)
      if (altapay.status === "released" && !medusa.paymentCanceled && !told && !(panelTells.released && panelShows.released))
        wrong.push(`AltaPay released the reservation, Medusa's payment is not canceled, and nobody is told`)
      // A canceled order keeping the customer's money is never shown by the panel alone: only a notice tells.
      if (medusa.order === "canceled" && altapay.capturedMinor > altapay.refundedMinor && !told)
        wrong.push(`the order is canceled, AltaPay still holds ${altapay.capturedMinor - altapay.refundedMinor} captured, and nobody is told`)
      if (medusa.bookedCapturesMinor !== medusa.capturedMinor) wrong.push(`the order books captures of ${medusa.bookedCapturesMinor}, the payment's total ${medusa.capturedMinor}`)
      if (medusa.bookedRefundsMinor !== medusa.refundedMinor) wrong.push(`the order books refunds of ${medusa.bookedRefundsMinor}, the payment's total ${medusa.refundedMinor}`)
      if (altapay.refundedMinor > altapay.capturedMinor) wrong.push(`AltaPay refunded ${altapay.refundedMinor} of ${altapay.capturedMinor} captured`)
      if (altapay.moves.filter((m) => m.startsWith("capture ")).reduce((s, m) => s + Number(m.split(" ")[1]), 0) > altapay.capturedMinor) wrong.push(`captured twice`)
      return wrong
    }

    describe("an authorized order captured in full in AltaPay's back office", () => {
      it("without AltaPay's notification: the panel shows it captured, and Capture in Medusa records it without capturing again", async () => {
        const order = await authorizedOrder()
        await captureAtBackOffice(order)
        const before = await look(order)
        expect(before).toMatchObject({
          altapay: { status: "captured", capturedMinor: order.amountMinor, moves: [`capture ${order.amountMinor}`] },
          medusa: { paymentCaptured: false, capturedMinor: 0, orderPaymentStatus: "authorized" },
          panel: { status: "captured", live: true, capturedMinor: order.amountMinor },
        })
        // Medusa has not heard of it (AltaPay sent nothing): the panel is where the merchant sees it.
        expect(silentDisagreements(before, { captured: true })).toEqual([])

        const pressed = await capture(order)
        const after = await look(order)
        expect({ capture: answered(pressed), ...after, wrong: silentDisagreements(after) }).toMatchObject({
          capture: { status: 200 },
          altapay: { capturedMinor: order.amountMinor, moves: [`capture ${order.amountMinor}`] },
          medusa: { paymentCaptured: true, capturedMinor: order.amountMinor, bookedCapturesMinor: order.amountMinor, orderPaymentStatus: "captured" },
          wrong: [],
        })
      })

      it("with AltaPay's notification: Medusa records the capture by itself, once, and a later Capture moves nothing", async () => {
        const order = await authorizedOrder()
        await captureAtBackOffice(order)
        expect(await notify(order)).toBe(200)
        const notified = await look(order)
        expect({ ...notified, wrong: silentDisagreements(notified) }).toMatchObject({
          altapay: { status: "captured", moves: [`capture ${order.amountMinor}`] },
          medusa: { paymentCaptured: true, capturedMinor: order.amountMinor, bookedCapturesMinor: order.amountMinor, orderPaymentStatus: "captured" },
          wrong: [],
        })

        const pressed = await capture(order)
        expect(pressed.status).toBeLessThan(500)
        const after = await look(order)
        expect({ capture: answered(pressed), ...after, wrong: silentDisagreements(after) }).toMatchObject({
          altapay: { moves: [`capture ${order.amountMinor}`] },
          medusa: { capturedMinor: order.amountMinor, bookedCapturesMinor: order.amountMinor },
          wrong: [],
        })
      })
    })

    describe("a captured order partly refunded in AltaPay's back office", () => {
      it("with AltaPay's notification: Medusa records the refund, or the merchant is told, and the panel's refundable amount is AltaPay's", async () => {
        const order = await capturedOrder()
        await refundAtBackOffice(order, 5_000)
        expect(await notify(order)).toBe(200)
        const b = await look(order)
        expect({ ...b, wrong: silentDisagreements(b) }).toMatchObject({
          altapay: { status: "refunded", capturedMinor: order.amountMinor, refundedMinor: 5_000 },
          panel: { refundedMinor: 5_000, refunds: ["altapay 5000"], refundableMinor: order.amountMinor - 5_000 },
          wrong: [],
        })
      })

      it("without a notification, then refunded in Medusa: AltaPay never refunds more than it captured, and Medusa's records end equal to AltaPay's", async () => {
        const order = await capturedOrder()
        await refundAtBackOffice(order, 5_000)
        const seen = await look(order)

        // The admin refunds what Medusa shows as refundable: all of it.
        const all = await refund(order, order.amountMinor)
        const afterAll = await look(order)
        // Then what AltaPay still holds.
        const rest = await refund(order, order.amountMinor - 5_000)
        const after = await look(order)

        // Medusa's records follow AltaPay, or the merchant is told: a feed notice, or a panel showing AltaPay's figures.
        expect({
          seen: seen.panel,
          all: answered(all),
          afterAll: afterAll.altapay,
          rest: answered(rest),
          ...after,
          wrong: silentDisagreements(after, { refunded: true }),
        }).toMatchObject({
          // The panel shows the refund, and what can still be refunded at AltaPay.
          seen: { refundedMinor: 5_000, refunds: ["altapay 5000"], refundableMinor: order.amountMinor - 5_000 },
          // Refused before anything is sent: AltaPay's live refundable amount decides.
          all: { status: 400, message: expect.stringContaining(`more than the ${minorToDecimal(order.amountMinor - 5_000, "DKK")} DKK still refundable`) },
          afterAll: { refundedMinor: 5_000 },
          rest: { status: 200 },
          altapay: {
            capturedMinor: order.amountMinor,
            refundedMinor: order.amountMinor,
            moves: [`capture ${order.amountMinor}`, "refund 5000", `refund ${order.amountMinor - 5_000}`],
          },
          wrong: [],
        })
      })

      it("then Cancel in Medusa: refused saying what AltaPay still holds, so the order is never canceled with money kept", async () => {
        const order = await capturedOrder()
        await refundAtBackOffice(order, 5_000)
        const canceled = await cancel(order)
        const after = await look(order)
        expect({ cancel: answered(canceled), altapay: after.altapay, order: after.medusa.order }).toMatchObject({
          cancel: { status: 400, message: expect.stringMatching(/was not canceled: AltaPay holds 293\.00 DKK captured .*a refund made in AltaPay's merchant interface/) },
          altapay: { capturedMinor: order.amountMinor, refundedMinor: 5_000 },
          order: expect.not.stringMatching(/canceled/),
        })
      })
    })

    describe("an authorized order released in AltaPay's back office", () => {
      it("Medusa shows it released or the panel does; Capture is refused saying why (no 500, nothing moved); Cancel cancels without a second release", async () => {
        const order = await authorizedOrder()
        await releaseAtBackOffice(order)
        const notified = await notify(order)
        const before = await look(order)
        expect({ notified, ...before, wrong: silentDisagreements(before, { released: true }) }).toMatchObject({
          notified: 200,
          altapay: { status: "released", capturedMinor: 0 },
          panel: { status: "released" },
          wrong: [],
        })

        const pressed = await capture(order)
        const afterCapture = await look(order)
        expect({ capture: answered(pressed), altapay: afterCapture.altapay, medusa: afterCapture.medusa }).toMatchObject({
          capture: { status: 400, message: expect.stringMatching(/released/) },
          altapay: { status: "released", capturedMinor: 0, moves: [`release ${order.amountMinor}`] },
          medusa: { paymentCaptured: false, capturedMinor: 0 },
        })

        const canceled = await cancel(order)
        const after = await look(order)
        expect({ cancel: answered(canceled), ...after }).toMatchObject({
          cancel: { status: 200 },
          altapay: { status: "released", moves: [`release ${order.amountMinor}`] },
          medusa: { order: "canceled", paymentCanceled: true, collection: "canceled" },
        })
      })
    })

    describe("more of the same: where AltaPay's money and Medusa's records part", () => {
      it("captured in full at AltaPay, then Cancel in Medusa: refused saying so; Capture then Cancel, as it says, refunds it once", async () => {
        const order = await authorizedOrder()
        await captureAtBackOffice(order)
        const canceled = await cancel(order)
        const after = await look(order)
        expect({ cancel: answered(canceled), altapay: after.altapay, order: after.medusa.order }).toMatchObject({
          cancel: { status: 400, message: expect.stringMatching(/was not canceled: AltaPay holds 343\.00 DKK captured .* Press Capture on the payment first/) },
          altapay: { capturedMinor: order.amountMinor, moves: [`capture ${order.amountMinor}`] },
          order: expect.not.stringMatching(/canceled/),
        })

        // What the refusal says to do: Capture records AltaPay's capture (nothing captured again), then Cancel refunds it.
        expect((await capture(order)).status).toBe(200)
        expect((await cancel(order)).status).toBe(200)
        const settled = await look(order)
        expect({ altapay: settled.altapay, medusa: settled.medusa, wrong: silentDisagreements(settled) }).toMatchObject({
          altapay: { capturedMinor: order.amountMinor, refundedMinor: order.amountMinor, moves: [`capture ${order.amountMinor}`, `refund ${order.amountMinor}`] },
          medusa: { order: "canceled", refundedMinor: order.amountMinor },
          wrong: [],
        })
      })

      it("part captured at AltaPay, then Capture in Medusa: the whole is refused saying what is left, the rest captures once, and the books end equal", async () => {
        const order = await authorizedOrder()
        await captureAtBackOffice(order, 10_000)
        const whole = await capture(order)
        const refused = await look(order)
        // The admin captures what AltaPay says is left, then what AltaPay captured before.
        const rest = await capture(order, (order.amountMinor - 10_000) / 100)
        const last = await capture(order, 100)
        const after = await look(order)
        expect({ whole: answered(whole), refused, rest: answered(rest), last: answered(last), ...after, wrong: silentDisagreements(after) }).toMatchObject({
          whole: { status: 400, message: expect.stringContaining(`only ${minorToDecimal(order.amountMinor - 10_000, "DKK")} DKK of the reservation is left to capture`) },
          refused: { medusa: { capturedMinor: 0, orderPaymentStatus: "authorized" }, panel: { status: "captured", capturedMinor: 10_000 }, altapay: { moves: ["capture 10000"] } },
          rest: { status: 200 },
          last: { status: 200 },
          altapay: { capturedMinor: order.amountMinor, moves: ["capture 10000", `capture ${order.amountMinor - 10_000}`] },
          medusa: { capturedMinor: order.amountMinor, bookedCapturesMinor: order.amountMinor, orderPaymentStatus: "captured" },
          wrong: [],
        })
      })

      it("part captured at AltaPay with AltaPay's notification: Medusa records what AltaPay captured, or the merchant is told", async () => {
        const order = await authorizedOrder()
        await captureAtBackOffice(order, 10_000)
        expect(await notify(order)).toBe(200)
        const b = await look(order)
        expect({ ...b, wrong: silentDisagreements(b) }).toMatchObject({
          altapay: { capturedMinor: 10_000, moves: ["capture 10000"] },
          wrong: [],
        })
      })

      it("the expiring-reservations job does not tell the merchant to capture a reservation AltaPay's back office already captured or released", async () => {
        const captured = await authorizedOrder()
        await captureAtBackOffice(captured)
        const released = await authorizedOrder()
        await releaseAtBackOffice(released)
        // A run a day before the 7-day authorisations lapse.
        await expiringReservationsJob(getContainer(), { scheduledFor: new Date(Date.now() + 6 * DAY) })
        const [c, r] = [await look(captured), await look(released)]
        expect({ captured: c.notices, released: r.notices }).toEqual({
          captured: expect.not.arrayContaining([expect.stringMatching(/not captured|expires soon/)]),
          released: expect.not.arrayContaining([expect.stringMatching(/not captured|expires soon/)]),
        })
      })
    })
  },
})
