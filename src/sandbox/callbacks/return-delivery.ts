/**
 * The customer's return, as AltaPay documents it: when the customer submits the payment page,
 * AltaPay's gateway POSTs the signed callback form to the session's success (callback_ok) or
 * failure (callback_fail) URL itself, server to server, and shows the shop's answer to the customer:
 * a 301/302/303/307 redirects the browser to its Location, any other answer is shown as HTML with
 * its scripts removed. Sources: AltaPay's Merchant API callback settings ("If you want us to redirect
 * the customer, 301, 302, 303 or 307"; "scripts are not allowed, and will be removed");
 * AltaPay/salesforce-headless-commerce-pwa packages/marketpay-salesforce-pwa/lib/api/routes/index.js
 * (payment-success / payment-failed are POST routes answering res.redirect(302, ...)).
 *
 * A relative Location is refused (AltaPay does not document how it resolves one: our choice, so a
 * shop that sends one finds out here rather than in production).
 *
 * `returnMode: "browser-redirect"` keeps the sandbox's old behaviour: a 303 of the browser to the
 * success/failure URL with the outcome in the query string (no signature, nothing server to server).
 */
import { outcomeStatus, sendForm } from "./callbacks"
import type { SandboxEnv } from "../env"
import { escapeHtml, html, redirect, withQuery, type Reply } from "../http"
import type { StoredPayment, StoredTransaction } from "../state"

const REDIRECT_STATUSES: ReadonlySet<number> = new Set([301, 302, 303, 307])

/** Longest `return_delay_ms` the hosted page's form accepts (a test knob: AltaPay posting the return late). */
const MAX_RETURN_DELAY_MS = 60_000

/** A test knob on the hosted page's form: how long AltaPay waits before posting the return. */
export function returnDelayOf(form: URLSearchParams): number {
  const value = Number(form.get("return_delay_ms") ?? 0)
  return Number.isInteger(value) && value > 0 ? Math.min(value, MAX_RETURN_DELAY_MS) : 0
}

/** The browser's answer after paying: undefined (AltaPay's own result page) without a URL or with callbacks withheld. */
export async function customerReturn(env: SandboxEnv, payment: StoredPayment, t: StoredTransaction, delayMs = 0): Promise<Reply | undefined> {
  const status = outcomeStatus(t)
  const kind = status === "succeeded" ? "success" : "failure"
  const target = env.store.sessions.get(payment.sessionId)?.body.callbacks?.[kind]?.value
  if (!target) return undefined
  if (env.config.returnMode === "browser-redirect") {
    return redirect(303, withQuery(target, { payment_id: payment.paymentId, shop_orderid: payment.shopOrderId, status, transaction_id: t.transactionId }))
  }
  // Callbacks withheld (setAutoCallbacks(false)) stand for a store AltaPay cannot reach: that
  // includes the return post, so Medusa hears nothing and the customer sees AltaPay's own result page.
  if (!env.config.autoCallbacks) return undefined
  if (delayMs > 0) await new Promise((resolve) => setTimeout(resolve, delayMs))
  await env.beforeReturn?.(payment.paymentId)
  // The ledger says what the browser got: "redirect", "page" (the shop's HTML) or "error".
  const relayedAs = (reply: Reply): string => (reply.status === 303 ? "redirect" : reply.status === 502 ? "error" : "page")
  const answer = await sendForm(env, payment, t, target, `callback.${kind}`, {}, (a) => ({ relayed: relayedAs(relay(a)), ...(a.location ? { location: a.location } : {}) }))
  return relay(answer)
}

/** What AltaPay shows the browser for the shop's answer to a success/failure post. */
function relay(answer: { status: number; body: string; location?: string; error?: string }): Reply {
  if (REDIRECT_STATUSES.has(answer.status)) {
    if (answer.location && /^https?:\/\//i.test(answer.location)) return redirect(303, answer.location)
    return errorPage(`The shop answered ${answer.status} with ${answer.location ? `the relative Location ${answer.location}` : "no Location"}; send an absolute URL.`)
  }
  if (answer.status === 0) return errorPage(`The shop could not be reached (${answer.error ?? "no answer"}).`)
  if (answer.status >= 500) return errorPage(`The shop answered ${answer.status}.`)
  return html(200, withoutScripts(answer.body))
}

function errorPage(message: string): Reply {
  return html(
    502,
    `<!doctype html><html lang="en"><head><meta charset="utf-8"><title>Return to the shop failed</title></head>` +
      `<body><h1>Return to the shop failed</h1><p id="return-error">${escapeHtml(message)}</p><p><small>AltaPay sandbox.</small></p></body></html>`
  )
}

/** The shop's HTML without script elements, inline event handlers and javascript: URLs. */
export function withoutScripts(page: string): string {
  return page
    .replace(/<script\b[^>]*>[\s\S]*?<\/script\s*>/gi, "")
    .replace(/<script\b[^>]*\/?>/gi, "")
    .replace(/\s+on[a-z]+\s*=\s*("[^"]*"|'[^']*'|[^\s>]+)/gi, "")
    .replace(/(href|src|action)\s*=\s*(["'])\s*javascript:[^"']*\2/gi, '$1="#"')
}
