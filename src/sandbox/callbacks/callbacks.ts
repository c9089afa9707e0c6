/**
 * The notification callback AltaPay POSTs to the merchant: a form with the payment's outcome, its
 * `payments` XML, a legacy md5 checksum and the `AltaPay-Signature` HMAC header. Delivery never
 * throws: a target that is down is recorded in the ledger with status 0.
 */
import { createHash, createHmac, randomBytes, randomUUID } from "node:crypto"
import * as http from "node:http"
import * as https from "node:https"
import { decimalToMinor, minorToDecimal } from "../../altapay/money"
import { unixSeconds } from "../clock"
import type { Exchange, SandboxEnv } from "../env"
import { paymentsResponse } from "../gateway/gateway-xml"
import { json, jsonError, type Reply } from "../http"
import { RESERVED_STATUSES, type StoredPayment, type StoredTransaction } from "../state"

export type SignatureMode = "valid" | "forged" | "none"

export interface CallbackOptions {
  signature?: SignatureMode
  /** Unix seconds for the signature's `t`; defaults to the sandbox clock. */
  timestamp?: number
  /**
   * `cardholder_message_must_be_shown` for a failed payment (AltaPay's OK and fail pages: the
   * customer must see `error_message` when it is true). Default false: the acquirer's text is a
   * fallback the shop may replace.
   */
  cardholderMessageMustBeShown?: boolean
}

export interface CallbackDelivery {
  status: number
  body: string
}

const TIMEOUT_MS = 5000

/** The `status` AltaPay reports to the shop for a payment: in the callback and in the redirect. */
export function outcomeStatus(t: StoredTransaction): string {
  if (t.status === "epayment_declined") return "declined"
  if (t.status === "preauth_error" || t.status === "recurring_failed" || t.status === "3dsecure_failed") return "failed"
  if (t.status === "pending") return "open"
  return "succeeded"
}

/** md5 over the sorted `key=value` pairs AltaPay's legacy checksum uses. */
export function legacyChecksum(fields: { amount: string; currency: string; shop_orderid: string }, secret: string): string {
  const text = `amount=${fields.amount},currency=${fields.currency},secret=${secret},shop_orderid=${fields.shop_orderid}`
  return createHash("md5").update(text).digest("hex")
}

export function signatureHeader(rawBody: string, timestamp: number, secret: string): string {
  const s0 = createHmac("sha256", secret).update(`${rawBody}.${timestamp}`).digest("hex")
  return `t=${timestamp};s0=${s0}`
}

export function buildCallback(env: SandboxEnv, payment: StoredPayment, t: StoredTransaction, options: CallbackOptions): { body: string; headers: Record<string, string> } {
  const mode = options.signature ?? "valid"
  const secret = env.config.callbackSecret
  // A forged callback is signed with a key the merchant does not know.
  const signingKey = mode === "forged" ? randomBytes(16).toString("hex") : secret
  const fields = new URLSearchParams()
  const amount = minorToDecimal(payment.amountMinor, t.currency.alpha)
  fields.set("shop_orderid", t.shopOrderId)
  fields.set("amount", amount)
  fields.set("currency", t.currency.numeric)
  fields.set("type", t.authType)
  fields.set("transaction_id", t.transactionId)
  fields.set("payment_id", t.paymentId)
  fields.set("status", outcomeStatus(t))
  fields.set("payment_status", t.status)
  fields.set("require_capture", String(RESERVED_STATUSES.has(t.status)))
  fields.set("nature", t.nature)
  if (t.merchantErrorMessage) {
    fields.set("error_message", t.cardHolderErrorMessage ?? t.merchantErrorMessage)
    fields.set("merchant_error_message", t.merchantErrorMessage)
    fields.set("cardholder_message_must_be_shown", String(options.cardholderMessageMustBeShown ?? t.cardHolderMessageMustBeShown ?? false))
  }
  for (const [key, value] of Object.entries(t.paymentInfos)) fields.set(`transaction_info[${key}]`, value)
  fields.set("xml", paymentsResponse([t], env.now()))
  if (signingKey && mode !== "none") {
    fields.set("checksum", legacyChecksum({ amount, currency: t.currency.numeric, shop_orderid: t.shopOrderId }, signingKey))
  }
  const body = fields.toString()
  const headers: Record<string, string> = { "content-type": "application/x-www-form-urlencoded" }
  if (signingKey && mode !== "none") {
    headers["altapay-signature"] = signatureHeader(body, options.timestamp ?? unixSeconds(env.now()), signingKey)
  }
  return { body, headers }
}

