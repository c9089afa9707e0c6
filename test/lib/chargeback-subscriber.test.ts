/**
 * The chargeback subscriber records only what AltaPay signed: without callbackSecret, or with a
 * wrong signature, nothing is looked up or written (a warning says why); other providers' and
 * other statuses' webhooks are left to Medusa.
 */
import { signCallbackBody } from "../../src/altapay"
import altapayChargebacks from "../../src/subscribers/altapay-chargebacks"
import { chargebackEventsXml } from "../altapay/documented-samples/samples"

const SECRET = "subscriber-secret-0123456789"
const base = { checkoutUrl: "http://127.0.0.1:1", gatewayUrl: "http://127.0.0.1:1", username: "u", password: "p", backendUrl: "http://127.0.0.1:9000", allowInsecureUrls: true }
const body = new URLSearchParams({
  shop_orderid: "payses_1",
  status: "ChargebackEvent",
  xml: `<APIResponse><Body><Transactions><Transaction><TransactionId>1</TransactionId>${chargebackEventsXml.value}</Transaction></Transactions></Body></APIResponse>`,
}).toString()

function run(options: Record<string, unknown>, data: { provider: string; rawBody: string; signature?: string }) {
  const warnings: string[] = []
  const looked: unknown[] = []
  const configModule = {
    modules: {
      payment: {
        resolve: "@medusajs/medusa/payment",
        options: { providers: [{ resolve: "medusa-payment-altapay/providers/altapay", id: "altapay", options: { ...base, ...options } }] },
      },
    },
  }
  const container = {
    resolve: (name: string) => {
      if (name === "logger") return { warn: (m: string) => warnings.push(m), error: (m: string) => warnings.push(m) }
      if (name === "payment") return { listPayments: async (filter: unknown) => (looked.push(filter), []) }
      return configModule
    },
  }
  const event = {
    name: "payment.webhook_received",
    data: { provider: data.provider, payload: { rawData: Buffer.from(data.rawBody), headers: data.signature ? { "altapay-signature": data.signature } : {} } },
  }
  return altapayChargebacks({ event, container } as never).then(() => ({ warnings, looked }))
}

const now = () => Math.floor(Date.now() / 1000)

it("without callbackSecret records nothing and says why", async () => {
  const { warnings, looked } = await run({}, { provider: "altapay_altapay", rawBody: body })
  expect(looked).toEqual([])
  expect(warnings[0]).toContain("no callbackSecret is set")
})

it("with a wrong signature records nothing", async () => {
  const { warnings, looked } = await run(
    { callbackSecret: SECRET },
    { provider: "altapay_altapay", rawBody: body, signature: signCallbackBody(body, "another-secret-0123456789", now()) }
  )
  expect(looked).toEqual([])
  expect(warnings[0]).toContain("AltaPay chargeback notification refused")
})

it("signed (also long ago) it looks the payment up by the AltaPay order id", async () => {
  const { looked } = await run({ callbackSecret: SECRET }, { provider: "altapay_altapay", rawBody: body, signature: signCallbackBody(body, SECRET, now() - 86_400) })
  expect(looked).toEqual([{ payment_session_id: "payses_1" }])
})

it("reads /hooks/payment/pp_altapay_<id> as the same registration: Medusa hands that spelling to the same provider", async () => {
  const { looked } = await run({ callbackSecret: SECRET }, { provider: "pp_altapay_altapay", rawBody: body, signature: signCallbackBody(body, SECRET, now()) })
  expect(looked).toEqual([{ payment_session_id: "payses_1" }])
})

it("leaves other providers and other statuses alone", async () => {
  const paid = body.replace("ChargebackEvent", "succeeded")
  expect((await run({ callbackSecret: SECRET }, { provider: "altapay_altapay", rawBody: paid, signature: signCallbackBody(paid, SECRET, now()) })).looked).toEqual([])
  expect((await run({ callbackSecret: SECRET }, { provider: "stripe_stripe", rawBody: body })).warnings).toEqual([])
})
