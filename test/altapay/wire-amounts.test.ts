/**
 * Amounts on the wire (issue 30): AltaPay takes at most 2 decimals (OrderDetails; the Merchant API
 * pages), and its own plugins send `round($amount, 2)` for every currency. We send JPY as whole yen
 * and a 3-decimal currency (KWD, BHD) with 2 decimals when its last digit is 0; any other amount is
 * refused before anything is sent, never rounded. The client against the sandbox, over HTTP.
 */
import { AltaPayAmountPrecisionError, AltaPayValidationError, minorToWireDecimal, minorToWireNumber, type OrderLine } from "../../src/altapay"
import { authorizedPayment, startSandboxAndClient, SANDBOX_PASSWORD, SANDBOX_USER, type SandboxPair } from "../helpers/sandbox"

const line = (unitPriceMinor: number, taxAmountMinor = 0): OrderLine => ({
  itemId: "dates",
  description: "Dates",
  quantity: 1,
  unitPriceMinor,
  taxAmountMinor,
  taxPercent: 0,
  goodsType: "item",
})

describe("amounts AltaPay's 2 decimals carry", () => {
  it("are the currency's own decimals up to 2, and 2 for a 3-decimal currency whose last digit is 0", () => {
    expect(minorToWireDecimal(966, "DKK")).toBe("9.66")
    expect(minorToWireDecimal(1000, "JPY")).toBe("1000")
    expect(minorToWireNumber(1000, "JPY")).toBe(1000)
    expect(minorToWireDecimal(12340, "KWD")).toBe("12.34")
    expect(minorToWireDecimal(12300, "BHD")).toBe("12.30")
    expect(minorToWireNumber(12340, "KWD")).toBe(12.34)
  })

  it("refuse a fils amount 2 decimals cannot carry, saying what and what to do", () => {
    let error: unknown
    try {
      minorToWireDecimal(12345, "KWD")
    } catch (e) {
      error = e
    }
    expect(error).toBeInstanceOf(AltaPayAmountPrecisionError)
    expect(error).toBeInstanceOf(AltaPayValidationError)
    expect((error as AltaPayAmountPrecisionError).currency).toBe("KWD")
    expect((error as AltaPayAmountPrecisionError).issues).toEqual([{ field: "amount", message: "12.345 KWD does not fit 2 decimals" }])
    expect((error as Error).message).toMatch(/at most 2 decimals/)
    expect((error as Error).message).toMatch(/multiples of 0\.010 KWD/)
    expect((error as Error).message).toMatch(/never rounded/)
  })
})

