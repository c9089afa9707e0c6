/**
 * Reads the gateway's XML `APIResponse` into typed objects. Lenient where real responses vary
 * (one Transaction node or many, empty elements, CDATA padded with newlines, other `version`s,
 * elements we do not know), strict where a wrong reading would cost money: amounts are parsed
 * exactly into minor units, and a body we cannot read is an AltaPayBadResponseError, never a
 * TypeError.
 */
import { XMLParser, XMLValidator } from "fast-xml-parser"
import { z } from "zod"
import { AltaPayBadResponseError, snippet, type AltaPayErrorDetails } from "./errors"
import {
  FAILED_RESULTS,
  type Address,
  type CardExpiry,
  type CardInformation,
  type CustomerInfo,
  type GatewayAmount,
  type GatewayResponse,
  type GatewayTransaction,
  type PaymentInfo,
  type PaymentNatureService,
  type ReconciliationIdentifier,
} from "./gateway-types"
import { currencyInfo, minorToDecimalWithExponent } from "./money"

const ATTR = "@_"
const TEXT = "#text"

/** Elements that repeat, by their parent. With a single child fast-xml-parser would give an object, not a list. */
const REPEATED_IN = new Map([
  ["Transaction", "Transactions"],
  ["PaymentInfo", "PaymentInfos"],
  ["ReconciliationIdentifier", "ReconciliationIdentifiers"],
])

/** The parser's view of where it is (its `jPath: false` callbacks get this instead of a path string). */
interface ParserPath {
  toArray(): string[]
}

function isRepeated(name: string, path: unknown): boolean {
  const parent = REPEATED_IN.get(name)
  if (parent === undefined) return false
  const names = (path as ParserPath).toArray()
  return names[names.length - 2] === parent
}

/** The parser settings, exported for the benchmark's bare parse of the same answers. */
export const parserOptions = {
  ignoreAttributes: false,
  attributeNamePrefix: ATTR,
  textNodeName: TEXT,
  // Everything stays text: "10.50" must not become the float 10.5, nor "007" the number 7.
  parseTagValue: false,
  parseAttributeValue: false,
  trimValues: true,
  // With `jPath: true` the parser builds the path string for every element, text and attribute,
  // a quarter of its time on a gateway answer; only the repeated elements need their path.
  jPath: false,
  isArray: isRepeated,
}
const parser = new XMLParser(parserOptions)
// Numeric and HTML character references (&#230; in a Danish name) cost a dozen extra replacements
// per text node, so only bodies that contain one take the parser that decodes them.
const referenceDecodingParser = new XMLParser({ ...parserOptions, htmlEntities: true })
const NON_XML_REFERENCE = /&(?!(?:amp|lt|gt|quot|apos);)/

/** Context the caller can attach to the errors (the parser itself knows no operation or status). */
export type ParseErrorDetails = Pick<AltaPayErrorDetails, "operation" | "status" | "mayHaveReachedAltaPay">

/**
 * Parses a gateway `APIResponse`. Throws AltaPayBadResponseError for anything that is not one:
 * an HTML error page, JSON, an empty or truncated body, a missing Header, a non-integer
 * ErrorCode, a Transaction without TransactionId, or an amount that is not an exact decimal.
 * A non-zero ErrorCode or a Fail result is returned, not thrown: mapping those is the caller's job.
 */
export function parseGatewayResponse(xml: string, details: ParseErrorDetails = {}): GatewayResponse {
  const text = typeof xml === "string" ? xml.replace(/^\uFEFF/, "") : ""
  const fail = (reason: string, cause?: unknown): AltaPayBadResponseError =>
    new AltaPayBadResponseError(`AltaPay answered with an unreadable gateway response: ${reason}.`, {
      ...details,
      cause,
      bodySnippet: snippet(text),
    })

  if (text.trim() === "") throw fail("the body is empty")
  // A full validation pass costs about as much as the parse itself; a complete APIResponse ends
  // with its closing tag, so only bodies that do not are validated (to say what is wrong).
  if (!/<\/APIResponse>\s*$/.test(text)) {
    const validation = XMLValidator.validate(text)
    if (validation !== true) throw fail(`${describeNonXml(text)} (${validation.err.msg})`)
    throw fail(looksLikeHtml(text) ? "it is an HTML page, not an APIResponse" : "the XML has no APIResponse root, or it is cut short")
  }

  let document: unknown
  try {
    document = (NON_XML_REFERENCE.test(text) ? referenceDecodingParser : parser).parse(text)
  } catch (error) {
    throw fail("the XML could not be parsed", error)
  }
  const root = rootSchema.safeParse(document)
  if (!root.success) {
    if (isRecord(document) && !("APIResponse" in document)) {
      throw fail(looksLikeHtml(text) ? "it is an HTML page, not an APIResponse" : "the XML has no APIResponse root")
    }
    throw fail(describeIssues(root.error))
  }

  try {
    return toResponse(root.data.APIResponse)
  } catch (error) {
    throw error instanceof ShapeError ? fail(error.message) : fail("its content could not be read", error)
  }
}

