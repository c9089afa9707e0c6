/**
 * A payment authorizes a session only when AltaPay states what it reserved, in which currency,
 * and both match the session: an answer that leaves either out authorizes nothing.
 */
import fs from "node:fs"
import path from "node:path"
import { PaymentSessionStatus } from "@medusajs/framework/utils"
import { parseGatewayResponse } from "../../src/altapay"
import { isPaidAtAltaPay, sessionStatusFor, webhookActionFor } from "../../src/lib/medusa-mapping/status"

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

  // Medusa books a capture of the whole session for CAPTURED: 399.00 where AltaPay took 100.00.
  it("part captured (in AltaPay's merchant interface, before Medusa recorded it): authorized, so Medusa's Capture takes only the rest", () => {
    const part = transactionOf(at(xml, { status: "captured", captured: "100.00" }))
    expect(sessionStatusFor(part, expected)).toEqual({ status: PaymentSessionStatus.AUTHORIZED, notice: expect.stringContaining("AltaPay has captured 100.00 of the 399.00 SEK") })
    expect(sessionStatusFor(transactionOf(at(xml, { status: "captured", captured: "399.00" })), expected).status).toBe(PaymentSessionStatus.CAPTURED)
  })

  it("AltaPay holds money while anything captured is not refunded: part refunded is paid, all refunded is not", () => {
    expect(isPaidAtAltaPay(transactionOf(at(xml, { status: "refunded", captured: "399.00", refunded: "100.00" })))).toBe(true)
    expect(isPaidAtAltaPay(transactionOf(at(xml, { status: "refunded", captured: "399.00", refunded: "399.00" })))).toBe(false)
    expect(sessionStatusFor(transactionOf(at(xml, { status: "refunded", captured: "399.00", refunded: "100.00" })), expected).status).toBe(PaymentSessionStatus.CAPTURED)
  })
})

/** The sample transaction moved on: its status and the amounts captured and refunded. */
function at(body: string, moved: { status: string; captured: string; refunded?: string }): string {
  return body
    .replace(/<TransactionStatus>.*<\/TransactionStatus>/, `<TransactionStatus>${moved.status}</TransactionStatus>`)
    .replace(/<CapturedAmount>.*<\/CapturedAmount>/, `<CapturedAmount>${moved.captured}</CapturedAmount>`)
    .replace(/<RefundedAmount>.*<\/RefundedAmount>/, `<RefundedAmount>${moved.refunded ?? "0"}</RefundedAmount>`)
}

describe("webhookActionFor: callback status values as AltaPay's Magento plugin reads them", () => {
  // AltaPay/plugin-magento2-community Controller/Index/Notification.php handleNotification().
  const action = (status: string, paymentStatus?: string) => webhookActionFor({ shopOrderId: "o", status, paymentStatus, transactionInfo: {} })

  it("succeeded and success both pay: authorized for a reservation, successful once captured", () => {
    for (const status of ["succeeded", "success"]) {
      expect(action(status, "preauth")).toBe("authorized")
      expect(action(status, "captured")).toBe("captured")
    }
  })

  it("incomplete fails like failed, error and declined", () => {
    for (const status of ["incomplete", "failed", "error", "declined"]) expect(action(status)).toBe("failed")
  })

  it("cancelled cancels; open and new stay pending; anything else changes nothing", () => {
    expect(action("cancelled")).toBe("canceled")
    expect(action("open")).toBe("pending")
    expect(action("new")).toBe("pending")
    expect(action("ChargebackEvent".toLowerCase())).toBe("not_supported")
  })
})
