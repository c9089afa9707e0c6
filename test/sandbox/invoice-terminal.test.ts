/**
 * The sandbox's Klarna invoice terminal, through our client over HTTP: order lines at the
 * reservation, partial captures that repeat reserved lines exactly, the 28-day capture period,
 * refund lines that relate to reserved ones, and each refusal's reason in AltaPayDeclinedError.
 */
import { AltaPayDeclinedError, type OrderLine } from "../../src/altapay"
import { authorizedPayment, type SandboxPair } from "../helpers/sandbox"
import { DISCOUNT, invoicePayment, lineTotal, RESERVED, SCARF, SHIPPING, SOCKS, startInvoicePair, total, TROUSERS } from "./invoice-payment"

const DAY_MS = 86_400_000

describe("sandbox invoice terminal (Klarna DKK Sandbox Terminal)", () => {
  let pair: SandboxPair
  let now = Date.now()
  beforeAll(async () => {
    pair = await startInvoicePair({ now: () => now })
  })
  afterAll(() => pair.close())
  beforeEach(() => {
    now = Date.now()
  })

  const capture = (transactionId: string, lines?: OrderLine[], amountMinor = lines ? total(lines) : undefined) =>
    pair.client.gateway.captureReservation({ transactionId, amountMinor, currency: "DKK", orderLines: lines })
  const refund = (transactionId: string, lines?: OrderLine[], amountMinor = lines ? total(lines) : undefined) =>
    pair.client.gateway.refundCapturedReservation({ transactionId, amountMinor, currency: "DKK", orderLines: lines })
  const declined = async (promise: Promise<unknown>): Promise<AltaPayDeclinedError> => {
    const error = await promise.then(
      () => undefined,
      (e: unknown) => e
    )
    expect(error).toBeInstanceOf(AltaPayDeclinedError)
    return error as AltaPayDeclinedError
  }

  it("is listed among the payment methods with its terminal name, and its payments are of nature Invoice", async () => {
    const session = await pair.client.checkout.createSession({ orderId: "order-list", amountMinor: total(RESERVED), currency: "DKK", orderLines: RESERVED })
    const methods = await pair.client.checkout.listPaymentMethods(session.sessionId)
    expect(methods.map((m) => m.metadata?.terminalName)).toContain("Klarna DKK Sandbox Terminal")
    const { transactionId, status } = await invoicePayment(pair)
    expect(status).toBe("AUTHORIZED")
    expect(pair.sandbox.transaction(transactionId)).toMatchObject({ nature: "Invoice", terminal: "Klarna DKK Sandbox Terminal", reservedMinor: total(RESERVED) })
  })

  it("refuses an invoice payment whose session has no order lines, or a line without goodsType, saying so", async () => {
    const paid = await invoicePayment(pair, { lines: null, amountMinor: 10000 })
    expect(paid.status).toBe("FAILED")
    expect(pair.sandbox.payment(paid.paymentId)?.reason).toMatch(/Invoice payments need order lines/)
    const noGoodsType = await invoicePayment(pair, { lines: [{ ...SCARF, goodsType: undefined }] })
    expect(noGoodsType.status).toBe("FAILED")
    expect(pair.sandbox.payment(noGoodsType.paymentId)?.reason).toMatch(/Order line 1 \(itemId '0001'\) lacks goodsType/)
  })

  it("accepts a partial capture of reserved lines exactly as reserved, then a capture of the rest without lines", async () => {
    const { transactionId } = await invoicePayment(pair)
    const first = await capture(transactionId, [SCARF, SHIPPING])
    expect(first.transaction?.capturedAmount?.minor).toBe(lineTotal(SCARF) + lineTotal(SHIPPING))
    const rest = await capture(transactionId)
    expect(rest.transaction?.capturedAmount?.minor).toBe(total(RESERVED))
    expect(pair.sandbox.transaction(transactionId)?.invoiceLines?.map((line) => line.captured)).toEqual([true, true, true, true, true])
  })

  it("declines a proportional 'Partial capture' line: it is no reserved line", async () => {
    const { transactionId } = await invoicePayment(pair)
    const partial: OrderLine = {
      description: "Partial capture",
      itemId: "partial-capture",
      quantity: 1,
      unitPriceMinor: 4000,
      taxPercent: 25,
      taxAmountMinor: 1000,
      goodsType: "item",
    }
    const error = await declined(capture(transactionId, [partial]))
    expect(error.message).toMatch(/Order line 1 \(itemId 'partial-capture'\) does not match any order line of the reservation/)
    expect(error.merchantMessage).toMatch(/no reserved line has that itemId/)
    expect(pair.sandbox.transaction(transactionId)?.capturedMinor).toBe(0)
  })

  it.each([
    ["quantity", { ...SOCKS, quantity: 2 }, /quantity 2 differs from 3/],
    ["unitPrice", { ...SCARF, unitPriceMinor: 5001 }, /unitPrice 50\.01 differs from 50\b/],
    ["taxAmount", { ...SCARF, taxAmountMinor: 501 }, /taxAmount 5\.01 differs from 5\b/],
    ["description", { ...SCARF, description: "Yellow scarf (wool)" }, /description 'Yellow scarf \(wool\)' differs from 'Yellow scarf'/],
  ] as const)("declines a partial capture whose line differs from the reserved one in %s, naming it", async (_component, line, reason) => {
    const { transactionId } = await invoicePayment(pair)
    const error = await declined(capture(transactionId, [line]))
    expect(error.message).toMatch(/Order line 1 \(itemId '000[13]'\) does not match any order line of the reservation/)
    expect(error.message).toMatch(reason)
  })

  it("declines a partial capture without lines, and a line captured twice", async () => {
    const { transactionId } = await invoicePayment(pair)
    expect((await declined(capture(transactionId, undefined, 5500))).message).toMatch(/partial capture of an invoice payment must carry the order lines/)
    await capture(transactionId, [SCARF])
    expect((await declined(capture(transactionId, [SCARF]))).message).toMatch(/Order line 1 \(itemId '0001'\) was captured before/)
  })

  it("declines a capture later than 28 days after the reservation, with lines or without", async () => {
    const { transactionId } = await invoicePayment(pair)
    await capture(transactionId, [SCARF])
    now += 28 * DAY_MS + 60_000
    const error = await declined(capture(transactionId))
    expect(error.message).toMatch(/Capture after 28 days of the reservation/)
    expect((await declined(capture(transactionId, [TROUSERS]))).message).toMatch(/Capture after 28 days/)
  })

  it("takes another capture period per terminal (invoiceTerminal.captureWithinDays)", async () => {
    const longer = await startInvoicePair({ invoiceTerminal: { captureWithinDays: 60 }, now: () => now })
    try {
      const { transactionId } = await invoicePayment(longer)
      now += 59 * DAY_MS
      await expect(longer.client.gateway.captureReservation({ transactionId })).resolves.toMatchObject({ result: "Success" })
    } finally {
      await longer.close()
    }
  })

  it("refund lines must relate to reserved lines: their itemId, description, unitPrice, taxPercent, goodsType, at most the quantity not refunded", async () => {
    const { transactionId } = await invoicePayment(pair)
    await capture(transactionId)
    await expect(refund(transactionId, [{ ...SOCKS, quantity: 2, taxAmountMinor: 500 }, DISCOUNT])).resolves.toMatchObject({ result: "Success" })
    expect((await declined(refund(transactionId, [{ ...SOCKS, quantity: 2, taxAmountMinor: 500 }]))).message).toMatch(
      /Order line 1 \(itemId '0003'\) refunds quantity 2, more than the 1 of that line not refunded yet/
    )
    expect((await declined(refund(transactionId, [{ ...TROUSERS, unitPriceMinor: 7000 }]))).message).toMatch(
      /does not relate to the reservation's order line: unitPrice 70\.00 differs from 75/
    )
    expect((await declined(refund(transactionId, [{ ...TROUSERS, itemId: "0009" }]))).message).toMatch(
      /Order line 1 \(itemId '0009'\) does not relate to any order line of the reservation/
    )
    await expect(refund(transactionId, [{ ...SOCKS, quantity: 1, taxAmountMinor: 250 }])).resolves.toMatchObject({ result: "Success" })
    expect(pair.sandbox.transaction(transactionId)?.invoiceLines?.find((line) => line.fields.itemId === "0003")?.refundedQuantity).toBe("3")
  })

  it("a goodwill refund (no order lines) of part of the capture goes through, as AltaPay's Klarna refund page allows", async () => {
    const { transactionId } = await invoicePayment(pair)
    await capture(transactionId)
    await expect(refund(transactionId, undefined, 1000)).resolves.toMatchObject({ result: "Success" })
  })

  it("card terminals keep their rules: partial captures without lines or with a proportional line", async () => {
    const { transactionId } = await authorizedPayment(pair, 10000)
    await expect(capture(transactionId, undefined, 2000)).resolves.toMatchObject({ result: "Success" })
    const partial: OrderLine = { description: "Partial capture", itemId: "partial-capture", quantity: 1, unitPriceMinor: 2400, taxPercent: 25, taxAmountMinor: 600 }
    await expect(capture(transactionId, [partial])).resolves.toMatchObject({ result: "Success" })
    now += 90 * DAY_MS
    await expect(capture(transactionId)).resolves.toMatchObject({ result: "Success" })
    expect(pair.sandbox.transaction(transactionId)).toMatchObject({ nature: "CreditCard", capturedMinor: 10000 })
  })
})
