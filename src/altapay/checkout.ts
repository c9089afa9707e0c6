/**
 * Checkout API: sessions, payment methods, payments and payment links. Calls use the cached
 * MERCHANT token unless a CUSTOMER token is passed; a 401 on the MERCHANT token drops it and the
 * call is made once more with a new one (a 401 means AltaPay did nothing).
 */
import type { z } from "zod"
import { AltaPayAuthError, AltaPayBadResponseError, AltaPayValidationError, errorForHttpStatus, snippet, type ValidationIssue } from "./errors"
import { apiUrl, type HttpTransport } from "./http"
import { observeCall, type AltaPayCallSubjects, type CallTally } from "./observer"
import { assertWireAmounts, currencyInfo, minorToWireNumber } from "./money"
import { orderLineWireAmounts, toCheckoutOrderLines, validateOrderLines } from "./order-lines"
import {
  createdPaymentSchema,
  paymentLinkSchema,
  paymentMethodsSchema,
  paymentSchema,
  sessionSchema,
  type CheckoutCustomer,
  type CheckoutPayment,
  type CheckoutSession,
  type CreatedPayment,
  type PaymentLink,
  type PaymentMethod,
} from "./checkout-schemas"
import type { TokenProvider } from "./tokens"
import type { OrderLine } from "./types"

/**
 * Where AltaPay calls the shop, as absolute http(s) URLs. On the wire `success` and `failure` are
 * `{ type: "URL", value }` while `notification`, `redirect` and `formStyling` are plain strings
 * (AltaPay/android-payment-app altapayCheckout/.../model/request/CreateSessionRequest.kt).
 */
export interface SessionCallbacks {
  success?: string
  failure?: string
  redirect?: string
  notification?: string
  formStyling?: string
  /**
   * Where AltaPay asks the shop, just before the money moves, whether the order still stands
   * (the Merchant API's `config[callback_verify_order]`; answer 200 with `OKAY` to go on). The
   * Checkout API documents no session field for it: sent as a plain URL string like
   * `notification`, under this name (docs/altapay-wire-facts.md, "Verify order").
   */
  verifyOrder?: string
}

/** The callbacks AltaPay's clients send as `{ type, value }`; the others are plain URL strings. */
const TARGET_CALLBACKS: ReadonlySet<string> = new Set(["success", "failure"])

export interface SessionInput {
  /** Our reference for the order; AltaPay returns it as shop_orderid. */
  orderId: string
  amountMinor: number
  currency: string
  orderLines?: OrderLine[]
  customer?: CheckoutCustomer
  transactionInfo?: Record<string, string>
  callbacks?: SessionCallbacks
  configuration?: {
    autoCapture?: boolean
    paymentType?: string
    paymentDisplayType?: string
    country?: string
    language?: string
    /** How AltaPay formats callback bodies: XML (default) or JSON (CreateSessionRequest.kt Configuration). */
    bodyFormat?: "XML" | "JSON"
    [key: string]: unknown
  }
}

export interface RequestOptions {
  /** A CUSTOMER token to act with instead of the MERCHANT token. */
  customerToken?: string
}

/** A payment link's options (Checkout API CreatePaymentLink page). */
export interface PaymentLinkInput {
  /** A payment page of the merchant's own to use instead of AltaPay's. */
  url?: string
  /** QR code size in pixels (AltaPay's default 500). */
  size?: number
  /** Minutes the link can be opened (`validityTime`; AltaPay's default 14 days). */
  validityMinutes?: number
  /** Minutes the link stays usable once the customer opened it (`activationTime`; default 10). */
  activationMinutes?: number
}

const ORDER_ID_MAX = 100

/** One Checkout API call: the path with its ids, the path's template for names, the ids for the observer. */
interface CheckoutCall {
  method: "GET" | "POST" | "PUT"
  path: string
  template: string
  body?: unknown
  customerToken?: string
  subjects?: AltaPayCallSubjects
}
const API = "/checkout/v1/api"

export class CheckoutApi {
  private readonly base: URL

  constructor(
    private readonly http: HttpTransport,
    private readonly tokens: TokenProvider,
    checkoutUrl: string
  ) {
    this.base = new URL(checkoutUrl)
  }

  async createSession(input: SessionInput, options: RequestOptions = {}): Promise<CheckoutSession> {
    return this.call(sessionSchema, { method: "POST", path: "/session", template: "/session", body: sessionBody(input), subjects: { shopOrderId: input.orderId }, ...options })
  }

  async getSession(sessionId: string, options: RequestOptions = {}): Promise<CheckoutSession> {
    return this.call(sessionSchema, { method: "GET", path: `/session/${segment(sessionId, "sessionId")}`, template: "/session/{sessionId}", subjects: { sessionId }, ...options })
  }

