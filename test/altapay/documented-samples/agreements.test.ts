/**
 * Agreements as AltaPay's own samples show them, through our client (issue 40): a charge's 3-D
 * Secure redirect with and without form fields, a card whose XML names its currency by number only,
 * charges as AltaPay's clients send them (no currency; api-php's ChargeSubscriptionTest sends only
 * the agreement), and a set-up as AltaPay's example writes it (no unscheduled_type). AltaPay's
 * answers are replayed by a tiny HTTP server: the client's requests are what they are checked for.
 */
import { readFileSync } from "node:fs"
import { createServer, type Server } from "node:http"
import type { AddressInfo } from "node:net"
import path from "node:path"
import { createAltaPayClient, parseAgreementCallback, parseGatewayResponse, type AltaPayClient } from "../../../src/altapay"
import { redirectWithItemsXml, setupAgreementExample, verifyCardRedirectXml } from "./samples"

const fixture = (name: string): string => readFileSync(path.join(__dirname, "files", name), "utf8")

describe("agreements, as AltaPay's samples show them", () => {
  let server: Server
  let client: AltaPayClient
  let answer = ""
  const sent: Array<{ path: string; fields: Record<string, string> }> = []
  beforeAll(async () => {
    server = createServer((req, res) => {
      let body = ""
      req.on("data", (c: Buffer) => (body += c.toString("utf8")))
      req.on("end", () => {
        sent.push({ path: req.url ?? "", fields: Object.fromEntries(new URLSearchParams(body)) })
        res.writeHead(200, { "content-type": "application/xml" }).end(answer)
      })
    })
    await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve))
    const url = `http://127.0.0.1:${(server.address() as AddressInfo).port}`
    client = createAltaPayClient({ checkoutUrl: url, gatewayUrl: url, username: "u", password: "p" })
  })
  afterAll(async () => {
    await client.close()
    await new Promise((resolve) => server.close(resolve))
  })
  const lastSent = () => sent.at(-1)!

  it("reads the VerifyCard page's Redirect example: its Url, GET, no form fields", async () => {
    answer = verifyCardRedirectXml.value
    const result = await client.agreements.reserveSubscriptionCharge({ agreementId: "15", amountMinor: 5000, currency: "EUR", unscheduledType: "charge" })
    expect(result).toEqual({
      outcome: "redirect",
      redirect: { url: expect.stringMatching(/^https:\/\/testgateway\.altapaysecure\.com\/eCommerce\/API\/3ds\/737f04f7-/), method: "GET", data: {} },
    })
  })

  it("reads a filled Data as its Items by key, the form the customer's bank page needs (PaReq, MD)", async () => {
    answer = redirectWithItemsXml.value
    const result = await client.agreements.chargeSubscription({ agreementId: "15", amountMinor: 5000, currency: "EUR", unscheduledType: "charge" })
    expect(result).toEqual({
      outcome: "redirect",
      redirect: { url: "https://testbank.altapaysecure.com/ThreeDSecure", method: "POST", data: { PaReq: "WorkingPaReq", MD: "5387ebc9-f5d9-49f1-8b4d-44746369977a" } },
    })
  })

  it("sends a charge as AltaPay's clients do: the agreement, amount, unscheduled type, and no currency", async () => {
    answer = fixture("api-php-reservesubscription.xml")
    await client.agreements.reserveSubscriptionCharge({ agreementId: "15", amountMinor: 5000, currency: "EUR", unscheduledType: "noShow", reconciliationIdentifier: "r-1" })
    // Charge an agreement page: agreement[id]=15, agreement[unscheduled_type]=noShow, amount=50.
    expect(lastSent()).toEqual({
      path: "/merchant/API/reserveSubscriptionCharge",
      fields: { "agreement[id]": "15", amount: "50.00", "agreement[unscheduled_type]": "noShow", reconciliation_identifier: "r-1" },
    })
  })

  it("charges without an amount, as api-php's ChargeSubscriptionTest does, and reads its answer (setupsubscription.xml)", async () => {
    answer = fixture("api-php-setupsubscription.xml")
    const result = await client.agreements.chargeSubscription({ agreementId: "123" })
    expect(lastSent()).toEqual({ path: "/merchant/API/chargeSubscription", fields: { "agreement[id]": "123" } })
    if (result.outcome !== "succeeded") throw new Error(`expected succeeded, got ${result.outcome}`)
    // The charge is the transaction that is not the agreement's set-up; the set-up's RecurringDefaultAmount is 10.00.
    expect(result.transaction).toMatchObject({ transactionId: "2", transactionStatus: "captured", capturedAmount: { minor: 500, currency: "EUR" } })
    const [setUp] = parseGatewayResponse(answer).transactions
    expect(setUp).toMatchObject({ transactionStatus: "recurring_confirmed", recurringDefaultAmount: { decimal: "10.00", currency: "EUR" } })
  })

  it("reads reservesubscription.xml (ReserveSubscriptionChargeTest): a preauth of 5.00 EUR beside the set-up", async () => {
    answer = fixture("api-php-reservesubscription.xml")
    const result = await client.agreements.reserveSubscriptionCharge({ agreementId: "1" })
    if (result.outcome !== "succeeded") throw new Error(`expected succeeded, got ${result.outcome}`)
    expect(result.transaction).toMatchObject({ transactionId: "2", transactionStatus: "preauth", reservedAmount: { minor: 500, currency: "EUR" } })
    expect(result.card).toMatchObject({ agreementId: "1", maskedPan: "411111******1111", currency: "EUR" })
  })

  it("sets an unscheduled agreement up without an unscheduled type, as the Setup Agreement example does", async () => {
    answer = fixture("api-php-paymentrequest.xml")
    const example = setupAgreementExample.value
    const request = await client.agreements.setupAgreement({
      type: "subscription",
      agreement: { type: "unscheduled" },
      terminal: example.terminal,
      shopOrderId: example.shop_orderid,
      amountMinor: 5000,
      currency: example.currency,
      callbacks: {},
    })
    expect(request.url).toEqual(expect.any(String))
    expect(lastSent().fields).toEqual({ ...example, amount: "50.00" })
  })

  it("takes a card's currency from its numeric MerchantCurrency when the XML has no alphabetic one (sdk-php CallbackXML_subscriptionAndCharge_released.xml)", () => {
    const xml = fixture("sdk-php-CallbackXML_subscriptionAndCharge_released.xml")
    const callback = parseAgreementCallback(new URLSearchParams({ shop_orderid: "antontest2", transaction_id: "113750", status: "succeeded", xml }))
    expect(callback.card).toMatchObject({ agreementId: "113750", maskedPan: "417000******1368", expiry: { month: "01", year: "2012" }, currency: "EUR" })
  })
})