export interface ChargebackInput {
  /** Default: "Chargeback". */
  type?: string
  reasonCode?: string
  reason?: string
  /** Minor units; default the captured (else reserved) amount. */
  amountMinor?: number
  /** Default: the transaction's moment on the sandbox clock. */
  date?: string
  acquirerTransactionId?: string
}

/**
 * The chargeback notification AltaPay posts (Scenarios: Chargebacks): the payment's callback form
 * with status ChargebackEvent, its xml's Transaction carrying the ChargebackEvents (sdk-csharp
 * Unit/txt/ChargebackEvent.xml), signed like every callback.
 */
export function buildChargebackCallback(
  env: SandboxEnv,
  payment: StoredPayment,
  t: StoredTransaction,
  input: ChargebackInput,
  options: CallbackOptions = {}
): { body: string; headers: Record<string, string> } {
  const { body } = buildCallback(env, payment, t, options)
  const fields = new URLSearchParams(body)
  const amountMinor = input.amountMinor ?? (t.capturedMinor || t.reservedMinor)
  const events = [
    "<ChargebackEvents><ChargebackEvent>",
    `<Date>${input.date ?? new Date(env.now()).toISOString().replace(/\.\d{3}Z$/, "+00:00")}</Date>`,
    `<Type>${xmlText(input.type ?? "Chargeback")}</Type>`,
    `<ReasonCode>${xmlText(input.reasonCode ?? "4837")}</ReasonCode>`,
    `<Reason>${xmlText(input.reason ?? "No Cardholder Authorization")}</Reason>`,
    `<Amount>${minorToDecimal(amountMinor, t.currency.alpha)}</Amount>`,
    `<Currency>${t.currency.alpha}</Currency>`,
    `<AcquirerTransactionId>${xmlText(input.acquirerTransactionId ?? randomUUID())}</AcquirerTransactionId>`,
    "</ChargebackEvent></ChargebackEvents>",
  ].join("")
  fields.set("status", "ChargebackEvent")
  // The whole notification's xml as sdk-csharp's ChargebackEvent.xml has it: Result ChargebackEvent,
  // an empty Path, the events inside the payment's Transaction.
  const xml = (fields.get("xml") ?? "")
    .replace("</Transaction>", `${events}</Transaction>`)
    .replace(/<Path>[^<]*<\/Path>/, "<Path/>")
    .replace("<Result>Success</Result>", "<Result>ChargebackEvent</Result>")
  fields.set("xml", xml)
  const rawBody = fields.toString()
  const mode = options.signature ?? "valid"
  const signingKey = mode === "forged" ? randomBytes(16).toString("hex") : env.config.callbackSecret
  const headers: Record<string, string> = { "content-type": "application/x-www-form-urlencoded" }
  if (signingKey && mode !== "none") headers["altapay-signature"] = signatureHeader(rawBody, options.timestamp ?? unixSeconds(env.now()), signingKey)
  return { body: rawBody, headers }
}

const xmlText = (value: string): string => value.replace(/&/g, "&amp;").replace(/</g, "&lt;").replace(/>/g, "&gt;")

/** POSTs a chargeback notification for a transaction to its session's notification URL; recorded in the ledger. */
export async function deliverChargeback(
  env: SandboxEnv,
  payment: StoredPayment,
  t: StoredTransaction,
  input: ChargebackInput,
  options: CallbackOptions = {}
): Promise<CallbackDelivery> {
  const session = env.store.sessions.get(payment.sessionId)
  const target = session?.body.callbacks?.notification
  if (!target) throw new Error(`The session of payment ${payment.paymentId} has no callbacks.notification URL.`)
  const { body, headers } = buildChargebackCallback(env, payment, t, input, options)
  const url = new URL(target)
  const answer = await post(url, body, headers)
  recordDelivery(
    env,
    url,
    "callback.chargeback",
    { payment_id: payment.paymentId, transaction_id: t.transactionId, status: "ChargebackEvent", signed: options.signature ?? "valid" },
    answer
  )
  return { status: answer.status, body: answer.body }
}

/**
 * POST /sandbox/chargeback/:transactionId (the command's way to send one): form fields `type`,
 * `reason_code`, `reason`, `amount` (decimal), `date`, `acquirer_transaction_id`, all optional.
 * Answers JSON with the notification URL's status; 404 for an unknown transaction.
 */
