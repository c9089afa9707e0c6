/**
 * getTerminals: the API user's terminals, read from AltaPay's documented answer and from the
 * sandbox over HTTP; a bad password is AltaPay's 401, as for every merchant API call.
 */
import { AltaPayAuthError, parseGatewayResponse } from "../../src/altapay"
import { readTerminals } from "../../src/altapay/terminals"
import { startSandboxAndClient, type SandboxPair } from "../helpers/sandbox"

// The example on AltaPay's getTerminals page
// (https://documentation.altapay.com/Content/Ecom/API/API%20Methods/getTerminals.htm), shortened.
const DOCUMENTED = `<?xml version="1.0"?>
<APIResponse version="20170228"><Header><Date>2020-01-07T23:43:20+01:00</Date><Path>API/getTerminals</Path><ErrorCode>0</ErrorCode><ErrorMessage></ErrorMessage></Header>
<Body><Result>Success</Result><Terminals>
<Terminal><Title>AltaPay Multi-Nature Terminal</Title><ShopName>Test shop</ShopName><Country>DK</Country>
<Natures><Nature>CreditCard</Nature><Nature>EPayment</Nature><Nature>IdealPayment</Nature><Nature>Invoice</Nature></Natures>
<Currencies><Currency>DKK</Currency><Currency>EUR</Currency></Currencies>
<Methods><Method>Shift4Acquirer</Method><Method>IdealAcquirer</Method></Methods></Terminal>
<Terminal><Title>AltaPay BankPayment Terminal</Title><Country></Country><Natures><Nature>BankPayment</Nature></Natures>
<Currencies><Currency>EUR</Currency></Currencies><Methods><Method>IdealAcquirer</Method></Methods></Terminal>
</Terminals></Body></APIResponse>`

test("AltaPay's documented getTerminals answer reads into titles, natures and currencies", () => {
  expect(readTerminals(parseGatewayResponse(DOCUMENTED).body)).toEqual([
    { title: "AltaPay Multi-Nature Terminal", shopName: "Test shop", country: "DK", natures: ["CreditCard", "EPayment", "IdealPayment", "Invoice"], currencies: ["DKK", "EUR"] },
    { title: "AltaPay BankPayment Terminal", shopName: undefined, country: undefined, natures: ["BankPayment"], currencies: ["EUR"] },
  ])
})

test("an answer without Terminals is refused", () => {
  const xml = DOCUMENTED.replace(/<Terminals>[\s\S]*<\/Terminals>/, "")
  expect(() => readTerminals(parseGatewayResponse(xml).body)).toThrow("Body has no Terminals element")
})

test("a terminal without a Title is refused, not read as nameless", () => {
  const xml = DOCUMENTED.replace("<Title>AltaPay BankPayment Terminal</Title>", "")
  expect(() => readTerminals(parseGatewayResponse(xml).body)).toThrow("Terminal 2 has no Title")
})

describe("against the sandbox", () => {
  let pair: SandboxPair
  beforeAll(async () => {
    pair = await startSandboxAndClient()
  })
  afterAll(() => pair.close())

  test("lists the sandbox's terminals", async () => {
    const titles = (await pair.client.gateway.getTerminals()).map((t) => t.title)
    expect(titles).toEqual(["AltaPay Sandbox Test Terminal", "MobilePay Sandbox Terminal"])
  })

  test("a wrong password is an AltaPayAuthError", async () => {
    await expect(pair.clientWith({ password: "wrong" }).gateway.getTerminals()).rejects.toBeInstanceOf(AltaPayAuthError)
  })
})
