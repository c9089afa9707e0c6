/**
 * The success/failure URLs AltaPay gets are the plugin's return endpoints on the Medusa server
 * (AltaPay's gateway posts there server to server); the successUrl / failureUrl options are the
 * storefront landing pages those endpoints send the customer on to.
 */
import { AltaPayProviderService } from "../../src/providers/altapay"
import { landingUrl } from "../../src/lib/customer-return/landing"
import { parseAltaPayOptions } from "../../src/lib/registrations/options"
import type { AltaPayPaymentData } from "../../src/lib/payment-data/data"
import { startSandbox, type Sandbox } from "../../src/sandbox"
import { sandboxProviderOptions } from "../helpers/provider"

const USER = "return-urls-user"
const PASSWORD = "return-urls-password-42"
const SUCCESS = "https://shop.test/altapay/landing?cart={cart_id}&order={order_id}&outcome={outcome}"
const FAILURE = "https://shop.test/altapay/landing?cart={cart_id}&outcome={outcome}&attempt={session_id}"

let sandbox: Sandbox
let counter = 0

beforeAll(async () => {
  sandbox = await startSandbox({ port: 0, username: USER, password: PASSWORD })
})
afterAll(() => sandbox.close())

const baseOptions = () =>
  sandboxProviderOptions(sandbox, { username: USER, password: PASSWORD }, { flow: "redirect", terminal: "AltaPay Sandbox Test Terminal" }) as Record<string, unknown>

const providerWith = (options: Record<string, unknown> = {}) => new AltaPayProviderService({}, { ...baseOptions(), successUrl: SUCCESS, failureUrl: FAILURE, ...options } as never)

const nextSessionId = () => `payses_ret${Date.now().toString(36)}${(counter++).toString(36)}`

async function initiate(provider: AltaPayProviderService, id: string): Promise<AltaPayPaymentData> {
  const out = await provider.initiatePayment({ amount: 10, currency_code: "dkk", data: { session_id: id }, context: { idempotency_key: id } })
  return out.data as AltaPayPaymentData
}

type SentCallbacks = Record<string, { value: string } | undefined> | undefined

/** The callbacks of the last session create / update AltaPay received for this AltaPay session. */
function callbacksSent(data: AltaPayPaymentData, operation: "session.create" | "session.update"): SentCallbacks {
  const entry = sandbox
    .ledger()
    .filter((e) => e.operation === operation)
    .filter((e) => (operation === "session.update" ? e.path.endsWith(data.altapay_session_id) : (e.params as { order?: { orderId?: string } }).order?.orderId === data.order_id))
    .at(-1)
  return (entry?.params as { callbacks?: SentCallbacks } | undefined)?.callbacks
}

describe("return URLs", () => {
  it("AltaPay gets the plugin's return endpoints of this registration, not the storefront's pages, and needs no query dependency", async () => {
    const id = nextSessionId()
    const data = await initiate(providerWith({ providerId: "card" }), id)

    const callbacks = callbacksSent(data, "session.create")
    expect(callbacks?.success).toEqual({ type: "URL", value: "http://127.0.0.1:9/altapay/return/card/success" })
    expect(callbacks?.failure).toEqual({ type: "URL", value: "http://127.0.0.1:9/altapay/return/card/failure" })
  })

  it("a session update keeps the return endpoints", async () => {
    const id = nextSessionId()
    const provider = providerWith()
    const data = await initiate(provider, id)

    await provider.updatePayment({ data: data as never, amount: 12, currency_code: "dkk" })

    expect(callbacksSent(data, "session.update")?.success?.value).toBe("http://127.0.0.1:9/altapay/return/altapay/success")
  })

  it("without landing pages no return endpoint is named: AltaPay shows its own result page", async () => {
    const id = nextSessionId()
    const data = await initiate(providerWith({ successUrl: undefined, failureUrl: undefined }), id)
    const callbacks = callbacksSent(data, "session.create")
    expect(callbacks?.success).toBeUndefined()
    expect(callbacks?.failure).toBeUndefined()
  })

  it("the landing page gets the cart, order, session and outcome, URL-encoded; a missing order is empty", () => {
    expect(landingUrl(SUCCESS, { session_id: "payses_1", cart_id: "cart_1", order_id: "order_1", outcome: "paid" })).toBe(
      "https://shop.test/altapay/landing?cart=cart_1&order=order_1&outcome=paid"
    )
    expect(landingUrl(FAILURE, { session_id: "payses 1", cart_id: "cart_1", outcome: "declined" })).toBe(
      "https://shop.test/altapay/landing?cart=cart_1&outcome=declined&attempt=payses%201"
    )
    expect(landingUrl(SUCCESS, { session_id: "payses_1", outcome: "unconfirmed" })).toBe("https://shop.test/altapay/landing?cart=&order=&outcome=unconfirmed")
  })

  it("an unknown placeholder is refused with the ones that exist", () => {
    const parsed = parseAltaPayOptions({ ...baseOptions(), successUrl: "http://shop.test/api/altapay/success/{cartId}" })
    expect(parsed).toEqual({ problems: ["successUrl: may only contain the placeholders {session_id}, {cart_id}, {order_id}, {outcome}, {message}"] })
  })

  it("with verifyOrder, AltaPay gets the plugin's verify endpoint of this registration; without it, none", async () => {
    const asking = await initiate(providerWith({ providerId: "card", verifyOrder: true, callbackSecret: "verify-order-secret-0123456789" }), nextSessionId())
    expect(callbacksSent(asking, "session.create")?.verifyOrder).toBe("http://127.0.0.1:9/altapay/verify-order/card")
    const silent = await initiate(providerWith({ providerId: "card" }), nextSessionId())
    expect(callbacksSent(silent, "session.create")?.verifyOrder).toBeUndefined()
  })

  it("verifyOrder without callbackSecret is refused: every payment would be refused, since only a signed post is answered OKAY", () => {
    const parsed = parseAltaPayOptions({ ...baseOptions(), verifyOrder: true, callbackSecret: undefined })
    expect(parsed).toMatchObject({ problems: [expect.stringMatching(/^verifyOrder: needs callbackSecret/)] })
  })
})
