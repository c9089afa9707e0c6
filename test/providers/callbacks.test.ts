/**
 * Callbacks are judged on when they reached the store, not on when Medusa's event subscriber gets
 * to them (seconds, or with a backlog minutes, later); and an unsigned callback whose look-up at
 * AltaPay fails is not dropped: the provider throws, so Medusa's event retry runs.
 */
import { signCallbackBody } from "../../src/altapay"
import { AltaPayProviderService } from "../../src/providers/altapay"
import type { AltaPayPaymentData } from "../../src/lib/payment-data/data"
import { serverKeys } from "../../src/lib/registrations/server-keys"
import { ARRIVAL_HEADER, arrivalStamp } from "../../src/lib/callbacks/arrival"
import { StrandedSessions } from "../../src/lib/follow-up/stranded"
import { paymentLockOn, processStore } from "../../src/lib/scale-out/shared-state"
import { startSandbox, type Sandbox } from "../../src/sandbox"
import { medusaWithSessions, sandboxProviderOptions, sessionIdOf } from "../helpers/provider"

const USER = "callbacks-user"
const PASSWORD = "callbacks-password-42"
const SECRET = "callbacks-secret-0123456789"

let sandbox: Sandbox
let counter = 0
const options = (extra: Record<string, unknown> = {}) => sandboxProviderOptions(sandbox, { username: USER, password: PASSWORD }, { maxRetries: 0, ...extra })

beforeAll(async () => {
  sandbox = await startSandbox({ port: 0, username: USER, password: PASSWORD, callbackSecret: SECRET })
})
afterAll(() => sandbox.close())
afterEach(() => sandbox.faults.clear())

async function paidPayment(provider: AltaPayProviderService): Promise<{ data: AltaPayPaymentData; paymentId: string }> {
  const id = `payses_cb${Date.now().toString(36)}${(counter++).toString(36)}`
  const { data } = await provider.initiatePayment({ amount: 25, currency_code: "dkk", data: { session_id: id }, context: { idempotency_key: id } })
  const paid = await sandbox.simulatePayment((data as AltaPayPaymentData).altapay_session_id, { outcome: "authorize", callback: false })
  return { data: data as AltaPayPaymentData, paymentId: paid.paymentId }
}

/** The webhook payload Medusa's subscriber hands the provider, for a callback signed at `signedAt` (s). */
function payload(paymentId: string, signedAt: number, headers: Record<string, string> = {}) {
  const { rawBody, headers: sent } = sandbox.callbackFor(paymentId, { timestamp: signedAt })
  return { data: Object.fromEntries(new URLSearchParams(rawBody)), rawData: Buffer.from(rawBody), headers: { ...sent, ...headers } }
}

/** A provider with the callback secret whose warnings the test reads. */
function warnedProvider(): { provider: AltaPayProviderService; warn: jest.Mock } {
  const warn = jest.fn()
  const logger = { warn, info: jest.fn(), debug: jest.fn(), error: jest.fn() }
  return { provider: new AltaPayProviderService({ ...medusaWithSessions(), logger } as never, options({ callbackSecret: SECRET })), warn }
}

