/**
 * The checkout API (JSON under /checkout/v1/api): tokens, sessions, payment methods, payments and
 * payment links, with AltaPay's access rules: MERCHANT reaches everything; a CUSTOMER token reaches
 * one session and is spent once it has created a payment.
 */
import { currencyInfo, decimalToMinor, fitsWireDecimals, type CurrencyInfo } from "../../altapay/money"
import { basicAuth, bearerAuth, isReply } from "../auth"
import type { Exchange, SandboxConfig } from "../env"
import { json, jsonError, type Reply } from "../http"
import { validateOrderLines } from "../order-lines"
import { createPayment, expireUnpaidPayments, sessionIsSettled } from "../payment-flow"
import { SHOP_ORDER_ID, authenticateBodySchema, linkBodySchema, paymentBodySchema, sessionBodySchema, zodIssues, type FieldIssue, type SessionBody } from "./schemas"
import { findMethod, offeredMethods, type StoredSession } from "../state"
import type { TokenClaims } from "./tokens"
import { linkJson, paymentJson, sessionJson } from "./views"

// CreatePaymentLink: validityTime is "Time in minutes ... Default 14 days".
const DEFAULT_LINK_VALIDITY_MINUTES = 14 * 24 * 60
// Fields the sandbox owns in the session record; a body cannot set them.
const SERVER_FIELDS = ["sessionId", "status", "payments", "createdAt", "updatedAt"]

type Parsed = { ok: true; value: unknown } | { ok: false; reply: Reply }

function parseJson(ex: Exchange): Parsed {
  if (ex.rawBody.trim() === "") return { ok: true, value: undefined }
  try {
    const value: unknown = JSON.parse(ex.rawBody)
    ex.params = value && typeof value === "object" && !Array.isArray(value) ? (value as Record<string, unknown>) : { body: value }
    return { ok: true, value }
  } catch {
    return { ok: false, reply: jsonError(400, "bad_request", "The body is not valid JSON.") }
  }
}

const validationError = (errors: FieldIssue[]): Reply => jsonError(400, "validation", errors.map((e) => `${e.path || "body"}: ${e.message}`).join("; "), { errors })

const forbidden = (message: string): Reply => jsonError(403, "forbidden", message)

const notFound = (what: string, id: string): Reply => jsonError(404, "not_found", `${what} ${id} does not exist.`)

export async function authenticate(ex: Exchange): Promise<Reply> {
  if (!basicAuth(ex)) {
    return jsonError(401, "unauthorized", "Send Authorization: Basic with the sandbox API user's username and password.")
  }
  const parsed = parseJson(ex)
  if (!parsed.ok) return parsed.reply
  const body = authenticateBodySchema.safeParse(parsed.value ?? {})
  if (!body.success) return validationError(zodIssues(body.error))
  const role = body.data.role ?? "CUSTOMER"
  const sessionId = body.data.sessionId
  // A CUSTOMER token names an existing session; MERCHANT reaches every session, so its sessionId is ignored.
  if (role === "CUSTOMER" && sessionId && !ex.env.store.sessions.has(sessionId)) return notFound("Session", sessionId)
  return json(200, { token: await ex.env.tokens.issue(role, role === "CUSTOMER" ? sessionId : undefined) })
}

interface ValidSession {
  body: SessionBody
  amountMinor: number
  currency: CurrencyInfo
}