describe("the client against the sandbox", () => {
  let pair: SandboxPair
  beforeAll(async () => {
    pair = await startSandboxAndClient()
  })
  afterAll(() => pair.close())
  const calls = (operation: string) => pair.sandbox.ledger().filter((e) => e.operation === operation)

  it("creates a JPY session in whole yen and a KWD session with 2 decimals", async () => {
    await pair.client.checkout.createSession({ orderId: "payses-JPY1", amountMinor: 1000, currency: "JPY", orderLines: [line(1000)] })
    expect((calls("session.create").at(-1)!.params as any).order).toMatchObject({ amount: { value: 1000, currency: "JPY" }, orderLines: [{ unitPrice: 1000, taxAmount: 0 }] })
    await pair.client.checkout.createSession({ orderId: "payses-KWD1", amountMinor: 12350, currency: "KWD", orderLines: [line(12000, 350)] })
    expect((calls("session.create").at(-1)!.params as any).order).toMatchObject({ amount: { value: 12.35, currency: "KWD" }, orderLines: [{ unitPrice: 12, taxAmount: 0.35 }] })
  })

  it("refuses a KWD session whose amount or lines do not fit, before anything reaches AltaPay", async () => {
    const before = pair.sandbox.ledger().length
    const refused = pair.client.checkout.createSession({ orderId: "payses-KWD2", amountMinor: 12345, currency: "KWD", orderLines: [line(12000, 345)] })
    await expect(refused).rejects.toBeInstanceOf(AltaPayAmountPrecisionError)
    await expect(refused).rejects.toMatchObject({
      issues: [
        { field: "order.amount.value", message: "12.345 KWD does not fit 2 decimals" },
        { field: "order.orderLines.0.taxAmount", message: "0.345 KWD does not fit 2 decimals" },
      ],
    })
    expect(pair.sandbox.ledger().slice(before)).toEqual([])
  })

  it("captures and refunds KWD with 2 decimals, and refuses fils that do not fit before calling the gateway", async () => {
    const { transactionId } = await authorizedPayment(pair, 20000, "KWD")
    await pair.client.gateway.captureReservation({ transactionId, amountMinor: 12340, currency: "KWD", orderLines: [line(12340)] })
    expect(calls("captureReservation").at(-1)!.params).toMatchObject({ amount: "12.34", orderLines: [{ unitPrice: "12.34", taxAmount: "0.00" }] })
    expect(pair.sandbox.transaction(transactionId)).toMatchObject({ capturedMinor: 12340 })

    const before = pair.sandbox.ledger().length
    await expect(pair.client.gateway.refundCapturedReservation({ transactionId, amountMinor: 1005, currency: "KWD", orderLines: [line(1005)] })).rejects.toMatchObject({
      name: "AltaPayAmountPrecisionError",
      issues: [
        { field: "amount", message: "1.005 KWD does not fit 2 decimals" },
        { field: "orderLines.0.unitPrice", message: "1.005 KWD does not fit 2 decimals" },
      ],
    })
    await expect(pair.client.gateway.captureReservation({ transactionId, amountMinor: 7, currency: "KWD" })).rejects.toBeInstanceOf(AltaPayAmountPrecisionError)
    expect(pair.sandbox.ledger().slice(before)).toEqual([])
  })

  it("the sandbox refuses more than 2 decimals on both APIs, as AltaPay documents", async () => {
    const token = (await (
      await fetch(`${pair.sandbox.checkoutUrl}/checkout/v1/api/authenticate`, {
        method: "POST",
        headers: { authorization: `Basic ${Buffer.from(`${SANDBOX_USER}:${SANDBOX_PASSWORD}`).toString("base64")}` },
      })
    ).json()) as { token: string }
    const create = await fetch(`${pair.sandbox.checkoutUrl}/checkout/v1/api/session`, {
      method: "POST",
      headers: { authorization: `Bearer ${token.token}`, "content-type": "application/json" },
      body: JSON.stringify({
        order: { orderId: "raw-1", amount: { value: 12.345, currency: "KWD" }, orderLines: [{ description: "x", itemId: "x", quantity: 1, unitPrice: 12.345, taxAmount: 0 }] },
      }),
    })
    expect(create.status).toBe(400)
    expect(await create.text()).toMatch(/order\.amount\.value: can have at most 2 decimals.*order\.orderLines\.0\.unitPrice: unitPrice can have at most 2 decimals/)

    const { transactionId } = await authorizedPayment(pair, 20000, "KWD")
    const capture = await fetch(`${pair.sandbox.gatewayUrl}/merchant/API/captureReservation`, {
      method: "POST",
      headers: { authorization: `Basic ${Buffer.from(`${SANDBOX_USER}:${SANDBOX_PASSWORD}`).toString("base64")}`, "content-type": "application/x-www-form-urlencoded" },
      body: new URLSearchParams({ transaction_id: transactionId, amount: "1.005" }).toString(),
    })
    expect(await capture.text()).toMatch(/amount &quot;1\.005&quot; can have maximum 2 decimals|amount "1\.005" can have maximum 2 decimals/)
    expect(pair.sandbox.transaction(transactionId)).toMatchObject({ capturedMinor: 0 })
  })
})
