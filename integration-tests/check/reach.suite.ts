/**
 * Issue 41, item 6: `altapay-check --reach` against a real Medusa with the plugin's routes. The test
 * post reaches the notification webhook and the return endpoint, is answered by the plugin as a
 * test post (no AltaPay look-up, no payment touched); behind a proxy that hides the caller, or with
 * callbackSources that admit none of AltaPay's addresses, the 403 names the address Medusa saw; a
 * proxy whose Medusa is down (502), nothing listening and a different callback secret are each named.
 * The proxy is a real forwarding HTTP proxy, as nginx in front of Medusa with X-Forwarded-For.
 */
import { storeSuite } from "../../tools/test-store/store-app/runner"
import { mkdtempSync, rmSync, writeFileSync } from "node:fs"
import { createServer, request, type Server } from "node:http"
import type { AddressInfo } from "node:net"
import { tmpdir } from "node:os"
import path from "node:path"
import { runCheck } from "../../src/check/cli"
import { altapayStore } from "../../tools/test-store/store-app/altapay-store"

// The group's store (groups/callback-proxy-store.spec.ts): this machine may post (the check runs
// here) and is listed as the proxy in front of Medusa, so the X-Forwarded-For it adds is the sender.
const store = altapayStore()

let dir: string
const servers: Server[] = []
beforeAll(() => {
  dir = mkdtempSync(path.join(tmpdir(), "altapay-reach-"))
})
afterAll(async () => {
  await Promise.all(servers.map((server) => new Promise((resolve) => server.close(resolve))))
  rmSync(dir, { recursive: true, force: true })
})

/**
 * A reverse proxy in front of `upstream` that tells Medusa it forwarded for `forwardedFor` (as nginx
 * with `proxy_set_header X-Forwarded-For`), and answers 502 as nginx does when the upstream is down.
 */
async function proxy(upstream: string, forwardedFor: string): Promise<string> {
  const target = new URL(upstream)
  const server = createServer((req, res) => {
    const forward = request(
      { host: target.hostname, port: target.port, method: req.method, path: req.url, headers: { ...req.headers, "x-forwarded-for": forwardedFor } },
      (answer) => {
        res.writeHead(answer.statusCode ?? 502, answer.headers)
        answer.pipe(res)
      }
    )
    forward.on("error", () => {
      res.writeHead(502, { server: "nginx", "content-type": "text/html" })
      res.end("<html><head><title>502 Bad Gateway</title></head><body><h1>502 Bad Gateway</h1></body></html>")
    })
    req.pipe(forward)
  })
  servers.push(server)
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve))
  return `http://127.0.0.1:${(server.address() as AddressInfo).port}`
}

async function closedPort(): Promise<string> {
  const server = createServer()
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve))
  const url = `http://127.0.0.1:${(server.address() as AddressInfo).port}`
  await new Promise((resolve) => server.close(resolve))
  return url
}

let files = 0
/** `altapay-check --reach --offline` on the test store's own options, with `overrides`. */
async function reach(overrides: Record<string, unknown> = {}) {
  const file = path.join(dir, `medusa-config-${++files}.js`)
  const options = { ...store.altapay.options, ...overrides }
  const config = {
    plugins: [{ resolve: "medusa-payment-altapay" }],
    modules: [{ resolve: "@medusajs/medusa/payment", options: { providers: [{ resolve: "medusa-payment-altapay/providers/altapay", id: "altapay", options }] } }],
  }
  writeFileSync(file, `module.exports = ${JSON.stringify(config)}\n`)
  const output: string[] = []
  const code = await runCheck(["--config", file, "--offline", "--reach"], { cwd: dir, print: (line) => output.push(line) })
  const of = (status: string) => output.filter((line) => line.startsWith(`${status} `))
  return { code, ok: of("ok"), problems: of("problem"), notes: of("note") }
}

export default storeSuite({
  testSuite: () => {
    it("arrived: the plugin answers the test post on the notification and return URLs, and asks AltaPay nothing", async () => {
      const lookUps = store.sandbox().ledger().length
      const { code, ok, problems } = await reach()
      expect(problems).toEqual([])
      expect(code).toBe(0)
      const medusa = store.medusaUrl()
      expect(ok).toEqual(
        expect.arrayContaining([
          expect.stringMatching(
            new RegExp(`notification URL ${medusa}/hooks/payment/altapay_altapay: the test post arrived; the plugin answered it \\(Medusa saw it from (::ffff:)?127\\.0\\.0\\.1\\)`)
          ),
          expect.stringContaining(`return URL ${medusa}/altapay/return/altapay/success: the test post arrived`),
        ])
      )
      // Neither Medusa's webhook (its provider confirms with AltaPay) nor the return endpoint ran.
      expect(store.sandbox().ledger().length).toBe(lookUps)
    })

    it("blocked by callbackSources: the 403 names the address Medusa saw, and why AltaPay's posts would fail too", async () => {
      const { problems } = await reach({ backendUrl: await proxy(store.medusaUrl(), "203.0.113.9") })
      expect(problems).toHaveLength(2)
      expect(problems[0]).toContain("reached Medusa, which refused it (403, callbackSources) from 203.0.113.9")
      expect(problems[0]).toContain('callbackSources (["127.0.0.1","::1"]) admits none of AltaPay\'s addresses (185.206.120.0/24')
    })

    it("behind a proxy that hands Medusa its own private address: the caller is hidden, AltaPay's posts get 403 too", async () => {
      const { problems } = await reach({ backendUrl: await proxy(store.medusaUrl(), "10.20.30.40") })
      expect(problems[0]).toContain("reached Medusa, which refused it (403, callbackSources) from 10.20.30.40, a proxy's address, not the sender's")
    })

    it("a proxy answering 502 (its Medusa is down), and nothing listening at all", async () => {
      const down = await closedPort()
      const viaProxy = await reach({ backendUrl: await proxy(down, "203.0.113.9") })
      expect(viaProxy.problems[0]).toContain("a proxy answered 502 (server: nginx; content-type: text/html): it got no answer from Medusa behind it")
      const nothing = await reach({ backendUrl: down })
      expect(nothing.problems[0]).toContain(`nothing accepts connections at 127.0.0.1:${new URL(down).port} (connection refused)`)
    })

    it("a callback secret that is not the store's: the plugin refuses the test post's signature (401)", async () => {
      const { problems } = await reach({ callbackSecret: "not-the-store-callback-secret-0123" })
      expect(problems[0]).toContain(
        "reached the plugin, which does not accept the test post's signature: the store's callbackSecret is not the one this check read (ALTAPAY_CALLBACK_SECRET)"
      )
    })
  },
})
