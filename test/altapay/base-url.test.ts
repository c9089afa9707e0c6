import { createServer, request, type Server } from "node:http"
import type { AddressInfo } from "node:net"
import { SANDBOX_PASSWORD, SANDBOX_USER, startSandboxAndClient, type SandboxPair } from "../helpers/sandbox"

/**
 * AltaPay URLs may carry a path prefix (`https://host/prefix/`). A recording proxy serves the
 * sandbox under `/prefix`: authenticate, checkout and gateway calls must all go through it.
 */
describe("base URLs with a path prefix", () => {
  let pair: SandboxPair
  let proxy: Server
  let proxyUrl: string
  const paths: string[] = []
  const authorizations: string[] = []

  beforeAll(async () => {
    pair = await startSandboxAndClient()
    const target = new URL(pair.sandbox.checkoutUrl)
    proxy = createServer((req, res) => {
      paths.push(req.url ?? "")
      authorizations.push(req.headers.authorization ?? "")
      if (!req.url?.startsWith("/prefix/")) {
        res.writeHead(404).end("not under /prefix")
        return
      }
      const upstream = request({ host: target.hostname, port: target.port, method: req.method, path: req.url.slice("/prefix".length), headers: req.headers }, (answer) => {
        res.writeHead(answer.statusCode ?? 502, answer.headers)
        answer.pipe(res)
      })
      req.pipe(upstream)
    })
    await new Promise<void>((r) => proxy.listen(0, "127.0.0.1", r))
    proxyUrl = `http://127.0.0.1:${(proxy.address() as AddressInfo).port}`
  })
  afterAll(async () => {
    await pair.close()
    await new Promise((r) => proxy.close(r))
  })

  it.each(["/prefix", "/prefix/"])("authenticate, checkout and gateway all keep the prefix of %s", async (prefix) => {
    paths.length = 0
    authorizations.length = 0
    const client = pair.clientWith({ checkoutUrl: `${proxyUrl}${prefix}`, gatewayUrl: `${proxyUrl}${prefix}` })
    const session = await client.checkout.createSession({ orderId: `prefixed-${prefix.length}`, amountMinor: 500, currency: "DKK" })
    await client.gateway.payments({ shopOrderId: `prefixed-${prefix.length}` })
    expect(session.sessionId).toBeTruthy()
    expect(paths).toEqual(["/prefix/checkout/v1/api/authenticate", "/prefix/checkout/v1/api/session", `/prefix/merchant/API/payments?shop_orderid=prefixed-${prefix.length}`])
    // authenticate and the gateway send the same Basic header; checkout sends the token.
    const basic = `Basic ${Buffer.from(`${SANDBOX_USER}:${SANDBOX_PASSWORD}`).toString("base64")}`
    expect(authorizations[0]).toBe(basic)
    expect(authorizations[1]).toMatch(/^Bearer /)
    expect(authorizations[2]).toBe(basic)
  })
})
