/**
 * The return URLs AltaPay sends the customer to: a storefront's return route gets the cart id in
 * the URL ({cart_id}), because its SameSite=Strict cart cookie is not sent on the way back from
 * AltaPay's site.
 */
import type { RemoteQueryFunction } from "@medusajs/framework/types"
import { AltaPayProviderService } from "../../src/providers/altapay"
import { parseAltaPayOptions } from "../../src/lib/registrations/options"
import type { AltaPayPaymentData } from "../../src/lib/payment-data/data"
import { startSandbox, type Sandbox } from "../../src/sandbox"
import { sandboxProviderOptions } from "../helpers/provider"

const USER = "return-urls-user"
const PASSWORD = "return-urls-password-42"
const SUCCESS = "http://shop.test/api/altapay/success/{cart_id}?attempt={session_id}"
const FAILURE = "http://shop.test/api/altapay/failure"

let sandbox: Sandbox
let counter = 0

beforeAll(async () => {
  sandbox = await startSandbox({ port: 0, username: USER, password: PASSWORD })
})
afterAll(() => sandbox.close())

const baseOptions = () =>
  sandboxProviderOptions(sandbox, { username: USER, password: PASSWORD }, { flow: "redirect", terminal: "AltaPay Sandbox Test Terminal" }) as Record<string, unknown>

/** Medusa's query as far as the provider reads it: payment session -> payment collection -> cart. */
function queryWithCarts(cartOfSession: Record<string, string>): Pick<RemoteQueryFunction, "graph"> {
  return {
    graph: (async ({ entity, filters }: { entity: string; filters: { id: string } }) => {
      const cartId = cartOfSession[filters.id]
      if (entity === "payment_session") return { data: [{ id: filters.id, payment_collection: { cart: cartId ? { id: cartId } : null } }] }
      return { data: [] }
    }) as never,
  }
}

const providerWith = (query: Pick<RemoteQueryFunction, "graph"> | undefined, options: Record<string, unknown> = {}) =>
  new AltaPayProviderService({ ...(query ? { query } : {}) }, { ...baseOptions(), successUrl: SUCCESS, failureUrl: FAILURE, ...options } as never)

const nextSessionId = () => `payses_ret${Date.now().toString(36)}${(counter++).toString(36)}`

async function initiate(provider: AltaPayProviderService, id: string): Promise<AltaPayPaymentData> {
  const out = await provider.initiatePayment({ amount: 10, currency_code: "dkk", data: { session_id: id }, context: { idempotency_key: id } })
  return out.data as AltaPayPaymentData
}

/** The customer's choice on AltaPay's hosted page; its answer redirects to the return URL. */
const submitPaymentPage = (data: AltaPayPaymentData, outcome: "authorize" | "decline") =>
  fetch(data.redirect_url!, { method: "POST", headers: { "content-type": "application/x-www-form-urlencoded" }, body: `outcome=${outcome}`, redirect: "manual" })

type SentCallbacks = { success?: { value: string }; failure?: { value: string }; notification?: string } | undefined

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
  it("send the customer back to the storefront's return route with the cart and payment session ids", async () => {
    const id = nextSessionId()
    const provider = providerWith(queryWithCarts({ [id]: "cart_01RETURN" }))
    const data = await initiate(provider, id)

    const submitted = await submitPaymentPage(data, "authorize")

    expect(submitted.status).toBe(303)
    const back = new URL(submitted.headers.get("location")!)
    expect(`${back.origin}${back.pathname}`).toBe("http://shop.test/api/altapay/success/cart_01RETURN")
    expect(back.searchParams.get("attempt")).toBe(id)
  })

  it("a declined payment sends the customer to the failure URL", async () => {
    const id = nextSessionId()
    const data = await initiate(providerWith(queryWithCarts({ [id]: "cart_01DECLINE" })), id)

    const submitted = await submitPaymentPage(data, "decline")

    expect(submitted.status).toBe(303)
    expect(submitted.headers.get("location")).toMatch(/^http:\/\/shop\.test\/api\/altapay\/failure\?/)
  })

  it("a session with no cart (a payment link for an order) gets no URL that needs the cart; AltaPay shows its own result page", async () => {
    const id = nextSessionId()
    const data = await initiate(providerWith(queryWithCarts({})), id)

    const callbacks = callbacksSent(data, "session.create")
    expect(callbacks?.success).toBeUndefined()
    expect(callbacks?.failure?.value).toBe(FAILURE)
    expect(callbacks?.notification).toBe("http://127.0.0.1:9/hooks/payment/altapay_altapay")
  })

  it("a session update (new amount) keeps the filled return URLs", async () => {
    const id = nextSessionId()
    const provider = providerWith(queryWithCarts({ [id]: "cart_01UPDATE" }))
    const data = await initiate(provider, id)

    await provider.updatePayment({ data: data as never, amount: 12, currency_code: "dkk" })

    expect(callbacksSent(data, "session.update")?.success?.value).toBe(`http://shop.test/api/altapay/success/cart_01UPDATE?attempt=${id}`)
  })

  it("{cart_id} without the Payment module's query dependency fails at start-up and says what to add", () => {
    expect(() => providerWith(undefined)).toThrow(/\{cart_id\}.*dependencies: \[ContainerRegistrationKeys\.QUERY\]/)
    expect(() => providerWith(undefined, { successUrl: "http://shop.test/return?s={session_id}" })).not.toThrow()
  })

  it("an unknown placeholder is refused with the ones that exist", () => {
    const parsed = parseAltaPayOptions({ ...baseOptions(), successUrl: "http://shop.test/api/altapay/success/{cartId}" })
    expect(parsed).toEqual({ problems: ["successUrl: may only contain the placeholders {session_id} and {cart_id}"] })
  })
})
