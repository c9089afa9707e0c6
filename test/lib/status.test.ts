/**
 * A payment authorizes a session only when AltaPay states what it reserved, in which currency,
 * and both match the session: an answer that leaves either out authorizes nothing.
 */
import fs from "node:fs"
import path from "node:path"
import { PaymentSessionStatus } from "@medusajs/framework/utils"
import { parseGatewayResponse } from "../../src/altapay"
import { sessionStatusFor } from "../../src/lib/status"

// One preauth transaction of 399.00 SEK, as AltaPay's payments answer carries it.
const xml = fs.readFileSync(path.join(__dirname, "../fixtures/gateway/payments-single-transaction.xml"), "utf8")
const transactionOf = (body: string) => parseGatewayResponse(body).transactions[0]
const expected = { amountMinor: 39900, currency: "SEK" }

describe("sessionStatusFor", () => {
  it("authorizes a reservation of the session's amount in the session's currency", () => {
    expect(sessionStatusFor(transactionOf(xml), expected).status).toBe(PaymentSessionStatus.AUTHORIZED)
  })

  it("does not authorize the same amount in another currency", () => {
    const result = sessionStatusFor(transactionOf(xml), { amountMinor: 39900, currency: "DKK" })
    expect(result).toEqual({ status: PaymentSessionStatus.ERROR, reason: expect.stringContaining("reserved 399.00 SEK"), finding: "mismatch" })
  })

  // Unknown is not a mismatch: the follow-up job releases only on a stated mismatch, never on a gap in an answer.
  it("does not authorize, and finds no mismatch, when AltaPay names no currency for the reservation", () => {
    const body = xml.replace(/<MerchantCurrency>.*<\/MerchantCurrency>/, "").replace(/<MerchantCurrencyAlpha>.*<\/MerchantCurrencyAlpha>/, "")
    expect(transactionOf(body).reservedAmount?.currency).toBe("")
    expect(sessionStatusFor(transactionOf(body), expected)).toEqual({
      status: PaymentSessionStatus.PENDING,
      reason: expect.stringContaining("states no currency"),
      finding: "unknown",
    })
  })

  it("does not authorize, and finds no mismatch, when AltaPay states no reserved amount", () => {
    const body = xml.replace(/<ReservedAmount>.*<\/ReservedAmount>/, "")
    expect(sessionStatusFor(transactionOf(body), expected)).toEqual({
      status: PaymentSessionStatus.PENDING,
      reason: expect.stringContaining("states no reserved amount"),
      finding: "unknown",
    })
  })
})
