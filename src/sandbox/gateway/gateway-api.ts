/**
 * The gateway merchant API (form in, XML out, under /merchant/API): captureReservation,
 * refundCapturedReservation, releaseReservation, payments and getTerminals (fundingList and fundingDownload in
 * fundings-api.ts). Malformed requests get a non-zero
 * Header ErrorCode; refusals a merchant can act on get ErrorCode 0 and a failed Body/Result.
 */
import { randomUUID } from "node:crypto"
import { decimalToMinor, fitsWireDecimals, minorToDecimal } from "../../altapay/money"
import { basicAuth } from "../auth"
import type { Exchange } from "../env"
import { GatewayErrorCode } from "./gateway-errors"
import { fundingDownload, fundingList } from "../fundings/fundings-api"
import { AGREEMENT_METHODS, agreementMethod } from "../agreements/agreements-api"
import { apiResponse, transactionsXml } from "./gateway-xml"
import { parseForm, xml, type Reply } from "../http"
import type { LedgerEffect } from "../ledger"
import { validateOrderLines, type LineRules } from "../order-lines"
import { syncPayment } from "../payment-flow"
import { offeredMethods, RESERVED_STATUSES, type StoredTransaction } from "../state"
import { invoiceCaptureRefusal, invoiceRefundRefusal, recordInvoiceCapture, recordInvoiceRefund, updateInvoiceReservation } from "./invoice-rules"
import { reauthorise } from "../reservation-facts"
import { cdataEl, el, textEl } from "./xml"

const TRANSACTION_ID = /^[0-9a-f]{1,32}$/
const PLAIN_AMOUNT = /^\d+(\.\d+)?$/
// The reference's test scenarios: these reserved (payment) amounts make every refund fail.
const REFUND_FAIL_AMOUNT = "9.66"
const REFUND_ERROR_AMOUNT = "9.67"
const CARD_HOLDER_MESSAGE = "The operation could not be completed."

interface GatewayRequest {
  ex: Exchange
  method: string
  fields: Record<string, string>
  orderLines?: Record<string, string>[]
  trackingInfo?: Record<string, string>[]
  shippingTrackingInfo?: Record<string, string>[]
}

class StructuralError extends Error {
  constructor(
    readonly code: number,
    message: string
  ) {
    super(message)
  }
}

const errorReply = (ex: Exchange, method: string, code: number, message: string, status = 200): Reply => xml(status, apiResponse(method, ex.env.now(), [], { code, message }))

const unauthorizedReply = (): Reply => ({
  status: 401,
  headers: { "content-type": "text/plain; charset=utf-8", "www-authenticate": 'Basic realm="AltaPay Sandbox"' },
  body: "Unauthorized: send Authorization: Basic with the sandbox API user's credentials.",
})

export async function gateway(ex: Exchange, method: string): Promise<Reply> {
  if (!basicAuth(ex)) return unauthorizedReply()
  // A POST takes its parameters from the form body only; the query string is for GET.
  const form = parseForm(ex.method === "POST" ? ex.rawBody : ex.query.toString())
  const request: GatewayRequest = { ex, method, fields: form.fields, orderLines: form.orderLines, trackingInfo: form.trackingInfo, shippingTrackingInfo: form.shippingTrackingInfo }
  ex.params = {
    ...request.fields,
    ...(request.orderLines ? { orderLines: request.orderLines } : {}),
    ...(request.trackingInfo ? { trackingInfo: request.trackingInfo } : {}),
    ...(request.shippingTrackingInfo ? { shippingTrackingInfo: request.shippingTrackingInfo } : {}),
  }
  try {
    if (form.badKeys.length > 0) {
      throw new StructuralError(
        GatewayErrorCode.INVALID_PARAMETER,
        `${form.badKeys.join(", ")}: order lines are sent as orderLines[<index>][<field>], tracking as trackingInfo[<index>][<field>].`
      )
    }
    switch (method) {
      case "captureReservation":
        return capture(request)
      case "refundCapturedReservation":
        return refund(request)
      case "releaseReservation":
        return release(request)
      case "updateOrder":
        return updateOrder(request)
      case "payments":
        return payments(request)
      case "getTerminals":
        return getTerminals(request)
      case "fundingList":
        return fundingList(ex, method, request.fields)
      case "fundingDownload":
        return fundingDownload(ex, request.fields)
      default:
        if (AGREEMENT_METHODS.has(method) && ex.method === "POST") return agreementMethod(ex, method, request)
        return errorReply(ex, method, GatewayErrorCode.UNKNOWN_METHOD, `Unknown API method ${method}.`, 404)
    }
  } catch (error) {
    if (error instanceof StructuralError) return errorReply(ex, method, error.code, error.message)
    throw error
  }
}