export async function chargebackRoute(ex: Exchange, transactionId: string): Promise<Reply> {
  const form = new URLSearchParams(ex.rawBody)
  const t = ex.env.store.transactions.get(transactionId)
  const payment = t ? ex.env.store.payments.get(t.paymentId) : undefined
  ex.params = Object.fromEntries(form)
  if (!t || !payment) return jsonError(404, "not_found", `Unknown transaction ${transactionId}.`)
  const field = (name: string) => form.get(name) || undefined
  const amount = field("amount")
  if (amount !== undefined && !/^\d+(\.\d{1,2})?$/.test(amount)) return jsonError(400, "bad_amount", "amount must be a decimal such as 250.00.")
  try {
    const delivery = await deliverChargeback(ex.env, payment, t, {
      type: field("type"),
      reasonCode: field("reason_code"),
      reason: field("reason"),
      amountMinor: amount === undefined ? undefined : decimalToMinor(amount, t.currency.alpha),
      date: field("date"),
      acquirerTransactionId: field("acquirer_transaction_id"),
    })
    return json(200, { notificationStatus: delivery.status })
  } catch (error) {
    return jsonError(409, "no_notification_url", error instanceof Error ? error.message : String(error))
  }
}

/** POSTs the callback for a payment to its session's notification URL and records the delivery. */
export async function deliverCallback(env: SandboxEnv, payment: StoredPayment, options: CallbackOptions = {}): Promise<CallbackDelivery> {
  const transaction = payment.transactionId ? env.store.transactions.get(payment.transactionId) : undefined
  if (!transaction) throw new Error(`Payment ${payment.paymentId} has no transaction yet: pay it before sending its callback.`)
  const session = env.store.sessions.get(payment.sessionId)
  const target = session?.body.callbacks?.notification
  if (!target) throw new Error(`The session of payment ${payment.paymentId} has no callbacks.notification URL.`)
  const delivery = await sendForm(env, payment, transaction, target, "callback.notification", options)
  return { status: delivery.status, body: delivery.body }
}

/**
 * POSTs a paid payment's signed callback form to `target` (the notification, success or failure
 * URL) and records the delivery in the ledger, with `extra` params derived from the answer.
 */
export async function sendForm(
  env: SandboxEnv,
  payment: StoredPayment,
  transaction: StoredTransaction,
  target: string,
  operation: string,
  options: CallbackOptions = {},
  extra: (answer: PostAnswer) => Record<string, unknown> = () => ({})
): Promise<PostAnswer> {
  const { body, headers } = buildCallback(env, payment, transaction, options)
  const url = new URL(target)
  const answer = await post(url, body, headers)
  recordDelivery(
    env,
    url,
    operation,
    { payment_id: payment.paymentId, transaction_id: transaction.transactionId, status: outcomeStatus(transaction), signed: options.signature ?? "valid", ...extra(answer) },
    answer
  )
  return answer
}

/** A post the sandbox made to the merchant, in the ledger. */
export function recordDelivery(env: SandboxEnv, url: URL, operation: string, params: Record<string, unknown>, answer: PostAnswer): void {
  env.ledger.record({
    at: env.now(),
    api: "callback",
    method: "POST",
    path: url.pathname,
    url: `${url.origin}${url.pathname}`,
    operation,
    auth: "none",
    params,
    status: answer.status,
    ...(answer.error ? { error: answer.error } : {}),
  })
}

export interface PostAnswer {
  status: number
  body: string
  /** The answer's Location header, if any (return deliveries relay redirects). */
  location?: string
  contentType?: string
  error?: string
}

/** POSTs a form server to server, without following redirects; never throws (status 0 when unreachable). */
export function post(url: URL, body: string, headers: Record<string, string>): Promise<PostAnswer> {
  const transport = url.protocol === "https:" ? https : http
  return new Promise((resolve) => {
    const request = transport.request(
      url,
      { method: "POST", headers: { ...headers, "content-length": String(Buffer.byteLength(body)) }, agent: false, timeout: TIMEOUT_MS },
      (response) => {
        const chunks: Buffer[] = []
        response.on("data", (chunk: Buffer) => chunks.push(chunk))
        response.on("end", () =>
          resolve({
            status: response.statusCode ?? 0,
            body: Buffer.concat(chunks).toString("utf8"),
            ...(response.headers.location ? { location: response.headers.location } : {}),
            ...(response.headers["content-type"] ? { contentType: response.headers["content-type"] } : {}),
          })
        )
        response.on("error", (error) => resolve({ status: 0, body: "", error: error.message }))
      }
    )
    request.on("timeout", () => request.destroy(new Error(`callback timed out after ${TIMEOUT_MS} ms`)))
    request.on("error", (error) => resolve({ status: 0, body: "", error: error.message }))
    request.end(body)
  })
}
