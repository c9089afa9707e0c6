/**
 * AltaPay notification callbacks: signature verification (fail closed) and a typed view of the
 * form body. `AltaPay-Signature: t=<unix seconds>;s0=<hex>[;s1=<hex>]` where each sN is
 * hex HMAC-SHA256(secret, rawBody + "." + t); several sN appear while AltaPay rotates secrets.
 * AltaPay's own verifier (salesforce-headless-commerce-pwa lib/api/middleware/webhook.js) does not
 * look at the age of `t`; we do, but only to decide whether the body alone can be trusted.
 */
import { createHash, createHmac, timingSafeEqual } from "node:crypto"
import { z } from "zod"
import { CHARGEBACK_STATUS, chargebackEventsIn, type ChargebackEvent } from "./chargebacks"
import { AltaPayCallbackSignatureError, AltaPayStaleCallbackSignatureError, AltaPayValidationError } from "./errors"
import { decimalToMinor, currencyInfo } from "./money"
import { latestTransaction, parseGatewayResponse } from "./xml"

export const SIGNATURE_HEADER = "altapay-signature"
export const DEFAULT_SIGNATURE_TOLERANCE_SECONDS = 300

export interface VerifyCallbackOptions {
  rawBody: string | Buffer
  signatureHeader: string | string[] | undefined
  /** The callback secret; several while rotating. */
  secret: string | string[]
  /**
   * Oldest (and most future) `t` whose body is trusted on its own. A matching signature outside it
   * throws AltaPayStaleCallbackSignatureError: the caller confirms the callback with AltaPay.
   */
  toleranceSeconds?: number
  now?: () => number
}

/**
 * Throws AltaPayCallbackSignatureError unless a signature matches, and its subclass
 * AltaPayStaleCallbackSignatureError when one matches but its timestamp is not recent.
 */
export function verifyCallbackSignature(options: VerifyCallbackOptions): { timestamp: number } {
  const header = Array.isArray(options.signatureHeader) ? options.signatureHeader[0] : options.signatureHeader
  if (!header) throw new AltaPayCallbackSignatureError("The callback carries no AltaPay-Signature header.")
  const parts = new Map<string, string[]>()
  for (const part of header.split(/[;,]/)) {
    const eq = part.indexOf("=")
    if (eq <= 0) continue
    const key = part.slice(0, eq).trim()
    parts.set(key, [...(parts.get(key) ?? []), part.slice(eq + 1).trim()])
  }
  const timestampText = parts.get("t")?.[0]
  if (!timestampText || !/^\d{1,12}$/.test(timestampText)) {
    throw new AltaPayCallbackSignatureError("The AltaPay-Signature header has no valid timestamp (t=).")
  }
  const timestamp = Number(timestampText)
  const candidates = [...parts.entries()].filter(([k]) => /^s\d+$/.test(k)).flatMap(([, v]) => v)
  if (candidates.length === 0) throw new AltaPayCallbackSignatureError("The AltaPay-Signature header has no signature (s0=).")

  const body = typeof options.rawBody === "string" ? Buffer.from(options.rawBody, "utf8") : options.rawBody
  const secrets = (Array.isArray(options.secret) ? options.secret : [options.secret]).filter((s) => s.length > 0)
  if (secrets.length === 0) throw new AltaPayCallbackSignatureError("No callback secret is configured, so no callback can be trusted.")
  for (const secret of secrets) {
    const expected = createHmac("sha256", secret).update(body).update(`.${timestampText}`).digest()
    for (const candidate of candidates) {
      if (!/^[0-9a-fA-F]{64}$/.test(candidate)) continue
      if (timingSafeEqual(expected, Buffer.from(candidate, "hex"))) return checkAge(timestamp, options)
    }
  }
  throw new AltaPayCallbackSignatureError("The callback's AltaPay-Signature does not match: check the callback secret.")
}

function checkAge(timestamp: number, options: VerifyCallbackOptions): { timestamp: number } {
  const tolerance = options.toleranceSeconds ?? DEFAULT_SIGNATURE_TOLERANCE_SECONDS
  const age = Math.floor((options.now ?? Date.now)() / 1000) - timestamp
  if (Math.abs(age) > tolerance) {
    throw new AltaPayStaleCallbackSignatureError(
      `The callback is signed by AltaPay, but its signature timestamp is ${age} s away from now (tolerance ${tolerance} s): its content is not trusted on its own.`,
      age
    )
  }
  return { timestamp }
}

