/**
 * A tiny storefront with the return path of the storefront kit (storefronts/nextjs-starter), for a
 * real-browser test without the Next.js starter's large install. It keeps what the kit relies on:
 *
 * - The cart id lives in `_medusa_cart_id`, httpOnly and SameSite=Strict, set by the storefront
 *   (the starter's cookie). The checkout page answers 404 without it, as the starter's does.
 * - "Place order" is a same-origin POST (a server action in the kit: src/lib/data/altapay.ts):
 *   it starts a session for the chosen AltaPay registration (the starter's payment step), and
 *   replaces a session whose page this browser was already sent to, so a second attempt gets a
 *   fresh AltaPay page.
 * - /api/altapay/landing is the plugin's successUrl and failureUrl: the Medusa plugin has already
 *   completed the cart (or found it unpaid) when AltaPay sends the browser here. It answers a page
 *   that says so and navigates itself on (kit: src/app/api/altapay/landing/route.ts): a navigation
 *   the page starts is same-site, so the cart cookie goes with it.
 * - /api/altapay/done lets go of the cart cookie when its cart is completed, then shows the order
 *   (kit: src/app/api/altapay/done/route.ts).
 *
 * Every request to the return routes is recorded with whether the cart cookie came along.
 */
import Medusa from "@medusajs/js-sdk"
import { createServer, type IncomingMessage, type ServerResponse } from "node:http"
import type { AddressInfo } from "node:net"

export const CART_COOKIE = "_medusa_cart_id"
const SENT_COOKIE = "_medusa_altapay_sent"

export interface PaymentOption {
  providerId: string
  title: string
}

export interface ReturnRequest {
  path: string
  cartCookie: boolean
}

export interface MiniStorefront {
  /** Where the browser reaches it, e.g. http://shop.test:41234 (see HOST_RESOLVER_RULE). */
  url: string
  /** Requests to /api/altapay/*, in order. */
  returns: ReturnRequest[]
  close(): Promise<void>
}

export interface MiniStorefrontOptions {
  /** The store's URL and publishable key, read per request (the runner reseeds before each test). */
  medusa: () => { baseUrl: string; publishableKey: string }
  options: PaymentOption[]
  /** The host name the browser uses; map it to 127.0.0.1 with hostResolverRule(). */
  host: string
}

/** Chromium flag that sends `host` to this machine: a site of its own, apart from 127.0.0.1. */
export const hostResolverRule = (host: string) => `--host-resolver-rules=MAP ${host} 127.0.0.1`

const MESSAGES: Record<string, string> = {
  failed: "Your payment was not completed: it was declined or cancelled, and no order was placed.",
  unconfirmed: "We could not confirm your payment, so no order was placed.",
}

