/**
 * The hosted test payment page (where the checkout API sends the customer) and payment links.
 * Submitting the page performs the outcome, sends the notification callback, then returns the
 * customer through the session's success or failure URL as AltaPay does (return-delivery.ts).
 * The card typed in (or the amount) picks the outcome as AltaPay's test cards do (test-cards.ts),
 * a 3-D Secure one after the challenge page (three-d-secure.ts).
 */
import { minorToDecimal } from "../../altapay/money"
import { challengeUrl, type PaymentDetails } from "../challenges"
import { deliverCallback, outcomeStatus } from "../callbacks/callbacks"
import type { Exchange, SandboxEnv } from "../env"
import { escapeHtml, html, redirect, type Reply } from "../http"
import { customerReturn, returnDelayOf } from "../callbacks/return-delivery"
import { askShop, declineForShop, maskedPan } from "../callbacks/verify-order"
import { completePayment, createPayment, sessionIsSettled, type CompleteResult, type Outcome } from "../payment-flow"
import { CARD_METHOD, findMethod, type StoredPayment } from "../state"
import { needsChallenge, TEST_CARDS } from "../test-cards"

const OUTCOMES: ReadonlySet<string> = new Set(["authorize", "decline", "fail"])

function page(status: number, title: string, content: string): Reply {
  return html(
    status,
    `<!doctype html><html lang="en"><head><meta charset="utf-8"><title>${escapeHtml(title)}</title>` +
      `<style>body{font-family:system-ui,sans-serif;max-width:32rem;margin:3rem auto;padding:0 1rem}` +
      `button{font-size:1rem;padding:.6rem 1.2rem;margin-right:.5rem}</style></head>` +
      `<body><h1>${escapeHtml(title)}</h1>${content}<p><small>AltaPay sandbox: no real money moves.</small></p></body></html>`
  )
}

const amountText = (payment: StoredPayment): string => `${minorToDecimal(payment.amountMinor, payment.currency.alpha)} ${payment.currency.alpha}`

export function showPaymentPage(ex: Exchange, paymentId: string): Reply {
  const payment = ex.env.store.payments.get(paymentId)
  if (!payment) return page(404, "Payment not found", "<p>This payment does not exist.</p>")
  if (payment.status === "EXPIRED") return page(410, "Payment expired", `<p>${escapeHtml(payment.reason ?? "This payment expired.")}</p>`)
  if (payment.status !== "CREATED") {
    return page(200, "Payment completed", `<p>This payment is already <strong>${escapeHtml(payment.status)}</strong>.</p>`)
  }
  const action = `/sandbox/pay/${encodeURIComponent(payment.paymentId)}`
  const app = findMethod(payment.paymentMethodId, ex.env.config)?.app
  if (app) return appSwitchPage(payment, action, app.name)
  return page(
    200,
    "AltaPay sandbox payment",
    `<dl><dt>Order</dt><dd id="order">${escapeHtml(payment.shopOrderId)}</dd>` +
      `<dt>Amount</dt><dd id="amount">${escapeHtml(amountText(payment))}</dd>` +
      `<dt>Terminal</dt><dd>${escapeHtml(payment.terminal)}</dd></dl>` +
      `<form method="post" action="${escapeHtml(action)}">` +
      `<p><label>Card number <input name="card_number" value="${TEST_CARDS.visa}" autocomplete="off"></label></p>` +
      `<button type="submit" id="authorize" name="outcome" value="authorize">Authorize</button>` +
      `<button type="submit" id="decline" name="outcome" value="decline">Decline</button>` +
      `</form>`
  )
}

/**
 * An app method's page: AltaPay sends the customer to the app (Vipps MobilePay "Timeouts": the
 * deeplink is the app switch; AltaPay's Swish page: the customer is told to open the app), where
 * they approve now, or later: then the payment stays open and its notification follows when the
 * app concludes it (`concludeOpenPayment`).
 */
function appSwitchPage(payment: StoredPayment, action: string, name: string): Reply {
  const app = escapeHtml(name)
  return page(
    200,
    `Open ${name}`,
    `<dl><dt>Order</dt><dd id="order">${escapeHtml(payment.shopOrderId)}</dd>` +
      `<dt>Amount</dt><dd id="amount">${escapeHtml(amountText(payment))}</dd>` +
      `<dt>Terminal</dt><dd>${escapeHtml(payment.terminal)}</dd></dl>` +
      `<p id="app-switch" data-app="${app}">Approve the payment in the ${app} app on your phone.</p>` +
      `<form method="post" action="${escapeHtml(action)}">` +
      `<button type="submit" id="authorize" name="outcome" value="authorize">Approved in ${app}</button>` +
      `<button type="submit" id="open" name="outcome" value="open">Approve later in ${app}</button>` +
      `<button type="submit" id="decline" name="outcome" value="decline">Cancelled in ${app}</button>` +
      `</form>`
  )
}

export interface PayResult {
  result: CompleteResult
  callbackStatus?: number
}

/**
 * Completes a payment and, when asked and configured, delivers its notification callback. Before
 * the money moves, the shop's verify-order URL is asked (callbacks/verify-order.ts): its refusal
 * aborts the payment.
 */
