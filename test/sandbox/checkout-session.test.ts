import type { Sandbox } from "../../src/sandbox"
import { PAYMENT_METHODS } from "../../src/sandbox"
import { call, createSession, issueToken, sessionBody, start } from "./helpers"

const line = (itemId: string, unitPrice: number, quantity: number, taxAmount: number, extra: Record<string, unknown> = {}) => ({
  description: `Item ${itemId}`,
  itemId,
  quantity,
  unitPrice,
  taxAmount,
  ...extra,
})

describe("sandbox checkout sessions, payments and links", () => {
  let sandbox: Sandbox
  let merchant: string
  let clock = Date.UTC(2025, 5, 1)

  beforeAll(async () => {
    sandbox = await start({ now: () => clock })
    merchant = await issueToken(sandbox, { role: "MERCHANT" })
  })
  afterAll(() => sandbox.close())

  test("a created session is returned whole, with unknown fields kept", async () => {
    const body = { ...sessionBody({ amount: 125.5, orderId: "cart-1" }), extra: { kept: true } }
    const created = await call(sandbox, "POST", "/session", { token: merchant, body })
    expect(created.status).toBe(200)
    expect(created.body).toMatchObject({ status: "CREATED", extra: { kept: true }, order: { orderId: "cart-1", amount: { value: 125.5, currency: "DKK" } } })
    expect(created.body.sessionId).toMatch(/^[0-9a-f-]{36}$/)
    const read = await call(sandbox, "GET", `/session/${created.body.sessionId}`, { token: merchant })
    expect(read.body).toEqual(created.body)
    expect((await call(sandbox, "GET", "/session/8d1c2f4e-0000-4000-8000-000000000000", { token: merchant })).status).toBe(404)
  })

  test("invalid sessions are refused with field errors", async () => {
    const missing = await call(sandbox, "POST", "/session", { token: merchant, body: { order: { amount: { value: -1, currency: "DKK" } } } })
    expect(missing.status).toBe(400)
    expect(missing.body.error).toBe("validation")
    expect(missing.body.errors.map((e: { path: string }) => e.path)).toEqual(expect.arrayContaining(["order.orderId", "order.amount.value"]))
    const currency = await call(sandbox, "POST", "/session", { token: merchant, body: sessionBody({ currency: "XYZ" }) })
    expect(currency.status).toBe(400)
    const decimals = await call(sandbox, "POST", "/session", { token: merchant, body: sessionBody({ amount: 10.005 }) })
    expect(decimals.status).toBe(400)
  })

  test("callbacks take the shapes AltaPay's clients send, and the other shape is refused by name", async () => {
    // AltaPay/android-payment-app CreateSessionRequest.kt: success and failure are { type, value },
    // notification, redirect and formStyling plain URL strings.
    const documented = {
      success: { type: "URL", value: "https://shop.test/ok" },
      failure: { type: "URL", value: "https://shop.test/fail" },
      notification: "https://shop.test/notify",
      redirect: "https://shop.test/redirect",
      formStyling: "https://shop.test/form",
    }
    const created = await call(sandbox, "POST", "/session", { token: merchant, body: { ...sessionBody(), callbacks: documented } })
    expect(created.status).toBe(200)
    expect(created.body.callbacks).toEqual(documented)

    for (const [name, wrong] of [
      ["notification", { type: "URL", value: "https://shop.test/notify" }],
      ["redirect", { type: "URL", value: "https://shop.test/redirect" }],
      ["success", "https://shop.test/ok"],
      ["failure", "https://shop.test/fail"],
    ] as const) {
      const refused = await call(sandbox, "POST", "/session", { token: merchant, body: { ...sessionBody(), callbacks: { [name]: wrong } } })
      expect(refused.status).toBe(400)
      expect(refused.body.errors).toEqual([
        { path: `callbacks.${name}`, message: expect.stringContaining(typeof wrong === "string" ? "must be an object { type" : "must be a plain URL string") },
      ])
    }
  })

  test("order lines must respect the field limits and total the amount exactly", async () => {
    // 2 x 40.00 + 20.00 tax = 100.00; 10.00 with 25 % tax, 50 % discount = 6.25; total 106.25
    const lines = [line("a", 40, 2, 20), line("b", 10, 1, 2.5, { discount: 50 })]
    const ok = await call(sandbox, "POST", "/session", { token: merchant, body: sessionBody({ amount: 106.25, orderLines: lines }) })
    expect(ok.status).toBe(200)
    const off = await call(sandbox, "POST", "/session", { token: merchant, body: sessionBody({ amount: 106.26, orderLines: lines }) })
    expect(off.status).toBe(400)
    expect(off.body.errors[0].path).toBe("order.orderLines")
    const duplicate = await call(sandbox, "POST", "/session", { token: merchant, body: sessionBody({ amount: 200, orderLines: [line("a", 40, 2, 20), line("a", 40, 2, 20)] }) })
    expect(duplicate.body.errors.map((e: { path: string }) => e.path)).toContain("order.orderLines.1.itemId")
    const broken = await call(sandbox, "POST", "/session", {
      token: merchant,
      body: sessionBody({ amount: 10, orderLines: [{ description: "x".repeat(256), itemId: "i", quantity: 0, unitPrice: 10 }] }),
    })
    expect(broken.body.errors.map((e: { path: string }) => e.path)).toEqual(
      expect.arrayContaining(["order.orderLines.0.description", "order.orderLines.0.quantity", "order.orderLines.0.taxAmount"])
    )
    const handling = await call(sandbox, "POST", "/session", {
      token: merchant,
      body: sessionBody({ amount: 95, orderLines: [line("a", 100, 1, 0), line("h", -5, 1, 0, { goodsType: "handling" })] }),
    })
    expect(handling.status).toBe(200)
    const discount = await call(sandbox, "POST", "/session", {
      token: merchant,
      body: sessionBody({ amount: 95, orderLines: [line("a", 100, 1, 0), line("d", -5, 1, 0, { goodsType: "discount" })] }),
    })
    expect(discount.status).toBe(400)
    expect(discount.body.errors.map((e: { path: string }) => e.path)).toEqual(["order.orderLines.1.unitPrice"])
  })

  test("updates merge into the session and expire its unpaid payments", async () => {
    const sessionId = await createSession(sandbox, sessionBody({ amount: 100 }))
    const customer = await issueToken(sandbox, { sessionId })
    const payment = await call(sandbox, "POST", "/payment", { token: customer, body: { sessionId, paymentMethodId: PAYMENT_METHODS[0].id } })
    const updated = await call(sandbox, "PUT", `/session/${sessionId}`, { token: merchant, body: { order: { amount: { value: 120, currency: "DKK" } } } })
    expect(updated.status).toBe(200)
    expect(updated.body.order.amount.value).toBe(120)
    expect(updated.body.order.customer.firstName).toBe("Ada")
    const stale = await call(sandbox, "GET", `/payment/${payment.body.paymentId}`, { token: merchant })
    expect(stale.body.status).toBe("EXPIRED")
    const page = await fetch(payment.body.url)
    expect(page.status).toBe(410)
    const paid = await sandbox.simulatePayment(sessionId, { callback: false })
    expect(sandbox.transaction(paid.transactionId!)?.reservedMinor).toBe(12000)
    const late = await call(sandbox, "PUT", `/session/${sessionId}`, { token: merchant, body: { order: { amount: { value: 1, currency: "DKK" } } } })
    expect(late.status).toBe(409)
  })

  test("payment methods list a card terminal and a wallet", async () => {
    const sessionId = await createSession(sandbox)
    const answer = await call(sandbox, "GET", `/session/${sessionId}/payment-methods`, { token: merchant })
    expect(answer.status).toBe(200)
    expect(answer.body.methods.length).toBeGreaterThanOrEqual(2)
    expect(answer.body.methods[0]).toMatchObject({
      type: "CARD",
      name: "AltaPay Sandbox Test Terminal",
      onInitiatePayment: { type: "REDIRECT", value: null },
      metadata: { terminalName: "AltaPay Sandbox Test Terminal" },
    })
    expect(answer.body.methods.map((m: { type: string }) => m.type)).toContain("WALLET")
    const logo = await fetch(answer.body.methods[0].logoUrl)
    expect(logo.status).toBe(200)
    expect(logo.headers.get("content-type")).toBe("image/svg+xml")
  })

  test("payment creation validates its input and returns the hosted page URL", async () => {
    const sessionId = await createSession(sandbox, sessionBody({ orderId: "order-77", amount: 49.95 }))
    const customer = await issueToken(sandbox, { sessionId })
    const badMethod = await call(sandbox, "POST", "/payment", { token: customer, body: { sessionId, paymentMethodId: "nope" } })
    expect(badMethod.status).toBe(400)
    const created = await call(sandbox, "POST", "/payment", { token: customer, body: { sessionId, paymentMethodId: PAYMENT_METHODS[0].id } })
    expect(created.body).toMatchObject({ shopOrderId: "order-77", status: "CREATED", type: "REDIRECT", url: `${sandbox.url}/sandbox/pay/${created.body.paymentId}` })
    const read = await call(sandbox, "GET", `/payment/${created.body.paymentId}`, { token: merchant })
    expect(read.body).toMatchObject({ paymentId: created.body.paymentId, sessionId, status: "CREATED", amount: { value: 49.95, currency: "DKK" } })
    const unbound = await issueToken(sandbox)
    const noSession = await call(sandbox, "POST", "/payment", {
      token: unbound,
      body: { sessionId: "8d1c2f4e-0000-4000-8000-000000000000", paymentMethodId: PAYMENT_METHODS[0].id },
    })
    expect(noSession.status).toBe(404)
  })

  test("a payment link opens a card payment page until it expires (validityTime in minutes)", async () => {
    const sessionId = await createSession(sandbox)
    const link = await call(sandbox, "POST", `/session/${sessionId}/link`, { token: merchant, body: { validityTime: 2 } })
    expect(link.status).toBe(200)
    expect(Object.keys(link.body).sort()).toEqual(["id", "paymentLink", "qrCode"])
    expect(link.body.paymentLink).toBe(`${sandbox.url}/sandbox/link/${link.body.id}`)
    expect(link.body.qrCode).toMatch(/^data:image\/svg\+xml;base64,/)
    const open = await fetch(link.body.paymentLink, { redirect: "manual" })
    expect(open.status).toBe(302)
    expect(open.headers.get("location")).toMatch(new RegExp(`^${sandbox.url}/sandbox/pay/`))
    clock += 119 * 1000
    expect((await fetch(link.body.paymentLink, { redirect: "manual" })).status).toBe(302)
    clock += 2 * 1000
    expect((await fetch(link.body.paymentLink, { redirect: "manual" })).status).toBe(410)
  })
})
