/**
 * The sandbox answers as AltaPay's own samples do (issue 40): a charge with only the agreement
 * (api-php ChargeSubscriptionTest against setupsubscription.xml), a reserved charge
 * (reservesubscription.xml), an unscheduled set-up without unscheduled_type (the Setup Agreement
 * example), getTerminals (terminals.xml), a Klarna reservation (invoicereservation.xml) and a
 * chargeback notification's xml (sdk-csharp ChargebackEvent.xml). Each sample and the sandbox's
 * answer go through the same parser, and must agree.
 */
import { readFileSync } from "node:fs"
import path from "node:path"
import { XMLParser } from "fast-xml-parser"
import { createServer } from "node:http"
import type { AddressInfo } from "node:net"
import { parseCallback, parseGatewayResponse, type GatewayResponse, type GatewayTransaction } from "../../src/altapay"
import { readTerminals } from "../../src/altapay/terminals"
import { setupAgreementExample } from "../altapay/documented-samples/samples"
import { invoicePayment, startInvoicePair } from "./invoice-payment"
import { basicHeader } from "./helpers"
import { SANDBOX_PASSWORD, SANDBOX_USER, type SandboxPair } from "../helpers/sandbox"

const sample = (name: string): string => readFileSync(path.join(__dirname, "../altapay/documented-samples/files", name), "utf8")
/** The element names of each Transaction, as a sample or the sandbox writes them. */
const elementsOf = (xml: string): string[][] => {
  const body = new XMLParser({ ignoreAttributes: false, isArray: (name) => name === "Transaction" }).parse(xml).APIResponse.Body
  return (body.Transactions?.Transaction ?? []).map((t: Record<string, unknown>) => Object.keys(t).filter((k) => !k.startsWith("@_")))
}
/** What a sample says of each transaction that the sandbox must say the same way. */
const shapeOf = (t: GatewayTransaction) => ({ status: t.transactionStatus, recurringDefault: t.recurringDefaultAmount?.minor })

