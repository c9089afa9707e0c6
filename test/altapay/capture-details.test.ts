/**
 * What a capture carries besides money, and what the payment's nature says, through the client to
 * the sandbox over HTTP: trackingInfo in AltaPay's form (captureReservation page), invoice_number
 * and sales_tax as sent, and PaymentNature read into GatewayTransaction.paymentNature.
 */
import { AltaPayValidationError, type TrackingInfo } from "../../src/altapay"
import { authorizedPayment, type SandboxPair } from "../helpers/sandbox"
import { invoicePayment, SCARF, startInvoicePair } from "../sandbox/invoice-payment"

describe("captureReservation details", () => {
  let pair: SandboxPair
  beforeAll(async () => {
    pair = await startInvoicePair()
  })
  afterAll(() => pair.close())
  const captures = () => pair.sandbox.ledger().filter((e) => e.operation === "captureReservation")

  it("sends trackingInfo as trackingInfo[<i>][<field>] and as AltaPay's clients' shippingTrackingInfo, with invoice_number; the sandbox records them on the capture", async () => {
    const { transactionId } = await invoicePayment(pair)
    const trackingInfo: TrackingInfo[] = [
      { trackingId: "1", companyName: "Mærsk", method: "PickUpStore", trackingNumber: "123abc", trackingUri: "https://tracking.example/123abc", type: "SHIPPING" },
      { trackingId: "2", refTrackingId: "1", companyName: "ReturnCo", trackingNumber: "456abc" },
    ]
    await pair.client.gateway.captureReservation({
      transactionId,
      amountMinor: 5500,
      currency: "DKK",
      orderLines: [SCARF],
      invoiceNumber: "INV-1001",
      salesTaxMinor: 500,
      trackingInfo,
    })
    expect(captures().at(-1)!.params).toMatchObject({
      invoice_number: "INV-1001",
      sales_tax: "5.00",
      trackingInfo: [
        { trackingId: "1", companyName: "Mærsk", method: "PickUpStore", trackingNumber: "123abc", trackingUri: "https://tracking.example/123abc", type: "SHIPPING" },
        { trackingId: "2", refTrackingId: "1", companyName: "ReturnCo", trackingNumber: "456abc" },
      ],
    })
    const [recorded] = pair.sandbox.transaction(transactionId)!.captures
    expect(recorded).toMatchObject({ amountMinor: 5500, invoiceNumber: "INV-1001", salesTax: "5.00", trackingInfo: [{ trackingNumber: "123abc" }, { companyName: "ReturnCo" }] })
    // And in the form AltaPay's own clients send it (api-php CaptureReservation::setTrackingInfo,
    // Magento's CaptureObserver: shippingTrackingInfo[<i>][shippingCompany|trackingNumber]).
    expect(recorded.shippingTrackingInfo).toEqual([
      { shippingCompany: "Mærsk", trackingNumber: "123abc" },
      { shippingCompany: "ReturnCo", trackingNumber: "456abc" },
    ])
    expect(recorded.orderLines).toEqual([expect.objectContaining({ itemId: "0001", unitPrice: "50.00" })])
  })

  it("refuses trackingInfo it cannot send, listing every problem, and sends nothing", async () => {
    const { transactionId } = await authorizedPayment(pair, 1000)
    const before = captures().length
    const bad = [{ trackingNumber: "" }, {}, { carrier: "DHL" }, { trackingId: 7 }] as unknown as TrackingInfo[]
    const error = await pair.client.gateway.captureReservation({ transactionId, trackingInfo: bad }).catch((e: unknown) => e)
    expect(error).toBeInstanceOf(AltaPayValidationError)
    expect((error as AltaPayValidationError).issues).toEqual([
      { field: "trackingInfo.0.trackingNumber", message: "must not be empty" },
      { field: "trackingInfo.1", message: "needs at least one field" },
      { field: "trackingInfo.2", message: "has unknown field(s) carrier" },
      { field: "trackingInfo.2", message: "needs at least one field" },
      { field: "trackingInfo.3.trackingId", message: "must be text" },
    ])
    expect(captures()).toHaveLength(before)
  })

  it("a capture without trackingInfo sends no trackingInfo field", async () => {
    const { transactionId } = await authorizedPayment(pair, 1000)
    await pair.client.gateway.captureReservation({ transactionId })
    expect(Object.keys(captures().at(-1)!.params)).toEqual(["transaction_id"])
  })

  it("reads PaymentNature: CreditCard for a card payment, Invoice for the invoice terminal's", async () => {
    const card = await authorizedPayment(pair, 1000)
    expect((await pair.client.gateway.latestPayment({ transactionId: card.transactionId }))?.paymentNature).toBe("CreditCard")
    const invoice = await invoicePayment(pair)
    expect((await pair.client.gateway.latestPayment({ transactionId: invoice.transactionId }))?.paymentNature).toBe("Invoice")
    const captured = await pair.client.gateway.captureReservation({ transactionId: invoice.transactionId })
    expect(captured.transaction).toMatchObject({ paymentNature: "Invoice", cardStatus: "NoCreditCard" })
  })
})
