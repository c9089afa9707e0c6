/**
 * The sandbox's wallet and app terminals (issue 42, option `walletTerminals`), as AltaPay documents
 * them: Apple Pay and Google Pay are cards in a wallet; Vipps and Swish switch to the customer's app
 * on AltaPay's page, where the payment is approved now or later (an open payment whose notification
 * follows); Swish is captured when paid (AltaPay's releaseReservation page).
 */
import type { Sandbox } from "../../src/sandbox"
import { PAYMENT_METHODS, WALLET_METHODS } from "../../src/sandbox"
import { call, createSession, issueToken, sessionBody, start } from "./helpers"

const method = (name: string) => WALLET_METHODS.find((m) => m.name.startsWith(name))!

describe("wallet terminals", () => {
  let sandbox: Sandbox
  let merchant: string
  beforeAll(async () => {
    sandbox = await start({ walletTerminals: true })
    merchant = await issueToken(sandbox, { role: "MERCHANT" })
  })
  afterAll(() => sandbox.close())

  /** A payment the customer started on `name`'s terminal: its hosted page URL. */
  async function started(name: string, currency: string) {
    const sessionId = await createSession(sandbox, sessionBody({ amount: 100, currency, notification: "http://127.0.0.1:9/unused" }))
    const customer = await issueToken(sandbox, { sessionId })
    const payment = await call(sandbox, "POST", "/payment", { token: customer, body: { sessionId, paymentMethodId: method(name).id } })
    expect(payment.status).toBe(200)
    return { sessionId, paymentId: payment.body.paymentId as string, url: payment.body.url as string }
  }

  const choose = (url: string, outcome: string) =>
    fetch(url, { method: "POST", headers: { "content-type": "application/x-www-form-urlencoded" }, body: `outcome=${outcome}`, redirect: "manual" })

  it("a session lists Apple Pay, Google Pay, Vipps and Swish beside the card, each with a logo of its own that resolves", async () => {
    const sessionId = await createSession(sandbox)
    const { body } = await call(sandbox, "GET", `/session/${sessionId}/payment-methods`, { token: merchant })
    const names = body.methods.map((m: { name: string }) => m.name)
    expect(names).toEqual(expect.arrayContaining(["AltaPay Sandbox Test Terminal", "Apple Pay Sandbox", "Google Pay Sandbox", "Vipps Sandbox", "Swish Sandbox"]))
    const logos = body.methods.filter((m: { name: string }) => m.name !== PAYMENT_METHODS[0].name).map((m: { logoUrl: string }) => m.logoUrl)
    expect(new Set(logos).size).toBe(logos.length)
    for (const logo of logos) expect((await fetch(logo)).headers.get("content-type")).toBe("image/svg+xml")
  })

  it("Vipps: AltaPay's page switches to the app; approved later, the payment stays open, then its notification says reserved", async () => {
    const { paymentId, url } = await started("Vipps", "NOK")
    const page = await (await fetch(url)).text()
    expect(page).toContain('id="app-switch" data-app="Vipps"')
    expect(page).not.toContain("card_number")
    const later = await choose(url, "open")
    expect(later.status).toBe(200)
    const open = sandbox.payment(paymentId) as { status: string; transactionId: string }
    expect(open.status).toBe("PENDING")
    expect(sandbox.transaction(open.transactionId)).toMatchObject({ reservedMinor: 0 })

    sandbox.concludeOpenPayment(open.transactionId, "authorize")
    const notification = new URLSearchParams(sandbox.callbackFor(paymentId).rawBody)
    expect(notification.get("status")).toBe("succeeded")
    expect(sandbox.transaction(open.transactionId)).toMatchObject({ reservedMinor: 10_000, capturedMinor: 0 })
  })

  it("Swish: approved in the app, AltaPay has captured it already", async () => {
    const { paymentId, url } = await started("Swish", "SEK")
    await choose(url, "authorize")
    const paid = sandbox.payment(paymentId) as { status: string; transactionId: string }
    expect(paid.status).toBe("CAPTURED")
    expect(sandbox.transaction(paid.transactionId)).toMatchObject({ reservedMinor: 10_000, capturedMinor: 10_000 })
  })

  it("Swish approved later is captured when the app concludes it, and the ledger (the tests' witness) shows that capture", async () => {
    const { paymentId, url } = await started("Swish", "SEK")
    await choose(url, "open")
    const open = sandbox.payment(paymentId) as { transactionId: string }
    sandbox.concludeOpenPayment(open.transactionId, "authorize")
    expect(sandbox.transaction(open.transactionId)).toMatchObject({ capturedMinor: 10_000 })
    const effects = sandbox.ledger().flatMap((entry) => (entry.effects ?? []).filter((e) => e.transactionId === open.transactionId))
    expect(effects.filter((e) => e.type === "capture").map((e) => e.amountMinor)).toEqual([10_000])
  })

  it("Apple Pay pays as a card in a wallet: no app switch, reserved, nature CreditCardWallet", async () => {
    const { paymentId, url } = await started("Apple Pay", "DKK")
    expect(await (await fetch(url)).text()).not.toContain("app-switch")
    await choose(url, "authorize")
    const paid = sandbox.payment(paymentId) as { status: string; transactionId: string }
    expect(paid.status).toBe("AUTHORIZED")
    expect(sandbox.transaction(paid.transactionId)).toMatchObject({ nature: "CreditCardWallet", reservedMinor: 10_000, capturedMinor: 0 })
  })

  it("a card payment cannot be left open on the page: only an app payment waits for the customer", async () => {
    const sessionId = await createSession(sandbox, sessionBody({ amount: 100 }))
    const customer = await issueToken(sandbox, { sessionId })
    const payment = await call(sandbox, "POST", "/payment", { token: customer, body: { sessionId, paymentMethodId: PAYMENT_METHODS[0].id } })
    expect((await choose(payment.body.url, "open")).status).toBe(400)
  })
})

it("without walletTerminals the sandbox offers none of them", async () => {
  const sandbox = await start()
  try {
    const merchant = await issueToken(sandbox, { role: "MERCHANT" })
    const sessionId = await createSession(sandbox)
    const { body } = await call(sandbox, "GET", `/session/${sessionId}/payment-methods`, { token: merchant })
    expect(body.methods.map((m: { name: string }) => m.name)).not.toContain("Vipps Sandbox")
  } finally {
    await sandbox.close()
  }
})
