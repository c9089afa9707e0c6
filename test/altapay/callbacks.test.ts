import { createServer, type Server } from "node:http"
import type { AddressInfo } from "node:net"
import {
  AltaPayCallbackSignatureError,
  AltaPayStaleCallbackSignatureError,
  AltaPayValidationError,
  callbackChecksum,
  isFreshlySigned,
  parseCallback,
  signCallbackBody,
  verifyCallbackSignature,
} from "../../src/altapay"
import { CALLBACK_SECRET, startSandboxAndClient, type SandboxPair } from "../helpers/sandbox"

interface Received {
  rawBody: Buffer
  signature?: string
}

describe("notification callbacks", () => {
  let pair: SandboxPair
  let server: Server
  let url: string
  const received: Received[] = []

  beforeAll(async () => {
    pair = await startSandboxAndClient()
    server = createServer((req, res) => {
      const chunks: Buffer[] = []
      req.on("data", (c: Buffer) => chunks.push(c))
      req.on("end", () => {
        received.push({ rawBody: Buffer.concat(chunks), signature: req.headers["altapay-signature"] as string | undefined })
        res.end("OK")
      })
    })
    await new Promise<void>((r) => server.listen(0, "127.0.0.1", r))
    url = `http://127.0.0.1:${(server.address() as AddressInfo).port}/hooks/payment/altapay_altapay`
  })
  afterAll(async () => {
    await new Promise((r) => server.close(r))
    await pair.close()
  })

  async function paidSession(amountMinor: number, transactionInfo?: Record<string, string>) {
    received.length = 0
    const session = await pair.client.checkout.createSession({
      orderId: `payses-cb-${amountMinor}`,
      amountMinor,
      currency: "DKK",
      callbacks: { notification: url },
      transactionInfo,
    })
    const paid = await pair.sandbox.simulatePayment(session.sessionId, { outcome: "authorize" })
    expect(received).toHaveLength(1)
    return { paid, callback: received[0] }
  }

  it("a signed callback verifies and parses to exact amounts and ids", async () => {
    const { paid, callback } = await paidSession(12345)
    expect(() => verifyCallbackSignature({ rawBody: callback.rawBody, signatureHeader: callback.signature, secret: CALLBACK_SECRET })).not.toThrow()
    const parsed = parseCallback(callback.rawBody.toString("utf8"))
    expect(parsed).toMatchObject({
      shopOrderId: "payses-cb-12345",
      transactionId: paid.transactionId,
      paymentId: paid.paymentId,
      status: "succeeded",
      paymentStatus: "preauth",
      amountMinor: 12345,
      currency: "DKK",
    })
    const form = new URLSearchParams(callback.rawBody.toString("utf8"))
    expect(form.get("checksum")).toBe(callbackChecksum({ amount: form.get("amount")!, currency: form.get("currency")!, shop_orderid: form.get("shop_orderid")! }, CALLBACK_SECRET))
  })

  it("transaction_info reads the same from the raw form and from a body parser's nested object", async () => {
    const info = { medusa_session: "payses_01", note: "a=b&c" }
    const { callback } = await paidSession(4321, info)
    const raw = callback.rawBody.toString("utf8")
    expect(parseCallback(raw).transactionInfo).toEqual(info)
    // What express/qs-style parsers make of `transaction_info[k]=v`; non-string values are ignored.
    const nested: Record<string, unknown> = { transaction_info: { nested: { x: "y" }, count: 3 } }
    for (const [key, value] of new URLSearchParams(raw)) {
      const match = /^transaction_info\[(.+)\]$/.exec(key)
      if (match) (nested.transaction_info as Record<string, unknown>)[match[1]] = value
      else nested[key] = value
    }
    const parsed = parseCallback(nested)
    expect(parsed.transactionInfo).toEqual(info)
    expect(parsed.amountMinor).toBe(4321)
  })

  it("a forged, unsigned or tampered callback is refused; a stale one is signed but not fresh", async () => {
    const { paid, callback } = await paidSession(2000)
    const verify = (rawBody: Buffer | string, signatureHeader: string | undefined, now?: () => number) => () =>
      verifyCallbackSignature({ rawBody, signatureHeader, secret: CALLBACK_SECRET, now })

    received.length = 0
    await pair.sandbox.sendCallback(paid.paymentId, { signature: "forged" })
    expect(verify(received[0].rawBody, received[0].signature)).toThrow(AltaPayCallbackSignatureError)

    received.length = 0
    await pair.sandbox.sendCallback(paid.paymentId, { signature: "none" })
    expect(received[0].signature).toBeUndefined()
    expect(verify(received[0].rawBody, received[0].signature)).toThrow(AltaPayCallbackSignatureError)

    const tampered = callback.rawBody.toString("utf8").replace("amount=20.00", "amount=0.01")
    expect(tampered).not.toBe(callback.rawBody.toString("utf8"))
    expect(verify(tampered, callback.signature)).toThrow(AltaPayCallbackSignatureError)

    const tomorrow = () => Date.now() + 24 * 3600 * 1000
    // AltaPay signed it, so it is not refused as forged: the caller confirms it with AltaPay.
    expect(verify(callback.rawBody, callback.signature, tomorrow)).toThrow(AltaPayStaleCallbackSignatureError)
    expect(verify(callback.rawBody, callback.signature, tomorrow)).toThrow(/not trusted on its own/)
    // A forged signature with an old t is a forgery, not a stale callback.
    const forgedOld = `t=${Math.floor(Date.now() / 1000) - 86_400};s0=${"ab".repeat(32)}`
    expect(verify(callback.rawBody, forgedOld)).toThrow(AltaPayCallbackSignatureError)
    expect(verify(callback.rawBody, forgedOld)).not.toThrow(AltaPayStaleCallbackSignatureError)
  })

  it("isFreshlySigned: true when fresh, false when AltaPay signed it long ago, an error when not AltaPay's", () => {
    const body = "shop_orderid=x&status=succeeded"
    const t = Math.floor(Date.now() / 1000)
    const check = (header: string) => isFreshlySigned({ rawBody: body, signatureHeader: header, secret: CALLBACK_SECRET })
    expect(check(signCallbackBody(body, CALLBACK_SECRET, t))).toBe(true)
    expect(check(signCallbackBody(body, CALLBACK_SECRET, t - 3600))).toBe(false)
    expect(() => check(signCallbackBody(body, "not-the-secret", t - 3600))).toThrow(AltaPayCallbackSignatureError)
  })

  it("a secret being rotated: either signature is accepted", () => {
    const body = "shop_orderid=x&status=succeeded"
    const t = Math.floor(Date.now() / 1000)
    const header = `${signCallbackBody(body, "old-secret", t)};s1=${signCallbackBody(body, "new-secret", t).split("s0=")[1]}`
    expect(() => verifyCallbackSignature({ rawBody: body, signatureHeader: header, secret: "new-secret" })).not.toThrow()
    expect(() => verifyCallbackSignature({ rawBody: body, signatureHeader: header, secret: "other" })).toThrow(AltaPayCallbackSignatureError)
  })

  it("an empty secret trusts nothing", () => {
    const body = "shop_orderid=x&status=succeeded"
    const header = signCallbackBody(body, "", Math.floor(Date.now() / 1000))
    expect(() => verifyCallbackSignature({ rawBody: body, signatureHeader: header, secret: "" })).toThrow(AltaPayCallbackSignatureError)
  })

  it("a callback without shop_orderid is a validation error naming it", () => {
    expect(() => parseCallback("status=succeeded")).toThrow(AltaPayValidationError)
    expect(() => parseCallback("status=succeeded")).toThrow(/shop_orderid/)
  })
})
