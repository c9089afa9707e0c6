/**
 * medusa-payment-altapay/storefront: the browser side of an AltaPay checkout on Medusa.
 *
 *   const session = await startAltaPayCheckout({ sdk, cartId })        // our store route
 *   const methods = await listPaymentMethods(session)                 // AltaPay, CUSTOMER token
 *   const { redirectUrl } = await createPayment(session, methods[0].id)
 *   window.location.assign(redirectUrl)                               // AltaPay's payment page
 *
 * The server builds the AltaPay session from the cart; the browser only ever holds a CUSTOMER
 * token for that one session. Browser-safe: fetch only, no Node or Medusa imports.
 */
import { AltaPayRequestError, AltaPaySessionRequestError, AltaPayTokenError, AltaPayUnavailableError } from "./errors"
import { callMedusa, defaultFetch, errorText, readJson, type FetchLike, type MedusaConnection } from "./medusa"

export * from "./errors"
export type { FetchLike, MedusaConnection, MedusaSdkLike } from "./medusa"
export * from "./saved-cards"

export interface StartAltaPayCheckoutOptions extends MedusaConnection {
  cartId: string
  /**
   * The AltaPay registration to pay with (`pp_altapay_<id>`, e.g. pp_altapay_mobilepay). Needed
   * when the store registers the provider once per terminal; with one registration it may be left out.
   */
  providerId?: string
}

/** What the store route hands the browser for one AltaPay checkout session. */
export interface AltaPaySession {
  /** AltaPay checkout session id. */
  sessionId: string
  /** CUSTOMER token for this session only. One payment per token. */
  token: string
  /** ISO 8601 expiry of the token. */
  expiresAt: string
  /** AltaPay Checkout API base URL. */
  checkoutUrl: string
  /** Medusa payment session id (AltaPay's shop_orderid). */
  paymentSessionId: string
  /** The AltaPay registration of the session (pp_altapay_<id>), when Medusa names it. */
  providerId?: string
  /** That registration's terminal: pay with the method whose `metadata.terminalName` it is. */
  terminal?: string | null
}

export interface AltaPayPaymentMethod {
  id: string
  type?: string
  name?: string
  logoUrl?: string
  onInitiatePayment?: { type?: string; value?: unknown }
  metadata?: { terminalName?: string; [key: string]: unknown }
  [key: string]: unknown
}

export interface AltaPayPayment {
  paymentId: string
  /** Where to send the customer (AltaPay's payment page). */
  redirectUrl: string
  status?: string
}

export interface AltaPayCallOptions {
  fetch?: FetchLike
  signal?: AbortSignal
  /** Clock for the expiry check (ms). */
  now?: () => number
}

interface RouteAnswer {
  payment_session_id: string
  provider_id?: string
  altapay: { session_id: string; token: string; expires_at: string; checkout_url: string; terminal?: string | null }
}

/**
 * Asks Medusa (POST /store/carts/:id/altapay-session) for the cart's AltaPay session and a fresh
 * CUSTOMER token. Call it again whenever a token is needed: after a payment attempt, on reload,
 * after the cart changed (a new session is made only when amount or lines changed).
 */
export async function startAltaPayCheckout(options: StartAltaPayCheckoutOptions): Promise<AltaPaySession> {
  if (!options.cartId) throw new AltaPaySessionRequestError("startAltaPayCheckout: cartId is required.")
  const path = `/store/carts/${encodeURIComponent(options.cartId)}/altapay-session`
  const body = options.providerId ? { provider_id: options.providerId } : {}
  const answer = await callMedusa<RouteAnswer>(options, "POST", path, body, "startAltaPayCheckout")
  if (!answer?.altapay?.token || !answer.altapay.session_id || !answer.altapay.checkout_url) {
    throw new AltaPaySessionRequestError(`Medusa's ${path} answered without an AltaPay session: is medusa-payment-altapay's plugin loaded (plugins: [...] in medusa-config)?`)
  }
  return {
    sessionId: answer.altapay.session_id,
    token: answer.altapay.token,
    expiresAt: answer.altapay.expires_at,
    checkoutUrl: answer.altapay.checkout_url.replace(/\/+$/, ""),
    paymentSessionId: answer.payment_session_id,
    ...(answer.provider_id ? { providerId: answer.provider_id } : {}),
    ...(answer.altapay.terminal !== undefined ? { terminal: answer.altapay.terminal } : {}),
  }
}

