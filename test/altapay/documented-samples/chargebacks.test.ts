/**
 * A chargeback notification as AltaPay documents it: status ChargebackEvent, and the Chargebacks
 * page's ChargebackEvents placed in the callback's xml where AltaPay's PHP client reads it (in the
 * transaction). Samples in samples.ts.
 */
import { chargebackEventsIn, parseCallback } from "../../../src/altapay"
import { chargebackEventsXml, chargebackStatus, sdkPhpCapturedCallbackXml } from "./samples"

/** The PHP SDK's captured callback XML with the documented events in its Transaction's (empty) ChargebackEvents. */
const xmlWithEvents = sdkPhpCapturedCallbackXml.value.replace("<ChargebackEvents/>", chargebackEventsXml.value)

describe("a chargeback notification", () => {
  it("parses the documented ChargebackEvents from the transaction in xml", () => {
    expect(xmlWithEvents).toContain("<ChargebackEvent>")
    const callback = parseCallback(new URLSearchParams({ shop_orderid: "000000081", status: chargebackStatus.value, xml: xmlWithEvents }).toString())
    expect(callback.status).toBe("chargebackevent")
    expect(callback.chargebacks).toEqual([
      expect.objectContaining({
        date: "2020-12-06T00:00:00+01:00",
        type: "Copy Request",
        reasonCode: "4821",
        reason: "Cardholder Inquiry - Does Not Recognize Transaction (Merchant Name, City, State or Date)",
        amountMinor: 5084,
        currency: "EUR",
        acquirerTransactionId: "f9a528a8-a9e5-45a2-be5c-8c420d05846a",
      }),
    ])
  })

  it("reads the element on its own too (as the page prints it), with a stable key", () => {
    const [a] = chargebackEventsIn(chargebackEventsXml.value)
    const [b] = chargebackEventsIn(xmlWithEvents)
    expect(a.key).toBe(b.key)
    expect(a.transactionId).toBeNull()
  })

  it("has no chargebacks for other statuses, and none in an empty <ChargebackEvents/>", () => {
    expect(parseCallback({ shop_orderid: "1", status: "succeeded", xml: xmlWithEvents }).chargebacks).toBeUndefined()
    expect(chargebackEventsIn(sdkPhpCapturedCallbackXml.value)).toEqual([])
    // An empty element beside a filled one still gives the filled one's events.
    expect(chargebackEventsIn(sdkPhpCapturedCallbackXml.value.replace("</Transaction>", `${chargebackEventsXml.value}</Transaction>`))).toHaveLength(1)
  })

  it("refuses an event without an amount", () => {
    expect(() => chargebackEventsIn(chargebackEventsXml.value.replace("<Amount>50.84</Amount>", ""))).toThrow(/Amount/)
  })
})