describe("a signed callback processed ten minutes after it arrived (tolerance 300 s)", () => {
  const tenMinutesAgo = () => Math.floor(Date.now() / 1000) - 600

  it("is trusted as it stands when the store stamped its arrival: the signature was fresh then", async () => {
    const { provider, warn } = warnedProvider()
    const { data, paymentId } = await paidPayment(provider)
    const signedAt = tenMinutesAgo()
    const arrived = payload(paymentId, signedAt)
    const stamp = arrivalStamp(arrived.rawData, serverKeys(options(), "webhook-arrival"), signedAt * 1000 + 2_000)
    // AltaPay's record is not needed: its one look-up (other payments of the session, webhook.ts) is best effort.
    sandbox.faults.add({ route: "payments", kind: "503", times: 5 })

    const result = await provider.getWebhookActionAndData({ ...arrived, headers: { ...arrived.headers, [ARRIVAL_HEADER]: stamp } })

    expect(result).toMatchObject({ action: "authorized", data: { session_id: sessionIdOf(data) } })
    expect(warn).toHaveBeenCalledWith(expect.stringMatching(/could not ask AltaPay for other payments .*; none noted\./))
  })

  it("without a stamp, or with one the sender made, it is not refused: AltaPay's record decides", async () => {
    const provider = new AltaPayProviderService(medusaWithSessions(), options({ callbackSecret: SECRET }))
    const { data, paymentId } = await paidPayment(provider)
    const signedAt = tenMinutesAgo()
    const unstamped = payload(paymentId, signedAt)
    const otherKey = serverKeys({ username: "someone", password: "else" } as never, "webhook-arrival")
    const lookups = () => sandbox.ledger().filter((e) => e.operation === "payments").length

    for (const stamp of [undefined, `${signedAt * 1000}.${"A".repeat(43)}`, arrivalStamp(unstamped.rawData, otherKey, signedAt * 1000)]) {
      const before = lookups()
      const headers = stamp ? { ...unstamped.headers, [ARRIVAL_HEADER]: stamp } : unstamped.headers
      expect(await provider.getWebhookActionAndData({ ...unstamped, headers })).toMatchObject({ action: "authorized", data: { session_id: sessionIdOf(data) } })
      expect(lookups()).toBe(before + 1)
    }
  })

  it("a stale one is never trusted: a signed claim of payment AltaPay does not show authorizes nothing", async () => {
    const provider = new AltaPayProviderService(medusaWithSessions(), options({ callbackSecret: SECRET }))
    const orderId = `payses_nothing${(counter++).toString(36)}`
    const body = new URLSearchParams({ shop_orderid: orderId, status: "succeeded", payment_status: "preauth", amount: "25.00", currency: "208" }).toString()
    const signed = (t: number) => ({
      data: Object.fromEntries(new URLSearchParams(body)),
      rawData: Buffer.from(body),
      headers: { "altapay-signature": signCallbackBody(body, SECRET, t) },
    })

    // Fresh, the signature vouches for the body; stale, only AltaPay's record counts, and it has nothing.
    expect((await provider.getWebhookActionAndData(signed(Math.floor(Date.now() / 1000)))).action).toBe("authorized")
    expect((await provider.getWebhookActionAndData(signed(tenMinutesAgo()))).action).toBe("not_supported")
  })

  it("a stamp is bound to its body: moved onto another callback it is worth nothing", async () => {
    const provider = new AltaPayProviderService(medusaWithSessions(), options({ callbackSecret: SECRET }))
    const first = await paidPayment(provider)
    const second = await paidPayment(provider)
    const signedAt = tenMinutesAgo()
    const stamp = arrivalStamp(payload(first.paymentId, signedAt).rawData, serverKeys(options(), "webhook-arrival"), signedAt * 1000)
    const other = payload(second.paymentId, signedAt, { [ARRIVAL_HEADER]: stamp })
    const lookups = () => sandbox.ledger().filter((e) => e.operation === "payments").length

    // Not trusted on its own: the answer comes from a look-up at AltaPay.
    const before = lookups()
    expect((await provider.getWebhookActionAndData(other)).action).toBe("authorized")
    expect(lookups()).toBe(before + 1)
  })
})