/**
 * With several Transaction nodes AltaPay's current record is the one created last; ties (and
 * records without a CreatedDate) go to the one later in the document.
 */
export function latestTransaction(transactions: GatewayTransaction[]): GatewayTransaction | undefined {
  let latest: GatewayTransaction | undefined
  for (const transaction of transactions) {
    if (!latest || createdAt(transaction) >= createdAt(latest)) latest = transaction
  }
  return latest
}

const normalise = (value?: string): string => (value ?? "").trim().toLowerCase()

export const isSuccessResult = (result?: string): boolean => normalise(result) === "success"
export const isOpenResult = (result?: string): boolean => normalise(result) === "open"
/** Fail, Failed, Error, Cancelled, Incomplete (case-insensitive). PartialSuccess is not a failure. */
export const isFailedResult = (result?: string): boolean => (FAILED_RESULTS as readonly string[]).includes(normalise(result))

/** The call's result: Body/Result, else the older per-method elements (RefundResult, ...). */
export const resultOf = (response: GatewayResponse): string | undefined => response.result ?? response.refundResult ?? response.captureResult ?? response.releaseResult

/** Case-insensitive membership of a TransactionStatus in a group such as CAPTURED_STATUSES. */
export const statusIn = (status: string | undefined, group: readonly string[]): boolean => group.includes(normalise(status))

// ---------------------------------------------------------------------------------------------
// Shape checks on the parsed tree (zod), then mapping to the typed objects.

/** Raised inside the mapping for a field we cannot read; turned into AltaPayBadResponseError. */
class ShapeError extends Error {}

const headerSchema = z.looseObject(
  {
    ErrorCode: z.preprocess(textOf, z.string({ error: "is missing" }).regex(/^-?\d{1,15}$/, { error: "is not an integer" })),
  },
  { error: "is missing or empty" }
)
const rootSchema = z.object({
  APIResponse: z.looseObject(
    {
      Header: headerSchema,
      Body: z.union([z.looseObject({}), z.literal("")], { error: "is not a single element" }).optional(),
    },
    { error: "is not a single element" }
  ),
})
const transactionSchema = z.looseObject({ TransactionId: z.preprocess(textOf, z.string({ error: "is missing" }).min(1, { error: "is empty" })) }, { error: "is empty" })

type Raw = Record<string, unknown>
interface Currency {
  /** ISO alpha, or "" when unknown. */
  alpha: string
  exponent: number
}
/** The reference: gateway amounts are decimals with two fraction digits. */
const UNKNOWN_CURRENCY: Currency = { alpha: "", exponent: 2 }
/** ISO 4217 "no currency" (999) and "testing" (963) codes: treated as unknown, not as 0 decimals. */
const NOT_A_CURRENCY = new Set(["XXX", "XTS"])

function toResponse(api: Raw): GatewayResponse {
  const header = obj(api.Header) ?? {}
  const body = obj(api.Body) ?? {}
  const transactions = transactionNodes(body).map(toTransaction)
  const latest = latestTransaction(transactions)
  const refundCurrency = str(body.RefundCurrency)
  const captureCurrency = str(body.CaptureCurrency)
  const fallback = [latest?.merchantCurrency, latest?.merchantCurrencyAlpha]

  return {
    version: attr(api, "version"),
    header: {
      date: parseDate(str(header.Date)),
      path: str(header.Path),
      errorCode: Number(textOf(header.ErrorCode)),
      errorMessage: textOf(header.ErrorMessage) ?? "",
    },
    result: str(body.Result),
    refundResult: str(body.RefundResult),
    captureResult: str(body.CaptureResult),
    // releaseReservation's deprecated twin of Result is CancelResult (its documented example).
    releaseResult: str(body.CancelResult),
    refundAmount: amount(body.RefundAmount, "Body.RefundAmount", resolveCurrency(refundCurrency, ...fallback)),
    refundedAmount: amount(body.RefundedAmount, "Body.RefundedAmount", resolveCurrency(refundCurrency, ...fallback)),
    refundCurrency,
    captureAmount: amount(body.CaptureAmount, "Body.CaptureAmount", resolveCurrency(captureCurrency, ...fallback)),
    captureCurrency,
    merchantErrorMessage: str(body.MerchantErrorMessage),
    cardHolderErrorMessage: str(body.CardHolderErrorMessage),
    transactions,
    body,
  }
}

