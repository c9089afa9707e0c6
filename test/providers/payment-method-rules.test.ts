/**
 * Capture rules per payment method (issue 42), through the provider against the sandbox over HTTP:
 * a MobilePay reservation not captured within 14 days is cancelled by MobilePay ("Payment time
 * limits", Vipps MobilePay), so a later capture is refused before anything is sent, with what to do;
 * within the window it is captured as any other. Swish is captured by AltaPay when the customer pays
 * (AltaPay's releaseReservation page), so its sessions ask for that and Medusa records it captured.
 */
import type { Logger } from "@medusajs/framework/types"
import type { AltaPayPaymentData } from "../../src/lib/payment-data/data"
import { AltaPayProviderService } from "../../src/providers/altapay"
import { startSandbox, type Sandbox } from "../../src/sandbox"
import { sandboxProviderOptions } from "../helpers/provider"

const USER = "method-rules-user"
const PASSWORD = "method-rules-password-42"
const DAY_MS = 24 * 60 * 60 * 1000

let sandbox: Sandbox
let counter = 0
const warnings: string[] = []
const logger = { warn: (m: string) => warnings.push(m), debug: () => undefined, info: () => undefined, error: () => undefined } as unknown as Logger

beforeAll(async () => {
  sandbox = await startSandbox({ port: 0, username: USER, password: PASSWORD })
})
afterAll(() => sandbox.close())
afterEach(() => jest.restoreAllMocks())

const providerFor = (providerId: string) =>
  new AltaPayProviderService({ logger }, sandboxProviderOptions(sandbox, { username: USER, password: PASSWORD }, { providerId, terminal: "AltaPay Sandbox Test Terminal" }))
const nextId = () => `payses_rules${Date.now().toString(36)}${(counter++).toString(36)}`
const captures = () => sandbox.ledger().filter((e) => e.operation === "captureReservation").length

async function authorized(provider: AltaPayProviderService): Promise<AltaPayPaymentData> {
  const id = nextId()
  const session = await provider.initiatePayment({ amount: 100, currency_code: "dkk", data: { session_id: id }, context: { idempotency_key: id } })
  const data = session.data as AltaPayPaymentData
  await sandbox.simulatePayment(data.altapay_session_id, { outcome: "authorize", callback: false })
  return (await provider.authorizePayment({ data, context: { idempotency_key: id } })).data as AltaPayPaymentData
}

/** Medusa's capture `days` after now, as the provider sees the clock. */
async function captureLater(provider: AltaPayProviderService, data: AltaPayPaymentData, days: number) {
  const now = Date.now()
  jest.spyOn(Date, "now").mockReturnValue(now + days * DAY_MS)
  return provider.capturePayment({ data, context: { idempotency_key: `capt_${nextId()}` } })
}

it("a MobilePay reservation older than MobilePay's 14 days is refused before anything is sent, saying what to do", async () => {
  const provider = providerFor("mobilepay")
  const data = await authorized(provider)
  const before = captures()
  await expect(captureLater(provider, data, 15)).rejects.toThrow(/MobilePay cancels a reservation that is not captured within 14 days.*nothing was sent to AltaPay.*pay again/)
  expect(captures()).toBe(before)
})

it("within the window a MobilePay reservation is captured as any other", async () => {
  const provider = providerFor("mobilepay")
  const data = await authorized(provider)
  const captured = (await captureLater(provider, data, 13)).data as AltaPayPaymentData
  expect(captured.captured_minor).toBe(10_000)
})

it("a card registration has no such window: the issuer's reservation decides (AltaPay re-authorizes at capture)", async () => {
  const provider = providerFor("card")
  const data = await authorized(provider)
  const captured = (await captureLater(provider, data, 30)).data as AltaPayPaymentData
  expect(captured.captured_minor).toBe(10_000)
})

it("a Swish registration asks AltaPay to capture when the customer pays, and Medusa records it captured", async () => {
  const provider = providerFor("swish")
  const id = nextId()
  const session = await provider.initiatePayment({ amount: 100, currency_code: "sek", data: { session_id: id }, context: { idempotency_key: id } })
  const data = session.data as AltaPayPaymentData
  expect(data.auto_capture).toBe(true)
  const sent = sandbox
    .ledger()
    .filter((e) => e.operation === "session.create")
    .at(-1)!.params as { configuration?: { autoCapture?: boolean } }
  expect(sent.configuration?.autoCapture).toBe(true)
  await sandbox.simulatePayment(data.altapay_session_id, { outcome: "authorize", callback: false })
  const out = await provider.authorizePayment({ data, context: { idempotency_key: id } })
  expect(out.status).toBe("captured")
})
