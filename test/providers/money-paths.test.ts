/**
 * The provider's money paths against the sandbox over HTTP: captures send what Medusa recorded for
 * each capture, refunds of amounts Medusa keeps exact (11.2725, 10.005) add up to what Medusa
 * refunded rounded once, store credit does not skew a refund's tax, and session lines are always
 * for the amount Medusa asks. `query` here stands in for Medusa's database (what it returns for a
 * payment's captures or a session's cart); the provider's reading and rounding are the real thing.
 */
import type { Logger } from "@medusajs/framework/types"
import { BigNumber } from "@medusajs/framework/utils"
import { buildOrderLines, decimalToMinor, type OrderLine } from "../../src/altapay"
import type { AltaPayPaymentData } from "../../src/lib/payment-data/data"
import { AltaPayProviderService } from "../../src/providers/altapay"
import { startSandbox, type Sandbox } from "../../src/sandbox"
import { sandboxProviderOptions } from "../helpers/provider"

const USER = "money-user"
const PASSWORD = "money-password-42"

let sandbox: Sandbox
let counter = 0
const warnings: string[] = []
const logger = { warn: (m: string) => warnings.push(m), debug: () => undefined, info: () => undefined, error: () => undefined } as unknown as Logger

interface Graph {
  graph(args: { entity: string; fields: string[]; filters: Record<string, unknown> }): Promise<{ data: unknown[] }>
}

/** Answers `query.graph` from a table of rows per entity, as Medusa's database would. */
function queryOf(rows: Record<string, unknown[]>): Graph {
  return { graph: async ({ entity }) => ({ data: rows[entity] ?? [] }) }
}

const providerWith = (query?: Graph) => new AltaPayProviderService({ logger, ...(query ? { query } : {}) }, sandboxProviderOptions(sandbox, { username: USER, password: PASSWORD }))

beforeAll(async () => {
  sandbox = await startSandbox({ port: 0, username: USER, password: PASSWORD })
})
afterAll(() => sandbox.close())
beforeEach(() => (warnings.length = 0))

const nextId = () => `payses_money${Date.now().toString(36)}${(counter++).toString(36)}`
const gateway = (operation: string) => sandbox.ledger().filter((e) => e.operation === operation)
const sentLines = (entry: { params: Record<string, unknown> }) => entry.params.orderLines as Array<Record<string, string>>

/** A paid and authorized session for `amount` (major units, exact) with the given lines. */
async function authorized(provider: AltaPayProviderService, amount: string, lines?: OrderLine[]): Promise<AltaPayPaymentData> {
  const id = nextId()
  const context = { idempotency_key: id, ...(lines ? { altapay: { order_lines: lines } } : {}) }
  const session = await provider.initiatePayment({ amount: new BigNumber(amount), currency_code: "dkk", data: { session_id: id }, context })
  const data = session.data as AltaPayPaymentData
  await sandbox.simulatePayment(data.altapay_session_id, { outcome: "authorize", callback: false })
  return (await provider.authorizePayment({ data, context: { idempotency_key: id } })).data as AltaPayPaymentData
}

