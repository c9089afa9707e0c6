/**
 * The Merchant API's agreement methods: createPaymentRequest (an agreement's set-up through the
 * hosted page), chargeSubscription (reserve and capture) and reserveSubscriptionCharge (reserve).
 * Structural problems answer a non-zero ErrorCode; declines (ended agreement, expired card) answer
 * Result Failed with AltaPay's merchant and cardholder messages; a customer-initiated charge on a
 * 3-D Secure card answers Result Redirect; a charge of 13.64 stays open (test-cards.ts).
 */
import { randomUUID } from "node:crypto"
import { currencyInfo, decimalToMinor, fitsWireDecimals, minorToDecimal } from "../../altapay/money"
import type { Exchange } from "../env"
import { apiResponse, transactionsXml } from "../gateway/gateway-xml"
import { GatewayErrorCode } from "../gateway/gateway-errors"
import { cdataEl, el, textEl } from "../gateway/xml"
import { xml, type Reply } from "../http"
import { validateOrderLines } from "../order-lines"
import { AGREEMENT_KINDS, isExpired, SETUP_TYPES, UNSCHEDULED_KINDS, type AgreementKind, type PendingChallenge, type SetupType, type StoredAgreement } from "./agreements"
import { challengeUrl } from "../challenges"
import { chargeStaysOpen } from "../test-cards"
import { chargeTransaction, openChargeTransaction } from "./charges"

export const AGREEMENT_METHODS: ReadonlySet<string> = new Set(["createPaymentRequest", "chargeSubscription", "reserveSubscriptionCharge"])

interface Form {
  fields: Record<string, string>
  orderLines?: Record<string, string>[]
}

class Refusal extends Error {
  constructor(
    readonly code: number,
    message: string
  ) {
    super(message)
  }
}

export function agreementMethod(ex: Exchange, method: string, form: Form): Reply {
  try {
    if (method === "createPaymentRequest") return createPaymentRequest(ex, form)
    return charge(ex, method as PendingChallenge["method"], form)
  } catch (error) {
    if (error instanceof Refusal) return xml(200, apiResponse(method, ex.env.now(), [], { code: error.code, message: error.message }))
    throw error
  }
}

function createPaymentRequest(ex: Exchange, { fields, orderLines }: Form): Reply {
  const type = fields.type ?? "payment"
  if (!(SETUP_TYPES as readonly string[]).includes(type)) {
    throw new Refusal(GatewayErrorCode.INVALID_PARAMETER, `type ${type}: the sandbox's createPaymentRequest models agreements only (${SETUP_TYPES.join(", ")}).`)
  }
  const agreementType = fields["agreement[type]"] ?? "unscheduled"
  if (!AGREEMENT_KINDS.includes(agreementType))
    throw new Refusal(GatewayErrorCode.INVALID_PARAMETER, `agreement[type] ${agreementType} is not one of ${AGREEMENT_KINDS.join(", ")}.`)
  // Optional here: AltaPay's set-up example (Setup Agreement, setupSubscription) has
  // agreement[type]=unscheduled and no unscheduled_type; the charges must name one.
  const unscheduledType = unscheduled(fields, false)
  for (const name of ["terminal", "shop_orderid", "amount", "currency"]) if (!fields[name]) throw new Refusal(GatewayErrorCode.MISSING_PARAMETER, `${name} is required.`)
  if (!/^[a-zA-Z0-9-]{1,100}$/.test(fields.shop_orderid)) throw new Refusal(GatewayErrorCode.INVALID_PARAMETER, "shop_orderid must match [a-zA-Z0-9-]{1,100}.")
  let currency
  try {
    currency = currencyInfo(fields.currency)
  } catch {
    throw new Refusal(GatewayErrorCode.INVALID_PARAMETER, `currency ${fields.currency} is not an ISO 4217 currency.`)
  }
  const amountMinor = amountOf(fields.amount, currency.alpha)
  if (orderLines) checkOrderLines(orderLines, currency.alpha, amountMinor)
  const callbacks: Record<string, string> = {}
  for (const [key, value] of Object.entries(fields)) {
    const config = /^config\[(callback_[a-z_]+)\]$/.exec(key)
    if (config) callbacks[config[1]] = value
  }
  const transactionInfo = transactionInfoOf(fields)
  const paymentRequestId = randomUUID()
  ex.env.store.agreements.requests.set(paymentRequestId, {
    paymentRequestId,
    terminal: fields.terminal,
    shopOrderId: fields.shop_orderid,
    amountMinor,
    currency,
    type: type as SetupType,
    agreementType: agreementType as AgreementKind,
    unscheduledType,
    callbacks,
    transactionInfo,
    ...(orderLines ? { orderLines } : {}),
  })
  const url = `${ex.env.url}/sandbox/agreement/${paymentRequestId}`
  return xml(
    200,
    apiResponse("createPaymentRequest", ex.env.now(), [
      textEl("Result", "Success"),
      textEl("PaymentRequestId", paymentRequestId),
      textEl("Url", url),
      textEl("DynamicJavascriptUrl", url),
    ])
  )
}

