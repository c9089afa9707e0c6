/**
 * Agreements on the gateway's Merchant API: set-up through AltaPay's hosted page
 * (createPaymentRequest with `agreement[...]`; the Checkout API has no agreements), then charges
 * with chargeSubscription (reserve and capture) or reserveSubscriptionCharge (reserve; capture with
 * captureReservation). Every change is sent once: a lost answer is an error with
 * `mayHaveReachedAltaPay`, and the caller looks its reconciliation identifier up with `payments`.
 */
import { AltaPayBadResponseError, AltaPayDeclinedError, AltaPayValidationError, type ValidationIssue } from "../errors"
import type { GatewayApi } from "../gateway"
import type { GatewayResponse, GatewayTransaction } from "../gateway-types"
import { assertWireAmounts, currencyInfo, minorToWireDecimal } from "../money"
import { orderLineWireAmounts, toGatewayOrderLineFields, validateOrderLines } from "../order-lines"
import type { OrderLine } from "../types"
import { textOf } from "../xml-readers"
import { isFailedResult, isOpenResult, isSuccessResult, latestTransaction, resultOf } from "../xml"
import { agreementCardOf } from "./card"
import { redirectOf } from "./redirect"
import { AGREEMENT_TYPES, UNSCHEDULED_TYPES, type AgreementChargeInput, type AgreementChargeResult, type AgreementSetupInput, type AgreementSetupRequest } from "./types"

const TRANSACTION_ID = /^[0-9a-f]{1,32}$/
const SHOP_ORDER_ID = /^[a-zA-Z0-9-]{1,100}$/
const YYYYMMDD = /^\d{8}$/
const CALLBACK_CONFIG: Record<string, string> = {
  success: "callback_ok",
  failure: "callback_fail",
  open: "callback_open",
  notification: "callback_notification",
  redirect: "callback_redirect",
  formStyling: "callback_form",
  // createPaymentRequest's `config[callback_verify_order]` (sdk-csharp PaymentRequestConfig.cs, api-php src/Request/Config.php).
  verifyOrder: "callback_verify_order",
}

export class AgreementsApi {
  constructor(private readonly gateway: GatewayApi) {}

  /** createPaymentRequest for an agreement: AltaPay's hosted page, where the customer enters the card. */
  async setupAgreement(input: AgreementSetupInput): Promise<AgreementSetupRequest> {
    const { fields, issues } = amountFields(input, true)
    // createPaymentRequest takes the currency (the set-up pages' examples); the charges do not.
    if (fields.amount) fields.currency = currencyInfo(input.currency).alpha
    if (!SHOP_ORDER_ID.test(input.shopOrderId ?? "")) issues.push({ field: "shop_orderid", message: "must match [a-zA-Z0-9-]{1,100}" })
    if (!input.terminal) issues.push({ field: "terminal", message: "is required" })
    const agreement = input.agreement ?? ({} as AgreementSetupInput["agreement"])
    if (!(AGREEMENT_TYPES as readonly string[]).includes(agreement.type)) issues.push({ field: "agreement[type]", message: `must be one of ${AGREEMENT_TYPES.join(", ")}` })
    // AltaPay's own set-up example has agreement[type]=unscheduled and no unscheduled_type (Setup
    // Agreement page, setupSubscription); it is mandatory on the charges, not here.
    checkUnscheduled(agreement.unscheduledType, issues)
    for (const [key, value] of [
      ["expiry", agreement.expiry],
      ["next_charge_date", agreement.nextChargeDate],
    ] as const) {
      if (value !== undefined && !YYYYMMDD.test(value)) issues.push({ field: `agreement[${key}]`, message: "must be YYYYMMDD" })
    }
    if (input.saleReconciliationIdentifier !== undefined && [...input.saleReconciliationIdentifier].length > 100) {
      issues.push({ field: "sale_reconciliation_identifier", message: "must be at most 100 characters" })
    }
    refuse("agreement set-up", issues)
    Object.assign(fields, {
      terminal: input.terminal,
      shop_orderid: input.shopOrderId,
      type: input.type ?? "subscription",
      "agreement[type]": agreement.type,
      ...optional("agreement[unscheduled_type]", agreement.unscheduledType),
      ...optional("agreement[expiry]", agreement.expiry),
      ...optional("agreement[frequency]", agreement.frequency?.toString()),
      ...optional("agreement[next_charge_date]", agreement.nextChargeDate),
      ...optional("agreement[admin_url]", agreement.adminUrl),
      ...optional("language", input.language),
      ...optional("sale_reconciliation_identifier", input.saleReconciliationIdentifier),
      ...prefixed("transaction_info", input.transactionInfo),
    })
    for (const [name, url] of Object.entries(input.callbacks ?? {})) if (url && CALLBACK_CONFIG[name]) fields[`config[${CALLBACK_CONFIG[name]}]`] = url
    const response = await this.gateway.send("createPaymentRequest", "POST", fields, false)
    const result = resultOf(response)
    const url = stringIn(response.body, "Url")
    const paymentRequestId = stringIn(response.body, "PaymentRequestId")
    if (isSuccessResult(result) && url && paymentRequestId) {
      return { paymentRequestId, url, dynamicJavascriptUrl: stringIn(response.body, "DynamicJavascriptUrl") }
    }
    throw outcomeError("createPaymentRequest", "agreement set-up", result, response)
  }