/** The payment methods AltaPay offers for this session (cards, wallets, ...). */
export async function listPaymentMethods(session: AltaPaySession, options: AltaPayCallOptions = {}): Promise<AltaPayPaymentMethod[]> {
  const body = await callAltaPay<{ methods?: AltaPayPaymentMethod[] }>(
    session,
    "GET",
    `/checkout/v1/api/session/${encodeURIComponent(session.sessionId)}/payment-methods`,
    undefined,
    options
  )
  return Array.isArray(body.methods) ? body.methods : []
}

/**
 * Creates the payment for a chosen method and returns where to send the customer. The token is
 * spent by this call: for another attempt, call startAltaPayCheckout() again.
 */
export async function createPayment(session: AltaPaySession, paymentMethodId: string, options: AltaPayCallOptions = {}): Promise<AltaPayPayment> {
  if (!paymentMethodId) throw new AltaPayRequestError("createPayment: paymentMethodId is required (an id from listPaymentMethods).")
  const body = await callAltaPay<{ paymentId?: string; url?: string; status?: string }>(
    session,
    "POST",
    "/checkout/v1/api/payment",
    { paymentMethodId, sessionId: session.sessionId },
    options
  )
  if (!body.paymentId || !body.url) {
    throw new AltaPayUnavailableError("AltaPay created no payment page for this payment (no paymentId or url in its answer).")
  }
  return { paymentId: body.paymentId, redirectUrl: body.url, ...(body.status ? { status: body.status } : {}) }
}

// --- AltaPay ------------------------------------------------------------------------------

async function callAltaPay<T>(session: AltaPaySession, method: "GET" | "POST", path: string, body: unknown, options: AltaPayCallOptions): Promise<T> {
  const now = options.now ?? Date.now
  const expiresAt = Date.parse(session.expiresAt)
  if (Number.isFinite(expiresAt) && expiresAt <= now()) {
    throw new AltaPayTokenError("The AltaPay customer token has expired: call startAltaPayCheckout() again for a new one.")
  }
  const doFetch = options.fetch ?? defaultFetch()
  let res: Response
  try {
    res = await doFetch(`${session.checkoutUrl}${path}`, {
      method,
      headers: {
        accept: "application/json",
        authorization: `Bearer ${session.token}`,
        ...(body === undefined ? {} : { "content-type": "application/json" }),
      },
      ...(body === undefined ? {} : { body: JSON.stringify(body) }),
      ...(options.signal ? { signal: options.signal } : {}),
    })
  } catch (error) {
    throw new AltaPayUnavailableError(`Could not reach AltaPay (${method} ${path}): ${errorText(error)}`, { cause: error })
  }
  const answer = await readJson(res)
  if (res.ok) return (answer ?? {}) as T
  const detail = altapayMessage(answer)
  const suffix = detail ? `: ${detail}` : ""
  if (res.status === 401 || res.status === 403) {
    throw new AltaPayTokenError(
      `AltaPay refused the customer token (${res.status})${suffix}. It may be expired, spent on an earlier payment, or for another session: call startAltaPayCheckout() again.`,
      { status: res.status }
    )
  }
  if (res.status >= 500) throw new AltaPayUnavailableError(`AltaPay failed (${method} ${path}, HTTP ${res.status})${suffix}. Try again shortly.`, { status: res.status })
  throw new AltaPayRequestError(
    res.status === 409
      ? `AltaPay refused: the session is already paid${suffix}. Complete the cart instead of paying again.`
      : `AltaPay refused ${method} ${path} (HTTP ${res.status})${suffix}.`,
    { status: res.status }
  )
}

function altapayMessage(body: unknown): string {
  if (!body || typeof body !== "object") return ""
  const b = body as Record<string, unknown>
  const message = b.message ?? b.error_description ?? b.errorMessage ?? b.error
  return typeof message === "string" ? message.replace(/[.\s]+$/, "").slice(0, 300) : ""
}