function charge(ex: Exchange, method: PendingChallenge["method"], { fields, orderLines }: Form): Reply {
  // agreement[id], with transaction_id as its deprecated alias (chargeSubscription page).
  const id = fields["agreement[id]"] ?? fields.transaction_id
  if (!id) throw new Refusal(GatewayErrorCode.MISSING_PARAMETER, "agreement[id] is required.")
  if (!/^[0-9a-f]{1,32}$/.test(id)) throw new Refusal(GatewayErrorCode.INVALID_PARAMETER, "agreement[id] must match [0-9a-f]{1,32}.")
  const agreement = ex.env.store.agreements.agreements.get(id)
  if (!agreement) throw new Refusal(GatewayErrorCode.UNKNOWN_TRANSACTION, `No agreement with agreement[id] ${id}.`)
  const unscheduledType = unscheduled(fields, agreement.type === "unscheduled")
  // amount is optional (chargeSubscription page; api-php's ChargeSubscriptionTest sends only
  // transaction_id): the agreement's RecurringDefaultAmount, its set-up's amount, is charged.
  const amountMinor = fields.amount ? amountOf(fields.amount, agreement.currency.alpha) : agreement.amountMinor
  const reconciliationIdentifier = fields.reconciliation_identifier || undefined
  if (reconciliationIdentifier && reconciliationIdentifier.length > 100)
    throw new Refusal(GatewayErrorCode.INVALID_PARAMETER, "reconciliation_identifier is longer than 100 characters.")
  if (orderLines) checkOrderLines(orderLines, agreement.currency.alpha, amountMinor)
  const transactionInfo = transactionInfoOf(fields)
  ex.params = { ...ex.params, agreementId: id }
  const decline = declineOf(agreement, ex.env.now())
  if (decline) {
    ex.effects.push({ type: "decline", transactionId: id, amountMinor, currency: agreement.currency.alpha, result: "Failed" })
    return xml(
      200,
      apiResponse(method, ex.env.now(), [
        textEl("Result", "Failed"),
        cdataEl("MerchantErrorMessage", decline.merchant),
        cdataEl("CardHolderErrorMessage", decline.cardholder),
        textEl("CardHolderMessageMustBeShown", "true"),
      ])
    )
  }
  const pending: PendingChallenge = { id: randomUUID(), agreementId: id, method, amountMinor, reconciliationIdentifier, orderLines, transactionInfo }
  // Merchant-initiated charges never ask for 3-D Secure; a customer buying with the saved card may.
  // The answer is AltaPay's example (VerifyCard as unscheduled Charges): GET, an empty Data.
  if (agreement.card.threeDSecure && unscheduledType === "charge") {
    const challengeId = ex.env.store.challenges.open({ kind: "charge", charge: pending })
    const redirect = el("RedirectResponse", [textEl("Url", challengeUrl(ex.env.url, challengeId)), textEl("Method", "GET"), el("Data")])
    return xml(200, apiResponse(method, ex.env.now(), [textEl("Result", "Redirect"), redirect]))
  }
  const setUp = ex.env.store.transactions.get(id)
  // AltaPay's test amount 13.64 stays pending; any other charge goes through at once.
  const open = chargeStaysOpen(amountMinor, agreement.currency.alpha)
  const t = open ? openChargeTransaction(ex.env, agreement, pending) : chargeTransaction(ex.env, agreement, pending)
  const result = open ? "Open" : "Success"
  ex.effects.push({
    type: method === "chargeSubscription" ? "capture" : "authorize",
    transactionId: t.transactionId,
    amountMinor,
    currency: t.currency.alpha,
    result,
    ...(reconciliationIdentifier && !open ? { reconciliationIdentifier } : {}),
  })
  return xml(200, apiResponse(method, ex.env.now(), [textEl("Result", result), transactionsXml(setUp ? [setUp, t] : [t])]))
}

function checkOrderLines(orderLines: Record<string, string>[], currency: string, amountMinor: number): void {
  const { issues, totalMinor } = validateOrderLines(orderLines, currency, "orderLines")
  if (issues.length > 0) throw new Refusal(GatewayErrorCode.INVALID_PARAMETER, issues.map((i) => `${i.path}: ${i.message}`).join("; "))
  if (totalMinor !== amountMinor) throw new Refusal(GatewayErrorCode.INVALID_PARAMETER, `The orderLines total ${minorToDecimal(totalMinor ?? 0, currency)}, not the amount.`)
}

function transactionInfoOf(fields: Record<string, string>): Record<string, string> {
  const info: Record<string, string> = {}
  for (const [key, value] of Object.entries(fields)) {
    const match = /^transaction_info\[(.+)\]$/.exec(key)
    if (match) info[match[1]] = value
  }
  return info
}

function declineOf(agreement: StoredAgreement, nowMs: number): { merchant: string; cardholder: string } | undefined {
  if (agreement.status === "ended") return { merchant: `Agreement ${agreement.id} has been ended and cannot be charged.`, cardholder: "The saved card can no longer be used." }
  if (isExpired(agreement.card, nowMs)) {
    return { merchant: `Card expired (${agreement.card.month}/${agreement.card.year}): the agreement's card cannot be charged.`, cardholder: "Your card has expired." }
  }
  return undefined
}

function unscheduled(fields: Record<string, string>, required: boolean): string | undefined {
  const value = fields["agreement[unscheduled_type]"]
  if (value === undefined || value === "") {
    if (required) throw new Refusal(GatewayErrorCode.MISSING_PARAMETER, "agreement[unscheduled_type] is mandatory for an unscheduled agreement.")
    return undefined
  }
  if (!UNSCHEDULED_KINDS.includes(value))
    throw new Refusal(GatewayErrorCode.INVALID_PARAMETER, `agreement[unscheduled_type] ${value} is not one of ${UNSCHEDULED_KINDS.join(", ")}.`)
  return value
}

function amountOf(text: string, currency: string): number {
  let minor: number | undefined
  try {
    minor = /^\d+(\.\d+)?$/.test(text.trim()) && fitsWireDecimals(text) ? decimalToMinor(text, currency) : undefined
  } catch {
    minor = undefined
  }
  if (minor === undefined || minor <= 0) throw new Refusal(GatewayErrorCode.INVALID_PARAMETER, `amount "${text}" must be a positive decimal with at most 2 decimals.`)
  return minor
}
