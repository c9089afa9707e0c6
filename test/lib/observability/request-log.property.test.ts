/**
 * Nothing secret can be written to the request log: the real client talks HTTP to a server whose
 * answers, like the requests, carry the API user's credentials, tokens, card numbers, e-mail
 * addresses, names and addresses, and whatever the log's store receives is searched for each.
 */
import { createServer, type IncomingMessage, type Server, type ServerResponse } from "node:http"
import type { AddressInfo } from "node:net"
import fc from "fast-check"
import { createAltaPayClient, type AltaPayClient } from "../../../src/altapay"
import { altapayObserver } from "../../../src/lib/observability/observer"
import { RequestLog } from "../../../src/lib/observability/request-log"
import { memoryStore, type SharedStore } from "../../../src/lib/scale-out/shared-state"

interface Secrets {
  username: string
  password: string
  token: string
  cardNumber: string
  cardToken: string
  email: string
  firstName: string
  lastName: string
  street: string
  phone: string
}

const luhnComplete = (digits: string): string => {
  let sum = 0
  for (let i = 0; i < digits.length; i++) {
    let d = Number(digits[digits.length - 1 - i])
    if (i % 2 === 0) d = d * 2 > 9 ? d * 2 - 9 : d * 2
    sum += d
  }
  return `${digits}${(10 - (sum % 10)) % 10}`
}

