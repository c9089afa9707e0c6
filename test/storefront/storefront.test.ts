/**
 * The browser helper against the AltaPay sandbox (real HTTP) and a stand-in for the plugin's store
 * route, through plain fetch and through @medusajs/js-sdk.
 */
import fs from "node:fs"
import { createServer, type IncomingMessage, type Server } from "node:http"
import type { AddressInfo } from "node:net"
import path from "node:path"
import Medusa from "@medusajs/js-sdk"
import {
  AltaPayCheckoutError,
  AltaPayRequestError,
  AltaPaySessionRequestError,
  AltaPayTokenError,
  AltaPayUnavailableError,
  createPayment,
  listPaymentMethods,
  startAltaPayCheckout,
  type AltaPaySession,
} from "../../src/storefront"
import { INVOICE_METHOD, PAYMENT_METHODS } from "../../src/sandbox/state"
import { startSandboxAndClient, type SandboxPair } from "../helpers/sandbox"

const PUBLISHABLE_KEY = "pk_test_storefront"
const [CARD, MOBILEPAY] = PAYMENT_METHODS
// The sandbox's API user has three terminals (card, MobilePay, Klarna), each with its method.
const KLARNA = INVOICE_METHOD

/** What the store route names for each registration: its terminal and the terminals it accepts. */
const REGISTRATIONS: Record<string, { terminal: string; accepted_terminals?: string[] }> = {
  pp_altapay_card: { terminal: CARD.terminalName, accepted_terminals: [CARD.terminalName] },
  // acceptedTerminals: the MobilePay terminal besides the card one.
  pp_altapay_cardwallet: { terminal: CARD.terminalName, accepted_terminals: [CARD.terminalName, MOBILEPAY.terminalName] },
  // As the route answered before it named accepted_terminals: the terminal only.
  pp_altapay_mobilepay: { terminal: MOBILEPAY.terminalName },
  // A terminal that is none of the API user's (a typo in the registration's options).
  pp_altapay_typo: { terminal: "Shop DKK Terminal", accepted_terminals: ["Shop DKK Terminal"] },
}

interface RouteCall {
  path: string
  headers: IncomingMessage["headers"]
  body: string
}

/** What POST /store/carts/:id/altapay-session does, minus Medusa: a real session and a CUSTOMER token. */
function fakeMedusa(pair: SandboxPair) {
  const calls: RouteCall[] = []
  let answer: ((cartId: string) => { status: number; body: unknown }) | undefined
  const server = createServer((req, res) => {
    let body = ""
    req.on("data", (c: Buffer) => (body += c.toString("utf8")))
    req.on("end", async () => {
      calls.push({ path: req.url ?? "", headers: req.headers, body })
      const match = /^\/store\/carts\/([^/]+)\/altapay-session$/.exec(req.url ?? "")
      const reply = (status: number, json: unknown) => {
        res.writeHead(status, { "content-type": "application/json" })
        res.end(JSON.stringify(json))
      }
      if (req.method !== "POST" || !match) return reply(404, { type: "not_found", message: "no route" })
      if (req.headers["x-publishable-api-key"] !== PUBLISHABLE_KEY)
        return reply(400, { type: "not_allowed", message: "Publishable API key required in the request header: x-publishable-api-key." })
      if (answer) {
        const a = answer(decodeURIComponent(match[1]))
        return reply(a.status, a.body)
      }
      const cartId = decodeURIComponent(match[1])
      const session = await pair.client.checkout.createSession({ orderId: `payses-${cartId.replace(/[^A-Za-z0-9]/g, "-")}`, amountMinor: 12500, currency: "DKK" })
      const issued = await pair.client.tokens.customerToken(session.sessionId)
      // The route names the registration and its terminals when the browser asked for one.
      const providerId = (JSON.parse(body || "{}") as { provider_id?: string }).provider_id
      const registration = providerId ? { provider_id: providerId } : {}
      const terminal = providerId ? REGISTRATIONS[providerId] : {}
      reply(200, {
        payment_session_id: `payses_${cartId}`,
        ...registration,
        altapay: { session_id: session.sessionId, token: issued.token, expires_at: issued.expiresAt.toISOString(), checkout_url: `${pair.sandbox.checkoutUrl}/`, ...terminal },
      })
    })
  })
  return {
    calls,
    answerWith(next?: (cartId: string) => { status: number; body: unknown }) {
      answer = next
    },
    async start(): Promise<string> {
      await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", () => resolve()))
      return `http://127.0.0.1:${(server.address() as AddressInfo).port}`
    },
    close: () => new Promise<void>((resolve) => (server as Server).close(() => resolve())),
  }
}