/**
 * Whether a callback's body can be trusted on its own: true for a matching, recent signature;
 * false for a matching but stale one (confirm it with AltaPay, do not drop it); throws
 * AltaPayCallbackSignatureError for a missing, malformed or wrong one.
 */
export function isFreshlySigned(options: VerifyCallbackOptions): boolean {
  try {
    verifyCallbackSignature(options)
    return true
  } catch (error) {
    if (error instanceof AltaPayStaleCallbackSignatureError) return false
    throw error
  }
}

/** Computes the header value for a body; for tests, tools and the sandbox's clients. */
export function signCallbackBody(rawBody: string | Buffer, secret: string, timestampSeconds: number): string {
  const s0 = createHmac("sha256", secret).update(rawBody).update(`.${timestampSeconds}`).digest("hex")
  return `t=${timestampSeconds};s0=${s0}`
}

/** The legacy `checksum` field: md5 of the sorted `key=value` pairs amount, currency, secret, shop_orderid. */
export function callbackChecksum(fields: { amount: string; currency: string; shop_orderid: string }, secret: string): string {
  const text = [`amount=${fields.amount}`, `currency=${fields.currency}`, `secret=${secret}`, `shop_orderid=${fields.shop_orderid}`].join(",")
  return createHash("md5").update(text).digest("hex")
}

const callbackFormSchema = z.looseObject({
  shop_orderid: z.string().min(1),
  transaction_id: z
    .string()
    .regex(/^[0-9a-f]{1,32}$/)
    .optional(),
  payment_id: z.string().optional(),
  status: z.string().min(1),
  payment_status: z.string().optional(),
  amount: z.string().optional(),
  currency: z.string().optional(),
  type: z.string().optional(),
  require_capture: z.string().optional(),
  nature: z.string().optional(),
  error_message: z.string().optional(),
  merchant_error_message: z.string().optional(),
  cardholder_message_must_be_shown: z.string().optional(),
  xml: z.string().optional(),
})

export interface AltaPayCallback {
  shopOrderId: string
  transactionId?: string
  paymentId?: string
  /** succeeded, open, failed, error, cancelled, incomplete, declined, new ... (lower case). */
  status: string
  /** TransactionStatus, e.g. preauth or captured: `payment_status`, else the order's latest transaction in `xml`. */
  paymentStatus?: string
  amountMinor?: number
  /** ISO 4217 alpha. */
  currency?: string
  type?: string
  requireCapture?: boolean
  merchantErrorMessage?: string
  /**
   * The message for the customer's eyes when AltaPay requires it shown: `error_message` when
   * `cardholder_message_must_be_shown` is true, and always for Klarna (the Payment OK page: "You must
   * include the message for Klarna payments, or if the cardholder_message_must_be_shown return
   * parameter is true"). Klarna: the `xml`'s terminal or payment service names Klarna.
   */
  cardholderMessage?: string
  transactionInfo: Record<string, string>
  /** The payments XML AltaPay attaches, if any. */
  xml?: string
  /** For `status=ChargebackEvent`: the events in `xml` (chargebacks.ts); undefined for any other status. */
  chargebacks?: ChargebackEvent[]
}

