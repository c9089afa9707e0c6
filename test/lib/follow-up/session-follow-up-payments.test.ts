/**
 * The payment-session follow-up (payment-sessions.ts) finds what AltaPay holds for sessions the
 * callback never settled:
 *
 * - A session carrying an order edit's kept reservation (providers/altapay/order-edit.ts) is looked
 *   up by what AltaPay knows it by (the original's shop_orderid, that transaction), so a carry whose
 *   authorization failed is recorded on the order, not retired silently after 30 days.
 * - An order waiting on a payment AltaPay declined after the callback was lost: the merchant gets the
 *   failed-payments notice, once, before the session is retired. A cart nobody ordered: no notice.
 */
import { PaymentSessionStatus } from "@medusajs/framework/utils"
import { followUpPaymentSessions } from "../../../src/lib/follow-up/payment-sessions"
import { RunReport } from "../../../src/lib/follow-up/run-report"
import { freshPaymentData, sealPaymentData } from "../../../src/lib/payment-data/data"
import { PENDING_AUTHORIZATION } from "../../../src/lib/medusa-mapping/status"
import { startSandboxAndClient, type SandboxPair } from "../../helpers/sandbox"
import { days, fakeMedusa, minutes, registrationFor, reserveUnder, type FakeMedusa, type Graph } from "./harness"

const retired: string[] = []
const recorded: string[] = []
jest.mock("@medusajs/medusa/core-flows", () => ({
  deletePaymentSessionsWorkflow: () => ({ run: async ({ input }: { input: { ids: string[] } }) => void retired.push(...input.ids) }),
}))
jest.mock("../../../src/lib/callbacks/record-payment", () => ({
  recordConfirmedPayment: async (_c: unknown, s: { id: string }) => (recorded.push(s.id), { outcome: "recorded" }),
}))

let pair: SandboxPair
beforeAll(async () => (pair = await startSandboxAndClient()))
afterAll(async () => pair.close())
beforeEach(() => {
  retired.length = 0
  recorded.length = 0
})

type Registration = ReturnType<typeof registrationFor>

async function run(fake: FakeMedusa, registration: Registration, at: Date): Promise<Record<string, number>> {
  const report = new RunReport("test", { warn: () => undefined })
  await followUpPaymentSessions(fake.container, registration, at, report)
  return report.counts()
}

interface Row {
  id: string
  payment_collection: { id: string; status: string; cart: { id: string; email?: string } | null; order: { id: string; status: string; email?: string } | null }
  [field: string]: unknown
}

/** Medusa as the follow-up and the failed-payments notice ask it (payment session, its collection, the cart's order); a recorded session has its payment. */
function medusaWith(row: Row, orderOfCart?: string): Graph {
  return async ({ entity, filters }) => {
    if (entity === "payment_session") return { data: filters.id === row.id ? [{ ...row, payment: recorded.includes(row.id) ? { id: `pay_${row.id}` } : null }] : [] }
    if (entity === "payment_collection") return { data: filters.id === row.payment_collection.id ? [row.payment_collection] : [] }
    if (entity === "order_cart") return { data: orderOfCart ? [{ order_id: orderOfCart }] : [] }
    return { data: [] }
  }
}

describe("a session carrying an order edit's kept reservation", () => {
  const ORIGINAL = "payses-01ORIGINALKEPTAAAA"

  /** The session carryKeptReservations made (its data as initiateCarried seals it); its own authorization failed (AltaPay 503). */
  function carriedSession(registration: Registration, id: string, transactionId: string, seal = true): Row {
    const data = {
      ...freshPaymentData({
        altapay_session_id: "ses_original",
        order_id: id.replace("_", "-"),
        amount_minor: 80_000,
        currency: "DKK",
        terminal: null,
        auto_capture: false,
        order_lines: [],
        order_lines_source: "query",
        payment_id: "altapay-payment-original",
      }),
      transaction_id: transactionId,
      order_edit: { order_id: "order_1", carried: { from_payment_id: "pay_old", altapay_order_id: ORIGINAL } },
    }
    return {
      id,
      status: PaymentSessionStatus.PENDING,
      amount: 800,
      currency_code: "dkk",
      updated_at: "2030-02-01T10:00:00.000Z",
      // As Medusa's database hands it back.
      data: JSON.parse(JSON.stringify(seal ? sealPaymentData(data, registration.keys) : data)),
      payment: null,
      payment_collection: { id: "paycol_new", status: "not_paid", cart: null, order: { id: "order_1", status: "pending", email: "c@example.com" } },
    }
  }
  const updatedAt = new Date("2030-02-01T10:00:00.000Z")
  let kept: string
  beforeAll(async () => (kept = await reserveUnder(pair, ORIGINAL, 80_000)))

  it("is found under the original's shop_orderid and recorded on the order, as the callback would have", async () => {
    const registration = registrationFor(pair)
    const session = carriedSession(registration, "payses_01CARRIEDNEWBBBBB", kept)
    const fake = fakeMedusa(medusaWith(session), () => [session.id])

    expect(await run(fake, registration, new Date(updatedAt.getTime() + minutes(16)))).toEqual({ checked: 1, "payment recorded": 1 })
    expect(recorded).toEqual([session.id])
    expect(retired).toEqual([])
    expect(fake.notifications).toEqual([])
  })

  it("data the provider did not seal for this session names no other session's reservation: asked under its own id, as before", async () => {
    const registration = registrationFor(pair)
    const session = carriedSession(registration, "payses_01CARRIEDFORGEDCCCC", kept, false)
    const fake = fakeMedusa(medusaWith(session), () => [session.id])

    expect(await run(fake, registration, new Date(updatedAt.getTime() + minutes(16)))).toEqual({ checked: 1, waiting: 1 })
    expect(recorded).toEqual([])
  })

  it("only the carried transaction counts: another payment under the original's shop_orderid is not this session's", async () => {
    const registration = registrationFor(pair)
    const session = carriedSession(registration, "payses_01CARRIEDOTHERDDDD", "no-such-transaction")
    const fake = fakeMedusa(medusaWith(session), () => [session.id])

    expect(await run(fake, registration, new Date(updatedAt.getTime() + minutes(16)))).toEqual({ checked: 1, waiting: 1 })
    expect(recorded).toEqual([])
  })
})

