/**
 * AltaPay's updateOrder through our client against the sandbox: an uncaptured Klarna reservation
 * gets the order's new amount and lines (they replace the reserved ones, as AltaPay's updateOrder
 * page says), a card payment is refused (AltaPay offers it for invoice methods), and lines that do
 * not total the amount are never sent.
 */
import { AltaPayDeclinedError, AltaPayValidationError } from "../../src/altapay"
import { authorizedPayment, type SandboxPair } from "../helpers/sandbox"
import { invoicePayment, RESERVED, SCARF, SHIPPING, startInvoicePair, total, TROUSERS } from "./invoice-payment"

describe("updateOrder", () => {
  let pair: SandboxPair
  beforeAll(async () => {
    pair = await startInvoicePair()
  })
  afterAll(() => pair.close())

  it("lowers an uncaptured invoice reservation to the order's new lines, which a capture then repeats", async () => {
    const { paymentId, transactionId } = await invoicePayment(pair)
    const kept = [SCARF, SHIPPING]
    const result = await pair.client.gateway.updateOrder({ paymentId, amountMinor: total(kept), currency: "DKK", orderLines: kept })
    expect(result.result).toBe("Success")
    // AltaPay's answer holds only the Result (api-php's updateorder.xml): its record shows the new amount.
    expect(result.transaction).toBeUndefined()
    const [after] = await pair.client.gateway.payments({ transactionId })
    expect(after.reservedAmount?.minor).toBe(total(kept))
    const sent = pair.sandbox.ledger().find((e) => e.operation === "updateOrder")?.params as Record<string, unknown>
    expect(sent).toMatchObject({ payment_id: paymentId, amount: (total(kept) / 100).toFixed(2) })
    expect(pair.sandbox.transaction(transactionId)?.invoiceLines?.map((l) => l.fields.itemId)).toEqual(["0001", "ship"])
    // The trousers are no longer reserved: a capture of them is refused, the new lines capture in full.
    await expect(pair.client.gateway.captureReservation({ transactionId, amountMinor: total([TROUSERS]), currency: "DKK", orderLines: [TROUSERS] })).rejects.toBeInstanceOf(
      AltaPayDeclinedError
    )
    expect((await pair.client.gateway.captureReservation({ transactionId, amountMinor: total(kept), currency: "DKK", orderLines: kept })).result).toBe("Success")
  })

  it("is refused for a card payment and for a raised amount", async () => {
    const card = await authorizedPayment(pair, 10000)
    const refused = pair.client.gateway.updateOrder({ paymentId: card.paymentId, amountMinor: total([SCARF]), currency: "DKK", orderLines: [SCARF] })
    // api-php's UpdateOrder reads a refusal as Result `Error` with the MerchantErrorMessage.
    await expect(refused).rejects.toMatchObject({ result: "Error", merchantMessage: expect.stringMatching(/only invoice payments/) })
    const { paymentId } = await invoicePayment(pair, { lines: [SCARF] })
    await expect(pair.client.gateway.updateOrder({ paymentId, amountMinor: total(RESERVED), currency: "DKK", orderLines: RESERVED })).rejects.toThrow(/may only lower/)
  })

  it("does not send lines that do not total the amount, or no lines at all", async () => {
    pair.sandbox.clearLedger()
    const attempt = (orderLines = [SCARF], amountMinor = total([SCARF]) + 1) =>
      pair.client.gateway.updateOrder({ paymentId: "0b47d69c-5007-47d3-a5d6-c52e1f528968", amountMinor, currency: "DKK", orderLines })
    await expect(attempt()).rejects.toBeInstanceOf(AltaPayValidationError)
    await expect(attempt([], 100)).rejects.toThrow(/without them AltaPay removes every line/)
    expect(pair.sandbox.ledger().filter((e) => e.operation === "updateOrder")).toHaveLength(0)
  })
})