/** Reads a callback form body (raw text, URLSearchParams or an already parsed object). */
export function parseCallback(body: string | URLSearchParams | Record<string, unknown>): AltaPayCallback {
  const fields = toFields(body)
  const parsed = callbackFormSchema.safeParse(fields)
  if (!parsed.success) {
    const issues = parsed.error.issues.map((i) => ({ field: i.path.join(".") || "body", message: i.message }))
    throw new AltaPayValidationError(`The AltaPay callback is not usable: ${issues.map((i) => `${i.field} ${i.message}`).join("; ")}.`, issues)
  }
  const form = parsed.data
  let currency: string | undefined
  let amountMinor: number | undefined
  if (form.currency) currency = currencyInfo(form.currency).alpha
  if (form.amount !== undefined && form.amount !== "" && currency) amountMinor = decimalToMinor(form.amount, currency)
  const transactionInfo: Record<string, string> = {}
  // Body parsers turn `transaction_info[k]=v` into `{ transaction_info: { k: v } }`.
  const nested = fields.transaction_info
  if (nested !== null && typeof nested === "object" && !Array.isArray(nested)) {
    for (const [key, value] of Object.entries(nested)) if (typeof value === "string") transactionInfo[key] = value
  }
  for (const [key, value] of Object.entries(fields)) {
    const match = /^transaction_info\[(.+)\]$/.exec(key)
    if (match && typeof value === "string") transactionInfo[match[1]] = value
  }
  return {
    shopOrderId: form.shop_orderid,
    transactionId: form.transaction_id,
    paymentId: form.payment_id || undefined,
    status: form.status.toLowerCase(),
    paymentStatus: (form.payment_status ?? transactionStatusIn(form.xml, form.shop_orderid))?.toLowerCase(),
    amountMinor,
    currency,
    type: form.type,
    requireCapture: form.require_capture === undefined ? undefined : /^(true|1)$/i.test(form.require_capture),
    merchantErrorMessage: form.merchant_error_message || form.error_message || undefined,
    cardholderMessage: cardholderMessageOf(form),
    transactionInfo,
    xml: form.xml,
    ...(form.status.toLowerCase() === CHARGEBACK_STATUS ? { chargebacks: form.xml ? chargebackEventsIn(form.xml) : [] } : {}),
  }
}

/**
 * The TransactionStatus of the order's latest transaction in the callback's `xml`: the Payment OK
 * page documents every field in `xml` and recommends relying on it; `payment_status` is not on it.
 */
function transactionStatusIn(xml: string | undefined, shopOrderId: string): string | undefined {
  if (!xml) return undefined
  try {
    const transactions = parseGatewayResponse(xml).transactions.filter((t) => t.shopOrderId === undefined || t.shopOrderId === shopOrderId)
    return latestTransaction(transactions)?.transactionStatus || undefined
  } catch {
    return undefined
  }
}

/**
 * `error_message` when `cardholder_message_must_be_shown` is true or the payment is Klarna's. When
 * the form leaves them out, the `xml`'s Body says the same as CardHolderErrorMessage and
 * CardHolderMessageMustBeShown, which is where AltaPay's C# SDK reads them (ParsePostBackXmlResponse,
 * `PaymentResult.ResultMessageMustBeShown`).
 */
function cardholderMessageOf(form: { error_message?: string; cardholder_message_must_be_shown?: string; xml?: string; shop_orderid: string }): string | undefined {
  let body: Record<string, unknown> = {}
  if (form.xml && (!form.error_message?.trim() || form.cardholder_message_must_be_shown === undefined)) {
    try {
      body = parseGatewayResponse(form.xml).body
    } catch {
      body = {}
    }
  }
  const fromXml = (key: string): string | undefined => (typeof body[key] === "string" ? body[key] : undefined)
  const message = (form.error_message?.trim() || fromXml("CardHolderErrorMessage")?.trim()) ?? ""
  const mustBeShown = form.cardholder_message_must_be_shown ?? fromXml("CardHolderMessageMustBeShown") ?? ""
  return message && (/^true$/i.test(mustBeShown) || isKlarnaIn(form.xml, form.shop_orderid)) ? message : undefined
}

/** Whether the order's latest transaction in `xml` is a Klarna payment (its terminal or payment service names Klarna). */
function isKlarnaIn(xml: string | undefined, shopOrderId: string): boolean {
  if (!xml) return false
  try {
    const transactions = parseGatewayResponse(xml).transactions.filter((t) => t.shopOrderId === undefined || t.shopOrderId === shopOrderId)
    const latest = latestTransaction(transactions)
    return /klarna/i.test(`${latest?.terminal ?? ""} ${latest?.paymentNatureService?.name ?? ""}`)
  } catch {
    return false
  }
}

function toFields(body: string | URLSearchParams | Record<string, unknown>): Record<string, unknown> {
  if (typeof body === "string") return Object.fromEntries(new URLSearchParams(body))
  if (body instanceof URLSearchParams) return Object.fromEntries(body)
  return body
}