  async updateSession(sessionId: string, input: SessionInput, options: RequestOptions = {}): Promise<CheckoutSession> {
    return this.call(sessionSchema, {
      method: "PUT",
      path: `/session/${segment(sessionId, "sessionId")}`,
      template: "/session/{sessionId}",
      body: sessionBody(input),
      subjects: { sessionId, shopOrderId: input.orderId },
      ...options,
    })
  }

  async listPaymentMethods(sessionId: string, options: RequestOptions = {}): Promise<PaymentMethod[]> {
    const res = await this.call(paymentMethodsSchema, {
      method: "GET",
      path: `/session/${segment(sessionId, "sessionId")}/payment-methods`,
      template: "/session/{sessionId}/payment-methods",
      subjects: { sessionId },
      ...options,
    })
    return res.methods
  }

  /** Creates the payment for a session. AltaPay requires a CUSTOMER token for this call. */
  async createPayment(input: { sessionId: string; paymentMethodId: string }, options: Required<RequestOptions>): Promise<CreatedPayment> {
    segment(input.sessionId, "sessionId")
    segment(input.paymentMethodId, "paymentMethodId")
    return this.call(createdPaymentSchema, { method: "POST", path: "/payment", template: "/payment", body: input, subjects: { sessionId: input.sessionId }, ...options })
  }

  async getPayment(paymentId: string, options: RequestOptions = {}): Promise<CheckoutPayment> {
    return this.call(paymentSchema, { method: "GET", path: `/payment/${segment(paymentId, "paymentId")}`, template: "/payment/{paymentId}", subjects: { paymentId }, ...options })
  }

  async createPaymentLink(sessionId: string, input: PaymentLinkInput = {}): Promise<PaymentLink> {
    return this.call(paymentLinkSchema, {
      method: "POST",
      path: `/session/${segment(sessionId, "sessionId")}/link`,
      template: "/session/{sessionId}/link",
      body: paymentLinkBody(input),
      subjects: { sessionId },
    })
  }

  private async call<S extends z.ZodType>(schema: S, req: CheckoutCall): Promise<z.infer<S>> {
    const start = { operation: `${req.method} ${API}${req.template}`, subjects: req.subjects }
    return observeCall(
      this.http.observer,
      start,
      (tally) => this.callOnce(schema, req, tally),
      () => ({ outcome: "success" })
    )
  }

  private async callOnce<S extends z.ZodType>(schema: S, req: CheckoutCall, tally: CallTally): Promise<z.infer<S>> {
    const operation = `${req.method} ${API}${req.template}`
    const url = apiUrl(this.base, `${API}${req.path}`)
    // GET and PUT carry the whole state: sending them twice does nothing twice.
    const safeToRetry = req.method !== "POST"
    const send = (token: string) =>
      this.http.request({
        method: req.method,
        url,
        headers: {
          authorization: `Bearer ${token}`,
          accept: "application/json",
          ...(req.body === undefined ? {} : { "content-type": "application/json" }),
        },
        body: req.body === undefined ? undefined : JSON.stringify(req.body),
        safeToRetry,
        operation,
        tally,
      })

    let res
    if (req.customerToken) {
      res = await send(req.customerToken)
    } else {
      const token = await this.tokens.merchantToken()
      res = await send(token)
      if (res.status === 401) {
        await this.tokens.invalidateMerchantToken(token)
        tally.retries += 1
        res = await send(await this.tokens.merchantToken())
      }
    }
    if (res.status < 200 || res.status >= 300) {
      const error = errorForHttpStatus(res.status, res.body, operation, !safeToRetry)
      if (error instanceof AltaPayAuthError && req.customerToken) {
        throw new AltaPayAuthError(`${error.message} CUSTOMER tokens are single-session and spent once a payment is created; issue a new one.`, {
          status: res.status,
          operation,
        })
      }
      throw error
    }
    return parseJson(schema, res.body, operation, !safeToRetry, res.status)
  }
}

function parseJson<S extends z.ZodType>(schema: S, body: string, operation: string, stateChanging: boolean, status: number): z.infer<S> {
  let json: unknown
  try {
    json = JSON.parse(body)
  } catch (cause) {
    throw new AltaPayBadResponseError(`AltaPay answered ${operation} with a body that is not JSON.`, {
      status,
      operation,
      mayHaveReachedAltaPay: stateChanging,
      bodySnippet: snippet(body),
      cause,
    })
  }
  const parsed = schema.safeParse(json)
  if (!parsed.success) {
    const fields = parsed.error.issues.map((i) => `${i.path.join(".") || "(root)"}: ${i.message}`).join("; ")
    throw new AltaPayBadResponseError(`AltaPay's answer to ${operation} does not have the expected shape (${fields}).`, {
      status,
      operation,
      mayHaveReachedAltaPay: stateChanging,
      bodySnippet: snippet(body),
    })
  }
  return parsed.data
}