describe("captures", () => {
  it("sends exactly what Medusa recorded for a partial capture, and the rest adds up to the reservation", async () => {
    const captures: Array<{ id: string; raw_amount: { value: string; precision: number }; created_at: string }> = []
    const provider = providerWith(queryOf({ payment: [{ id: "pay_1", captures }] }))
    // One item of 10.02 excl. 25 % VAT with a 10 % promotion: Medusa's total is 11.2725.
    const lines = buildOrderLines({
      currency: "DKK",
      totalMinor: 1127,
      items: [{ id: "item_1", title: "Te", quantity: 1, unitPriceMinor: 1002, taxRates: [{ rate: 25 }], adjustments: [{ amountMinor: "100.2", taxInclusive: false }] }],
    })
    const data = await authorized(provider, "11.2725", lines)
    expect(data.amount_minor).toBe(1127)

    // 40 % of Medusa's 11.2725 is 4.509: AltaPay captures 4.51.
    captures.push({ id: "capt_1", raw_amount: { value: "4.509", precision: 20 }, created_at: "2026-01-01T10:00:00Z" })
    const first = (await provider.capturePayment({ data, context: { idempotency_key: "capt_1" } })).data as AltaPayPaymentData
    expect(first.captured_minor).toBe(451)
    const [sent] = gateway("captureReservation").slice(-1)
    expect(sent.params).toMatchObject({ amount: "4.51", reconciliation_identifier: "medusa-capture-capt_1" })
    expect(sentLines(sent)).toEqual([expect.objectContaining({ unitPrice: "3.61", taxAmount: "0.90", taxPercent: "25" })])

    // The rest, 6.7635: the running total 11.2725 rounds to 11.27, so AltaPay captures 6.76.
    captures.push({ id: "capt_2", raw_amount: { value: "6.7635", precision: 20 }, created_at: "2026-01-01T11:00:00Z" })
    const second = (await provider.capturePayment({ data: first, context: { idempotency_key: "capt_2" } })).data as AltaPayPaymentData
    expect(second.captured_minor).toBe(1127)
    expect(gateway("captureReservation").slice(-1)[0].params).toMatchObject({ amount: "6.76" })

    // Medusa retrying the first capture sends nothing again.
    const before = gateway("captureReservation").length
    await provider.capturePayment({ data: second, context: { idempotency_key: "capt_1" } })
    expect(gateway("captureReservation")).toHaveLength(before)
  })

  it("captures what is left of the reservation when Medusa's capture cannot be read, and says why", async () => {
    const provider = providerWith()
    const data = await authorized(provider, "125.00")
    const captured = (await provider.capturePayment({ data, context: { idempotency_key: "capt_x" } })).data as AltaPayPaymentData
    expect(captured.captured_minor).toBe(12500)
    expect(warnings.join("\n")).toMatch(/capture amount could not be read \(the Payment module has no `query` dependency\); capturing what is left/)
  })
})

describe("refunds", () => {
  it("rounds refunds as a running total: two halves of 11.2725 return exactly the 11.27 captured", async () => {
    const provider = providerWith()
    let data = await authorized(provider, "11.2725")
    data = (await provider.capturePayment({ data, context: { idempotency_key: "capt_a" } })).data as AltaPayPaymentData
    data = (await provider.refundPayment({ data, amount: new BigNumber("5.63625"), context: { idempotency_key: "ref_a" } })).data as AltaPayPaymentData
    data = (await provider.refundPayment({ data, amount: new BigNumber("5.63625"), context: { idempotency_key: "ref_b" } })).data as AltaPayPaymentData
    expect(
      gateway("refundCapturedReservation")
        .slice(-2)
        .map((e) => e.params.amount)
    ).toEqual(["5.64", "5.63"])
    expect(data.refunded_minor).toBe(1127)
    expect(data.refunds.map((r) => r.medusa_amount)).toEqual(["5.63625", "5.63625"])
  })

  it("refunds 10.005 as Medusa rounds it (10.01), and a second 10.005 brings the total to 20.01, not 20.02", async () => {
    const provider = providerWith()
    let data = await authorized(provider, "20.01")
    data = (await provider.capturePayment({ data, context: { idempotency_key: "capt_b" } })).data as AltaPayPaymentData
    data = (await provider.refundPayment({ data, amount: new BigNumber("10.005"), context: { idempotency_key: "ref_c" } })).data as AltaPayPaymentData
    data = (await provider.refundPayment({ data, amount: new BigNumber("10.005"), context: { idempotency_key: "ref_d" } })).data as AltaPayPaymentData
    expect(
      gateway("refundCapturedReservation")
        .slice(-2)
        .map((e) => e.params.amount)
    ).toEqual(["10.01", "10.00"])
    expect(data.refunded_minor).toBe(2001)
  })

  it("refuses, with nothing sent, a refund that rounds to no money", async () => {
    const provider = providerWith()
    let data = await authorized(provider, "5.00")
    data = (await provider.capturePayment({ data, context: { idempotency_key: "capt_c" } })).data as AltaPayPaymentData
    const before = gateway("refundCapturedReservation").length
    await expect(provider.refundPayment({ data, amount: new BigNumber("0.004"), context: { idempotency_key: "ref_e" } })).rejects.toThrow(
      /0\.004 DKK rounds to no money to return .* Nothing was sent/
    )
    expect(gateway("refundCapturedReservation")).toHaveLength(before)
  })

  it("keeps the order's tax rate when store credit paid part of it: 30.00 of a 125.00 order is 24.00 + 6.00", async () => {
    const lines = buildOrderLines({
      currency: "DKK",
      totalMinor: 7500,
      items: [{ id: "item_1", title: "Jakke", quantity: 1, unitPriceMinor: 10000, taxRates: [{ rate: 25 }] }],
      credits: [{ id: "cred_1", label: "Store credit", amountMinor: 5000 }],
    })
    const provider = providerWith()
    let data = await authorized(provider, "75.00", lines)
    data = (await provider.capturePayment({ data, context: { idempotency_key: "capt_d" } })).data as AltaPayPaymentData
    await provider.refundPayment({ data, amount: new BigNumber("30.00"), context: { idempotency_key: "ref_f" } })
    const [sent] = gateway("refundCapturedReservation").slice(-1)
    expect(sentLines(sent)).toEqual([expect.objectContaining({ unitPrice: "24.00", taxAmount: "6.00", taxPercent: "25" })])
  })
})

