/**
 * The sandbox asks the shop's verify-order URL before it charges, as AltaPay documents
 * callback_verify_order (AltaPay's Payment Verify Order Page; sdk-csharp PaymentRequestConfig.cs):
 * a signed callback form; 200 with OKAY goes on, any other text declines the payment and is shown
 * to the customer (tags stripped, 255 characters), another status fails it with an error.
 */
import { createServer } from "node:http"
import type { AddressInfo } from "node:net"
import { verifyCallbackSignature } from "../../src/altapay"
import { CALLBACK_SECRET, startSandboxAndClient, type SandboxPair } from "../helpers/sandbox"

interface VerifyShop {
  url: string
  posts: Array<{ body: string; signature?: string }>
  answer: { status: number; text: string }
  close(): Promise<void>
}

async function startVerifyShop(): Promise<VerifyShop> {
  const shop = { posts: [] as VerifyShop["posts"], answer: { status: 200, text: "OKAY" } }
  const server = createServer((req, res) => {
    let body = ""
    req.on("data", (c: Buffer) => (body += c.toString("utf8")))
    req.on("end", () => {
      shop.posts.push({ body, signature: req.headers["altapay-signature"] as string | undefined })
      res.writeHead(shop.answer.status, { "content-type": "text/html" }).end(shop.answer.text)
    })
  })
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve))
  return Object.assign(shop, {
    url: `http://127.0.0.1:${(server.address() as AddressInfo).port}/verify`,
    close: () => new Promise<void>((resolve) => server.close(() => resolve())),
  })
}

let pair: SandboxPair
let shop: VerifyShop
beforeAll(async () => {
  pair = await startSandboxAndClient()
  shop = await startVerifyShop()
})
afterAll(async () => {
  await shop.close()
  await pair.close()
})
beforeEach(() => {
  shop.posts.length = 0
  shop.answer = { status: 200, text: "OKAY" }
})

async function session(verifyOrder?: string) {
  const orderId = `verify-${Math.random().toString(16).slice(2, 10)}`
  const { sessionId } = await pair.client.checkout.createSession({
    orderId,
    amountMinor: 12_500,
    currency: "DKK",
    transactionInfo: { medusa_payment_session_id: "payses_1" },
    callbacks: { notification: "http://127.0.0.1:9/unused", ...(verifyOrder ? { verifyOrder } : {}) },
  })
  return { sessionId, orderId }
}

const pay = (sessionId: string) => pair.sandbox.simulatePayment(sessionId, { callback: false, cardNumber: "4111111111111111" })

it("asks the shop with the signed callback form before it reserves, and reserves on OKAY", async () => {
  const { sessionId, orderId } = await session(shop.url)
  const paid = await pay(sessionId)
  expect(paid.status).toBe("AUTHORIZED")
  expect(shop.posts).toHaveLength(1)
  const [asked] = shop.posts
  expect(() => verifyCallbackSignature({ rawBody: asked.body, signatureHeader: asked.signature, secret: CALLBACK_SECRET })).not.toThrow()
  expect(Object.fromEntries(new URLSearchParams(asked.body))).toMatchObject({
    shop_orderid: orderId,
    amount: "125.00",
    currency: "208",
    type: "payment",
    payment_id: paid.paymentId,
    masked_credit_card: "411111******1111",
    "transaction_info[medusa_payment_session_id]": "payses_1",
  })
  expect(
    pair.sandbox
      .ledger()
      .filter((e) => e.operation === "callback.verifyOrder")
      .at(-1)
  ).toMatchObject({ status: 200, params: { answer: "OKAY" } })
})

it("declines without reserving when the shop answers anything but OKAY, its text (tags stripped) for the customer", async () => {
  shop.answer = { status: 200, text: `<html><body><p>Sold out: ${"x".repeat(300)}</p></body></html>` }
  const { sessionId } = await session(shop.url)
  const paid = await pay(sessionId)
  expect(paid.status).toBe("FAILED")
  const transaction = pair.sandbox.transaction(paid.transactionId!)!
  expect(transaction.reservedMinor).toBe(0)
  const callback = new URLSearchParams(pair.sandbox.callbackFor(paid.paymentId).rawBody)
  expect(callback.get("status")).toBe("failed")
  expect(callback.get("cardholder_message_must_be_shown")).toBe("true")
  expect(callback.get("error_message")).toBe(`Sold out: ${"x".repeat(245)}`)
})

it("fails the payment with an error when the shop answers another status", async () => {
  shop.answer = { status: 500, text: "OKAY" }
  const { sessionId } = await session(shop.url)
  const paid = await pay(sessionId)
  expect(paid.status).toBe("FAILED")
  expect(pair.sandbox.transaction(paid.transactionId!)!.reservedMinor).toBe(0)
  const callback = new URLSearchParams(pair.sandbox.callbackFor(paid.paymentId).rawBody)
  expect(callback.get("cardholder_message_must_be_shown")).toBe("false")
  expect(callback.get("merchant_error_message")).toMatch(/verify-order URL answered 500/)
})

it("asks nobody when the session names no verify-order URL", async () => {
  const { sessionId } = await session()
  expect((await pay(sessionId)).status).toBe("AUTHORIZED")
  expect(shop.posts).toHaveLength(0)
})