describe("a payment AltaPay declined after its callback was lost", () => {
  /** A pending (or errored) session whose payment was left open at AltaPay (MobilePay), then declined. */
  async function declinedSession(id: string, collection: Row["payment_collection"], status: string): Promise<Row> {
    const transactionId = await reserveUnder(pair, id.replace("_", "-"), 45_000, "open")
    pair.sandbox.concludeOpenPayment(transactionId, "decline")
    return {
      id,
      status,
      amount: 450,
      currency_code: "dkk",
      updated_at: "2030-03-01T10:00:00.000Z",
      data: { order_id: id.replace("_", "-") },
      payment: null,
      payment_collection: collection,
    }
  }
  const updatedAt = new Date("2030-03-01T10:00:00.000Z")
  const at = (ms: number) => new Date(updatedAt.getTime() + ms)

  it("an order placed while the payment was open: the merchant is told once that the order is not paid, then the session is retired", async () => {
    expect(PENDING_AUTHORIZATION).toBeDefined()
    const registration = registrationFor(pair)
    const collection = { id: "paycol_c", status: "awaiting", cart: { id: "cart_c", email: "c@example.com" }, order: { id: "order_c", status: "pending", email: "c@example.com" } }
    const session = await declinedSession("payses_01OPENDECLINEDCCCC", collection, PENDING_AUTHORIZATION!)
    const fake = fakeMedusa(medusaWith(session, "order_c"), () => [session.id])

    expect(await run(fake, registration, at(minutes(16)))).toEqual({ checked: 1, waiting: 1 })
    expect(fake.notifications).toHaveLength(1)
    expect(fake.notifications[0].data.title).toBe("AltaPay payment declined: order not paid")
    expect(fake.notifications[0].data.description).toMatch(/order order_c \(c@example\.com\).*payses-01OPENDECLINEDCCCC.*ask the customer to pay again/)
    expect(await run(fake, registration, at(minutes(31)))).toEqual({ checked: 1, waiting: 1 })
    expect(await run(fake, registration, at(days(1) + minutes(1)))).toEqual({ checked: 1, expired: 1 })
    expect(retired).toEqual([session.id])
    expect(fake.notifications).toHaveLength(1)
    expect(fake.logs.filter((l) => l.level === "warn").map((l) => l.message)).toEqual([expect.stringContaining("AltaPay payment declined: order not paid")])
  })

  it("a payment link's order: the merchant is told, though the session is kept for the link's lifetime", async () => {
    const registration = registrationFor(pair)
    const collection = { id: "paycol_l", status: "not_paid", cart: null, order: { id: "order_l", status: "pending", email: "l@example.com" } }
    const session = await declinedSession("payses_01LINKDECLINEDEEEEE", collection, PaymentSessionStatus.PENDING)
    const fake = fakeMedusa(medusaWith(session), () => [session.id])

    expect(await run(fake, registration, at(days(1) + minutes(1)))).toEqual({ checked: 1, waiting: 1 })
    expect(fake.notifications.map((n) => n.data.title)).toEqual(["AltaPay payment declined: order not paid"])
    expect(await run(fake, registration, at(days(30) + minutes(1)))).toEqual({ checked: 1, expired: 1 })
    expect(retired).toEqual([session.id])
    expect(fake.notifications).toHaveLength(1)
  })

  it("a cart nobody ordered: retired after the session lifetime without a notice, as before", async () => {
    const registration = registrationFor(pair)
    const collection = { id: "paycol_a", status: "not_paid", cart: { id: "cart_a", email: "a@example.com" }, order: null }
    const session = await declinedSession("payses_01CARTDECLINEDFFFFF", collection, PaymentSessionStatus.PENDING)
    const fake = fakeMedusa(medusaWith(session), () => [session.id])

    expect(await run(fake, registration, at(minutes(16)))).toEqual({ checked: 1, waiting: 1 })
    expect(await run(fake, registration, at(days(1) + minutes(1)))).toEqual({ checked: 1, expired: 1 })
    expect(retired).toEqual([session.id])
    expect(fake.notifications).toEqual([])
    expect(fake.logs.filter((l) => l.level !== "debug")).toEqual([])
  })
})
