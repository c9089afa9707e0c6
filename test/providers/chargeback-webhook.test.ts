/**
 * A chargeback notification starts no Medusa workflow: the provider answers NOT_SUPPORTED,
 * signed or not, fresh or stale, without asking AltaPay (the plugin's subscriber records it).
 */
import { signCallbackBody } from "../../src/altapay"
import { AltaPayProviderService } from "../../src/providers/altapay"
import type { AltaPayPaymentData } from "../../src/lib/payment-data/data"
import { startSandbox, type Sandbox } from "../../src/sandbox"
import { chargebackEventsXml } from "../altapay/documented-samples/samples"
import { medusaWithSessions, sandboxProviderOptions } from "../helpers/provider"

const USER = "chargeback-user"
const PASSWORD = "chargeback-password-42"
const SECRET = "chargeback-secret-0123456789"

let sandbox: Sandbox
beforeAll(async () => {
  sandbox = await startSandbox({ port: 0, username: USER, password: PASSWORD, callbackSecret: SECRET })
})
afterAll(() => sandbox.close())

it("answers NOT_SUPPORTED to a chargeback, and asks AltaPay nothing", async () => {
  const options = sandboxProviderOptions(sandbox, { username: USER, password: PASSWORD }, { maxRetries: 0, callbackSecret: SECRET })
  const provider = new AltaPayProviderService(medusaWithSessions(), options)
  const id = `payses_cbk${Date.now().toString(36)}`
  const { data } = await provider.initiatePayment({ amount: 25, currency_code: "dkk", data: { session_id: id }, context: { idempotency_key: id } })
  const paid = await sandbox.simulatePayment((data as AltaPayPaymentData).altapay_session_id, { outcome: "authorize", callback: false })
  const fields = new URLSearchParams(sandbox.callbackFor(paid.paymentId).rawBody)
  fields.set("status", "ChargebackEvent")
  fields.set("xml", (fields.get("xml") ?? "").replace("</Transaction>", `${chargebackEventsXml.value}</Transaction>`))
  const rawBody = fields.toString()
  const before = sandbox.ledger().filter((e) => e.operation === "payments").length
  for (const t of [Math.floor(Date.now() / 1000), Math.floor(Date.now() / 1000) - 3600]) {
    const result = await provider.getWebhookActionAndData({
      data: Object.fromEntries(fields),
      rawData: Buffer.from(rawBody),
      headers: { "altapay-signature": signCallbackBody(rawBody, SECRET, t) },
    })
    expect(result.action).toBe("not_supported")
  }
  expect(sandbox.ledger().filter((e) => e.operation === "payments").length).toBe(before)
})
