import type { Sandbox } from "../../src/sandbox"
import { basicHeader, call, issueToken, sessionBody, start } from "./helpers"

describe("sandbox CORS for the checkout API", () => {
  let sandbox: Sandbox

  beforeAll(async () => {
    sandbox = await start()
  })
  afterAll(() => sandbox.close())

  const preflight = (path: string, method = "POST"): Promise<Response> =>
    fetch(`${sandbox.url}${path}`, {
      method: "OPTIONS",
      headers: { origin: "https://shop.example", "access-control-request-method": method, "access-control-request-headers": "authorization, content-type" },
    })

  test("a preflight on /checkout/v1/api/* answers 204 with the allowed methods and headers", async () => {
    for (const [path, method] of [
      ["/checkout/v1/api/session", "POST"],
      ["/checkout/v1/api/session/abc", "PUT"],
      ["/checkout/v1/api/payment/abc", "GET"],
    ]) {
      const answer = await preflight(path, method)
      expect(answer.status).toBe(204)
      expect(answer.headers.get("access-control-allow-origin")).toBe("*")
      expect(answer.headers.get("access-control-allow-methods")).toBe("GET, POST, PUT, OPTIONS")
      expect(answer.headers.get("access-control-allow-headers")).toBe("authorization, content-type")
      expect(Number(answer.headers.get("access-control-max-age"))).toBeGreaterThan(0)
      expect(await answer.text()).toBe("")
    }
    const entry = sandbox.ledger().at(-1)
    expect(entry).toMatchObject({ api: "checkout", method: "OPTIONS", operation: "cors.preflight", status: 204 })
  })

  test("checkout JSON answers carry Access-Control-Allow-Origin, errors and faults included", async () => {
    const token = await issueToken(sandbox, { role: "MERCHANT" })
    const created = await call(sandbox, "POST", "/session", { token, body: sessionBody() })
    expect(created.status).toBe(200)
    expect(created.headers.get("access-control-allow-origin")).toBe("*")
    const unauthorized = await call(sandbox, "POST", "/authenticate", { basic: basicHeader("shop-api@example.com", "wrong") })
    expect(unauthorized.status).toBe(401)
    expect(unauthorized.headers.get("access-control-allow-origin")).toBe("*")
    const invalid = await call(sandbox, "POST", "/session", { token, body: { order: {} } })
    expect(invalid.status).toBe(400)
    expect(invalid.headers.get("access-control-allow-origin")).toBe("*")
    const missing = await call(sandbox, "GET", "/nowhere", { token })
    expect(missing.status).toBe(404)
    expect(missing.headers.get("access-control-allow-origin")).toBe("*")
    sandbox.faults.add({ route: "/checkout/v1/api/session", kind: "503" })
    const fault = await call(sandbox, "POST", "/session", { token, body: sessionBody() })
    expect(fault.status).toBe(503)
    expect(fault.headers.get("access-control-allow-origin")).toBe("*")
  })

  test("a preflight does not use up a fault meant for the call after it", async () => {
    const token = await issueToken(sandbox, { role: "MERCHANT" })
    sandbox.faults.add({ route: "/checkout/v1/api/session", kind: "500" })
    expect((await preflight("/checkout/v1/api/session")).status).toBe(204)
    expect((await call(sandbox, "POST", "/session", { token, body: sessionBody() })).status).toBe(500)
  })

  test("the gateway API (server-only, Basic auth) gets no CORS", async () => {
    const answer = await preflight("/merchant/API/payments")
    expect(answer.status).toBe(405)
    expect(answer.headers.get("access-control-allow-origin")).toBeNull()
    const payments = await fetch(`${sandbox.url}/merchant/API/payments?transaction_id=1`, { headers: { authorization: basicHeader() } })
    expect(payments.status).toBe(200)
    expect(payments.headers.get("access-control-allow-origin")).toBeNull()
    const page = await fetch(`${sandbox.url}/sandbox/pay/nope`)
    expect(page.headers.get("access-control-allow-origin")).toBeNull()
  })
})