function lookup(request: GatewayRequest): StoredTransaction {
  const id = request.fields.transaction_id
  if (id === undefined || id === "") throw new StructuralError(GatewayErrorCode.MISSING_PARAMETER, "transaction_id is required.")
  if (!TRANSACTION_ID.test(id)) throw new StructuralError(GatewayErrorCode.INVALID_PARAMETER, "transaction_id must match [0-9a-f]{1,32}.")
  const transaction = request.ex.env.store.transactions.get(id)
  if (!transaction) throw new StructuralError(GatewayErrorCode.UNKNOWN_TRANSACTION, `No transaction with transaction_id ${id}.`)
  return transaction
}

function optionalAmount(request: GatewayRequest, t: StoredTransaction): number | undefined {
  const text = request.fields.amount
  if (text === undefined || text.trim() === "") return undefined
  let minor: number | undefined
  if (PLAIN_AMOUNT.test(text.trim())) {
    try {
      minor = decimalToMinor(text, t.currency.alpha)
    } catch {
      minor = undefined
    }
  }
  if (minor === undefined) {
    throw new StructuralError(GatewayErrorCode.INVALID_PARAMETER, `amount "${text}" is not a decimal amount in ${t.currency.alpha}.`)
  }
  // The Merchant API pages: "the amount can have maximum 2 decimals", whatever the currency.
  if (!fitsWireDecimals(text)) throw new StructuralError(GatewayErrorCode.INVALID_PARAMETER, `amount "${text}" can have maximum 2 decimals.`)
  if (minor <= 0) throw new StructuralError(GatewayErrorCode.INVALID_PARAMETER, "amount must be greater than zero.")
  return minor
}

function reconciliationId(request: GatewayRequest): string | undefined {
  const id = request.fields.reconciliation_identifier
  if (id === undefined || id === "") return undefined
  if (id.length > 100) throw new StructuralError(GatewayErrorCode.INVALID_PARAMETER, "reconciliation_identifier is longer than 100 characters.")
  return id
}

/** Total of the order lines in minor units, after checking each line's fields (undefined without lines). */
function linesTotal(request: GatewayRequest, t: StoredTransaction, rules: LineRules = {}): number | undefined {
  if (!request.orderLines) return undefined
  const { issues, totalMinor } = validateOrderLines(request.orderLines, t.currency.alpha, "orderLines", rules)
  if (issues.length > 0 || totalMinor === undefined) {
    throw new StructuralError(GatewayErrorCode.INVALID_PARAMETER, issues.map((i) => `${i.path}: ${i.message}`).join("; ") || "orderLines are invalid.")
  }
  return totalMinor
}

function effect(request: GatewayRequest, t: StoredTransaction, type: LedgerEffect["type"], amountMinor: number, result: string, reconciliationIdentifier?: string): void {
  request.ex.effects.push({
    type,
    transactionId: t.transactionId,
    amountMinor,
    currency: t.currency.alpha,
    result,
    ...(reconciliationIdentifier ? { reconciliationIdentifier } : {}),
  })
}

function touch(request: GatewayRequest, t: StoredTransaction): void {
  t.updatedAt = request.ex.env.now()
  syncPayment(request.ex.env, t)
}

