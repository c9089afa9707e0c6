/**
 * AltaPay's "Refund a Klarna payment" example, a refund with a return fee (issue 40): 4.60 refunded
 * as the item (10 + 10 % tax = 11.00) less a handling line of 5.12 + 25 % = 6.40 that AltaPay
 * deducts. Our client sends it with `returnFee`, and the sandbox's Klarna terminal takes it, as the
 * client writes it and exactly as the page's example writes it.
 */
import { AltaPayValidationError, type OrderLine, type ReturnFee } from "../../../src/altapay"
import { basicHeader } from "../../sandbox/helpers"
import { invoicePayment, startInvoicePair } from "../../sandbox/invoice-payment"
import type { SandboxPair } from "../../helpers/sandbox"
import { SANDBOX_PASSWORD, SANDBOX_USER } from "../../helpers/sandbox"
import { klarnaReturnFeeRefund } from "./samples"

/** The example's item and fee as our order lines (taxAmount sent beside taxPercent, as AltaPay asks). */
const ITEM: OrderLine = { goodsType: "physical", description: "test", quantity: 1, taxPercent: 10, unitPriceMinor: 1000, taxAmountMinor: 100, itemId: "123981231" }
const FEE: ReturnFee = { description: "cost of return", quantity: 1, itemId: "901209381", unitPriceMinor: 512, taxPercent: 25, taxAmountMinor: 128 }

describe("a Klarna refund with a return fee, as AltaPay's example does it", () => {
  let pair: SandboxPair
  beforeAll(async () => {
    pair = await startInvoicePair()
  })
  afterAll(() => pair.close())

  /** A Klarna payment of the example's item, captured. */
  const captured = async () => {
    const { transactionId } = await invoicePayment(pair, { lines: [ITEM] })
    await pair.client.gateway.captureReservation({ transactionId })
    return transactionId
  }
  const lastRefund = () =>
    pair.sandbox
      .ledger()
      .filter((e) => e.operation === "refundCapturedReservation")
      .at(-1)!

  it("sends the example's lines and refunds 4.60 of the 11.00 captured: the fee stays with the shop", async () => {
    const transactionId = await captured()
    const result = await pair.client.gateway.refundCapturedReservation({ transactionId, amountMinor: 460, currency: "DKK", orderLines: [ITEM], returnFee: FEE })
    expect(result.result).toBe("Success")
    expect(result.transaction).toMatchObject({ refundedAmount: { decimal: "4.60" }, capturedAmount: { decimal: "11.00" } })
    // On the wire: the page's fields (with taxAmount beside taxPercent), the fee a positive handling line after the goods.
    const example = klarnaReturnFeeRefund.value
    const sent = lastRefund().params as Record<string, unknown>
    const lines = sent.orderLines as Array<Record<string, string>>
    expect(sent.amount).toBe(example.amount)
    expect(lines).toEqual([
      { description: "test", itemId: "123981231", quantity: "1", unitPrice: "10.00", taxAmount: "1.00", taxPercent: "10", goodsType: "physical" },
      { description: "cost of return", itemId: "901209381", quantity: "1", unitPrice: "5.12", taxAmount: "1.28", taxPercent: "25", goodsType: "handling" },
    ])
    expect(pair.sandbox.transaction(transactionId)).toMatchObject({ refundedMinor: 460, invoiceLines: [{ refundedQuantity: "1" }] })
  })

  it("the sandbox takes the page's example as written: taxPercent alone, the fee deducted", async () => {
    const transactionId = await captured()
    const form = new URLSearchParams({ ...klarnaReturnFeeRefund.value, transaction_id: transactionId })
    const answer = await fetch(`${pair.sandbox.gatewayUrl}/merchant/API/refundCapturedReservation`, {
      method: "POST",
      headers: { authorization: basicHeader(SANDBOX_USER, SANDBOX_PASSWORD), "content-type": "application/x-www-form-urlencoded" },
      body: form,
    })
    const xml = await answer.text()
    expect(xml).toContain("<Result>Success</Result>")
    expect(xml).toContain("<RefundedAmount>4.60</RefundedAmount>")
  })

  it("refuses before sending a fee the lines do not cover the amount with, or a fee without goods", async () => {
    const transactionId = await captured()
    const before = pair.sandbox.ledger().length
    const wrong = await pair.client.gateway
      .refundCapturedReservation({ transactionId, amountMinor: 1100, currency: "DKK", orderLines: [ITEM], returnFee: FEE })
      .catch((e: unknown) => e)
    expect(wrong).toBeInstanceOf(AltaPayValidationError)
    expect((wrong as AltaPayValidationError).message).toMatch(/lines total 1100 minor units less the return fee's 640 is 460, but the amount is 1100/)
    const alone = await pair.client.gateway.refundCapturedReservation({ transactionId, amountMinor: 460, currency: "DKK", returnFee: FEE }).catch((e: unknown) => e)
    expect((alone as AltaPayValidationError).issues).toContainEqual({ field: "returnFee", message: "needs the orderLines it is deducted from" })
    const free = await pair.client.gateway
      .refundCapturedReservation({ transactionId, amountMinor: 1100, currency: "DKK", orderLines: [ITEM], returnFee: { ...FEE, unitPriceMinor: 0, taxAmountMinor: 0 } })
      .catch((e: unknown) => e)
    expect((free as AltaPayValidationError).issues).toContainEqual({ field: "returnFee.unitPriceMinor", message: "must be greater than zero (AltaPay deducts the fee)" })
    expect(pair.sandbox.ledger()).toHaveLength(before)
  })
})