function transactionNodes(body: Raw): Raw[] {
  // <Transactions/> parses as "", and a repeated <Transactions> as a list: accept both.
  const containers = list(body.Transactions)
  const nodes = containers.flatMap((container) => (isRecord(container) ? list(container.Transaction) : []))
  return nodes.map((node, index) => {
    const checked = transactionSchema.safeParse(node)
    if (!checked.success) throw new ShapeError(describeIssues(checked.error, `Transaction ${index + 1}`))
    return checked.data
  })
}

const TRANSACTION_ELEMENTS = new Set([
  "TransactionId",
  "PaymentId",
  "ShopOrderId",
  "Shop",
  "Terminal",
  "AuthType",
  "TransactionStatus",
  "ReasonCode",
  "CardStatus",
  "ThreeDSecureResult",
  "LiableForChargeback",
  "InvoiceOrderInfo",
  "CreditCardExpiry",
  "CreditCardToken",
  "CreditCardMaskedPan",
  "BlacklistToken",
  "CardInformation",
  "MerchantCurrency",
  "MerchantCurrencyAlpha",
  "CardHolderCurrency",
  "CardHolderCurrencyAlpha",
  "ReservedAmount",
  "CapturedAmount",
  "RefundedAmount",
  "RecurringDefaultAmount",
  "CreatedDate",
  "UpdatedDate",
  "PaymentNature",
  "PaymentNatureService",
  "FraudRiskScore",
  "FraudExplanation",
  "PaymentInfos",
  "CustomerInfo",
  "ReconciliationIdentifiers",
])

function toTransaction(raw: Raw, index: number): GatewayTransaction {
  const where = `Transaction ${index + 1}`
  const merchantCurrency = str(raw.MerchantCurrency)
  const merchantCurrencyAlpha = str(raw.MerchantCurrencyAlpha)
  const currency = resolveCurrency(merchantCurrency, merchantCurrencyAlpha)
  const money = (key: string): GatewayAmount | undefined => amount(raw[key], `${where}.${key}`, currency)
  const extra: Raw = {}
  for (const [key, value] of Object.entries(raw)) if (!TRANSACTION_ELEMENTS.has(key)) extra[key] = value

  return {
    transactionId: textOf(raw.TransactionId) ?? "",
    paymentId: str(raw.PaymentId),
    shopOrderId: str(raw.ShopOrderId),
    shop: str(raw.Shop),
    terminal: str(raw.Terminal),
    authType: str(raw.AuthType),
    transactionStatus: str(raw.TransactionStatus),
    reasonCode: str(raw.ReasonCode),
    cardStatus: str(raw.CardStatus),
    threeDSecureResult: str(raw.ThreeDSecureResult),
    liableForChargeback: str(raw.LiableForChargeback),
    invoiceOrderInfo: str(raw.InvoiceOrderInfo),
    creditCardExpiry: expiry(raw.CreditCardExpiry),
    creditCardToken: str(raw.CreditCardToken),
    creditCardMaskedPan: str(raw.CreditCardMaskedPan),
    blacklistToken: str(raw.BlacklistToken),
    cardInformation: cardInformation(raw.CardInformation),
    merchantCurrency,
    merchantCurrencyAlpha,
    cardHolderCurrency: str(raw.CardHolderCurrency),
    cardHolderCurrencyAlpha: str(raw.CardHolderCurrencyAlpha),
    reservedAmount: money("ReservedAmount"),
    capturedAmount: money("CapturedAmount"),
    refundedAmount: money("RefundedAmount"),
    recurringDefaultAmount: money("RecurringDefaultAmount"),
    createdDate: parseDate(str(raw.CreatedDate)),
    updatedDate: parseDate(str(raw.UpdatedDate)),
    paymentNature: str(raw.PaymentNature),
    paymentNatureService: paymentNatureService(raw.PaymentNatureService),
    fraudRiskScore: str(raw.FraudRiskScore),
    fraudExplanation: str(raw.FraudExplanation),
    paymentInfos: paymentInfos(raw.PaymentInfos),
    customerInfo: customerInfo(raw.CustomerInfo),
    reconciliationIdentifiers: reconciliationIdentifiers(raw.ReconciliationIdentifiers, `${where}.`, currency),
    extra,
  }
}

function expiry(node: unknown): CardExpiry | undefined {
  const raw = obj(node)
  return raw && { year: str(raw.Year), month: str(raw.Month) }
}