/** The Body of a capture/refund/release answer; `kind` names the deprecated *Result element. */
function outcomeReply(
  request: GatewayRequest,
  t: StoredTransaction,
  kind: "Capture" | "Refund" | "Release",
  result: string,
  amountMinor: number | undefined,
  merchantMessage?: string
): Reply {
  const body: string[] = []
  if (amountMinor !== undefined && kind !== "Release") {
    body.push(textEl(`${kind}Amount`, minorToDecimal(amountMinor, t.currency.alpha)), textEl(`${kind}Currency`, t.currency.numeric))
  }
  // The deprecated twins of Result: CaptureResult, RefundResult, and for a release CancelResult
  // (releaseReservation's documented example).
  body.push(textEl("Result", result), textEl(`${kind === "Release" ? "Cancel" : kind}Result`, result))
  if (merchantMessage) body.push(cdataEl("MerchantErrorMessage", merchantMessage), cdataEl("CardHolderErrorMessage", CARD_HOLDER_MESSAGE))
  body.push(transactionsXml([t]))
  return xml(200, apiResponse(request.method, request.ex.env.now(), body))
}

/** The "open" fault: AltaPay took the request but has no final answer; no money moves. */
function openReply(
  request: GatewayRequest,
  t: StoredTransaction,
  kind: "Capture" | "Refund" | "Release",
  type: LedgerEffect["type"],
  amountMinor: number,
  reconciliation?: string
): Reply {
  t.pending.push({ type: type as "capture" | "refund" | "release", amountMinor, reconciliationIdentifier: reconciliation, at: request.ex.env.now() })
  effect(request, t, type, amountMinor, "Open", reconciliation)
  return outcomeReply(request, t, kind, "Open", amountMinor)
}

function capture(request: GatewayRequest): Reply {
  const t = lookup(request)
  const requested = optionalAmount(request, t)
  const reconciliation = reconciliationId(request)
  const lines = linesTotal(request, t)
  const remaining = t.reservedMinor - t.capturedMinor
  const amount = requested ?? remaining
  if (request.ex.fault?.kind === "open") return openReply(request, t, "Capture", "capture", amount, reconciliation)
  const refuse = (message: string): Reply => {
    effect(request, t, "capture", amount, "Failed", reconciliation)
    return outcomeReply(request, t, "Capture", "Failed", amount, message)
  }
  if (!RESERVED_STATUSES.has(t.status) && !["captured", "refunded"].includes(t.status))
    return refuse(`The transaction is ${t.status}; only authorized transactions can be captured.`)
  if (remaining <= 0) return refuse("The transaction is already fully captured.")
  const lapsed = reauthorise(t, request.ex.env.now())
  if (lapsed) return refuse(lapsed)
  if (amount > remaining) {
    return refuse(`Cannot capture ${fmt(t, amount)}: only ${fmt(t, remaining)} ${t.currency.alpha} of the reservation is left to capture.`)
  }
  if (lines !== undefined && lines !== amount) return refuse(`The orderLines total ${fmt(t, lines)} but the capture amount is ${fmt(t, amount)}.`)
  const invoiceRefusal = invoiceCaptureRefusal(t, request.orderLines, amount, remaining, request.ex.env.now())
  if (invoiceRefusal) return refuse(invoiceRefusal)
  recordInvoiceCapture(t, request.orderLines)
  t.capturedMinor += amount
  return moveMoney(request, t, "capture", amount, reconciliation)
}