  /** Reserves and captures one charge on an agreement. */
  chargeSubscription(input: AgreementChargeInput): Promise<AgreementChargeResult> {
    return this.charge("chargeSubscription", input)
  }

  /** Reserves one charge on an agreement; capture it with `gateway.captureReservation`. */
  reserveSubscriptionCharge(input: AgreementChargeInput): Promise<AgreementChargeResult> {
    return this.charge("reserveSubscriptionCharge", input)
  }

  /** The agreement's set-up transaction and its card (a `payments` look-up; safe to retry). */
  async agreement(agreementId: string): Promise<ReturnType<typeof agreementCardOf> | undefined> {
    const transaction = (await this.gateway.payments({ transactionId: agreementId })).find((t) => t.transactionId === agreementId)
    return transaction && agreementCardOf(transaction)
  }

  private async charge(method: "chargeSubscription" | "reserveSubscriptionCharge", input: AgreementChargeInput): Promise<AgreementChargeResult> {
    // No `currency` on the wire: no method page and no AltaPay client sends one (the agreement has it);
    // without an amount AltaPay charges the agreement's RecurringDefaultAmount (chargeSubscription page).
    const { fields, issues } = amountFields(input, false)
    if (!TRANSACTION_ID.test(input.agreementId ?? "")) issues.push({ field: "agreement[id]", message: "must match [0-9a-f]{1,32}" })
    checkUnscheduled(input.unscheduledType, issues)
    if (input.reconciliationIdentifier !== undefined && [...input.reconciliationIdentifier].length > 100) {
      issues.push({ field: "reconciliation_identifier", message: "must be at most 100 characters" })
    }
    refuse(method, issues)
    Object.assign(fields, {
      "agreement[id]": input.agreementId,
      ...optional("agreement[unscheduled_type]", input.unscheduledType),
      ...optional("reconciliation_identifier", input.reconciliationIdentifier),
      ...prefixed("transaction_info", input.transactionInfo),
    })
    const response = await this.gateway.send(method, "POST", fields, false)
    const result = resultOf(response)
    if (result?.toLowerCase() === "redirect") {
      const redirect = redirectOf(response.body)
      if (redirect) return { outcome: "redirect", redirect }
      throw new AltaPayBadResponseError(`AltaPay answered ${method} with Result=Redirect but no RedirectResponse/Url.`, {
        operation: `POST /merchant/API/${method}`,
        mayHaveReachedAltaPay: true,
      })
    }
    const transaction = chargeTransaction(response.transactions, input.agreementId)
    if (transaction && (isSuccessResult(result) || isOpenResult(result))) {
      const setUp = response.transactions.find((t) => t.transactionId === input.agreementId)
      return { outcome: isSuccessResult(result) ? "succeeded" : "open", transaction, card: setUp && agreementCardOf(setUp) }
    }
    throw outcomeError(method, method === "chargeSubscription" ? "agreement charge" : "agreement reservation", result, response)
  }
}