describe("session lines", () => {
  const cart = (total: number) => ({
    id: "cart_1",
    currency_code: "dkk",
    total,
    items: [{ id: "item_1", title: "Jakke", quantity: 1, unit_price: 1000, is_tax_inclusive: true, tax_lines: [{ rate: 25 }], adjustments: [] }],
    shipping_methods: [],
    credit_lines: [],
  })
  const sessionsOf = (cartRow: unknown) => queryOf({ payment_session: [{ id: "x", payment_collection: { cart: { id: "cart_1" } } }], cart: [cartRow] })

  it("refuses a session whose amount is not its cart's total, sending nothing", async () => {
    const provider = providerWith(sessionsOf(cart(1250)))
    const before = sandbox.ledger().filter((e) => e.operation === "session.create").length
    const id = nextId()
    await expect(provider.initiatePayment({ amount: 500, currency_code: "dkk", data: { session_id: id }, context: { idempotency_key: id } })).rejects.toThrow(
      /is for 500\.00 DKK, but its cart cart_1 comes to 1250\.00 DKK\. Nothing was sent to AltaPay/
    )
    expect(sandbox.ledger().filter((e) => e.operation === "session.create")).toHaveLength(before)
  })

  it("sends the cart's lines for the cart's total, without a rounding line", async () => {
    const provider = providerWith(sessionsOf(cart(1000)))
    const id = nextId()
    const out = await provider.initiatePayment({ amount: 1000, currency_code: "dkk", data: { session_id: id }, context: { idempotency_key: id } })
    expect((out.data as AltaPayPaymentData).order_lines).toEqual([expect.objectContaining({ itemId: "item_1", unitPriceMinor: 80000, taxAmountMinor: 20000 })])
  })

  it("updatePayment compares lines, not only the amount: the same total with another tax split updates AltaPay", async () => {
    let row = cart(1000)
    const provider = providerWith({ graph: async ({ entity }) => ({ data: entity === "cart" ? [row] : [{ id: "x", payment_collection: { cart: { id: "cart_1" } } }] }) })
    const id = nextId()
    const created = await provider.initiatePayment({ amount: 1000, currency_code: "dkk", data: { session_id: id }, context: { idempotency_key: id } })
    const updates = () => sandbox.ledger().filter((e) => e.operation === "session.update").length
    const before = updates()

    const same = await provider.updatePayment({ data: created.data!, amount: 1000, currency_code: "dkk", context: {} })
    expect(updates()).toBe(before)
    expect(same.data).toEqual(created.data)

    // Same gross, but the item is now taxed at 12.5 %: AltaPay must get the new lines.
    row = { ...row, items: [{ ...row.items[0], tax_lines: [{ rate: 12.5 }] }] }
    const changed = await provider.updatePayment({ data: created.data!, amount: 1000, currency_code: "dkk", context: {} })
    expect(updates()).toBe(before + 1)
    expect((changed.data as AltaPayPaymentData).order_lines).toEqual([expect.objectContaining({ taxPercent: 12.5, unitPriceMinor: 88889, taxAmountMinor: 11111 })])
  })
})

// The sandbox's ledger stores gateway amounts as sent; make sure they are the decimal text AltaPay reads.
test("gateway amounts are read back as minor units", () => {
  expect(decimalToMinor("4.51", "DKK")).toBe(451)
})
