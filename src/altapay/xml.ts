/**
 * Reads the gateway's XML `APIResponse` into typed objects. Lenient where real responses vary
 * (one Transaction node or many, empty elements, CDATA padded with newlines, other `version`s,
 * elements we do not know), strict where a wrong reading would cost money: amounts are parsed
 * exactly into minor units, and a body we cannot read is an AltaPayBadResponseError, never a
 * TypeError.
 *
 * This file parses and checks the document; xml-transaction.ts maps each Transaction node,
 * xml-readers.ts reads the leaves (text, amounts, dates) and gateway-results.ts reads the outcome.
 */
import { XMLParser, XMLValidator } from "fast-xml-parser"
import { z } from "zod"
import { AltaPayBadResponseError, snippet, type AltaPayErrorDetails } from "./errors"
import type { GatewayResponse } from "./gateway-types"
import { latestTransaction } from "./gateway-results"
import { readWellFormedXml, type ReaderSettings } from "./xml-reader"
import { toTransaction, transactionNodes } from "./xml-transaction"
import { amount, ATTR, attr, describeIssues, isRecord, obj, parseDate, resolveCurrency, ShapeError, str, TEXT, textOf, type Raw } from "./xml-readers"

export { isFailedResult, isOpenResult, isSuccessResult, latestTransaction, resultOf, statusIn } from "./gateway-results"

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
  // fast-xml-parser's default, named so that the client's reader stops where it does.
  maxNestedTags: 100,
}
const parser = new XMLParser(parserOptions)
/** The same tree, read by the client's own reader where it can (xml-reader.ts); fast-xml-parser reads the rest. */
const readerSettings: ReaderSettings = { attributePrefix: ATTR, textKey: TEXT, repeatedIn: REPEATED_IN, maxNestedTags: parserOptions.maxNestedTags }
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
    document = readWellFormedXml(text, readerSettings) ?? (NON_XML_REFERENCE.test(text) ? referenceDecodingParser : parser).parse(text)
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

// ---------------------------------------------------------------------------------------------
// Shape checks on the parsed tree (zod), then mapping to the typed objects.

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

function toResponse(api: Raw): GatewayResponse {
  const header = obj(api.Header) ?? {}
  const body = obj(api.Body) ?? {}
  const nodes = transactionNodes(body)
  const transactions = nodes.map(toTransaction)
  redactCardTokens(body)
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

/**
 * The raw Body is kept for elements we do not model; the card token in it is replaced, so only the
 * typed SecretToken carries it and a logged or serialised answer cannot leak it.
 */
function redactCardTokens(body: Raw): void {
  for (const container of Array.isArray(body.Transactions) ? body.Transactions : [body.Transactions]) {
    const transactions = obj(container)?.Transaction
    for (const node of Array.isArray(transactions) ? transactions : [transactions]) {
      const transaction = obj(node)
      if (!transaction) continue
      if (transaction.CreditCardToken !== undefined) transaction.CreditCardToken = "[redacted]"
      const card = obj(transaction.CardInformation)
      if (card?.Token !== undefined) card.Token = "[redacted]"
    }
  }
}

function describeNonXml(text: string): string {
  const start = text.trimStart()
  if (/^[[{]/.test(start)) return "it is JSON, not XML"
  if (looksLikeHtml(start)) return "it is an HTML page, not XML"
  return "it is not well-formed XML (truncated?)"
}

const looksLikeHtml = (text: string): boolean => /<(!doctype html|html[\s>])/i.test(text.slice(0, 1000))