function validateSession(raw: unknown, config: SandboxConfig): { ok: true; value: ValidSession } | { ok: false; reply: Reply } {
  const parsed = sessionBodySchema.safeParse(raw)
  if (!parsed.success) return { ok: false, reply: validationError(zodIssues(parsed.error)) }
  const body = parsed.data
  for (const field of SERVER_FIELDS) delete body[field]
  const issues: FieldIssue[] = []
  if (!config.legacyShopOrderIds && !SHOP_ORDER_ID.test(body.order.orderId)) {
    issues.push({ path: "order.orderId", message: "must match [a-zA-Z0-9-]{1,100}: letters, digits and '-' (it becomes the payment's shop_orderid)" })
  }
  let currency: CurrencyInfo | undefined
  let amountMinor: number | undefined
  try {
    currency = currencyInfo(body.order.amount.currency)
    body.order.amount.currency = currency.alpha
  } catch {
    issues.push({ path: "order.amount.currency", message: `unknown ISO 4217 currency ${body.order.amount.currency}` })
  }
  if (!fitsWireDecimals(body.order.amount.value)) {
    // OrderDetails: "Expects number with 2 decimal places", whatever the currency.
    issues.push({ path: "order.amount.value", message: "can have at most 2 decimals" })
  } else if (currency) {
    try {
      amountMinor = decimalToMinor(body.order.amount.value, currency.alpha)
    } catch {
      issues.push({ path: "order.amount.value", message: `has more than ${currency.exponent} decimals for ${currency.alpha}` })
    }
  }
  if (currency && body.order.orderLines) {
    const lines = validateOrderLines(body.order.orderLines, currency.alpha, "order.orderLines")
    issues.push(...lines.issues)
    if (lines.issues.length === 0 && amountMinor !== undefined && lines.totalMinor !== amountMinor) {
      issues.push({
        path: "order.orderLines",
        message: `the order lines total ${lines.totalMinor} minor units but order.amount is ${amountMinor} minor units`,
      })
    }
  }
  if (issues.length > 0 || !currency || amountMinor === undefined) return { ok: false, reply: validationError(issues) }
  return { ok: true, value: { body, amountMinor, currency } }
}

/** Finds a session the token may reach: 403 for a CUSTOMER token bound elsewhere, 404 when unknown. */
function reachSession(ex: Exchange, claims: TokenClaims, sessionId: string): StoredSession | Reply {
  if (claims.role === "CUSTOMER" && claims.sessionId !== sessionId) {
    return forbidden("This CUSTOMER token does not grant access to that session.")
  }
  return ex.env.store.sessions.get(sessionId) ?? notFound("Session", sessionId)
}

const isSession = (value: StoredSession | Reply): value is StoredSession => "sessionId" in value

export async function createSession(ex: Exchange): Promise<Reply> {
  const claims = await bearerAuth(ex)
  if (isReply(claims)) return claims
  if (claims.role === "CUSTOMER" && claims.sessionId) {
    return forbidden("This CUSTOMER token is bound to a session already; it cannot create another one.")
  }
  const parsed = parseJson(ex)
  if (!parsed.ok) return parsed.reply
  const valid = validateSession(parsed.value ?? {}, ex.env.config)
  if (!valid.ok) return valid.reply
  const now = ex.env.now()
  const session: StoredSession = {
    sessionId: ex.env.store.newId(),
    ...valid.value,
    status: "CREATED",
    createdAt: now,
    updatedAt: now,
    paymentIds: [],
  }
  ex.env.store.sessions.set(session.sessionId, session)
  if (claims.role === "CUSTOMER") ex.env.tokens.bind(claims.jti, session.sessionId)
  return json(200, sessionJson(session))
}

export async function readSession(ex: Exchange, sessionId: string): Promise<Reply> {
  const claims = await bearerAuth(ex)
  if (isReply(claims)) return claims
  const session = reachSession(ex, claims, sessionId)
  return isSession(session) ? json(200, sessionJson(session)) : session
}

const asRecord = (value: unknown): Record<string, unknown> => (value && typeof value === "object" && !Array.isArray(value) ? (value as Record<string, unknown>) : {})

export async function updateSession(ex: Exchange, sessionId: string): Promise<Reply> {
  const claims = await bearerAuth(ex)
  if (isReply(claims)) return claims
  const session = reachSession(ex, claims, sessionId)
  if (!isSession(session)) return session
  if (sessionIsSettled(ex.env, session)) {
    return jsonError(409, "conflict", "The session already has an authorized payment and can no longer change.")
  }
  const parsed = parseJson(ex)
  if (!parsed.ok) return parsed.reply
  if (parsed.value !== undefined && (typeof parsed.value !== "object" || parsed.value === null || Array.isArray(parsed.value))) {
    return validationError([{ path: "", message: "the body must be a JSON object" }])
  }
  const patch = asRecord(parsed.value)
  const current = session.body as Record<string, unknown>
  // Each section merges one level deep; amount and orderLines are replaced whole when sent.
  const merged: Record<string, unknown> = {
    ...current,
    ...patch,
    order: { ...asRecord(current.order), ...asRecord(patch.order) },
    callbacks: { ...asRecord(current.callbacks), ...asRecord(patch.callbacks) },
    configuration: { ...asRecord(current.configuration), ...asRecord(patch.configuration) },
  }
  const valid = validateSession(merged, ex.env.config)
  if (!valid.ok) return valid.reply
  Object.assign(session, valid.value, { updatedAt: ex.env.now() })
  expireUnpaidPayments(ex.env, session)
  return json(200, sessionJson(session))
}

