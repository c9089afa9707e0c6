/**
 * What we send, held against what AltaPay documents and what AltaPay's own clients send: the
 * session body, the payment link body and the gateway's form fields. Samples in samples.ts.
 */
import { paymentLinkBody, sessionBody } from "../../../src/altapay"
import { authorizedPayment, startSandboxAndClient, type SandboxPair } from "../../helpers/sandbox"
import { androidCreateSessionRequest, createPaymentLinkRequest, orderDetailsAmount, sdkPhpGatewayFields } from "./samples"

const shapeOf = (value: unknown): string => (typeof value === "object" && value !== null ? `{${Object.keys(value).sort().join(",")}}` : typeof value)

describe("the session body, against AltaPay's Android SDK and the Order Details page", () => {
  const documented = androidCreateSessionRequest.value
  const body = sessionBody({
    orderId: "payses-01",
    amountMinor: 204999,
    currency: "DKK",
    callbacks: {
      success: documented.callbacks.success.value,
      failure: documented.callbacks.failure.value,
      redirect: documented.callbacks.redirect,
      notification: documented.callbacks.notification,
      formStyling: documented.callbacks.formStyling,
    },
    configuration: { autoCapture: false, bodyFormat: "XML", language: "da", country: "DK" },
  }) as { callbacks: Record<string, unknown>; configuration: Record<string, unknown>; order: { amount: unknown } }

  it("sends every callback in the shape the SDK declares: targets for success/failure, strings for the rest", () => {
    for (const [name, value] of Object.entries(documented.callbacks)) expect([name, shapeOf(body.callbacks[name])]).toEqual([name, shapeOf(value)])
    expect(body.callbacks).toEqual(documented.callbacks)
  })

  it("puts bodyFormat in configuration, with only fields the SDK's Configuration knows", () => {
    expect(body.callbacks).not.toHaveProperty("bodyFormat")
    expect(Object.keys(body.configuration).every((key) => documented.configurationFields.includes(key))).toBe(true)
    expect(body.configuration.bodyFormat).toBe("XML")
  })

  it("writes the amount as the documented double with two decimals and an alphabetic currency", () => {
    expect(body.order.amount).toEqual(orderDetailsAmount.value)
    expect(Object.keys(body.order.amount as object).sort()).toEqual([...documented.amountFields].sort())
  })
})

describe("the payment link body, against the Create Payment Link page", () => {
  it("is the documented request: times in minutes under validityTime and activationTime", () => {
    const { url, size, validityTime, activationTime } = createPaymentLinkRequest.value
    expect(paymentLinkBody({ url, size, validityMinutes: validityTime, activationMinutes: activationTime })).toEqual(createPaymentLinkRequest.value)
  })

  it("the sandbox accepts the documented request as sent", async () => {
    const pair = await startSandboxAndClient()
    try {
      const { sessionId } = await pair.client.checkout.createSession({ orderId: "payses-doclink", amountMinor: 1000, currency: "DKK" })
      const link = await pair.client.checkout.createPaymentLink(sessionId, { validityMinutes: 1440, activationMinutes: 10, size: 450, url: "https://www.example.com/link" })
      expect(link.paymentLink).toBeTruthy()
      expect(pair.sandbox.ledger().at(-1)?.params).toEqual(createPaymentLinkRequest.value)
    } finally {
      await pair.close()
    }
  })
})

describe("gateway form fields, against AltaPay's PHP SDK", () => {
  let pair: SandboxPair
  beforeAll(async () => {
    pair = await startSandboxAndClient()
  })
  afterAll(() => pair.close())
  /** Field names as sent, with `orderLines[i][field]` folded to `orderLines`. */
  const sentFields = (operation: string) =>
    new Set(
      Object.keys(
        pair.sandbox
          .ledger()
          .filter((e) => e.operation === operation)
          .at(-1)!.params
      ).map((key) => key.replace(/^orderLines\[\d+\]\[\w+\]$/, "orderLines"))
    )
  const lines = [{ itemId: "sku-1", description: "Coffee", quantity: 1, unitPriceMinor: 8000, taxAmountMinor: 2000, taxPercent: 25, goodsType: "item" as const }]

  it("capture, refund and release send only the fields the SDK sends, under the same names", async () => {
    const { transactionId } = await authorizedPayment(pair, 10000)
    await pair.client.gateway.captureReservation({ transactionId, amountMinor: 10000, currency: "DKK", reconciliationIdentifier: "cap-1", orderLines: lines, salesTaxMinor: 2000 })
    await pair.client.gateway.refundCapturedReservation({
      transactionId,
      amountMinor: 10000,
      currency: "DKK",
      reconciliationIdentifier: "ref-1",
      orderLines: lines,
      allowOverRefund: false,
    })
    const released = await authorizedPayment(pair, 5000)
    await pair.client.gateway.releaseReservation({ transactionId: released.transactionId })

    for (const method of ["captureReservation", "refundCapturedReservation", "releaseReservation"] as const) {
      const sent = [...sentFields(method)]
      expect(sent.filter((name) => !sdkPhpGatewayFields.value[method].includes(name))).toEqual([])
      expect(sent).toContain("transaction_id")
    }
  })
})