function cardInformation(node: unknown): CardInformation | undefined {
  const raw = obj(node)
  return (
    raw && {
      isTokenized: bool(raw.IsTokenized),
      token: str(raw.Token),
      maskedPan: str(raw.MaskedPan),
      expiry: expiry(raw.Expiry),
      issuingCountry: str(raw.IssuingCountry),
      lastFourDigits: str(raw.LastFourDigits),
      scheme: str(raw.Scheme),
    }
  )
}

function paymentNatureService(node: unknown): PaymentNatureService | undefined {
  const raw = obj(node)
  if (!raw) return undefined
  return {
    name: attr(raw, "name"),
    supportsRefunds: bool(raw.SupportsRefunds),
    supportsRelease: bool(raw.SupportsRelease),
    supportsMultipleCaptures: bool(raw.SupportsMultipleCaptures),
    supportsMultipleRefunds: bool(raw.SupportsMultipleRefunds),
  }
}

function paymentInfos(node: unknown): PaymentInfo[] {
  const container = obj(node)
  if (!container) return []
  return list(container.PaymentInfo).map((info) => ({ name: attr(info, "name") ?? "", value: textOf(info) ?? "" }))
}

function address(node: unknown): Address | undefined {
  const raw = obj(node)
  return (
    raw && {
      firstname: str(raw.Firstname),
      lastname: str(raw.Lastname),
      address: str(raw.Address),
      city: str(raw.City),
      postalCode: str(raw.PostalCode),
      country: str(raw.Country),
    }
  )
}

function customerInfo(node: unknown): CustomerInfo | undefined {
  const raw = obj(node)
  if (!raw) return undefined
  const origin = obj(raw.CountryOfOrigin)
  return {
    userAgent: str(raw.UserAgent),
    ipAddress: str(raw.IpAddress),
    email: str(raw.Email),
    username: str(raw.Username),
    customerPhone: str(raw.CustomerPhone),
    organisationNumber: str(raw.OrganisationNumber),
    countryOfOrigin: origin && { country: str(origin.Country), source: str(origin.Source) },
    billingAddress: address(raw.BillingAddress),
    shippingAddress: address(raw.ShippingAddress),
    registeredAddress: address(raw.RegisteredAddress),
  }
}

function reconciliationIdentifiers(node: unknown, where: string, fallback: Currency): ReconciliationIdentifier[] {
  const container = obj(node)
  if (!container) return []
  return list(container.ReconciliationIdentifier).flatMap((item, index) => {
    const raw = obj(item)
    if (!raw) return []
    // The Amount carries its own `currency` attribute; the transaction's currency is the fallback.
    const currency = resolveCurrency(attr(raw.Amount, "currency"), fallback.alpha || undefined)
    return [
      {
        id: textOf(raw.Id) ?? "",
        amount: amount(raw.Amount, `${where}ReconciliationIdentifier ${index + 1}.Amount`, currency),
        type: textOf(raw.Type) ?? "",
        date: parseDate(str(raw.Date)),
      },
    ]
  })
}

// ---------------------------------------------------------------------------------------------
// Leaf readers.

function isRecord(value: unknown): value is Raw {
  return typeof value === "object" && value !== null && !Array.isArray(value)
}

/** A repeated element where one was expected: the first one wins. */
const single = (node: unknown): unknown => (Array.isArray(node) ? node[0] : node)

/** The element's trimmed text ("" for an empty element or one holding only children), or undefined when absent. */
function textOf(node: unknown): string | undefined {
  const value = single(node)
  if (value === undefined || value === null) return undefined
  if (typeof value === "string") return value.trim()
  if (typeof value === "number" || typeof value === "boolean") return String(value)
  if (isRecord(value)) {
    const text = value[TEXT]
    return typeof text === "string" ? text.trim() : text === undefined ? "" : String(text)
  }
  return undefined
}

/** Optional text field: absent and empty elements both read as undefined. */
function str(node: unknown): string | undefined {
  const text = textOf(node)
  return text === "" ? undefined : text
}

/** An element with children; empty elements (`<RegisteredAddress/>`) read as undefined. */
function obj(node: unknown): Raw | undefined {
  const value = single(node)
  return isRecord(value) ? value : undefined
}

function list(node: unknown): unknown[] {
  if (node === undefined || node === null || node === "") return []
  return Array.isArray(node) ? node : [node]
}

function attr(node: unknown, name: string): string | undefined {
  const value = single(node)
  if (!isRecord(value)) return undefined
  const text = value[`${ATTR}${name}`]
  return typeof text === "string" && text.trim() !== "" ? text.trim() : undefined
}