/** The charge's own transaction: answers carry the agreement's set-up transaction too (api-php reservesubscription.xml). */
function chargeTransaction(transactions: GatewayTransaction[], agreementId: string): GatewayTransaction | undefined {
  return latestTransaction(transactions.filter((t) => t.transactionId !== agreementId)) ?? latestTransaction(transactions)
}

function outcomeError(method: string, action: string, result: string | undefined, response: GatewayResponse): Error {
  const merchantMessage = response.merchantErrorMessage || undefined
  const operation = `POST /merchant/API/${method}`
  if (isFailedResult(result)) {
    return new AltaPayDeclinedError(
      `AltaPay refused the ${action} (${result})${merchantMessage ? `: ${merchantMessage}` : ""}.`,
      { result: result ?? "", merchantMessage, cardHolderMessage: response.cardHolderErrorMessage || undefined, response },
      { operation }
    )
  }
  return new AltaPayBadResponseError(`AltaPay answered ${method} without a known Result ("${result ?? ""}").`, { operation, mayHaveReachedAltaPay: true })
}

/** `amount` (required or not) and `orderLines`, formatted in the input's currency; the currency itself is the caller's to send. */
function amountFields(
  input: { amountMinor?: number; currency?: string; orderLines?: OrderLine[] },
  amountRequired: boolean
): { fields: Record<string, string>; issues: ValidationIssue[] } {
  const fields: Record<string, string> = {}
  const issues: ValidationIssue[] = []
  const hasAmount = input.amountMinor !== undefined || amountRequired
  if (!hasAmount && !input.orderLines?.length) return { fields, issues }
  let currency: string | undefined
  try {
    currency = currencyInfo(input.currency ?? "").alpha
  } catch {
    issues.push({ field: "currency", message: `unknown ISO 4217 currency ${String(input.currency)} (needed to write the amounts)` })
  }
  if (hasAmount && (!Number.isSafeInteger(input.amountMinor) || (input.amountMinor ?? 0) <= 0)) {
    issues.push({ field: "amount", message: "must be greater than zero (an integer in minor units)" })
  }
  if (!currency || issues.length > 0) return { fields, issues }
  const amount: Array<[string, number]> = input.amountMinor === undefined ? [] : [["amount", input.amountMinor]]
  assertWireAmounts([...amount, ...orderLineWireAmounts(input.orderLines ?? [])], currency)
  if (input.amountMinor !== undefined) fields.amount = minorToWireDecimal(input.amountMinor, currency)
  if (input.orderLines?.length) {
    try {
      validateOrderLines(input.orderLines, { currency, expectedTotalMinor: input.amountMinor })
      Object.assign(fields, toGatewayOrderLineFields(input.orderLines, currency))
    } catch (error) {
      if (!(error instanceof AltaPayValidationError)) throw error
      issues.push(...error.issues)
    }
  }
  return { fields, issues }
}

function checkUnscheduled(value: string | undefined, issues: ValidationIssue[]): void {
  if (value !== undefined && !(UNSCHEDULED_TYPES as readonly string[]).includes(value)) {
    issues.push({ field: "agreement[unscheduled_type]", message: `must be one of ${UNSCHEDULED_TYPES.join(", ")}` })
  }
}

function refuse(action: string, issues: ValidationIssue[]): void {
  if (issues.length > 0) throw new AltaPayValidationError(`The ${action} was not sent: ${issues.map((i) => `${i.field} ${i.message}`).join("; ")}.`, issues)
}

const optional = (key: string, value: string | undefined): Record<string, string> => (value === undefined || value === "" ? {} : { [key]: value })

const prefixed = (prefix: string, values: Record<string, string> | undefined): Record<string, string> =>
  Object.fromEntries(Object.entries(values ?? {}).map(([key, value]) => [`${prefix}[${key}]`, value]))

const stringIn = (body: Record<string, unknown>, key: string): string | undefined => textOf(body[key]) || undefined