describe("the sandbox's agreements and terminals, against AltaPay's samples", () => {
  let pair: SandboxPair
  beforeAll(async () => {
    pair = await startInvoicePair()
  })
  afterAll(() => pair.close())

  const gateway = async (method: string, fields: Record<string, string>): Promise<{ xml: string; response: GatewayResponse }> => {
    const answer = await fetch(`${pair.sandbox.gatewayUrl}/merchant/API/${method}`, {
      method: "POST",
      headers: { authorization: basicHeader(SANDBOX_USER, SANDBOX_PASSWORD), "content-type": "application/x-www-form-urlencoded" },
      body: new URLSearchParams(fields),
    })
    const xml = await answer.text()
    return { xml, response: parseGatewayResponse(xml) }
  }
  /**
   * An agreement set up as the Setup Agreement page's examples do it (no unscheduled_type; its
   * createPaymentRequest example is `recurring`, its setupSubscription one `unscheduled`), for
   * 10.00 EUR as api-php's samples.
   */
  const agreement = async (type: "recurring" | "unscheduled"): Promise<string> => {
    const { response } = await gateway("createPaymentRequest", {
      ...setupAgreementExample.value,
      "agreement[type]": type,
      terminal: "AltaPay Sandbox Test Terminal",
      amount: "10.00",
      shop_orderid: `ex-${Date.now()}`,
    })
    expect(response.result).toBe("Success")
    const submitted = await pair.sandbox.agreements.submit(String(response.body.PaymentRequestId))
    return submitted.agreementId!
  }

  it("sets an unscheduled agreement up without unscheduled_type, answering as api-php's paymentrequest.xml", async () => {
    const { response } = await gateway("createPaymentRequest", { ...setupAgreementExample.value, terminal: "AltaPay Sandbox Test Terminal", shop_orderid: `ex-${Date.now()}` })
    const altapay = parseGatewayResponse(sample("api-php-paymentrequest.xml"))
    expect(response.result).toBe(altapay.result)
    for (const field of ["PaymentRequestId", "Url", "DynamicJavascriptUrl"]) expect(Object.keys(response.body)).toContain(field)
  })

  it("charges a recurring agreement with only transaction_id (api-php ChargeSubscriptionTest): the set-up's RecurringDefaultAmount, answered as setupsubscription.xml", async () => {
    const agreementId = await agreement("recurring")
    const { xml, response } = await gateway("chargeSubscription", { transaction_id: agreementId })
    const altapay = parseGatewayResponse(sample("api-php-setupsubscription.xml"))
    expect(response.result).toBe(altapay.result)
    // AltaPay's sample: the set-up (recurring_confirmed, RecurringDefaultAmount 10.00) and the charge (captured, 0).
    expect(response.transactions.map(shapeOf)).toEqual(altapay.transactions.map(shapeOf))
    const charge = response.transactions[1]
    expect(charge).toMatchObject({ authType: "subscription_payment", capturedAmount: { minor: 1000, currency: "EUR" }, reservedAmount: { minor: 1000 } })
    // Every element of AltaPay's transactions is in the sandbox's.
    const written = elementsOf(xml)
    elementsOf(sample("api-php-setupsubscription.xml")).forEach((elements, i) => expect(written[i]).toEqual(expect.arrayContaining(elements)))
  })

  it("reserves a charge answered as reservesubscription.xml: the set-up and a preauth", async () => {
    const agreementId = await agreement("unscheduled")
    const { response } = await gateway("reserveSubscriptionCharge", { "agreement[id]": agreementId, amount: "5.00", "agreement[unscheduled_type]": "incremental" })
    const altapay = parseGatewayResponse(sample("api-php-reservesubscription.xml"))
    expect(response.transactions.map((t) => t.transactionStatus)).toEqual(altapay.transactions.map((t) => t.transactionStatus))
    expect(response.transactions[1].reservedAmount).toMatchObject({ minor: 500, currency: "EUR" })
  })

  it("lists each terminal with Title, Country, Natures and Currencies, as terminals.xml does", async () => {
    const altapay = readTerminals(parseGatewayResponse(sample("api-php-terminals.xml")).body)
    expect(altapay.map((t) => t.currencies)).toEqual([["DKK", "EUR"], ["EUR"]])
    const terminals = await pair.client.gateway.getTerminals()
    expect(terminals.map((t) => t.title)).toEqual(["AltaPay Sandbox Test Terminal", "MobilePay Sandbox Terminal", "Klarna DKK Sandbox Terminal"])
    for (const terminal of terminals) {
      expect(Object.keys(terminal).sort()).toEqual(Object.keys(altapay[0]).sort())
      expect(terminal.currencies.length).toBeGreaterThan(0)
    }
    expect(terminals.find((t) => t.natures.includes("Invoice"))?.currencies).toEqual(["DKK"])
  })

  it("a Klarna reservation is invoice_initialized, as AltaPay's invoicereservation.xml; it captures and releases as a reservation", async () => {
    const altapay = parseGatewayResponse(sample("api-php-invoicereservation.xml")).transactions[0]
    const { transactionId } = await invoicePayment(pair)
    const [reserved] = await pair.client.gateway.payments({ transactionId })
    expect(reserved).toMatchObject({ transactionStatus: altapay.transactionStatus, paymentNature: altapay.paymentNature })
    expect((await pair.client.gateway.captureReservation({ transactionId })).transaction?.transactionStatus).toBe("captured")
    const { transactionId: other } = await invoicePayment(pair)
    expect((await pair.client.gateway.releaseReservation({ transactionId: other })).transaction?.transactionStatus).toBe("released")
  })

  it("a chargeback notification's xml is shaped as sdk-csharp's ChargebackEvent.xml: Result ChargebackEvent, the event in the Transaction", async () => {
    const posts: string[] = []
    const shop = createServer((req, res) => {
      let body = ""
      req.on("data", (c: Buffer) => (body += c.toString("utf8")))
      req.on("end", () => {
        posts.push(body)
        res.writeHead(200).end("ok")
      })
    })
    await new Promise<void>((resolve) => shop.listen(0, "127.0.0.1", resolve))
    try {
      const session = await pair.client.checkout.createSession({
        orderId: `cb-${Date.now()}`,
        amountMinor: 10_420,
        currency: "SEK",
        callbacks: { notification: `http://127.0.0.1:${(shop.address() as AddressInfo).port}/notify` },
      })
      const paid = await pair.sandbox.simulatePayment(session.sessionId, { callback: false })
      await pair.client.gateway.captureReservation({ transactionId: paid.transactionId! })
      await pair.sandbox.sendChargeback(paid.transactionId!, { reasonCode: "4837", reason: "No Cardholder Authorization" })
      const altapay = sample("sdk-csharp-ChargebackEvent.xml")
      const ours = String(new URLSearchParams(posts.at(-1)).get("xml"))
      expect(parseGatewayResponse(ours).result).toBe(parseGatewayResponse(altapay).result)
      expect(parseGatewayResponse(ours).header.path).toBe(parseGatewayResponse(altapay).header.path)
      const read = (xml: string) => parseCallback(new URLSearchParams({ shop_orderid: "x", status: "ChargebackEvent", xml })).chargebacks?.map((c) => Object.keys(c).sort())
      expect(read(altapay)).toHaveLength(1)
      expect(read(ours)).toEqual(read(altapay))
    } finally {
      await new Promise((resolve) => shop.close(resolve))
    }
  })
})