export async function startMiniStorefront(opts: MiniStorefrontOptions): Promise<MiniStorefront> {
  const returns: ReturnRequest[] = []
  const sdk = () => {
    const { baseUrl, publishableKey } = opts.medusa()
    return new Medusa({ baseUrl, publishableKey })
  }

  const server = createServer((req, res) => {
    handle(req, res).catch((error: unknown) => {
      if (!res.headersSent) res.writeHead(500, { "content-type": "text/plain" })
      res.end(error instanceof Error ? error.message : String(error))
    })
  })

  async function handle(req: IncomingMessage, res: ServerResponse): Promise<void> {
    const url = new URL(req.url ?? "/", "http://storefront")
    const cookies = parseCookies(req.headers.cookie)
    const cartId = cookies[CART_COOKIE]
    let match: RegExpExecArray | null

    if (url.pathname.startsWith("/api/altapay/")) returns.push({ path: url.pathname, cartCookie: cartId !== undefined })

    // Stands for the starter's add-to-cart server action, which sets the cart cookie.
    if ((match = /^\/test\/cart\/([^/]+)$/.exec(url.pathname))) {
      return send(res, 303, "", { location: "/checkout?step=payment", "set-cookie": `${CART_COOKIE}=${match[1]}; Path=/; HttpOnly; SameSite=Strict` })
    }

    if (url.pathname === "/checkout") {
      if (!cartId) return page(res, 404, "Page not found", "<p>This page could not be found.</p>")
      const reason = url.searchParams.get("altapay")
      const notice = reason ? `<div role="alert" id="altapay-notice">${MESSAGES[reason] ?? MESSAGES.failed}</div>` : ""
      const buttons = opts.options.map((o) => `<button data-provider="${o.providerId}" id="pay-${o.providerId}">Place order: ${o.title}</button>`).join(" ")
      return page(
        res,
        200,
        "Payment",
        `${notice}${buttons}<p id="error"></p><script>
for (const button of document.querySelectorAll("button[data-provider]")) {
  button.onclick = async () => {
    const res = await fetch("/actions/place-order", { method: "POST", headers: { "content-type": "application/json" }, body: JSON.stringify({ provider: button.dataset.provider }) })
    const answer = await res.json()
    if (answer.url) location.assign(answer.url)
    else document.getElementById("error").textContent = answer.error
  }
}</script>`
      )
    }

    if (url.pathname === "/actions/place-order" && req.method === "POST") {
      if (!cartId) return json(res, 200, { error: "Your cart was not found." })
      const { provider } = JSON.parse(await body(req)) as { provider: string }
      const store = sdk()
      const { cart } = await store.store.cart.retrieve(cartId, { fields: "id,*payment_collection,*payment_collection.payment_sessions" })
      let session = cart.payment_collection?.payment_sessions?.find((s) => s.provider_id === provider)
      if (!session || session.status !== "pending" || cookies[SENT_COOKIE] === session.id) {
        const { payment_collection } = await store.store.payment.initiatePaymentSession(cart, { provider_id: provider })
        session = payment_collection.payment_sessions?.find((s) => s.provider_id === provider)
      }
      const redirectUrl = session?.data?.redirect_url
      if (!session || typeof redirectUrl !== "string") return json(res, 200, { error: "AltaPay did not return a payment page." })
      return json(res, 200, { url: redirectUrl }, { "set-cookie": `${SENT_COOKIE}=${session.id}; Path=/; HttpOnly; SameSite=Strict` })
    }

    if (url.pathname === "/api/altapay/landing") {
      const orderId = url.searchParams.get("order_id")
      if (url.searchParams.get("outcome") === "paid" && orderId)
        return landing(res, "Your payment was received and your order is placed.", `/api/altapay/done?order_id=${encodeURIComponent(orderId)}`)
      const reason = url.searchParams.get("outcome") === "declined" ? "failed" : "unconfirmed"
      return landing(res, "No order was placed.", `/checkout?step=payment&altapay=${reason}`)
    }

    if (url.pathname === "/api/altapay/done") {
      const completed = cartId
        ? await sdk()
            .store.cart.retrieve(cartId, { fields: "id,completed_at" })
            .then(
              ({ cart }) => !!cart.completed_at,
              () => false
            )
        : false
      const headers: Record<string, string> = { location: `/order/${encodeURIComponent(url.searchParams.get("order_id") ?? "")}/confirmed` }
      if (completed) headers["set-cookie"] = `${CART_COOKIE}=; Path=/; Max-Age=0`
      return send(res, 303, "", headers)
    }

    if ((match = /^\/order\/([^/]+)\/confirmed$/.exec(url.pathname))) {
      const { order } = await sdk().store.order.retrieve(match[1], { fields: "id,display_id" })
      return page(res, 200, "Order confirmed", `<p>Thank you! Order <span id="order-id">${order.id}</span> is placed.</p>`)
    }

    return page(res, 404, "Page not found", "<p>This page could not be found.</p>")
  }

  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve))
  const { port } = server.address() as AddressInfo
  return {
    url: `http://${opts.host}:${port}`,
    returns,
    close: () =>
      new Promise<void>((resolve) => {
        server.closeAllConnections()
        server.close(() => resolve())
      }),
  }
}

/** The kit's landing page: says what happened, then a same-site navigation of its own to `next`. */
function landing(res: ServerResponse, message: string, next: string): void {
  send(
    res,
    200,
    `<!doctype html><html><head><meta charset="utf-8"><meta http-equiv="refresh" content="1;url=${next}"><title>Back to the shop</title></head>` +
      `<body><p id="altapay-landing">${message}</p><script>location.replace(${JSON.stringify(next)})</script></body></html>`,
    { "content-type": "text/html; charset=utf-8", "cache-control": "no-store" }
  )
}

function page(res: ServerResponse, status: number, title: string, content: string): void {
  send(res, status, `<!doctype html><html><head><meta charset="utf-8"><title>${title}</title></head><body><h1>${title}</h1>${content}</body></html>`, {
    "content-type": "text/html; charset=utf-8",
  })
}

function json(res: ServerResponse, status: number, value: unknown, headers: Record<string, string> = {}): void {
  send(res, status, JSON.stringify(value), { "content-type": "application/json", ...headers })
}

function send(res: ServerResponse, status: number, text: string, headers: Record<string, string>): void {
  res.writeHead(status, headers)
  res.end(text)
}

function parseCookies(header: string | undefined): Record<string, string> {
  return Object.fromEntries(
    (header ?? "")
      .split(";")
      .map((part) => part.trim().split("="))
      .filter(([name, value]) => name && value)
      .map(([name, value]) => [name, decodeURIComponent(value)])
  )
}

function body(req: IncomingMessage): Promise<string> {
  return new Promise((resolve, reject) => {
    let text = ""
    req.on("data", (chunk: Buffer) => (text += chunk.toString()))
    req.on("end", () => resolve(text))
    req.on("error", reject)
  })
}
