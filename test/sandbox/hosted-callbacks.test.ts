import { createHash, createHmac, timingSafeEqual } from "node:crypto"
import { createServer, type Server } from "node:http"
import type { AddressInfo } from "node:net"
import { XMLParser } from "fast-xml-parser"
import { parseCallback } from "../../src/altapay"
import type { Sandbox } from "../../src/sandbox"
import { PAYMENT_METHODS } from "../../src/sandbox"
import { CALLBACK_SECRET, call, createSession, issueToken, sessionBody, start } from "./helpers"

interface Received {
  headers: Record<string, string | string[] | undefined>
  raw: string
  fields: URLSearchParams
}

/** Verifies `AltaPay-Signature: t=<ts>;s0=<hex>` the way a merchant must. */
function signatureIsValid(raw: string, header: string | undefined, secret: string): boolean {
  const parts = Object.fromEntries((header ?? "").split(";").map((p) => p.split("=") as [string, string]))
  if (!parts.t || !parts.s0) return false
  const expected = createHmac("sha256", secret).update(`${raw}.${parts.t}`).digest()
  const given = Buffer.from(parts.s0, "hex")
  return given.length === expected.length && timingSafeEqual(given, expected)
}

describe("sandbox hosted payment page and notification callbacks", () => {
  let sandbox: Sandbox
  let merchantServer: Server
  let merchantUrl: string
  const received: Received[] = []

  beforeAll(async () => {
    // The old browser return (an option): the customer's documented return is in customer-return.test.ts.
    sandbox = await start({ returnMode: "browser-redirect" })
    merchantServer = createServer((req, res) => {
      const chunks: Buffer[] = []
      req.on("data", (c: Buffer) => chunks.push(c))
      req.on("end", () => {
        const raw = Buffer.concat(chunks).toString("utf8")
        received.push({ headers: req.headers, raw, fields: new URLSearchParams(raw) })
        res.writeHead(200, { "content-type": "text/plain" }).end("OK")
      })
    })
    await new Promise<void>((resolve) => merchantServer.listen(0, "127.0.0.1", resolve))
    merchantUrl = `http://127.0.0.1:${(merchantServer.address() as AddressInfo).port}`
  })
  afterAll(async () => {
    await sandbox.close()
    merchantServer.closeAllConnections()
    await new Promise((resolve) => merchantServer.close(resolve))
  })
  beforeEach(() => {
    received.length = 0
  })

  async function newPayment(overrides: Parameters<typeof sessionBody>[0] = {}) {
    const sessionId = await createSession(
      sandbox,
      sessionBody({ notification: `${merchantUrl}/hooks/altapay`, success: "https://shop.example/ok?cart=c1", failure: "https://shop.example/failed", ...overrides })
    )
    const token = await issueToken(sandbox, { sessionId })
    const payment = await call(sandbox, "POST", "/payment", { token, body: { sessionId, paymentMethodId: PAYMENT_METHODS[0].id } })
    return { sessionId, paymentId: payment.body.paymentId as string, url: payment.body.url as string }
  }

  test("the page shows the amount and both buttons; authorizing signs the callback; in browser-redirect mode the browser goes to the success URL", async () => {
    const { paymentId, url } = await newPayment({ amount: 249.5, orderId: "order-9" })
    const page = await (await fetch(url)).text()
    expect(page).toContain('id="authorize"')
    expect(page).toContain('id="decline"')
    expect(page).toContain("249.50 DKK")
    expect(page).toContain("order-9")

    const submit = await fetch(url, { method: "POST", body: new URLSearchParams({ outcome: "authorize" }), redirect: "manual" })
    expect(submit.status).toBe(303)
    const location = new URL(submit.headers.get("location")!)
    expect(location.origin + location.pathname).toBe("https://shop.example/ok")
    expect(location.searchParams.get("cart")).toBe("c1")
    expect(location.searchParams.get("payment_id")).toBe(paymentId)
    expect(location.searchParams.get("shop_orderid")).toBe("order-9")
    expect(location.searchParams.get("status")).toBe("succeeded")
    const transactionId = location.searchParams.get("transaction_id")!
    expect(transactionId).toMatch(/^[0-9a-f]{1,32}$/)

    expect(received).toHaveLength(1)
    const [callback] = received
    expect(callback.headers["content-type"]).toBe("application/x-www-form-urlencoded")
    expect(signatureIsValid(callback.raw, callback.headers["altapay-signature"] as string, CALLBACK_SECRET)).toBe(true)
    expect(Object.fromEntries(callback.fields)).toMatchObject({
      shop_orderid: "order-9",
      amount: "249.50",
      currency: "208",
      type: "payment",
      transaction_id: transactionId,
      payment_id: paymentId,
      status: "succeeded",
      payment_status: "preauth",
      require_capture: "true",
      nature: "CreditCard",
    })
    const checksum = createHash("md5").update(`amount=249.50,currency=208,secret=${CALLBACK_SECRET},shop_orderid=order-9`).digest("hex")
    expect(callback.fields.get("checksum")).toBe(checksum)
    const xml = new XMLParser({ parseTagValue: false }).parse(callback.fields.get("xml")!)
    expect(xml.APIResponse.Body.Transactions.Transaction).toMatchObject({ TransactionId: transactionId, TransactionStatus: "preauth", ReservedAmount: "249.50" })

    const again = await fetch(url, { method: "POST", body: new URLSearchParams({ outcome: "authorize" }), redirect: "manual" })
    expect(again.status).toBe(409)
    expect(sandbox.payment(paymentId)).toMatchObject({ status: "AUTHORIZED", transactionId, authType: "payment", maskedPan: "411111******1111" })
  })

  test("declining reports the decline; in browser-redirect mode the browser goes to the failure URL", async () => {
    const { url } = await newPayment()
    const submit = await fetch(url, { method: "POST", body: new URLSearchParams({ outcome: "decline" }), redirect: "manual" })
    expect(submit.status).toBe(303)
    const location = new URL(submit.headers.get("location")!)
    expect(location.pathname).toBe("/failed")
    expect(location.searchParams.get("status")).toBe("declined")
    expect(received[0].fields.get("payment_status")).toBe("epayment_declined")
    expect(received[0].fields.get("merchant_error_message")).toMatch(/declined/i)
  })

  test("auto-capture sessions are captured at once", async () => {
    const { sessionId } = await newPayment({ autoCapture: true })
    const paid = await sandbox.simulatePayment(sessionId)
    expect(paid.status).toBe("CAPTURED")
    expect(paid.callbackStatus).toBe(200)
    expect(received[0].fields.get("type")).toBe("paymentAndCapture")
    expect(received[0].fields.get("require_capture")).toBe("false")
    const t = sandbox.transaction(paid.transactionId!)
    expect(t).toMatchObject({ status: "captured", authType: "paymentAndCapture", capturedMinor: 10000 })
    expect(t?.reconciliationIdentifiers).toHaveLength(1)
  })

  test("callbacks can be redelivered, forged or unsigned", async () => {
    const { sessionId } = await newPayment()
    const paid = await sandbox.simulatePayment(sessionId, { callback: false })
    expect(received).toHaveLength(0)
    await sandbox.sendCallback(paid.paymentId)
    await sandbox.sendCallback(paid.paymentId, { signature: "forged" })
    await sandbox.sendCallback(paid.paymentId, { signature: "none" })
    expect(received).toHaveLength(3)
    const [valid, forged, none] = received
    expect(signatureIsValid(valid.raw, valid.headers["altapay-signature"] as string, CALLBACK_SECRET)).toBe(true)
    expect(signatureIsValid(forged.raw, forged.headers["altapay-signature"] as string, CALLBACK_SECRET)).toBe(false)
    expect(none.headers["altapay-signature"]).toBeUndefined()
    expect(none.fields.get("checksum")).toBeNull()
    const deliveries = sandbox.ledger().filter((e) => e.api === "callback" && e.params.payment_id === paid.paymentId)
    expect(deliveries.map((e) => [e.status, e.params.signed])).toEqual([
      [200, "valid"],
      [200, "forged"],
      [200, "none"],
    ])
  })

  test("a callback target that is down is recorded, not fatal", async () => {
    const sessionId = await createSession(sandbox, sessionBody({ notification: "http://127.0.0.1:9/unreachable" }))
    const paid = await sandbox.simulatePayment(sessionId)
    expect(paid.status).toBe("AUTHORIZED")
    expect(paid.callbackStatus).toBe(0)
    const delivery = sandbox
      .ledger()
      .filter((e) => e.api === "callback")
      .pop()
    expect(delivery).toMatchObject({ status: 0, url: "http://127.0.0.1:9/unreachable" })
  })

  test("without success/failure URLs the page renders the result", async () => {
    const sessionId = await createSession(sandbox, sessionBody())
    const token = await issueToken(sandbox, { sessionId })
    const payment = await call(sandbox, "POST", "/payment", { token, body: { sessionId, paymentMethodId: PAYMENT_METHODS[1].id } })
    const submit = await fetch(payment.body.url, { method: "POST", body: new URLSearchParams({ outcome: "authorize" }) })
    expect(submit.status).toBe(200)
    expect(await submit.text()).toContain('data-status="succeeded"')
  })

  test("a chargeback (sendChargeback, or POST /sandbox/chargeback/:transactionId) posts a signed ChargebackEvent notification the client reads", async () => {
    const { paymentId, url } = await newPayment({ amount: 250 })
    await fetch(url, { method: "POST", body: new URLSearchParams({ outcome: "authorize" }), redirect: "manual" })
    const transactionId = sandbox.ledger().find((e) => e.operation === "callback.notification" && (e.params as { payment_id?: string }).payment_id === paymentId)!.params
      .transaction_id as string
    received.length = 0

    expect((await sandbox.sendChargeback(transactionId, { reasonCode: "4837", reason: "No Cardholder Authorization", acquirerTransactionId: "acq-9" })).status).toBe(200)
    const byHttp = await fetch(`${sandbox.url}/sandbox/chargeback/${transactionId}`, { method: "POST", body: new URLSearchParams({ type: "Copy Request", amount: "100.00" }) })
    expect(await byHttp.json()).toEqual({ notificationStatus: 200 })

    expect(received).toHaveLength(2)
    for (const r of received) expect(signatureIsValid(r.raw, r.headers["altapay-signature"] as string, CALLBACK_SECRET)).toBe(true)
    const [first, second] = received.map((r) => parseCallback(r.raw))
    expect(first.status).toBe("chargebackevent")
    expect(first.chargebacks).toEqual([
      expect.objectContaining({ type: "Chargeback", reasonCode: "4837", amountMinor: 25000, currency: "DKK", acquirerTransactionId: "acq-9", transactionId }),
    ])
    expect(second.chargebacks).toEqual([expect.objectContaining({ type: "Copy Request", amountMinor: 10000 })])
    expect(sandbox.ledger().filter((e) => e.operation === "callback.chargeback")).toHaveLength(2)
    expect((await fetch(`${sandbox.url}/sandbox/chargeback/999999`, { method: "POST" })).status).toBe(404)
  })
})