function refund(request: GatewayRequest): Reply {
  const t = lookup(request)
  const requested = optionalAmount(request, t)
  const reconciliation = reconciliationId(request)
  const overRefund = request.fields.allow_over_refund
  if (overRefund !== undefined && overRefund !== "0" && overRefund !== "1") {
    throw new StructuralError(GatewayErrorCode.INVALID_PARAMETER, "allow_over_refund must be 1 or 0.")
  }
  // A Klarna refund deducts its handling lines, a return fee the shop keeps (invoice-rules.ts).
  const lines = linesTotal(request, t, { handlingDeducted: t.invoice !== undefined })
  const refundable = t.capturedMinor - t.refundedMinor
  const amount = requested ?? refundable
  if (request.ex.fault?.kind === "open") return openReply(request, t, "Refund", "refund", amount, reconciliation)
  const refuse = (result: "Fail" | "Error", message: string): Reply => {
    effect(request, t, "refund", amount, result, reconciliation)
    return outcomeReply(request, t, "Refund", result, amount, message)
  }
  const reserved = minorToDecimal(t.reservedMinor, t.currency.alpha)
  if (reserved === REFUND_FAIL_AMOUNT) return refuse("Fail", "Refund failed: test scenario for a payment of 9.66 (the acquirer refused the refund).")
  if (reserved === REFUND_ERROR_AMOUNT) return refuse("Error", "Refund error: test scenario for a payment of 9.67 (the acquirer answered with an error).")
  if (t.capturedMinor === 0) return refuse("Fail", `Nothing has been captured on this transaction (status ${t.status}); only captured payments can be refunded.`)
  if (amount <= 0) return refuse("Fail", "The captured amount is already fully refunded.")
  if (amount > refundable && overRefund !== "1") {
    return refuse(
      "Fail",
      `Cannot refund ${fmt(t, amount)}: only ${fmt(t, refundable)} ${t.currency.alpha} is captured and not yet refunded (send allow_over_refund=1 to refund more).`
    )
  }
  // The reference: "Total of all order lines must equal the refund amount in the case of a partial
  // refund", i.e. whenever the refund is not of exactly the captured amount (over-refunds included).
  if (lines !== undefined && amount !== t.capturedMinor && lines !== amount) {
    return refuse("Fail", `The orderLines total ${fmt(t, lines)} but the refund amount is ${fmt(t, amount)}.`)
  }
  const invoiceRefusal = invoiceRefundRefusal(t, request.orderLines)
  if (invoiceRefusal) return refuse("Fail", invoiceRefusal)
  recordInvoiceRefund(t, request.orderLines)
  t.refundedMinor += amount
  return moveMoney(request, t, "refund", amount, reconciliation)
}

/** A capture or refund went through: new status, a reconciliation identifier, the ledger effect. */
function moveMoney(request: GatewayRequest, t: StoredTransaction, kind: "capture" | "refund", amount: number, reconciliation: string | undefined): Reply {
  const id = (request.ex.env.config.keepReconciliationIdentifiers && reconciliation) || randomUUID()
  const type = kind === "capture" ? "captured" : "refunded"
  t.status = type
  t.reconciliation.push({ id, amountMinor: amount, type, at: request.ex.env.now() })
  const { invoice_number: invoiceNumber, sales_tax: salesTax } = request.fields
  ;(kind === "capture" ? t.captures : t.refunds).push({
    amountMinor: amount,
    reconciliationIdentifier: id,
    at: request.ex.env.now(),
    ...(invoiceNumber !== undefined ? { invoiceNumber } : {}),
    ...(salesTax !== undefined ? { salesTax } : {}),
    ...(request.orderLines ? { orderLines: request.orderLines } : {}),
    ...(request.trackingInfo ? { trackingInfo: request.trackingInfo } : {}),
    ...(request.shippingTrackingInfo ? { shippingTrackingInfo: request.shippingTrackingInfo } : {}),
  })
  touch(request, t)
  effect(request, t, kind, amount, "Success", id)
  return outcomeReply(request, t, kind === "capture" ? "Capture" : "Refund", "Success", amount)
}

function release(request: GatewayRequest): Reply {
  const t = lookup(request)
  const amount = t.reservedMinor - t.capturedMinor
  if (request.ex.fault?.kind === "open") return openReply(request, t, "Release", "release", amount)
  const refuse = (message: string): Reply => {
    effect(request, t, "release", amount, "Failed")
    return outcomeReply(request, t, "Release", "Failed", undefined, message)
  }
  if (t.status === "released") return refuse("The reservation is already released.")
  if (!RESERVED_STATUSES.has(t.status) || t.capturedMinor > 0) {
    return refuse(`The transaction is ${t.status}; only a reservation with nothing captured can be released.`)
  }
  t.status = "released"
  touch(request, t)
  effect(request, t, "release", amount, "Success")
  return outcomeReply(request, t, "Release", "Success", undefined)
}

