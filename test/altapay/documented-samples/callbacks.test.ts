/**
 * A callback as AltaPay sends it, checked the way AltaPay's own clients check it: the form post
 * carrying the PHP SDK's XML, signed like AltaPay's headless integration verifies, through our
 * verifier, our parser and the provider's webhook handling; the status values as AltaPay's Magento
 * plugin reads them. Samples in samples.ts.
 */
import { createHash, createHmac } from "node:crypto"
import { AltaPayStaleCallbackSignatureError, callbackChecksum, parseCallback, verifyCallbackSignature } from "../../../src/altapay"
import { webhookActionFor } from "../../../src/lib/medusa-mapping/status"
import { AltaPayProviderService } from "../../../src/providers/altapay"
import { startSandbox, type Sandbox } from "../../../src/sandbox"
import { medusaWithSessions, sandboxProviderOptions } from "../../helpers/provider"
import { callbackFormFields, magentoNotificationStatuses, sdkPhpCapturedCallbackXml, webhookSignature } from "./samples"

const SECRET = "documented-samples-secret-0123"

/** Signed exactly as webhook.js verifies: hex HMAC-SHA256 over `${rawBody}.${t}`, header `t=..;s0=..`. */
function altapaySigned(rawBody: string, t: number, secrets: string[] = [SECRET]): string {
  const signatures = secrets.map(
    (secret, i) =>
      `s${i}=${createHmac("sha256", secret)
        .update(webhookSignature.value.signedPayload(rawBody, String(t)), "utf8")
        .digest("hex")}`
  )
  return [`t=${t}`, ...signatures].join(webhookSignature.value.separator)
}

const form = (status: string, paymentStatus = "captured") =>
  new URLSearchParams({
    shop_orderid: callbackFormFields.value.shop_orderid,
    amount: callbackFormFields.value.amount,
    currency: callbackFormFields.value.currencyNumeric,
    status,
    payment_status: paymentStatus,
    transaction_id: "299",
    xml: sdkPhpCapturedCallbackXml.value,
  }).toString()

const now = () => Math.floor(Date.now() / 1000)

describe("the AltaPay-Signature header as AltaPay's headless integration verifies it", () => {
  it("a body signed by AltaPay's algorithm verifies, also with a second signature while secrets rotate", () => {
    const body = form("succeeded")
    expect(() => verifyCallbackSignature({ rawBody: body, signatureHeader: altapaySigned(body, now()), secret: SECRET })).not.toThrow()
    expect(() => verifyCallbackSignature({ rawBody: body, signatureHeader: altapaySigned(body, now(), ["old-secret-0123456789", SECRET]), secret: SECRET })).not.toThrow()
  })

  it("an old t is still AltaPay's signature (webhook.js ignores the age): stale, not forged", () => {
    const body = form("succeeded")
    const dayOld = altapaySigned(body, now() - 86_400)
    expect(() => verifyCallbackSignature({ rawBody: body, signatureHeader: dayOld, secret: SECRET })).toThrow(AltaPayStaleCallbackSignatureError)
  })
})

describe("the legacy checksum as AltaPay's Magento plugin computes it", () => {
  it("is md5 of the sorted key=value pairs amount, currency, secret, shop_orderid, joined by commas", () => {
    // plugin-magento2-community Helper/Data.php calculateCheckSum(): ksort, "$name=$value", join(','), md5.
    const { amount, currencyNumeric: currency, shop_orderid } = callbackFormFields.value
    const magento = createHash("md5").update(`amount=${amount},currency=${currency},secret=${SECRET},shop_orderid=${shop_orderid}`).digest("hex")
    expect(callbackChecksum({ amount, currency, shop_orderid }, SECRET)).toBe(magento)
  })
})

describe("the callback form with the PHP SDK's XML", () => {
  it("parses: numeric currency to DKK, amount to minor units, the xml kept for look-ups", () => {
    expect(parseCallback(form("succeeded"))).toMatchObject({
      shopOrderId: "000000081",
      transactionId: "299",
      status: "succeeded",
      paymentStatus: "captured",
      amountMinor: 13900,
      currency: "DKK",
      xml: sdkPhpCapturedCallbackXml.value,
    })
  })
})

describe("a callback without payment_status (a field the docs do not list)", () => {
  it("takes the payment's status from its xml, as the Payment OK page recommends: the sample is captured", () => {
    const withoutPaymentStatus = new URLSearchParams(form("succeeded"))
    withoutPaymentStatus.delete("payment_status")
    const callback = parseCallback(withoutPaymentStatus.toString())
    expect(callback.paymentStatus).toBe("captured")
    expect(webhookActionFor(callback)).toBe("captured")
  })
})

describe("status values as AltaPay's Magento plugin reads them", () => {
  const action = (status: string) => webhookActionFor(parseCallback(form(status, "preauth")))

  it.each(magentoNotificationStatuses.value.succeeded)("%s pays", (status) => expect(action(status)).toBe("authorized"))
  it.each(magentoNotificationStatuses.value.failed)("%s fails", (status) => expect(action(status)).toBe("failed"))
  it.each(magentoNotificationStatuses.value.cancelled)("%s cancels", (status) => expect(action(status)).toBe("canceled"))
})

describe("the provider's webhook handling of that form post", () => {
  let sandbox: Sandbox
  beforeAll(async () => {
    sandbox = await startSandbox({ port: 0, username: "doc-user", password: "doc-password-42", callbackSecret: SECRET })
  })
  afterAll(() => sandbox.close())
  const provider = () =>
    new AltaPayProviderService(
      medusaWithSessions(),
      sandboxProviderOptions(sandbox, { username: "doc-user", password: "doc-password-42" }, { callbackSecret: SECRET, maxRetries: 0 })
    )
  const post = (body: string, t: number) => ({
    data: Object.fromEntries(new URLSearchParams(body)),
    rawData: Buffer.from(body),
    headers: { "altapay-signature": altapaySigned(body, t) },
  })

  it("a fresh, signed success post is taken as it stands: captured, for the posted order and amount", async () => {
    expect(await provider().getWebhookActionAndData(post(form("success"), now()))).toMatchObject({ action: "captured", data: { session_id: "000000081" } })
  })

  it("the same post a day late is not trusted: AltaPay, which knows no such order here, decides", async () => {
    const asked = () => sandbox.ledger().filter((e) => e.operation === "payments").length
    const before = asked()
    expect((await provider().getWebhookActionAndData(post(form("success"), now() - 86_400))).action).toBe("not_supported")
    expect(asked() - before).toBe(1)
  })
})