/** Capitalised words with a letter past f: never a piece of a hex hash, uuid or the log's own words. */
const word = fc.stringMatching(/^[A-Z][a-z]{7,11}$/).filter((w) => /[g-z]/.test(w) && !/(Success|Capture|Reservation|Session|Payment|Declined|Failed|Refund)/i.test(w))
const secrets: fc.Arbitrary<Secrets> = fc.record({
  username: fc.stringMatching(/^[a-z]{6,10}$/).map((u) => `api-${u}@shop.example`),
  password: fc.stringMatching(/^[A-Za-z0-9!#%]{16,24}$/),
  token: fc.stringMatching(/^[A-Za-z0-9_-]{40,60}$/).map((t) => `eyJhbGciOiJIUzI1NiJ9.${t}.sig`),
  cardNumber: fc.stringMatching(/^4[0-9]{14}$/).map(luhnComplete),
  cardToken: fc.stringMatching(/^[a-f0-9]{40}$/),
  email: fc.tuple(fc.stringMatching(/^[a-z]{4,10}$/), fc.stringMatching(/^[a-z]{4,8}$/)).map(([local, domain]) => `${local}.buyer@${domain}.example`),
  firstName: word,
  lastName: word,
  street: fc.tuple(fc.integer({ min: 1, max: 999 }), word).map(([n, w]) => `${w}vej ${n}`),
  phone: fc.stringMatching(/^\+45[0-9]{8}$/),
})

const TRANSACTION_ID = "7a3f9c22"
const esc = (text: string) => text.replace(/&/g, "&amp;").replace(/</g, "&lt;")

/** AltaPay's gateway answer, with every personal and card field it can carry filled with the secrets. */
function gatewayAnswer(s: Secrets, result: "Success" | "Failed", path: string): string {
  const messages =
    result === "Failed"
      ? `<MerchantErrorMessage>${esc(`Declined card ${s.cardNumber} of ${s.email}, token ${s.cardToken}`)}</MerchantErrorMessage>` +
        `<CardHolderErrorMessage>${esc(`Card ${s.cardNumber.replace(/(\d{4})(?=\d)/g, "$1 ")} declined`)}</CardHolderErrorMessage>`
      : ""
  const address = `<Firstname>${s.firstName}</Firstname><Lastname>${s.lastName}</Lastname><Address>${esc(s.street)}</Address><City>Aarhus</City><PostalCode>8000</PostalCode><Country>DK</Country>`
  return (
    `<?xml version="1.0"?><APIResponse version="20170228"><Header><Date>2026-11-29T05:00:00+01:00</Date><Path>${path}</Path><ErrorCode>0</ErrorCode><ErrorMessage/></Header>` +
    `<Body><Result>${result}</Result>${messages}<Transactions><Transaction><TransactionId>${TRANSACTION_ID}</TransactionId>` +
    `<PaymentId>55aaaf42-1d1d-4b9d-9a68-2c677e2e4550</PaymentId><ShopOrderId>payses-01JSECRETS</ShopOrderId><TransactionStatus>captured</TransactionStatus>` +
    `<MerchantCurrency>208</MerchantCurrency><MerchantCurrencyAlpha>DKK</MerchantCurrencyAlpha><ReservedAmount>10.00</ReservedAmount><CapturedAmount>10.00</CapturedAmount><RefundedAmount>0.00</RefundedAmount>` +
    `<CreditCardToken>${s.cardToken}</CreditCardToken><CreditCardMaskedPan>${s.cardNumber.slice(0, 6)}******${s.cardNumber.slice(-4)}</CreditCardMaskedPan>` +
    `<CardHolderName>${s.firstName} ${s.lastName}</CardHolderName>` +
    `<CustomerInfo><Email>${esc(s.email)}</Email><Username>${esc(s.username)}</Username><CustomerPhone>${s.phone}</CustomerPhone><IpAddress>10.20.30.40</IpAddress>` +
    `<BillingAddress>${address}</BillingAddress><ShippingAddress>${address}</ShippingAddress></CustomerInfo>` +
    `<PaymentInfos><PaymentInfo name="note">${esc(`${s.firstName} ${s.email}`)}</PaymentInfo></PaymentInfos><ReconciliationIdentifiers/></Transaction></Transactions></Body></APIResponse>`
  )
}

/** A Checkout API session echoing the customer it was sent. */
const sessionAnswer = (s: Secrets) =>
  JSON.stringify({
    sessionId: "sess-1",
    order: { orderId: "payses-01JSECRETS", customer: { firstName: s.firstName, lastName: s.lastName, email: s.email, phone: s.phone, billingAddress: { street: s.street } } },
    card: { number: s.cardNumber, token: s.cardToken },
  })

describe("the request log keeps nothing secret", () => {
  let server: Server
  let base: string
  let current: Secrets
  let decline = false

  beforeAll(async () => {
    server = createServer((req: IncomingMessage, res: ServerResponse) => {
      req.resume()
      req.on("end", () => {
        const path = req.url ?? ""
        if (path.startsWith("/checkout/v1/api/authenticate")) return json(res, { token: current.token })
        if (path.startsWith("/checkout/v1/api/session")) return res.writeHead(200, { "content-type": "application/json" }).end(sessionAnswer(current))
        const method = /\/merchant\/API\/(\w+)/.exec(path)?.[1] ?? "payments"
        res.writeHead(200, { "content-type": "text/xml" }).end(gatewayAnswer(current, decline && method !== "payments" ? "Failed" : "Success", `API/${method}`))
      })
    })
    await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve))
    base = `http://127.0.0.1:${(server.address() as AddressInfo).port}`
  })
  afterAll(() => new Promise<void>((resolve) => server.close(() => resolve())))

  const json = (res: ServerResponse, body: unknown) => res.writeHead(200, { "content-type": "application/json" }).end(JSON.stringify(body))

  /** The store the log writes to, remembering every key and value it was given. */
  function recordingStore(): SharedStore & { written: string[] } {
    const inner = memoryStore()
    const written: string[] = []
    return {
      written,
      get: (key) => inner.get(key),
      set: async (key, value, ttl) => {
        written.push(key, JSON.stringify(value))
        await inner.set(key, value, ttl)
      },
      delete: (key) => inner.delete(key),
    }
  }

  async function talk(client: AltaPayClient, s: Secrets): Promise<void> {
    const customer = { firstName: s.firstName, lastName: s.lastName, email: s.email, phone: s.phone, billingAddress: { street: s.street, firstName: s.firstName } }
    const line = { itemId: "sku-1", description: `${s.firstName} ${s.street}`, quantity: 1, unitPriceMinor: 1000, taxAmountMinor: 0, taxPercent: 0, goodsType: "item" as const }
    const session = await client.checkout.createSession({
      orderId: "payses-01JSECRETS",
      amountMinor: 1000,
      currency: "DKK",
      customer,
      orderLines: [line],
      transactionInfo: { card: s.cardNumber, email: s.email },
    })
    await client.checkout.getSession(session.sessionId, { customerToken: s.token })
    const ignore = () => undefined
    await client.gateway
      .captureReservation({
        transactionId: TRANSACTION_ID,
        amountMinor: 1000,
        currency: "DKK",
        reconciliationIdentifier: "medusa-capture-capt_01JCAPTURE",
        invoiceNumber: s.cardNumber,
        orderLines: [line],
      })
      .catch(ignore)
    await client.gateway
      .refundCapturedReservation({ transactionId: TRANSACTION_ID, amountMinor: 1000, currency: "DKK", reconciliationIdentifier: `medusa-refund-${s.email}`, orderLines: [line] })
      .catch(ignore)
    await client.gateway.payments({ shopOrderId: "payses-01JSECRETS" })
  }

  it("credentials, tokens, card numbers, e-mail addresses, names and addresses in requests and answers never reach the store", async () => {
    await fc.assert(
      fc.asyncProperty(secrets, fc.boolean(), async (s, declined) => {
        current = s
        decline = declined
        const store = recordingStore()
        const log = new RequestLog(store, { maxEntries: 50, retentionDays: 7 })
        const client = createAltaPayClient({
          checkoutUrl: base,
          gatewayUrl: base,
          username: s.username,
          password: s.password,
          maxRetries: 0,
          observer: altapayObserver("pp_altapay_test", log),
        })
        try {
          await talk(client, s)
          await log.settled()
        } finally {
          await client.close()
        }
        const written = store.written.join("\n")
        const maskedPan = `${s.cardNumber.slice(0, 6)}******${s.cardNumber.slice(-4)}`
        for (const secret of [s.username, s.password, s.token, s.cardNumber, maskedPan, s.cardToken, s.email, s.firstName, s.lastName, s.street, s.phone, s.phone.slice(3)]) {
          expect(written).not.toContain(secret)
        }
        // Not vacuous: the log holds what the panel shows.
        const entries = await log.read({ transactionId: TRANSACTION_ID, shopOrderId: "payses-01JSECRETS" })
        const capture = entries.find((e) => e.operation === "POST /merchant/API/captureReservation")
        expect(capture).toMatchObject({ status: 200, result: declined ? "Failed" : "Success", reconciliation_identifier: "medusa-capture-capt_01JCAPTURE" })
        if (declined) expect(capture?.merchant_message).toContain("[number]")
        expect(entries.find((e) => e.operation === "POST /merchant/API/refundCapturedReservation")?.reconciliation_identifier).toBeNull()
        expect(entries.map((e) => e.operation)).toEqual(expect.arrayContaining(["POST /checkout/v1/api/session", "GET /merchant/API/payments"]))
      }),
      { numRuns: 60 }
    )
  })
})