/** Builds the JSON body of a session, after checking what AltaPay would refuse. */
export function sessionBody(input: SessionInput): Record<string, unknown> {
  const issues: ValidationIssue[] = []
  if (!input.orderId || [...input.orderId].length > ORDER_ID_MAX) {
    issues.push({ field: "orderId", message: `required, at most ${ORDER_ID_MAX} characters` })
  }
  if (!Number.isSafeInteger(input.amountMinor) || input.amountMinor <= 0) {
    issues.push({ field: "amountMinor", message: "must be a positive integer amount in minor units" })
  }
  let currency: string | undefined
  try {
    currency = currencyInfo(input.currency).alpha
  } catch {
    issues.push({ field: "currency", message: `unknown ISO 4217 currency ${input.currency}` })
  }
  for (const [name, value] of Object.entries(input.callbacks ?? {})) {
    if (value === undefined) continue
    if (!/^https?:\/\//i.test(String(value))) issues.push({ field: `callbacks.${name}`, message: "must be an absolute http(s) URL" })
  }
  if (issues.length === 0 && input.orderLines) {
    try {
      validateOrderLines(input.orderLines, { currency: input.currency, expectedTotalMinor: input.amountMinor })
    } catch (error) {
      if (error instanceof AltaPayValidationError) issues.push(...error.issues)
      else throw error
    }
  }
  if (issues.length > 0 || !currency) {
    throw new AltaPayValidationError(`The checkout session is invalid: ${issues.map((i) => `${i.field} ${i.message}`).join("; ")}.`, issues)
  }
  // The amount and every line's unit price and tax must fit AltaPay's 2 decimals: refused, never rounded.
  assertWireAmounts([["order.amount.value", input.amountMinor], ...orderLineWireAmounts(input.orderLines ?? [], "order.orderLines")], currency)
  const callbacks = Object.fromEntries(
    Object.entries(input.callbacks ?? {})
      .filter(([, value]) => value !== undefined)
      .map(([name, value]) => [name, TARGET_CALLBACKS.has(name) ? { type: "URL", value } : value])
  )
  return {
    order: {
      orderId: input.orderId,
      amount: { value: minorToWireNumber(input.amountMinor, currency), currency },
      ...(input.orderLines ? { orderLines: toCheckoutOrderLines(input.orderLines, currency) } : {}),
      ...(input.customer ? { customer: input.customer } : {}),
      ...(input.transactionInfo ? { transactionInfo: input.transactionInfo } : {}),
    },
    callbacks,
    configuration: { paymentType: "PAYMENT", paymentDisplayType: "REDIRECT", ...input.configuration },
  }
}

/** The JSON body of a payment link: AltaPay counts `validityTime` and `activationTime` in minutes. */
export function paymentLinkBody(input: PaymentLinkInput): Record<string, unknown> {
  const issues: ValidationIssue[] = []
  const minutes = (field: string, value: number | undefined) => {
    if (value !== undefined && (!Number.isSafeInteger(value) || value <= 0)) issues.push({ field, message: "must be a positive whole number of minutes" })
  }
  minutes("validityMinutes", input.validityMinutes)
  minutes("activationMinutes", input.activationMinutes)
  if (input.size !== undefined && (!Number.isSafeInteger(input.size) || input.size <= 0)) issues.push({ field: "size", message: "must be a positive number of pixels" })
  if (input.url !== undefined && !/^https?:\/\//i.test(input.url)) issues.push({ field: "url", message: "must be an absolute http(s) URL" })
  if (issues.length > 0) {
    throw new AltaPayValidationError(`The payment link is invalid: ${issues.map((i) => `${i.field} ${i.message}`).join("; ")}.`, issues)
  }
  return {
    ...(input.url !== undefined ? { url: input.url } : {}),
    ...(input.size !== undefined ? { size: input.size } : {}),
    ...(input.validityMinutes !== undefined ? { validityTime: input.validityMinutes } : {}),
    ...(input.activationMinutes !== undefined ? { activationTime: input.activationMinutes } : {}),
  }
}

/** Ids go into paths: refuse anything that could change the path. */
function segment(id: string, field: string): string {
  if (typeof id !== "string" || !/^[A-Za-z0-9_-]{1,100}$/.test(id)) {
    throw new AltaPayValidationError(`Invalid ${field}: expected an AltaPay id, got "${String(id).slice(0, 40)}".`, [
      { field, message: "must be 1-100 letters, digits, '-' or '_'" },
    ])
  }
  return id
}
