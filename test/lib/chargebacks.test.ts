/**
 * Chargebacks on the payment's data: each event once (a second notification of the same event
 * adds nothing), and the merchant's notice names the order, reason and amount.
 */
import { chargebackEventsIn } from "../../src/altapay"
import { chargebackNoticeText, chargebackRecord, newChargebacks } from "../../src/lib/callbacks/chargebacks"
import { chargebackEventsXml } from "../altapay/documented-samples/samples"

const at = new Date("2026-01-02T03:04:05Z")
const [event] = chargebackEventsIn(chargebackEventsXml.value)
const record = chargebackRecord(event, at)

describe("recording chargebacks", () => {
  it("records a new event, and the same event posted again not at all", () => {
    expect(newChargebacks(undefined, [record])).toEqual([record])
    expect(newChargebacks([record], [chargebackRecord(event, new Date())])).toEqual([])
    // Twice in one notification: once.
    expect(newChargebacks([], [record, record])).toEqual([record])
  })

  it("keeps a later event of the same dispute (another type or date)", () => {
    const [later] = chargebackEventsIn(chargebackEventsXml.value.replace("Copy Request", "Chargeback"))
    expect(newChargebacks([record], [chargebackRecord(later, at)])).toHaveLength(1)
  })

  it("tells the merchant the order, the reason and the amount", () => {
    const { title, description } = chargebackNoticeText({ paymentId: "pay_1", orderId: "order_1", chargeback: record })
    expect(title).toBe("AltaPay chargeback on order order_1")
    expect(description).toContain("AltaPay chargeback on order order_1: 4821 Cardholder Inquiry")
    expect(description).toContain("50.84 EUR")
  })
})