export async function listPaymentMethods(ex: Exchange, sessionId: string): Promise<Reply> {
  const claims = await bearerAuth(ex)
  if (isReply(claims)) return claims
  const session = reachSession(ex, claims, sessionId)
  if (!isSession(session)) return session
  const methods = offeredMethods(ex.env.config).map((m) => ({
    id: m.id,
    type: m.type,
    name: m.name,
    logoUrl: `${ex.env.url}/sandbox/logos/${m.logo ?? m.type.toLowerCase()}.svg`,
    onInitiatePayment: { type: "REDIRECT", value: null },
    metadata: { terminalName: m.terminalName },
  }))
  return json(200, { methods })
}

export async function createPaymentRoute(ex: Exchange): Promise<Reply> {
  const claims = await bearerAuth(ex)
  if (isReply(claims)) return claims
  if (claims.role !== "CUSTOMER") {
    return forbidden("Creating a payment requires a CUSTOMER token for the session (the customer pays, not the merchant).")
  }
  const parsed = parseJson(ex)
  if (!parsed.ok) return parsed.reply
  const body = paymentBodySchema.safeParse(parsed.value ?? {})
  if (!body.success) return validationError(zodIssues(body.error))
  const { sessionId, paymentMethodId } = body.data
  const session = ex.env.store.sessions.get(sessionId)
  if (!session) return notFound("Session", sessionId)
  if (claims.sessionId !== sessionId) return forbidden("This CUSTOMER token does not grant access to that session.")
  const method = findMethod(paymentMethodId, ex.env.config)
  if (!method) return validationError([{ path: "paymentMethodId", message: `unknown payment method ${paymentMethodId}` }])
  if (sessionIsSettled(ex.env, session)) return jsonError(409, "conflict", "The session is already paid.")
  const payment = createPayment(ex.env, session, method)
  ex.env.tokens.spend(claims.jti)
  return json(200, {
    paymentId: payment.paymentId,
    shopOrderId: payment.shopOrderId,
    status: payment.status,
    type: "REDIRECT",
    url: `${ex.env.url}/sandbox/pay/${payment.paymentId}`,
  })
}

export async function readPayment(ex: Exchange, paymentId: string): Promise<Reply> {
  const claims = await bearerAuth(ex)
  if (isReply(claims)) return claims
  const payment = ex.env.store.payments.get(paymentId)
  if (!payment) return notFound("Payment", paymentId)
  if (claims.role === "CUSTOMER" && claims.sessionId !== payment.sessionId) {
    return forbidden("This CUSTOMER token does not grant access to that payment.")
  }
  return json(200, paymentJson(payment))
}

export async function createLink(ex: Exchange, sessionId: string): Promise<Reply> {
  const claims = await bearerAuth(ex)
  if (isReply(claims)) return claims
  if (claims.role !== "MERCHANT") return forbidden("Payment links require a MERCHANT token.")
  const session = reachSession(ex, claims, sessionId)
  if (!isSession(session)) return session
  const parsed = parseJson(ex)
  if (!parsed.ok) return parsed.reply
  const body = linkBodySchema.safeParse(parsed.value ?? {})
  if (!body.success) return validationError(zodIssues(body.error))
  if (sessionIsSettled(ex.env, session)) return jsonError(409, "conflict", "The session is already paid.")
  const now = ex.env.now()
  const link = {
    id: ex.env.store.newId(),
    sessionId,
    url: body.data.url,
    size: body.data.size,
    activationTime: body.data.activationTime,
    createdAt: now,
    expiresAt: now + (body.data.validityTime ?? DEFAULT_LINK_VALIDITY_MINUTES) * 60_000,
  }
  ex.env.store.links.set(link.id, link)
  return json(200, linkJson(link, ex.env.url))
}
