/**
 * Medusa's captures and refunds as the payouts module records them: read page by page, oldest
 * first across both kinds (so a run that fails half-way leaves nothing older unrecorded), with
 * the identifiers from the payment data, sealed or not, and the order of the payment's collection.
 */
import { medusaMovements } from "../../../src/lib/payouts/movements"

const T0 = Date.parse("2026-11-01T00:00:00Z")

function payment(n: number) {
  return {
    id: `pay_${n}`,
    provider_id: "pp_altapay_altapay",
    currency_code: "dkk",
    payment_collection_id: `paycol_${n}`,
    data: {
      payment_id: `00000000-0000-4000-8000-${String(n).padStart(12, "0")}`,
      transaction_id: String(10_000_000 + n),
      order_id: `payses_${n}`,
      captures: [{ capture_id: `capt_${n}`, reconciliation_identifier: `medusa-capture-capt_${n}` }],
      refunds: [{ refund_id: `ref_${n}`, reconciliation_identifier: `medusa-refund-ref_${n}` }],
    },
  }
}

// 600 captures a minute apart, 300 refunds between them: more than one page of each.
const captures = Array.from({ length: 600 }, (_, n) => ({
  id: `capt_${n}`,
  amount: 12.5,
  raw_amount: { value: "12.5", precision: 20 },
  created_at: new Date(T0 + n * 60_000),
  payment: payment(n),
}))
const refunds = Array.from({ length: 300 }, (_, n) => ({ id: `ref_${n}`, amount: 2, created_at: new Date(T0 + n * 120_000 + 30_000), payment: payment(n) }))

function container() {
  const page = <T>(all: T[]) => jest.fn(async (_filters: unknown, config: { skip: number; take: number }) => all.slice(config.skip, config.skip + config.take))
  const payments = { listCaptures: page(captures), listRefunds: page(refunds) }
  const query = {
    graph: jest.fn(async ({ filters }: { filters: { payment_collection_id: string[] } }) => ({
      data: filters.payment_collection_id.filter((id) => Number(id.split("_")[1]) % 2 === 0).map((id) => ({ payment_collection_id: id, order_id: `order_${id.split("_")[1]}` })),
    })),
  }
  return { payments, resolve: (key: string) => (key === "query" ? query : payments) }
}

it("reads every capture and refund once, oldest first, in batches of at most 500", async () => {
  const c = container()
  const batches = []
  for await (const batch of medusaMovements(c as never, ["pp_altapay_altapay"], null)) batches.push(batch)
  const all = batches.flat()
  expect(batches.every((b) => b.length <= 500)).toBe(true)
  expect(all).toHaveLength(900)
  expect(new Set(all.map((m) => m.medusaId)).size).toBe(900)
  const times = all.map((m) => m.recordedAt.getTime())
  expect(times).toEqual([...times].sort((a, b) => a - b))
  expect(c.payments.listCaptures.mock.calls.map(([, config]) => config.skip)).toEqual([0, 500])
})

it("maps each to what the module matches on", async () => {
  const c = container()
  const all = []
  for await (const batch of medusaMovements(c as never, ["pp_altapay_altapay"], new Date(T0))) all.push(...batch)
  expect(all.find((m) => m.medusaId === "capt_2")).toEqual({
    kind: "capture",
    medusaId: "capt_2",
    paymentId: "pay_2",
    orderId: "order_2",
    providerId: "pp_altapay_altapay",
    reconciliationIdentifier: "medusa-capture-capt_2",
    // The funding file's Payment column names the gateway's TransactionId, not the PaymentId UUID.
    altapayPaymentId: "10000002",
    altapayOrderId: "payses_2",
    currency: "DKK",
    amountMinor: 1250,
    recordedAt: new Date(T0 + 2 * 60_000),
  })
  expect(all.find((m) => m.medusaId === "ref_3")).toMatchObject({ kind: "refund", orderId: null, reconciliationIdentifier: "medusa-refund-ref_3", amountMinor: 200 })
})

it("reads nothing without a registration importing payouts", async () => {
  const c = container()
  for await (const batch of medusaMovements(c as never, [], null)) expect(batch).toBeUndefined()
  expect(c.payments.listCaptures).not.toHaveBeenCalled()
})

it("takes the amount the plugin sent AltaPay from the payment data, so a rounded refund is no difference", async () => {
  const c = container()
  const sent = payment(9)
  // Medusa refunded 0.125 DKK; the plugin's running total sent 0.12 (12 øre), as AltaPay's line will say.
  sent.data.refunds = [{ refund_id: "ref_9", reconciliation_identifier: "medusa-refund-ref_9", amount_minor: 12 } as never]
  refunds[9] = { ...refunds[9], amount: 0.125, payment: sent }
  const all = []
  for await (const batch of medusaMovements(c as never, ["pp_altapay_altapay"], null)) all.push(...batch)
  expect(all.find((m) => m.medusaId === "ref_9")).toMatchObject({ amountMinor: 12 })
  // Without the plugin's record, Medusa's own amount in minor units.
  expect(all.find((m) => m.medusaId === "ref_8")).toMatchObject({ amountMinor: 200 })
})