function bool(node: unknown): boolean | undefined {
  const text = normalise(textOf(node))
  if (text === "true" || text === "1") return true
  if (text === "false" || text === "0") return false
  return undefined
}

function resolveCurrency(...codes: Array<string | undefined>): Currency {
  for (const code of codes) {
    if (!code) continue
    try {
      const info = currencyInfo(code)
      if (!NOT_A_CURRENCY.has(info.alpha)) return { alpha: info.alpha, exponent: info.exponent }
    } catch {
      // Not an ISO 4217 code we know: try the next one.
    }
  }
  return UNKNOWN_CURRENCY
}

const AMOUNT = /^(-?)(\d+)(?:\.(\d+))?$/
const MAX_MINOR = BigInt(Number.MAX_SAFE_INTEGER)

/** Exact decimal text -> minor units ("10", "10.5", "10.50" all work); never through a float. */
function amount(node: unknown, field: string, currency: Currency): GatewayAmount | undefined {
  const text = str(node)
  if (text === undefined) return undefined
  const match = AMOUNT.exec(text)
  const [, sign = "", whole = "", fraction = ""] = match ?? []
  const { alpha, exponent } = currency
  if (!match || /[^0]/.test(fraction.slice(exponent))) {
    const unit = alpha || "an unknown currency (read with 2 decimals)"
    throw new ShapeError(`${field} "${text.slice(0, 40)}" is not an exact amount in ${unit}`)
  }
  const magnitude = BigInt(whole + fraction.slice(0, exponent).padEnd(exponent, "0"))
  if (magnitude > MAX_MINOR) throw new ShapeError(`${field} "${text.slice(0, 40)}" is too large`)
  const minor = sign === "-" && magnitude !== 0n ? -Number(magnitude) : Number(magnitude)
  return { decimal: minorToDecimalWithExponent(minor, exponent), minor, currency: alpha }
}

const DATE_TIME = /^(\d{4})-(\d{2})-(\d{2})[T ](\d{2}):(\d{2})(?::(\d{2})(?:\.(\d{1,9}))?)?(Z|[+-]\d{2}(?::?\d{2})?)?$/i

/**
 * Header/Date and ReconciliationIdentifier/Date are ISO 8601 with an offset. CreatedDate and
 * UpdatedDate ("2017-10-02 10:46:21") carry none and AltaPay does not state the zone: read as UTC.
 * An unreadable date is undefined, never an error: no money decision rests on it alone.
 */
function parseDate(text: string | undefined): Date | undefined {
  const match = text === undefined ? null : DATE_TIME.exec(text)
  if (!match) return undefined
  const [, y, mo, d, h, mi, s = "0", frac = "", zone = "Z"] = match
  const [year, month, day, hour, minute, second] = [y, mo, d, h, mi, s].map(Number) as [number, number, number, number, number, number]
  const millis = Number(frac.slice(0, 3).padEnd(3, "0"))
  const local = new Date(Date.UTC(year, month - 1, day, hour, minute, second, millis))
  const valid =
    local.getUTCFullYear() === year &&
    local.getUTCMonth() === month - 1 &&
    local.getUTCDate() === day &&
    local.getUTCHours() === hour &&
    local.getUTCMinutes() === minute &&
    local.getUTCSeconds() === second
  if (!valid) return undefined
  if (zone.toUpperCase() === "Z") return local
  const offset = /^([+-])(\d{2}):?(\d{2})?$/.exec(zone)
  if (!offset) return undefined
  const [, offsetSign, offsetHours = "0", offsetMinutes = "0"] = offset
  if (Number(offsetHours) > 14 || Number(offsetMinutes) > 59) return undefined
  const offsetMs = (Number(offsetHours) * 60 + Number(offsetMinutes)) * 60_000 * (offsetSign === "-" ? -1 : 1)
  return new Date(local.getTime() - offsetMs)
}

const createdAt = (transaction: GatewayTransaction): number => transaction.createdDate?.getTime() ?? Number.NEGATIVE_INFINITY

function describeNonXml(text: string): string {
  const start = text.trimStart()
  if (/^[[{]/.test(start)) return "it is JSON, not XML"
  if (looksLikeHtml(start)) return "it is an HTML page, not XML"
  return "it is not well-formed XML (truncated?)"
}

const looksLikeHtml = (text: string): boolean => /<(!doctype html|html[\s>])/i.test(text.slice(0, 1000))

function describeIssues(error: z.ZodError, prefix?: string): string {
  return error.issues
    .slice(0, 3)
    .map((issue) => `${[...(prefix ? [prefix] : []), ...issue.path.map(String)].join(".")} ${issue.message}`)
    .join("; ")
}