describe("storefront helper", () => {
  let pair: SandboxPair
  let medusa: ReturnType<typeof fakeMedusa>
  let medusaUrl: string

  beforeAll(async () => {
    pair = await startSandboxAndClient({}, { invoiceTerminal: true })
    medusa = fakeMedusa(pair)
    medusaUrl = await medusa.start()
  })
  afterAll(async () => {
    await medusa.close()
    await pair.close()
  })
  beforeEach(() => {
    medusa.answerWith(undefined)
    medusa.calls.length = 0
  })

  const start = (cartId = "cart_1") => startAltaPayCheckout({ medusaUrl, publishableKey: PUBLISHABLE_KEY, cartId })

  it("starts a checkout, lists the methods and creates a payment with the CUSTOMER token only", async () => {
    const session = await start()
    expect(session).toEqual({
      sessionId: expect.any(String),
      token: expect.stringMatching(/^eyJ/),
      expiresAt: expect.any(String),
      checkoutUrl: pair.sandbox.checkoutUrl, // trailing slash removed
      paymentSessionId: "payses_cart_1",
    })
    expect(medusa.calls[0]).toMatchObject({ path: "/store/carts/cart_1/altapay-session", body: "{}" })

    // A session that names no terminal: every method AltaPay lists.
    const methods = await listPaymentMethods(session)
    expect(methods.map((m) => m.type)).toEqual(["CARD", "WALLET", "INVOICE"])
    const payment = await createPayment(session, methods[0].id)
    expect(payment).toEqual({ paymentId: expect.any(String), redirectUrl: `${pair.sandbox.hostedPageUrl}/${payment.paymentId}`, status: "CREATED" })

    const used = pair.sandbox.ledger().filter((e) => e.operation === "session.paymentMethods" || e.operation === "payment.create")
    expect(used.map((e) => e.auth)).toEqual(["bearer:CUSTOMER", "bearer:CUSTOMER"])
  })

  it("asks for the registration named by providerId, and hands back its terminal, whose methods alone it lists", async () => {
    const viaFetch = await startAltaPayCheckout({ medusaUrl, publishableKey: PUBLISHABLE_KEY, cartId: "cart_1", providerId: "pp_altapay_mobilepay" })
    const sdk = new Medusa({ baseUrl: medusaUrl, publishableKey: PUBLISHABLE_KEY, auth: { type: "jwt", jwtTokenStorageMethod: "memory" } })
    const viaSdk = await startAltaPayCheckout({ sdk, cartId: "cart_2", providerId: "pp_altapay_mobilepay" })
    expect(medusa.calls.map((c) => JSON.parse(c.body))).toEqual([{ provider_id: "pp_altapay_mobilepay" }, { provider_id: "pp_altapay_mobilepay" }])
    for (const session of [viaFetch, viaSdk]) {
      expect(session).toMatchObject({ providerId: "pp_altapay_mobilepay", terminal: "MobilePay Sandbox Terminal" })
      const methods = await listPaymentMethods(session)
      expect(methods).toEqual([expect.objectContaining({ id: MOBILEPAY.id, type: "WALLET", metadata: { terminalName: session.terminal } })])
    }
  })

  describe("only the registration's terminals (issue 33: a method of another terminal pays for no order)", () => {
    const startFor = (providerId: string, cartId = "cart_t") => startAltaPayCheckout({ medusaUrl, publishableKey: PUBLISHABLE_KEY, cartId, providerId })
    const ledgerOf = (operation: string) => pair.sandbox.ledger().filter((e) => e.operation === operation)

    it("lists only the methods of the session's terminal, though AltaPay lists every method of the API user", async () => {
      const session = await startFor("pp_altapay_card")
      expect(session).toMatchObject({ terminal: CARD.terminalName, acceptedTerminals: [CARD.terminalName] })
      expect((await listPaymentMethods(session)).map((m) => m.id)).toEqual([CARD.id])
      const all = await listPaymentMethods(session, { allTerminals: true })
      expect(all.map((m) => m.metadata?.terminalName)).toEqual([CARD.terminalName, MOBILEPAY.terminalName, KLARNA.terminalName])
    })

    it("lists the terminals the registration accepts besides its own, and no other", async () => {
      const session = await startFor("pp_altapay_cardwallet")
      expect((await listPaymentMethods(session)).map((m) => m.type)).toEqual(["CARD", "WALLET"])
    })

    it("createPayment refuses a method of another terminal before creating anything, naming the session's terminal", async () => {
      const session = await startFor("pp_altapay_card")
      await listPaymentMethods(session)
      const before = ledgerOf("payment.create").length
      const refused = await createPayment(session, MOBILEPAY.id).catch((e: unknown) => e)
      expect(refused).toBeInstanceOf(AltaPayRequestError)
      expect(refused).toMatchObject({
        status: undefined,
        message: `createPayment: payment method ${MOBILEPAY.id} is on terminal "MobilePay Sandbox Terminal", but this session is for terminal "AltaPay Sandbox Test Terminal" (pp_altapay_card): a payment there would not pay for this cart. Offer the methods listPaymentMethods(session) returns.`,
      })
      expect(ledgerOf("payment.create")).toHaveLength(before)

      // The token is not spent: the registration's own method still pays, on its terminal.
      const payment = await createPayment(session, CARD.id)
      expect(pair.sandbox.payment(payment.paymentId)).toMatchObject({ terminal: CARD.terminalName })
    })

    it("createPayment reads the methods itself for a session it has not listed (a copy, or a fresh token)", async () => {
      const session = { ...(await startFor("pp_altapay_cardwallet")) }
      const listings = ledgerOf("session.paymentMethods").length
      await expect(createPayment(session, KLARNA.id)).rejects.toThrow(
        /is on terminal "Klarna DKK Sandbox Terminal", but this session is for terminals "AltaPay Sandbox Test Terminal", "MobilePay Sandbox Terminal" \(pp_altapay_cardwallet\)/
      )
      expect(ledgerOf("session.paymentMethods")).toHaveLength(listings + 1)
      const payment = await createPayment(session, MOBILEPAY.id)
      expect(pair.sandbox.payment(payment.paymentId)).toMatchObject({ terminal: MOBILEPAY.terminalName })
      // Read once for this session object, not again for the payment.
      expect(ledgerOf("session.paymentMethods")).toHaveLength(listings + 1)
    })

    it("pays on another terminal only when told to with allTerminals, and leaves a method AltaPay does not list to AltaPay", async () => {
      const session = await startFor("pp_altapay_card")
      const unknown = await createPayment(session, "no-such-method").catch((e: unknown) => e)
      expect(unknown).toMatchObject({ name: "AltaPayRequestError", status: 400, message: expect.stringMatching(/unknown payment method no-such-method/) })
      const payment = await createPayment(session, MOBILEPAY.id, { allTerminals: true })
      expect(pair.sandbox.payment(payment.paymentId)).toMatchObject({ terminal: MOBILEPAY.terminalName })
    })

    it("says which terminal is missing when AltaPay lists no method on it", async () => {
      const session = await startFor("pp_altapay_typo")
      const error = await listPaymentMethods(session).catch((e: unknown) => e)
      expect(error).toBeInstanceOf(AltaPayRequestError)
      expect((error as Error).message).toBe(
        'AltaPay offers no payment method on terminal "Shop DKK Terminal" (pp_altapay_typo) for this session (its methods are on: AltaPay Sandbox Test Terminal, MobilePay Sandbox Terminal, Klarna DKK Sandbox Terminal). Check the registration\'s terminal option.'
      )
    })
  })

  it("works through @medusajs/js-sdk, which sends the publishable key and the customer's token", async () => {
    const sdk = new Medusa({ baseUrl: medusaUrl, publishableKey: PUBLISHABLE_KEY, auth: { type: "jwt", jwtTokenStorageMethod: "memory" } })
    await sdk.client.setToken("customer-jwt")
    const session = await startAltaPayCheckout({ sdk, cartId: "cart/2" })
    expect(session.paymentSessionId).toBe("payses_cart/2")
    expect(medusa.calls[0].path).toBe("/store/carts/cart%2F2/altapay-session")
    expect(medusa.calls[0].headers).toMatchObject({ "x-publishable-api-key": PUBLISHABLE_KEY, authorization: "Bearer customer-jwt" })

    medusa.answerWith(() => ({ status: 403, body: { type: "forbidden", message: "Cart cart_2 belongs to another customer." } }))
    await expect(startAltaPayCheckout({ sdk, cartId: "cart_2" })).rejects.toMatchObject({
      name: "AltaPaySessionRequestError",
      status: 403,
      message: "Cart cart_2 belongs to another customer.",
    })
    medusa.answerWith(() => ({ status: 502, body: { type: "altapay_unreachable", message: "AltaPay could not create the payment session: down" } }))
    await expect(startAltaPayCheckout({ sdk, cartId: "cart_2" })).rejects.toBeInstanceOf(AltaPayUnavailableError)
  })

  it("passes Medusa's refusals on with their type, status and message", async () => {
    medusa.answerWith(() => ({ status: 404, body: { type: "not_found", message: "Cart cart_x was not found." } }))
    const error = await start("cart_x").catch((e: unknown) => e)
    expect(error).toBeInstanceOf(AltaPaySessionRequestError)
    expect(error).toBeInstanceOf(AltaPayCheckoutError)
    expect(error).toMatchObject({ status: 404, type: "not_found", message: "Cart cart_x was not found." })

    medusa.answerWith(() => ({ status: 502, body: { type: "altapay_unreachable", message: "AltaPay could not issue a customer token: timeout" } }))
    await expect(start()).rejects.toMatchObject({ name: "AltaPayUnavailableError", status: 502, type: "altapay_unreachable" })

    medusa.answerWith(() => ({ status: 200, body: { payment_collection: {} } }))
    await expect(start()).rejects.toThrow(/plugin loaded/)

    await expect(startAltaPayCheckout({ medusaUrl, publishableKey: "pk_wrong", cartId: "cart_1" })).rejects.toMatchObject({
      status: 400,
      message: expect.stringMatching(/Publishable API key/),
    })
  })

  it("says what is missing before calling anything", async () => {
    await expect(startAltaPayCheckout({ cartId: "cart_1" })).rejects.toThrow(/pass `sdk`/)
    await expect(startAltaPayCheckout({ medusaUrl, cartId: "cart_1" })).rejects.toThrow(/publishableKey/)
    await expect(startAltaPayCheckout({ medusaUrl, publishableKey: PUBLISHABLE_KEY, cartId: "" })).rejects.toThrow(/cartId/)
    expect(medusa.calls).toHaveLength(0)
  })

  it("reports an unreachable Medusa or AltaPay as such", async () => {
    await expect(startAltaPayCheckout({ medusaUrl: "http://127.0.0.1:1", publishableKey: PUBLISHABLE_KEY, cartId: "cart_1" })).rejects.toThrow(/Could not reach Medusa/)
    const session = await start()
    await expect(listPaymentMethods({ ...session, checkoutUrl: "http://127.0.0.1:1" })).rejects.toBeInstanceOf(AltaPayUnavailableError)
    pair.sandbox.faults.add({ route: "payment-methods", kind: "500" })
    await expect(listPaymentMethods(session)).rejects.toMatchObject({ name: "AltaPayUnavailableError", status: 500 })
  })

  it("refuses an expired token without calling AltaPay, and maps AltaPay's token refusals", async () => {
    const session = await start()
    const before = pair.sandbox.ledger().length
    const expired: AltaPaySession = { ...session, expiresAt: new Date(Date.now() - 1).toISOString() }
    await expect(listPaymentMethods(expired)).rejects.toThrow(/expired: call startAltaPayCheckout\(\) again/)
    expect(pair.sandbox.ledger()).toHaveLength(before)

    const other = await start("cart_other")
    await expect(listPaymentMethods({ ...other, token: session.token })).rejects.toMatchObject({ name: "AltaPayTokenError", status: 403 })
    await expect(listPaymentMethods({ ...session, token: "not-a-token" })).rejects.toBeInstanceOf(AltaPayTokenError)
  })

  it("tells the shop to complete the cart when the session is already paid", async () => {
    const session = await start()
    const [card] = await listPaymentMethods(session)
    await pair.sandbox.simulatePayment(session.sessionId, { callback: false }) // paid in another tab
    const error = await createPayment(session, card.id).catch((e: unknown) => e)
    expect(error).toBeInstanceOf(AltaPayRequestError)
    expect(error).toMatchObject({ status: 409, message: expect.stringMatching(/already paid.*Complete the cart/) })
    await expect(createPayment(session, "")).rejects.toThrow(/paymentMethodId is required/)
  })
})

describe("storefront helper is browser-safe", () => {
  const src = path.resolve(__dirname, "../../src")
  // Its own files, and the languages it shares with the server (src/lib/languages: no imports beyond its own).
  const files = [
    ...fs.readdirSync(path.join(src, "storefront")).map((f) => `storefront/${f}`),
    ...fs.readdirSync(path.join(src, "lib/languages")).map((f) => `lib/languages/${f}`),
  ].filter((f) => f.endsWith(".ts"))
  const allowed = (file: string) => (file.startsWith("storefront/") ? /^(\.\/[\w-]+|\.\.\/lib\/languages\/[\w-]+)$/ : /^\.\/[\w-]+$/)

  it.each(files)("%s imports only its own files (and the shared languages) and uses no Node globals", (file) => {
    const source = fs.readFileSync(path.join(src, file), "utf8")
    const imports = [...source.matchAll(/(?:import|export)[^"']*?from\s+["']([^"']+)["']|require\(["']([^"']+)["']\)|import\(["']([^"']+)["']\)/g)].map((m) => m[1] ?? m[2] ?? m[3])
    for (const specifier of imports) expect(specifier).toMatch(allowed(file))
    expect(source).not.toMatch(/\b(Buffer|process|__dirname|require)\b/)
  })
})
