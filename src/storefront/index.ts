/**
 * medusa-payment-altapay/storefront: the browser side of an AltaPay checkout on Medusa.
 *
 *   const session = await startAltaPayCheckout({ sdk, cartId })        // our store route
 *   const methods = await listPaymentMethods(session)                 // AltaPay, CUSTOMER token
 *   const { redirectUrl } = await createPayment(session, methods[0].id)
 *   window.location.assign(redirectUrl)                               // AltaPay's payment page
 *
 * The server builds the AltaPay session from the cart; the browser only ever holds a CUSTOMER
 * token for that one session. AltaPay lists every method of the API user, whatever its terminal;
 * the helper offers and pays only the session's registration's terminals, since a payment on
 * another terminal is not authorized (no order). Browser-safe: fetch only, no Node or Medusa imports.
 */
import { AltaPayRequestError, AltaPaySessionRequestError, AltaPayTokenError, AltaPayUnavailableError } from "./errors"
import { callMedusa, defaultFetch, errorText, readJson, type FetchLike, type MedusaConnection } from "./medusa"

export * from "./errors"
export * from "./messages"
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
  /** That registration's terminal for the cart's currency (null: it names none, AltaPay chooses). */
  terminal?: string | null
  /**
   * Every terminal a payment of this session is authorized on: `terminal` and the registration's
   * `acceptedTerminals`. listPaymentMethods() offers, and createPayment() pays, only their methods.
   */
  acceptedTerminals?: string[]
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

export interface AltaPayMethodOptions extends AltaPayCallOptions {
  /**
   * Every method of the API user, not only those of the session's terminals. A payment on another
   * terminal pays for nothing in this registration: Medusa does not authorize it, no order is
   * placed, and the reservation waits for the merchant. Only for a storefront that shows every
   * method and then starts the checkout with the registration (`providerId`) of the chosen one's terminal.
   */
  allTerminals?: boolean
}

interface RouteAnswer {
  payment_session_id: string
  provider_id?: string
  altapay: { session_id: string; token: string; expires_at: string; checkout_url: string; terminal?: string | null; accepted_terminals?: string[] }
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
    ...(Array.isArray(answer.altapay.accepted_terminals) ? { acceptedTerminals: answer.altapay.accepted_terminals } : {}),
  }
}

/**
 * The payment methods to offer for this session (cards, wallets, ...): those of the session's
 * terminals (`terminal`, `acceptedTerminals`), by each method's `metadata.terminalName`. AltaPay
 * lists every method of the API user; a payment with one of another terminal would not be
 * authorized, so it is left out unless `{ allTerminals: true }`. A session that names no terminal
 * gets every method. Throws AltaPayRequestError when AltaPay lists methods but none on those
 * terminals (the registration's `terminal` is not one of the API user's).
 */
export async function listPaymentMethods(session: AltaPaySession, options: AltaPayMethodOptions = {}): Promise<AltaPayPaymentMethod[]> {
  const methods = await allMethods(session, options)
  const terminals = sessionTerminals(session)
  if (options.allTerminals || !terminals || methods.length === 0) return methods
  const offered = methods.filter((m) => terminals.includes(terminalOf(m) ?? ""))
  if (offered.length === 0) {
    const others = [...new Set(methods.map((m) => terminalOf(m) ?? m.id))].join(", ")
    throw new AltaPayRequestError(
      `AltaPay offers no payment method on ${terminalText(session, terminals)} for this session (its methods are on: ${others}). Check the registration's terminal option.`
    )
  }
  return offered
}

/**
 * Creates the payment for a chosen method and returns where to send the customer. The token is
 * spent by this call: for another attempt, call startAltaPayCheckout() again. A method of another
 * terminal than the session's is refused (AltaPayRequestError) before anything is created, unless
 * `{ allTerminals: true }`: such a payment would not pay for this cart. The methods are those
 * listPaymentMethods() read for this session object, else read once more here.
 */
export async function createPayment(session: AltaPaySession, paymentMethodId: string, options: AltaPayMethodOptions = {}): Promise<AltaPayPayment> {
  if (!paymentMethodId) throw new AltaPayRequestError("createPayment: paymentMethodId is required (an id from listPaymentMethods).")
  if (!options.allTerminals) await refuseOtherTerminal(session, paymentMethodId, options)
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

// --- Terminals -----------------------------------------------------------------------------

/** Every method AltaPay listed, per session object: createPayment() checks a method id against them. */
const listed = new WeakMap<AltaPaySession, AltaPayPaymentMethod[]>()

async function allMethods(session: AltaPaySession, options: AltaPayCallOptions): Promise<AltaPayPaymentMethod[]> {
  const body = await callAltaPay<{ methods?: AltaPayPaymentMethod[] }>(
    session,
    "GET",
    `/checkout/v1/api/session/${encodeURIComponent(session.sessionId)}/payment-methods`,
    undefined,
    options
  )
  const methods = Array.isArray(body.methods) ? body.methods : []
  listed.set(session, methods)
  return methods
}

/** The terminals a payment of the session is authorized on; undefined when it names none. */
function sessionTerminals(session: AltaPaySession): string[] | undefined {
  const accepted = session.acceptedTerminals ?? []
  const all = session.terminal && !accepted.includes(session.terminal) ? [session.terminal, ...accepted] : accepted
  return all.length > 0 ? all : undefined
}

/** A method's terminal: `metadata.terminalName`, else its name (as the server's redirect flow matches it). */
const terminalOf = (method: AltaPayPaymentMethod): string | undefined => method.metadata?.terminalName ?? method.name

function terminalText(session: AltaPaySession, terminals: string[]): string {
  const registration = session.providerId ? ` (${session.providerId})` : ""
  return `${terminals.length === 1 ? "terminal" : "terminals"} ${terminals.map((t) => JSON.stringify(t)).join(", ")}${registration}`
}

async function refuseOtherTerminal(session: AltaPaySession, paymentMethodId: string, options: AltaPayCallOptions): Promise<void> {
  const terminals = sessionTerminals(session)
  if (!terminals) return
  const methods = listed.get(session) ?? (await allMethods(session, options))
  const method = methods.find((m) => m.id === paymentMethodId)
  // A method AltaPay does not list is AltaPay's to refuse.
  if (!method || terminals.includes(terminalOf(method) ?? "")) return
  throw new AltaPayRequestError(
    `createPayment: payment method ${paymentMethodId} is on terminal ${JSON.stringify(terminalOf(method) ?? "(none stated)")}, but this session is for ${terminalText(session, terminals)}: a payment there would not pay for this cart. Offer the methods listPaymentMethods(session) returns.`
  )
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