/**
 * updateOrder (AltaPay's updateOrder page): an uncaptured invoice reservation gets a new amount and
 * order lines, which replace the reserved ones (invoice-rules.ts). The answer's Body holds only its
 * Result, as api-php's `tests/Api/Results/updateorder.xml`; a refusal is `Error` with a
 * MerchantErrorMessage, what api-php's `UpdateOrder::handleResponse` reads. Other methods are refused.
 */
function updateOrder(request: GatewayRequest): Reply {
  const paymentId = request.fields.payment_id
  if (!paymentId) throw new StructuralError(GatewayErrorCode.MISSING_PARAMETER, "payment_id is required.")
  const t = request.ex.env.store.transactionsWhere({ paymentId }).find((candidate) => RESERVED_STATUSES.has(candidate.status) || candidate.status === "captured")
  if (!t) throw new StructuralError(GatewayErrorCode.UNKNOWN_TRANSACTION, `No reserved payment with payment_id ${paymentId}.`)
  const amount = optionalAmount(request, t)
  if (amount === undefined) throw new StructuralError(GatewayErrorCode.MISSING_PARAMETER, "amount is required.")
  const lines = linesTotal(request, t)
  const refusal =
    lines !== undefined && lines !== amount ? `The orderLines total ${fmt(t, lines)} but the amount is ${fmt(t, amount)}.` : updateInvoiceReservation(t, request.orderLines, amount)
  if (refusal) return xml(200, apiResponse(request.method, request.ex.env.now(), [textEl("Result", "Error"), cdataEl("MerchantErrorMessage", refusal)]))
  touch(request, t)
  return xml(200, apiResponse(request.method, request.ex.env.now(), [textEl("Result", "Success")]))
}

function payments(request: GatewayRequest): Reply {
  const { transaction_id: transactionId, payment_id: paymentId, shop_orderid: shopOrderId } = request.fields
  const filter = {
    transactionId: transactionId || undefined,
    paymentId: paymentId || undefined,
    shopOrderId: shopOrderId || undefined,
  }
  if (!filter.transactionId && !filter.paymentId && !filter.shopOrderId) {
    throw new StructuralError(GatewayErrorCode.MISSING_PARAMETER, "Give transaction_id, payment_id or shop_orderid.")
  }
  if (filter.transactionId && !TRANSACTION_ID.test(filter.transactionId)) {
    throw new StructuralError(GatewayErrorCode.INVALID_PARAMETER, "transaction_id must match [0-9a-f]{1,32}.")
  }
  const found = request.ex.env.store.transactionsWhere(filter).sort((a, b) => a.createdAt - b.createdAt)
  return xml(200, apiResponse(request.method, request.ex.env.now(), [textEl("Result", "Success"), transactionsXml(found)]))
}

/**
 * The API user's terminals, one per method the sandbox offers, as AltaPay's getTerminals page
 * and api-php's terminals.xml show them: Title, Country, Natures, Currencies.
 */
function getTerminals(request: GatewayRequest): Reply {
  const terminals = offeredMethods(request.ex.env.config).map((method) =>
    el("Terminal", [
      cdataEl("Title", method.terminalName),
      cdataEl("ShopName", "AltaPay Sandbox"),
      textEl("Country", "DK"),
      el("Natures", [textEl("Nature", method.nature)]),
      el(
        "Currencies",
        method.currencies.map((code) => textEl("Currency", code))
      ),
    ])
  )
  return xml(200, apiResponse(request.method, request.ex.env.now(), [textEl("Result", "Success"), el("Terminals", terminals)]))
}

const fmt = (t: StoredTransaction, minor: number): string => minorToDecimal(minor, t.currency.alpha)