export async function payAndNotify(
  env: SandboxEnv,
  payment: StoredPayment,
  outcome: Outcome,
  callback: boolean,
  onEffects?: (r: CompleteResult) => void,
  details: PaymentDetails = {}
): Promise<PayResult> {
  const verdict = outcome === "authorize" && payment.status === "CREATED" ? await askShop(env, payment, { maskedPan: maskedPan(details.cardNumber) }) : { go: true as const }
  const result = verdict.go ? completePayment(env, payment, outcome, details) : declineForShop(env, payment, verdict)
  onEffects?.(result)
  if (!result.ok || !callback) return { result }
  const session = env.store.sessions.get(payment.sessionId)
  if (!session?.body.callbacks?.notification) return { result }
  const delivery = await deliverCallback(env, payment)
  return { result, callbackStatus: delivery.status }
}

export async function submitPayment(ex: Exchange, paymentId: string): Promise<Reply> {
  const form = new URLSearchParams(ex.rawBody)
  const outcome = form.get("outcome") ?? ""
  ex.params = { outcome }
  const payment = ex.env.store.payments.get(paymentId)
  if (!payment) return page(404, "Payment not found", "<p>This payment does not exist.</p>")
  const app = findMethod(payment.paymentMethodId, ex.env.config)?.app
  // Only an app payment can be left for the customer to approve later (an open payment).
  if (!OUTCOMES.has(outcome) && !(app && outcome === "open")) return page(400, "Unknown outcome", "<p>Choose authorize or decline.</p>")
  const details: PaymentDetails = { cardNumber: form.get("card_number")?.trim() || undefined }
  const card = findMethod(payment.paymentMethodId, ex.env.config)?.nature === "CreditCard"
  // AltaPay's page asks for 3-D Secure where the card or amount does (test-cards.ts): nothing is
  // reserved, and nothing posted, until the customer answers the challenge.
  if (card && outcome === "authorize" && payment.status === "CREATED" && needsChallenge(details.cardNumber, payment.amountMinor, payment.currency.alpha)) {
    const id = ex.env.store.challenges.open({ kind: "payment", paymentId, details, returnDelayMs: returnDelayOf(form) })
    return redirect(303, challengeUrl(ex.env.url, id))
  }
  return completeOnPage(ex, payment, outcome as Outcome, details, returnDelayOf(form))
}

/** The payment page's (or its challenge's) outcome: the payment, its notification, the customer's return. */
export async function completeOnPage(ex: Exchange, payment: StoredPayment, outcome: Outcome, details: PaymentDetails, returnDelayMs: number): Promise<Reply> {
  const { result } = await payAndNotify(
    ex.env,
    payment,
    outcome,
    ex.env.config.autoCallbacks,
    (r) => {
      if (r.ok) ex.effects.push(...r.effects)
    },
    details
  )
  if (!result.ok) {
    return result.reason === "expired" ? page(410, "Payment expired", `<p>${escapeHtml(result.message)}</p>`) : page(409, "Already paid", `<p>${escapeHtml(result.message)}</p>`)
  }
  const t = result.transaction
  const status = outcomeStatus(t)
  const back = await customerReturn(ex.env, payment, t, returnDelayMs)
  if (back) return back
  return page(
    200,
    status === "succeeded" ? "Payment authorized" : "Payment not completed",
    `<p id="result" data-status="${status}">Payment ${escapeHtml(payment.paymentId)}: ${escapeHtml(status)} ` +
      `(transaction ${escapeHtml(t.transactionId)}, ${escapeHtml(amountText(payment))}).</p>`
  )
}

export function openLink(ex: Exchange, linkId: string): Reply {
  const link = ex.env.store.links.get(linkId)
  if (!link) return page(404, "Link not found", "<p>This payment link does not exist.</p>")
  if (ex.env.now() > link.expiresAt) return page(410, "Link expired", "<p>This payment link has expired.</p>")
  const session = ex.env.store.sessions.get(link.sessionId)
  if (!session) return page(404, "Session not found", "<p>The session of this link no longer exists.</p>")
  if (sessionIsSettled(ex.env, session)) return page(409, "Already paid", "<p>This order is already paid.</p>")
  const payment = createPayment(ex.env, session, CARD_METHOD)
  ex.params = { linkId, paymentId: payment.paymentId }
  return redirect(302, `${ex.env.url}/sandbox/pay/${payment.paymentId}`)
}

const LOGO_COLOURS: Record<string, string> = {
  card: "#1a1f71",
  wallet: "#5a78ff",
  invoice: "#ffa8cd",
  applepay: "#000000",
  googlepay: "#4285f4",
  vipps: "#ff5b24",
  swish: "#00a0e6",
}

/** Placeholder logos, so the payment methods' logoUrl resolves. */
export function logo(_ex: Exchange, name: string): Reply {
  const key = name.replace(/\.svg$/, "")
  const colour = LOGO_COLOURS[key]
  if (!colour) return page(404, "Logo not found", "<p>No such logo.</p>")
  return {
    status: 200,
    headers: { "content-type": "image/svg+xml", "cache-control": "public, max-age=86400" },
    body: `<svg xmlns="http://www.w3.org/2000/svg" width="64" height="40"><rect width="64" height="40" rx="6" fill="${colour}"/><text x="32" y="25" font-size="11" fill="#fff" text-anchor="middle" font-family="sans-serif">${key.toUpperCase()}</text></svg>`,
  }
}
