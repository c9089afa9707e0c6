/**
 * The provider's refund with a return fee (AltaPay's "Refund a Klarna payment"), against the
 * sandbox's Klarna terminal over HTTP: an item refund leaves the goods lines and the fee in the
 * payment's data, Medusa asks for the goods less the fee, and AltaPay gets the goods then the fee
 * as a positive handling line, as the page's example sends them (11.00 less 6.40 refunds 4.60).
 */
import type { Logger } from "@medusajs/framework/types"
import { BigNumber } from "@medusajs/framework/utils"
import { withReturnFee, type OrderLine } from "../../src/altapay"
import { sealPaymentData, type AltaPayPaymentData, type PendingRefund } from "../../src/lib/payment-data/data"
import { serverKeys } from "../../src/lib/registrations/server-keys"
import { AltaPayProviderService } from "../../src/providers/altapay"
import { INVOICE_METHOD, startSandbox, type Sandbox } from "../../src/sandbox"
import { sandboxProviderOptions } from "../helpers/provider"
import { klarnaReturnFeeRefund } from "../altapay/documented-samples/samples"

const USER = "return-fee-user"
const PASSWORD = "return-fee-password-42"
/** The example's item (10 + 10 % tax = 11.00). */
const ITEM: OrderLine = { goodsType: "physical", description: "test", quantity: 1, taxPercent: 10, unitPriceMinor: 1000, taxAmountMinor: 100, itemId: "123981231" }

let sandbox: Sandbox
let counter = 0
const logger = { warn: () => undefined, debug: () => undefined, info: () => undefined, error: () => undefined } as unknown as Logger
const options = () => sandboxProviderOptions(sandbox, { username: USER, password: PASSWORD }, { terminal: INVOICE_METHOD.terminalName, maxRetries: 0 })
const provider = () => new AltaPayProviderService({ logger }, options())

beforeAll(async () => {
  sandbox = await startSandbox({ port: 0, username: USER, password: PASSWORD, invoiceTerminal: true })
})
afterAll(() => sandbox.close())

const nextId = () => `payses_fee${Date.now().toString(36)}${(counter++).toString(36)}`
const refundsSent = () => sandbox.ledger().filter((e) => e.operation === "refundCapturedReservation")

/** A Klarna payment of the example's item, captured, with an item refund of it keeping a 6.40 fee at 25 % waiting in its data. */
async function capturedWithPendingFee(): Promise<{ data: AltaPayPaymentData; pending: PendingRefund }> {
  const p = provider()
  const id = nextId()
  const session = await p.initiatePayment({
    amount: new BigNumber("11.00"),
    currency_code: "dkk",
    data: { session_id: id },
    context: { idempotency_key: id, altapay: { order_lines: [ITEM] } } as never,
  })
  const fresh = session.data as AltaPayPaymentData
  await sandbox.simulatePayment(fresh.altapay_session_id, { paymentMethodId: INVOICE_METHOD.id, callback: false })
  const authorized = (await p.authorizePayment({ data: fresh, context: { idempotency_key: id } })).data as AltaPayPaymentData
  const captured = (await p.capturePayment({ data: authorized, context: { idempotency_key: `capt_${id}` } })).data as AltaPayPaymentData
  const plan = withReturnFee({ amountMinor: 1100, lines: [ITEM], items: [{ line_item_id: "ordli_test", quantity: 1 }] }, { grossMinor: 640, taxPercent: 25, currency: "DKK" })
  const pending: PendingRefund = {
    amount_minor: plan.amountMinor,
    order_lines: plan.lines,
    items: plan.items,
    return_fee: plan.returnFee,
    note: "Returned, opened",
    requested_at: new Date().toISOString(),
  }
  // As the item-refund route leaves it: sealed with the store's key.
  return { data: sealPaymentData({ ...captured, pending_refund: pending }, serverKeys(options(), "payment-data-seal")), pending }
}

describe("a Klarna item refund that keeps a return fee", () => {
  it("sends the goods then the fee as a positive handling line for 4.60, and records the fee with the refund", async () => {
    const { data, pending } = await capturedWithPendingFee()
    expect(data.payment_nature).toBe("Invoice")
    const before = refundsSent().length

    const refunded = (await provider().refundPayment({ data, amount: new BigNumber("4.60"), context: { idempotency_key: "ref_fee_1" } })).data as AltaPayPaymentData

    const sent = refundsSent().slice(before)
    expect(sent).toHaveLength(1)
    const params = sent[0].params as { amount: string; orderLines: Array<Record<string, string>> }
    // As AltaPay's example: its amount, its item, and its fee's net price and rate on a handling line after it.
    const example = klarnaReturnFeeRefund.value
    expect(params.amount).toBe(example.amount)
    expect(params.orderLines.map((l) => [l.goodsType, l.itemId, Number(l.unitPrice), l.taxPercent])).toEqual([
      [example["orderLines[0][goodsType]"], example["orderLines[0][itemId]"], Number(example["orderLines[0][unitPrice]"]), example["orderLines[0][taxPercent]"]],
      [example["orderLines[1][goodsType]"], "return-fee", Number(example["orderLines[1][unitPrice]"]), example["orderLines[1][taxPercent]"]],
    ])
    expect(params.orderLines).toEqual([
      { description: "test", itemId: "123981231", quantity: "1", unitPrice: "10.00", taxAmount: "1.00", taxPercent: "10", goodsType: "physical" },
      { description: "Return fee", itemId: "return-fee", quantity: "1", unitPrice: "5.12", taxAmount: "1.28", taxPercent: "25", goodsType: "handling" },
    ])
    expect(sandbox.transaction(data.transaction_id!)).toMatchObject({ capturedMinor: 1100, refundedMinor: 460, invoiceLines: [{ refundedQuantity: "1" }] })
    expect(refunded.refunds).toEqual([
      expect.objectContaining({ refund_id: "ref_fee_1", amount_minor: 460, order_lines: [ITEM], return_fee: pending.return_fee, items: pending.items, status: "succeeded" }),
    ])
    expect(refunded.pending_refund).toBeNull()
  })

  it("an attempt whose answer was lost keeps its fee and items when a later refund of the same amount adopts it", async () => {
    const { data, pending } = await capturedWithPendingFee()
    const p = provider()
    // AltaPay refunds, the answer is lost and so is every look-up after it: the outcome is unknown.
    sandbox.faults.add({ route: "refundCapturedReservation", kind: "lost-answer" })
    sandbox.faults.add({ route: "payments", kind: "reset", skip: 1, times: 5 })
    await expect(p.refundPayment({ data, amount: new BigNumber("4.60"), context: { idempotency_key: "ref_fee_2" } })).rejects.toThrow(/trying again is safe/)
    sandbox.faults.clear()

    // Medusa's own Refund button for the same 4.60: no pending lines, so what the attempt sent decides.
    const withoutPending = sealPaymentData({ ...data, pending_refund: null }, serverKeys(options(), "payment-data-seal"))
    const adopted = (await p.refundPayment({ data: withoutPending, amount: new BigNumber("4.60"), context: { idempotency_key: "ref_fee_3" } })).data as AltaPayPaymentData

    expect(refundsSent().filter((e) => e.params.transaction_id === data.transaction_id)).toHaveLength(1)
    expect(adopted.refunds).toEqual([
      expect.objectContaining({ refund_id: "ref_fee_3", amount_minor: 460, return_fee: pending.return_fee, items: pending.items, order_lines: [ITEM] }),
    ])
  })
})
