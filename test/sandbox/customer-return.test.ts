/**
 * The customer's return as AltaPay documents it: the gateway POSTs the signed callback form to the
 * success/failure URL server to server and relays a 30X answer to the browser, or shows an HTML
 * answer without its scripts. The shop here is a plain node:http server.
 */
import { createServer, type IncomingHttpHeaders, type Server, type ServerResponse } from "node:http"
import type { AddressInfo } from "node:net"
import { verifyCallbackSignature } from "../../src/altapay"
import type { Sandbox } from "../../src/sandbox"
import { PAYMENT_METHODS } from "../../src/sandbox"
import { withoutScripts } from "../../src/sandbox/callbacks/return-delivery"
import { CALLBACK_SECRET, call, createSession, issueToken, sessionBody, start } from "./helpers"

interface Post {
  path: string
  headers: IncomingHttpHeaders
  raw: string
}

/** Whether the post carries a valid AltaPay-Signature for the secret, as the plugin checks it. */
function signedBy(secret: string, post: Post): boolean {
  try {
    verifyCallbackSignature({ rawBody: post.raw, signatureHeader: post.headers["altapay-signature"], secret })
    return true
  } catch {
    return false
  }
}

describe("sandbox: the customer's return is a signed server-to-server post (documented mode, the default)", () => {
  let sandbox: Sandbox
  let shop: Server
  let shopUrl: string
  const posts: Post[] = []
  /** How the shop answers the next success/failure post. */
  let answer: (res: ServerResponse) => void

  beforeAll(async () => {
    sandbox = await start()
    shop = createServer((req, res) => {
      const chunks: Buffer[] = []
      req.on("data", (c: Buffer) => chunks.push(c))
      req.on("end", () => {
        posts.push({ path: req.url ?? "", headers: req.headers, raw: Buffer.concat(chunks).toString("utf8") })
        if (req.url?.startsWith("/hooks")) res.writeHead(200).end("OK")
        else answer(res)
      })
    })
    await new Promise<void>((resolve) => shop.listen(0, "127.0.0.1", resolve))
    shopUrl = `http://127.0.0.1:${(shop.address() as AddressInfo).port}`
  })
  afterAll(async () => {
    await sandbox.close()
    shop.closeAllConnections()
    await new Promise((resolve) => shop.close(resolve))
  })
  beforeEach(() => {
    posts.length = 0
    answer = (res) => res.writeHead(303, { location: "https://shop.example/landing?ok=1" }).end()
  })

  async function payOnPage(outcome: "authorize" | "decline"): Promise<{ submit: Response; paymentId: string }> {
    const sessionId = await createSession(
      sandbox,
      sessionBody({ orderId: `order-${outcome}`, notification: `${shopUrl}/hooks/altapay`, success: `${shopUrl}/return/success`, failure: `${shopUrl}/return/failure` })
    )
    const token = await issueToken(sandbox, { sessionId })
    const payment = await call(sandbox, "POST", "/payment", { token, body: { sessionId, paymentMethodId: PAYMENT_METHODS[0].id } })
    const submit = await fetch(payment.body.url, { method: "POST", body: new URLSearchParams({ outcome }), redirect: "manual" })
    return { submit, paymentId: payment.body.paymentId as string }
  }

  test("paying posts the signed form to the success URL, and the shop's 303 reaches the browser", async () => {
    const { submit, paymentId } = await payOnPage("authorize")
    expect(submit.status).toBe(303)
    expect(submit.headers.get("location")).toBe("https://shop.example/landing?ok=1")

    const returned = posts.filter((p) => p.path === "/return/success")
    expect(returned).toHaveLength(1)
    expect(returned[0].headers["content-type"]).toBe("application/x-www-form-urlencoded")
    expect(signedBy(CALLBACK_SECRET, returned[0])).toBe(true)
    const fields = new URLSearchParams(returned[0].raw)
    expect(Object.fromEntries(fields)).toMatchObject({ shop_orderid: "order-authorize", payment_id: paymentId, status: "succeeded", payment_status: "preauth" })
    expect(fields.get("xml")).toContain("<APIResponse")
    // No cookie of the shopper's browser travels: the post comes from AltaPay.
    expect(returned[0].headers.cookie).toBeUndefined()

    const delivery = sandbox.ledger().find((e) => e.operation === "callback.success")
    expect(delivery).toMatchObject({ api: "callback", method: "POST", status: 303, url: `${shopUrl}/return/success`, params: { payment_id: paymentId, relayed: "redirect" } })
  })

  test("a decline posts to the failure URL; each of 301, 302 and 307 is relayed as a redirect too", async () => {
    for (const status of [301, 302, 307]) {
      answer = (res) => res.writeHead(status, { location: `https://shop.example/failed/${status}` }).end()
      const { submit } = await payOnPage("decline")
      expect(submit.status).toBe(303)
      expect(submit.headers.get("location")).toBe(`https://shop.example/failed/${status}`)
    }
    const failures = posts.filter((p) => p.path === "/return/failure")
    expect(failures).toHaveLength(3)
    expect(new URLSearchParams(failures[0].raw).get("status")).toBe("declined")
    expect(sandbox.ledger().filter((e) => e.operation === "callback.failure")).toHaveLength(3)
  })

  test("an HTML answer is shown to the customer without scripts or inline handlers", async () => {
    answer = (res) =>
      res
        .writeHead(200, { "content-type": "text/html" })
        .end(`<p id="msg" onclick="steal()">Thanks</p><script>location.href="/x"</script><a href="javascript:alert(1)">go</a><a href="/back">back</a>`)
    const { submit } = await payOnPage("authorize")
    expect(submit.status).toBe(200)
    const page = await submit.text()
    expect(page).toContain(`<p id="msg">Thanks</p>`)
    expect(page).toContain(`href="/back"`)
    expect(page).not.toMatch(/script|onclick|javascript:/i)
  })

  test("a relative Location is refused with a page that says so (the shop must answer an absolute URL)", async () => {
    answer = (res) => res.writeHead(303, { location: "/landing" }).end()
    const { submit } = await payOnPage("authorize")
    expect(submit.status).toBe(502)
    expect(await submit.text()).toContain("relative Location /landing")
  })

  test("a shop that cannot be reached is shown as an error page and recorded", async () => {
    const sessionId = await createSession(sandbox, sessionBody({ success: "http://127.0.0.1:9/return", failure: "http://127.0.0.1:9/return" }))
    const token = await issueToken(sandbox, { sessionId })
    const payment = await call(sandbox, "POST", "/payment", { token, body: { sessionId, paymentMethodId: PAYMENT_METHODS[0].id } })
    const submit = await fetch(payment.body.url, { method: "POST", body: new URLSearchParams({ outcome: "authorize" }), redirect: "manual" })
    expect(submit.status).toBe(502)
    expect(
      sandbox
        .ledger()
        .filter((e) => e.operation === "callback.success")
        .at(-1)
    ).toMatchObject({ status: 0, params: { relayed: "error" } })
  })

  test("with callbacks withheld (a store AltaPay cannot reach) no return is posted; the customer sees AltaPay's own result page", async () => {
    sandbox.setAutoCallbacks(false)
    try {
      const { submit } = await payOnPage("authorize")
      expect(submit.status).toBe(200)
      expect(await submit.text()).toContain('data-status="succeeded"')
      expect(posts).toHaveLength(0)
    } finally {
      sandbox.setAutoCallbacks(true)
    }
  })

  test("withoutScripts removes script elements in any case and unclosed ones", () => {
    expect(withoutScripts(`a<SCRIPT type="x">1</SCRIPT>b<script src="y.js">`)).toBe("ab")
    expect(withoutScripts(`<body onload='x()'><img src=x onerror=y()>`)).toBe(`<body><img src=x>`)
  })
})
