/**
 * Issue 41, item 6: `altapay-check --reach` sends a signed test post to the store's notification
 * and return URLs and names what answered when the plugin did not. Here the store's address is a
 * real HTTP server that answers as what stands in front of a store does: nothing listening, a proxy
 * whose Medusa is down (502), a cache (Age, X-Cache), a redirect to http://, a firewall's 403, a
 * store without the plugin's test-post answer. The plugin's own answers (arrived, callbackSources'
 * 403, a secret that differs) are in integration-tests/check/reach.suite.ts, against a real Medusa.
 */
import { createServer, type IncomingMessage, type ServerResponse } from "node:http"
import type { AddressInfo } from "node:net"
import { verifyCallbackSignature } from "../../src/altapay"
import { linesWith, useCheckCli } from "../helpers/check-cli"
import { CALLBACK_SECRET } from "../helpers/sandbox"

const cli = useCheckCli()

interface Received {
  url: string
  headers: IncomingMessage["headers"]
  body: string
}

/** A server at backendUrl that answers every post with `answer`; what it received, and its URL. */
async function answering(answer: (res: ServerResponse) => void): Promise<{ url: string; received: Received[]; close(): Promise<void> }> {
  const received: Received[] = []
  const server = createServer((req, res) => {
    let body = ""
    req.on("data", (chunk: Buffer) => (body += chunk.toString()))
    req.on("end", () => {
      received.push({ url: req.url ?? "", headers: req.headers, body })
      answer(res)
    })
  })
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve))
  return {
    url: `http://127.0.0.1:${(server.address() as AddressInfo).port}`,
    received,
    close: () => new Promise((resolve) => server.close(() => resolve())),
  }
}

/** Runs `fn` against a server answering with `answer`, and closes it afterwards. */
async function against(answer: (res: ServerResponse) => void, fn: (store: Awaited<ReturnType<typeof answering>>) => Promise<void>): Promise<void> {
  const store = await answering(answer)
  try {
    await fn(store)
  } finally {
    await store.close()
  }
}

/** `--reach --offline` for a store at backendUrl with a landing page (so the return URL is posted to as well). */
async function reach(backendUrl: string, overrides: Record<string, unknown> = {}) {
  const options = { ...cli.goodOptions(), backendUrl, successUrl: "https://shop.example/landing?outcome={outcome}", ...overrides }
  const { code, output } = await cli.check(["--config", cli.writeConfig(options), "--offline", "--reach"])
  return { code, problems: linesWith(output, "problem"), output }
}

it("posts to the notification and return URLs a form signed with the callback secret as AltaPay signs it", async () => {
  await against(
    (res) => res.end("OK"),
    async (store) => {
      await reach(store.url)
      expect(store.received.map((r) => r.url)).toEqual(["/hooks/payment/altapay_altapay", "/altapay/return/altapay/success"])
      for (const post of store.received) {
        expect(post.headers["content-type"]).toBe("application/x-www-form-urlencoded")
        expect(new URLSearchParams(post.body).get("shop_orderid")).toMatch(/^altapay-test-post-[0-9a-f]{16}$/)
        expect(() => verifyCallbackSignature({ rawBody: post.body, signatureHeader: post.headers["altapay-signature"], secret: CALLBACK_SECRET })).not.toThrow()
      }
    }
  )
})

it("nothing listening: connection refused, with what to look at", async () => {
  const gone = await answering((res) => res.end())
  await gone.close()
  const { code, problems } = await reach(gone.url)
  expect(code).toBe(1)
  const port = new URL(gone.url).port
  expect(problems[0]).toContain(`notification URL ${gone.url}/hooks/payment/altapay_altapay: nothing accepts connections at 127.0.0.1:${port} (connection refused)`)
  expect(problems[1]).toContain("return URL")
})

/** What `--reach` prints, and what the server received, when every post is answered with status, headers and body. */
async function reachAnswered(status: number, headers: Record<string, string>, body = ""): Promise<{ problems: string[]; received: Received[] }> {
  let result: { problems: string[]; received: Received[] } = { problems: [], received: [] }
  await against(
    (res) => {
      res.writeHead(status, headers)
      res.end(body)
    },
    async (server) => {
      result = { problems: (await reach(server.url)).problems, received: server.received }
    }
  )
  return result
}

it("a proxy whose Medusa is down answers 502: named as the proxy's answer, with its headers", async () => {
  const page = "<html><head><title>502 Bad Gateway</title></head><body><center><h1>502 Bad Gateway</h1></center><hr><center>nginx</center></body></html>"
  const { problems } = await reachAnswered(502, { server: "nginx/1.24.0", "content-type": "text/html" }, page)
  expect(problems[0]).toContain("a proxy answered 502 (server: nginx/1.24.0; content-type: text/html): it got no answer from Medusa behind it")
})

it("a cache answering 200 (Age, X-Cache: HIT) is a cache, not the store", async () => {
  const { problems } = await reachAnswered(200, { age: "312", "x-cache": "HIT from cdn", "content-type": "text/plain" }, "OK")
  expect(problems[0]).toContain(
    "a cache answered (200) (x-cache: HIT from cdn; age: 312; content-type: text/plain); turn caching off for /hooks/payment/altapay_* and /altapay/return/*"
  )
})

it("a redirect to http:// is named, and not followed", async () => {
  const { problems, received } = await reachAnswered(301, { location: "http://medusa.shop.example/hooks/payment/altapay_altapay" })
  expect(problems[0]).toContain("answered 301 with a redirect to http://medusa.shop.example/hooks/payment/altapay_altapay, to http://: the post would leave https")
  expect(received).toHaveLength(2)
})

it("a 403 without the plugin's headers comes from something in front of Medusa", async () => {
  const { problems } = await reachAnswered(403, { server: "cloudflare", "cf-ray": "8a1b2c3d4e5f-CPH" }, "Access denied")
  expect(problems[0]).toContain("403 from something in front of Medusa (a firewall, WAF or bot protection)")
  expect(problems[0]).toContain("server: cloudflare; cf-ray: 8a1b2c3d4e5f-CPH")
  expect(problems[0]).toContain("185.206.120.0/24")
})

it("a 200 that is not the plugin's answer: a store without test posts, or something else at the address", async () => {
  const { problems } = await reachAnswered(200, { "content-type": "text/plain" }, "OK")
  expect(problems[0]).toContain("answered 200, but not as the plugin answers a test post")
})

it("without a callbackSecret nothing is posted: the test post is signed as AltaPay signs", async () => {
  await against(
    (res) => res.end("OK"),
    async (store) => {
      const { problems } = await reach(store.url, { callbackSecret: undefined })
      expect(problems).toEqual([expect.stringContaining("reach not tested: a test post is signed as AltaPay signs, with callbackSecret, and this registration has none")])
      expect(store.received).toEqual([])
    }
  )
})
