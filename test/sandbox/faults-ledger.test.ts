import type { Sandbox } from "../../src/sandbox"
import { PAYMENT_METHODS } from "../../src/sandbox"
import { PASSWORD, authorizedTransaction, basicHeader, call, createSession, gateway, issueToken, start } from "./helpers"

async function captured(sandbox: Sandbox, amount = 100): Promise<string> {
  const transactionId = await authorizedTransaction(sandbox, { amount })
  await gateway(sandbox, "captureReservation", { transaction_id: transactionId })
  return transactionId
}

describe("sandbox faults and ledger", () => {
  let sandbox: Sandbox

  beforeAll(async () => {
    sandbox = await start()
  })
  afterAll(() => sandbox.close())
  afterEach(() => sandbox.faults.clear())

  test("reset drops the connection before the refund is processed", async () => {
    const transactionId = await captured(sandbox)
    sandbox.faults.add({ route: "refundCapturedReservation", kind: "reset" })
    await expect(gateway(sandbox, "refundCapturedReservation", { transaction_id: transactionId, amount: "10.00" })).rejects.toThrow()
    expect(sandbox.transaction(transactionId)?.refundedMinor).toBe(0)
    const entry = sandbox
      .ledger()
      .filter((e) => e.operation === "refundCapturedReservation")
      .pop()
    expect(entry).toMatchObject({ fault: "reset", status: 0 })
    expect(entry?.effect).toBeUndefined()
    // Used up: the retry goes through.
    const retry = await gateway(sandbox, "refundCapturedReservation", { transaction_id: transactionId, amount: "10.00" })
    expect(retry.body.Result).toBe("Success")
  })

  test("lost-answer moves the money but never answers", async () => {
    const transactionId = await captured(sandbox)
    sandbox.faults.add({ route: /refundCapturedReservation/, kind: "lost-answer" })
    await expect(gateway(sandbox, "refundCapturedReservation", { transaction_id: transactionId, amount: "25.00", reconciliation_identifier: "refund-lost" })).rejects.toThrow()
    expect(sandbox.transaction(transactionId)?.refundedMinor).toBe(2500)
    const lookup = await gateway(sandbox, "payments", { transaction_id: transactionId })
    const [t] = lookup.body.Transactions.Transaction
    expect(t.RefundedAmount).toBe("25.00")
    expect(t.ReconciliationIdentifiers.ReconciliationIdentifier.map((r: { Id: string }) => r.Id)).toContain("refund-lost")
    const effects = sandbox.ledger().filter((e) => e.effect?.type === "refund" && e.effect.transactionId === transactionId)
    expect(effects).toHaveLength(1)
    expect(effects[0]).toMatchObject({ fault: "lost-answer", status: 0, effect: { amountMinor: 2500, result: "Success", reconciliationIdentifier: "refund-lost" } })
  })

  test("truncate processes the capture and cuts the answer in half", async () => {
    const transactionId = await authorizedTransaction(sandbox)
    sandbox.faults.add({ route: "captureReservation", kind: "truncate" })
    const response = await fetch(`${sandbox.gatewayUrl}/merchant/API/captureReservation`, {
      method: "POST",
      headers: { authorization: basicHeader(), "content-type": "application/x-www-form-urlencoded" },
      body: new URLSearchParams({ transaction_id: transactionId }).toString(),
    })
    expect(response.status).toBe(200)
    const body = await response.text()
    expect(body.startsWith("<?xml")).toBe(true)
    expect(body).not.toContain("</APIResponse>")
    expect(sandbox.transaction(transactionId)?.capturedMinor).toBe(10000)
  })

  test("open answers Result Open and moves no money", async () => {
    const transactionId = await captured(sandbox)
    sandbox.faults.add({ route: "refundCapturedReservation", kind: "open" })
    const answer = await gateway(sandbox, "refundCapturedReservation", { transaction_id: transactionId, amount: "5.00" })
    expect(answer.body).toMatchObject({ Result: "Open", RefundResult: "Open", RefundAmount: "5.00" })
    expect(sandbox.transaction(transactionId)).toMatchObject({ refundedMinor: 0, pending: [{ type: "refund", amountMinor: 500 }] })
  })

  test("status faults answer without processing", async () => {
    sandbox.faults.add({ route: /authenticate/, kind: "429", times: 2 })
    const limited = await call(sandbox, "POST", "/authenticate", { basic: basicHeader() })
    expect(limited.status).toBe(429)
    expect(limited.headers.get("retry-after")).toBe("0")
    expect((await call(sandbox, "POST", "/authenticate", { basic: basicHeader() })).status).toBe(429)
    expect((await call(sandbox, "POST", "/authenticate", { basic: basicHeader() })).status).toBe(200)

    sandbox.faults.add({ route: "payments", kind: "html" })
    const html = await gateway(sandbox, "payments", { shop_orderid: "x" })
    expect(html.status).toBe(502)
    expect(html.text).toMatch(/<html>/)

    sandbox.faults.add({ route: "payments", kind: "error-code" })
    expect((await gateway(sandbox, "payments", { shop_orderid: "x" })).header.ErrorCode).toBe("99")

    const sessionId = await createSession(sandbox)
    const merchant = await issueToken(sandbox, { role: "MERCHANT" })
    sandbox.faults.add({ route: "/session/", kind: "malformed-json" })
    const broken = await fetch(`${sandbox.checkoutUrl}/checkout/v1/api/session/${sessionId}`, { headers: { authorization: `Bearer ${merchant}` } })
    expect(broken.status).toBe(200)
    await expect(broken.json()).rejects.toThrow()
    sandbox.faults.add({ route: "/session/", kind: "expire-token" })
    const expired = await call(sandbox, "GET", `/session/${sessionId}`, { token: merchant })
    expect(expired).toMatchObject({ status: 401, body: { error: "token_expired" } })
    expect((await call(sandbox, "GET", `/session/${sessionId}`, { token: merchant })).status).toBe(200)
  })

  test("latency delays the answer, then processes normally", async () => {
    sandbox.faults.add({ route: "authenticate", kind: "latency", ms: 150 })
    const started = Date.now()
    expect((await call(sandbox, "POST", "/authenticate", { basic: basicHeader() })).status).toBe(200)
    expect(Date.now() - started).toBeGreaterThanOrEqual(140)
  })

  test("the ledger counts calls and effects and never stores credentials", async () => {
    sandbox.clearLedger()
    const sessionId = await createSession(sandbox)
    const customer = await issueToken(sandbox, { sessionId })
    await call(sandbox, "POST", "/authenticate", { basic: basicHeader("shop-api@example.com", "wrong-password") })
    const payment = await call(sandbox, "POST", "/payment", { token: customer, body: { sessionId, paymentMethodId: PAYMENT_METHODS[0].id, token: customer, password: PASSWORD } })
    await fetch(payment.body.url, { method: "POST", body: new URLSearchParams({ outcome: "authorize" }), redirect: "manual" })
    const transactionId = sandbox.payment(payment.body.paymentId)!.transactionId as string
    await gateway(sandbox, "captureReservation", { transaction_id: transactionId, password: PASSWORD })
    await gateway(sandbox, "refundCapturedReservation", { transaction_id: transactionId, amount: "1.00" })

    const ledger = sandbox.ledger()
    expect(ledger.filter((e) => e.operation === "authenticate").map((e) => [e.auth, e.status])).toEqual([
      ["basic", 200],
      ["basic", 200],
      ["invalid", 401],
    ])
    expect(ledger.find((e) => e.operation === "payment.create")).toMatchObject({ auth: "bearer:CUSTOMER", api: "checkout", status: 200 })
    expect(ledger.find((e) => e.operation === "hosted.submit")?.effect).toMatchObject({ type: "authorize", transactionId, amountMinor: 10000, currency: "DKK" })
    expect(ledger.filter((e) => e.effect?.type === "refund")).toHaveLength(1)
    expect(ledger.map((e) => e.seq)).toEqual([...ledger.keys()].map((i) => ledger[0].seq + i))

    const text = JSON.stringify(ledger)
    expect(text).not.toContain(PASSWORD)
    expect(text).not.toMatch(/Basic |Bearer /)
    expect(text).not.toContain(customer)
    expect(text).not.toMatch(/eyJ[\w-]+\./)
  })

  test("close() ends keep-alive connections promptly", async () => {
    const other = await start()
    await fetch(`${other.url}/sandbox/pay/none`)
    const started = Date.now()
    await other.close()
    expect(Date.now() - started).toBeLessThan(1000)
  })
})