describe("an unsigned callback while callbackSecret is set", () => {
  it("is refused, and the warning says where the missing secret goes", async () => {
    const { provider, warn } = warnedProvider()
    const { paymentId } = await paidPayment(provider)
    const { rawBody, headers } = sandbox.callbackFor(paymentId, { signature: "none" })
    expect((await provider.getWebhookActionAndData({ data: Object.fromEntries(new URLSearchParams(rawBody)), rawData: Buffer.from(rawBody), headers })).action).toBe(
      "not_supported"
    )
    expect(warn).toHaveBeenCalledWith(
      expect.stringMatching(/^AltaPay callback refused: The callback carries no AltaPay-Signature header\. .*equal to callbackSecret in AltaPay's Merchant Interface/)
    )
  })
})

describe("a callback Medusa handed over without its raw body (Medusa before 2.14.2 keeps only JSON bodies raw)", () => {
  it("is not refused for its signature: AltaPay's record decides, a claim of payment it does not show authorizes nothing, and the merchant is told why once", async () => {
    const { provider, warn } = warnedProvider()
    const { data, paymentId } = await paidPayment(provider)
    // Medusa's hook route passes req.rawBody, which those versions leave unset for a form post.
    const noRawBody = undefined as unknown as Buffer
    const parsedOnly = (body: ReturnType<typeof payload>) => ({ data: body.data, rawData: noRawBody, headers: body.headers })
    const lookups = () => sandbox.ledger().filter((e) => e.operation === "payments").length

    const before = lookups()
    const paid = parsedOnly(payload(paymentId, Math.floor(Date.now() / 1000)))
    expect(await provider.getWebhookActionAndData(paid)).toMatchObject({ action: "authorized", data: { session_id: sessionIdOf(data) } })
    expect(lookups()).toBe(before + 1)

    const forged = { shop_orderid: `payses_nothing${(counter++).toString(36)}`, status: "succeeded", payment_status: "preauth", amount: "25.00", currency: "208" }
    expect(
      (
        await provider.getWebhookActionAndData({
          data: forged,
          rawData: noRawBody,
          headers: { "altapay-signature": signCallbackBody("anything", SECRET, Math.floor(Date.now() / 1000)) },
        })
      ).action
    ).toBe("not_supported")
    const told = warn.mock.calls.map(([message]) => String(message)).filter((message) => /does not keep a form post's raw body/.test(message))
    expect(told).toHaveLength(1)
    expect(told[0]).toMatch(/Upgrade Medusa to 2\.14\.2, 2\.15\.1 or later/)
  })
})

describe("an unsigned callback (no callbackSecret)", () => {
  it("whose look-up at AltaPay fails throws, so Medusa's event retry runs instead of the callback being dropped", async () => {
    const provider = new AltaPayProviderService(medusaWithSessions(), options())
    const { paymentId } = await paidPayment(provider)
    const arrived = payload(paymentId, Math.floor(Date.now() / 1000))
    sandbox.faults.add({ route: "payments", kind: "503", times: 5 })

    await expect(provider.getWebhookActionAndData(arrived)).rejects.toThrow(/AltaPay callback confirmation failed/)

    sandbox.faults.clear()
    expect((await provider.getWebhookActionAndData(arrived)).action).toBe("authorized")
  })
})

describe("a freshly signed callback without the amount or currency", () => {
  it("is not dropped: AltaPay's record supplies them, so the order need not wait for the follow-up job", async () => {
    const provider = new AltaPayProviderService(medusaWithSessions(), options({ callbackSecret: SECRET }))
    const { data, paymentId } = await paidPayment(provider)
    const { rawBody } = sandbox.callbackFor(paymentId)
    const fields = new URLSearchParams(rawBody)
    fields.delete("amount")
    fields.delete("currency")
    const body = fields.toString()
    const lookups = () => sandbox.ledger().filter((e) => e.operation === "payments").length
    const before = lookups()

    const result = await provider.getWebhookActionAndData({
      data: Object.fromEntries(fields),
      rawData: Buffer.from(body),
      headers: { "altapay-signature": signCallbackBody(body, SECRET, Math.floor(Date.now() / 1000)) },
    })

    expect(result).toMatchObject({ action: "authorized", data: { session_id: sessionIdOf(data) } })
    expect(lookups()).toBe(before + 1)
  })
})

describe("a paid callback for a session Medusa does not have (deleted, or never Medusa's)", () => {
  // Medusa's processPaymentWorkflow, given such a session id, would look the cart up with an
  // undefined payment collection id and complete whichever cart it finds first.
  it("starts nothing in Medusa, even freshly signed: the payment is noted for the follow-up job", async () => {
    const provider = new AltaPayProviderService(medusaWithSessions(), options({ callbackSecret: SECRET }))
    const { data, paymentId } = await paidPayment(provider)
    const gone = new AltaPayProviderService(medusaWithSessions([sessionIdOf(data)]), options({ callbackSecret: SECRET }))

    expect(await gone.getWebhookActionAndData(payload(paymentId, Math.floor(Date.now() / 1000)))).toEqual({ action: "not_supported" })
    expect(await new StrandedSessions(processStore(), paymentLockOn(undefined), "altapay").get(sessionIdOf(data))).toMatchObject({ why: "unknown to Medusa" })
  })

  it("without the query dependency nothing is started either: the session cannot be checked", async () => {
    const provider = new AltaPayProviderService({}, options({ callbackSecret: SECRET }))
    const { paymentId } = await paidPayment(provider)

    expect(await provider.getWebhookActionAndData(payload(paymentId, Math.floor(Date.now() / 1000)))).toEqual({ action: "not_supported" })
  })
})
