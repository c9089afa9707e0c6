/**
 * Gateway merchant API: form bodies in, XML APIResponse out, HTTP Basic auth. Inputs are checked
 * against the reference's rules before anything is sent. Only `payments` (a read) is retried;
 * captureReservation, refundCapturedReservation and releaseReservation are sent once, and a lost
 * answer surfaces as an error with `mayHaveReachedAltaPay` so the caller can look the payment up.
 */
import { AltaPayBadResponseError, AltaPayDeclinedError, AltaPayGatewayError, AltaPayValidationError, errorForHttpStatus, type ValidationIssue } from "./errors"
import type { GatewayResponse, GatewayTransaction } from "./gateway-types"
import { apiUrl, basicAuthorization, type HttpTransport } from "./http"
import { gatewayAnswer, observeCall, type AltaPayCallSubjects, type CallTally } from "./observer"
import { assertWireAmounts, currencyInfo, minorToWireDecimal } from "./money"
import { lineTotalMinor, orderLinesTotalMinor, orderLineWireAmounts, toGatewayOrderLineFields, validateOrderLines } from "./order-lines"
import { gatewayOrderLineFields } from "./order-lines/wire"
import type { OrderLine } from "./types"
import { trackingInfoFields, type TrackingInfo } from "./tracking-info"
import { readTerminals, TerminalsShapeError, type AltaPayTerminal } from "./terminals"
import { isFailedResult, isOpenResult, isSuccessResult, latestTransaction, parseGatewayResponse, resultOf } from "./xml"

export interface RefundInput {
  transactionId: string
  /** Omitted: AltaPay refunds everything not yet refunded. */
  amountMinor?: number
  /** Required with amountMinor or orderLines (to format amounts). */
  currency?: string
  /** 0-100 characters; shows up in reconciliation files and lets a lost refund be found again. */
  reconciliationIdentifier?: string
  allowOverRefund?: boolean
  invoiceNumber?: string
  orderLines?: OrderLine[]
  /**
   * A return fee the shop keeps on a Klarna refund (AltaPay's "Refund a Klarna payment"): sent
   * after `orderLines` as a `handling` line with positive amounts, which AltaPay deducts from the
   * other lines. So `orderLines` less this fee total `amountMinor` (the page's example: goods of
   * 11.00 less a 6.40 fee refund 4.60). Needs `amountMinor` and `orderLines`.
   */
  returnFee?: ReturnFee
}

/** A return fee's line: an order line whose unit price is the fee before tax; goodsType is always `handling`. */
export type ReturnFee = Omit<OrderLine, "goodsType">

export interface CaptureInput {
  transactionId: string
  /** Omitted: AltaPay captures the remaining reservation. */
  amountMinor?: number
  currency?: string
  reconciliationIdentifier?: string
  invoiceNumber?: string
  salesTaxMinor?: number
  orderLines?: OrderLine[]
  /** Shipments this capture covers, sent as `trackingInfo[<i>][<field>]` (captureReservation page). */
  trackingInfo?: TrackingInfo[]
}

/**
 * updateOrder (AltaPay's updateOrder page; api-php `Api/Payments/UpdateOrder`): the reservation's new
 * gross amount and its order lines, which replace the reserved ones ("In case it's not passed, it will
 * remove all the order lines"). For invoice methods such as Klarna the amount must be the lines' total.
 */
export interface UpdateOrderInput {
  paymentId: string
  amountMinor: number
  currency: string
  orderLines: OrderLine[]
}

export interface PaymentsFilter {
  transactionId?: string
  paymentId?: string
  shopOrderId?: string
}

/** A gateway call AltaPay accepted: `Success`, or `Open` (not final yet; settle it later). */
export interface GatewayResult {
  result: "Success" | "Open"
  response: GatewayResponse
  /** The updated payment, when AltaPay sent it. */
  transaction?: GatewayTransaction
}

const TRANSACTION_ID = /^[0-9a-f]{1,32}$/
const RECONCILIATION_ID_MAX = 100
const SHOP_ORDER_ID_MAX = 100
const API = "/merchant/API"

export class GatewayApi {
  private readonly authorization: string
  private readonly base: URL
  /** By method; the transport only reads a request's URL. */
  private readonly postUrls = new Map<string, URL>()

  constructor(
    private readonly http: HttpTransport,
    options: { gatewayUrl: string; username: string; password: string }
  ) {
    this.base = new URL(options.gatewayUrl)
    this.authorization = basicAuthorization(options.username, options.password)
  }

  async refundCapturedReservation(input: RefundInput): Promise<GatewayResult> {
    const fields = commonFields("refund", input, returnFeeIssues(input))
    if (input.allowOverRefund !== undefined) fields.allow_over_refund = input.allowOverRefund ? "1" : "0"
    return this.change("refundCapturedReservation", "refund", fields)
  }

  async captureReservation(input: CaptureInput): Promise<GatewayResult> {
    const tracking = input.trackingInfo === undefined ? undefined : trackingInfoFields(input.trackingInfo)
    const fields = { ...commonFields("capture", input, tracking?.issues), ...tracking?.fields }
    if (input.salesTaxMinor !== undefined) {
      fields.sales_tax = minorToWireDecimal(input.salesTaxMinor, requireCurrency(input.currency, "salesTaxMinor"), "sales_tax")
    }
    return this.change("captureReservation", "capture", fields)
  }

  /** Replaces an uncaptured reservation's amount and order lines (UpdateOrderInput). */
  async updateOrder(input: UpdateOrderInput): Promise<GatewayResult> {
    const fail = (field: string, message: string) => {
      throw new AltaPayValidationError(`The order update was not sent: ${field} ${message}.`, [{ field, message }])
    }
    // api-php's example payment id is "12345678-12345678"; AltaPay's payment ids are UUIDs.
    if (typeof input.paymentId !== "string" || !/^[0-9a-f-]{1,36}$/i.test(input.paymentId)) fail("payment_id", "must be AltaPay's payment id")
    if (!Number.isSafeInteger(input.amountMinor) || input.amountMinor <= 0) fail("amount", "must be greater than zero (an integer in minor units)")
    if (input.orderLines.length === 0) fail("orderLines", "must list the order's lines (without them AltaPay removes every line)")
    const currency = currencyInfo(input.currency).alpha
    validateOrderLines(input.orderLines, { currency, expectedTotalMinor: input.amountMinor })
    assertWireAmounts([["amount", input.amountMinor], ...orderLineWireAmounts(input.orderLines)], currency)
    const fields = { payment_id: input.paymentId, amount: minorToWireDecimal(input.amountMinor, currency), ...toGatewayOrderLineFields(input.orderLines, currency) }
    return this.change("updateOrder", "order update", fields)
  }

  async releaseReservation(input: { transactionId: string }): Promise<GatewayResult> {
    return this.change("releaseReservation", "release", { transaction_id: checkTransactionId(input.transactionId) })
  }

  /** Every transaction matching the filter (one filter field is required), in AltaPay's order. */
  async payments(filter: PaymentsFilter): Promise<GatewayTransaction[]> {
    const query = paymentsQuery(filter)
    const response = await this.send("payments", "GET", query, true)
    return response.transactions
  }

  /** The transaction a look-up returns, latest first when several match (e.g. a retried payment). */
  async latestPayment(filter: PaymentsFilter): Promise<GatewayTransaction | undefined> {
    return latestTransaction(await this.payments(filter))
  }

  /** The terminals the API user has access to (getTerminals, a read: retried like `payments`). */
  async getTerminals(): Promise<AltaPayTerminal[]> {
    const response = await this.send("getTerminals", "GET", {}, true)
    try {
      return readTerminals(response.body)
    } catch (error) {
      if (!(error instanceof TerminalsShapeError)) throw error
      throw new AltaPayBadResponseError(`AltaPay answered getTerminals with a list we cannot read: ${error.message}.`, { operation: `GET ${API}/getTerminals` })
    }
  }

  private async change(method: string, action: string, fields: Record<string, string>): Promise<GatewayResult> {
    const response = await this.send(method, "POST", fields, false)
    const result = resultOf(response)
    const transaction = latestTransaction(response.transactions)
    if (isSuccessResult(result)) return { result: "Success", response, transaction }
    if (isOpenResult(result)) return { result: "Open", response, transaction }
    const merchantMessage = response.merchantErrorMessage || undefined
    if (isFailedResult(result)) {
      throw new AltaPayDeclinedError(
        `AltaPay refused the ${action} (${result})${merchantMessage ? `: ${merchantMessage}` : ""}.`,
        { result: result ?? "", merchantMessage, cardHolderMessage: response.cardHolderErrorMessage || undefined, response },
        { operation: `POST ${API}/${method}` }
      )
    }
    throw new AltaPayBadResponseError(`AltaPay answered ${method} without a known Result ("${result ?? ""}").`, {
      operation: `POST ${API}/${method}`,
      mayHaveReachedAltaPay: true,
    })
  }

  /**
   * One call to `{gateway}/merchant/API/<method>`: HTTP errors and a non-zero ErrorCode thrown, the
   * Body's Result left to the caller. For the client's own APIs (agreements), not for applications.
   * @internal
   */
  async send(method: string, verb: "GET" | "POST", fields: Record<string, string>, safeToRetry: boolean): Promise<GatewayResponse> {
    const operation = `${verb} ${API}/${method}`
    const start = { operation, subjects: subjectsOf(fields), reconciliationIdentifier: fields.reconciliation_identifier ?? fields.sale_reconciliation_identifier }
    return observeCall(
      this.http.observer,
      start,
      (tally) => this.sendOnce(method, verb, fields, safeToRetry, tally),
      (response) => ({
        ...gatewayAnswer(response),
        // A charge or look-up learns its transaction from the answer.
        subjects: start.subjects.transactionId ? undefined : { transactionId: latestTransaction(response.transactions)?.transactionId },
      })
    )
  }

  /** A POST's URL never changes per method: built once (a GET's carries its query, so it is built per call). */
  private postUrl(method: string): URL {
    let url = this.postUrls.get(method)
    if (!url) this.postUrls.set(method, (url = apiUrl(this.base, `${API}/${method}`)))
    return url
  }

  private async sendOnce(method: string, verb: "GET" | "POST", fields: Record<string, string>, safeToRetry: boolean, tally: CallTally): Promise<GatewayResponse> {
    const operation = `${verb} ${API}/${method}`
    const form = new URLSearchParams(fields).toString()
    const url = verb === "GET" ? apiUrl(this.base, `${API}/${method}`) : this.postUrl(method)
    if (verb === "GET") url.search = form
    const res = await this.http.request({
      method: verb,
      url,
      headers: {
        authorization: this.authorization,
        accept: "application/xml, text/xml",
        ...(verb === "POST" ? { "content-type": "application/x-www-form-urlencoded" } : {}),
      },
      body: verb === "POST" ? form : undefined,
      safeToRetry,
      operation,
      tally,
    })
    if (res.status < 200 || res.status >= 300) throw errorForHttpStatus(res.status, res.body, operation, !safeToRetry)
    const response = parseGatewayResponse(res.body, { status: res.status, operation, mayHaveReachedAltaPay: !safeToRetry })
    if (response.header.errorCode !== 0) {
      throw new AltaPayGatewayError(response.header.errorCode, response.header.errorMessage, { status: res.status, operation })
    }
    return response
  }
}

/** The ids a gateway call names, by their form field (the observer's subjects). */
function subjectsOf(fields: Record<string, string>): AltaPayCallSubjects {
  return { transactionId: fields.transaction_id, paymentId: fields.payment_id, shopOrderId: fields.shop_orderid, agreementId: fields["agreement[id]"] }
}

function commonFields(action: "refund" | "capture", input: RefundInput | CaptureInput, otherIssues: ValidationIssue[] = []): Record<string, string> {
  const issues: ValidationIssue[] = [...otherIssues]
  const fields: Record<string, string> = {}
  try {
    fields.transaction_id = checkTransactionId(input.transactionId)
  } catch (error) {
    issues.push(...(error as AltaPayValidationError).issues)
  }
  let currency: string | undefined
  if (input.amountMinor !== undefined || input.orderLines?.length || ("salesTaxMinor" in input && input.salesTaxMinor !== undefined)) {
    if (!input.currency) issues.push({ field: "currency", message: "is required with an amount or order lines" })
    else {
      try {
        currency = currencyInfo(input.currency).alpha
      } catch {
        issues.push({ field: "currency", message: `unknown ISO 4217 currency ${input.currency}` })
      }
    }
  }
  if (currency) {
    // Every amount must fit AltaPay's 2 decimals (a KWD amount ending in a non-zero fils does not):
    // refused as a whole, before anything is sent, never rounded.
    const salesTax = "salesTaxMinor" in input && input.salesTaxMinor !== undefined ? [["sales_tax", input.salesTaxMinor] as [string, number]] : []
    const amount = input.amountMinor !== undefined ? [["amount", input.amountMinor] as [string, number]] : []
    assertWireAmounts([...amount, ...salesTax, ...orderLineWireAmounts(input.orderLines ?? [])], currency)
  }
  if (input.amountMinor !== undefined) {
    if (!Number.isSafeInteger(input.amountMinor) || input.amountMinor <= 0) {
      issues.push({ field: "amount", message: "must be greater than zero (an integer in minor units)" })
    } else if (currency) fields.amount = minorToWireDecimal(input.amountMinor, currency)
  }
  if (input.reconciliationIdentifier !== undefined) {
    if ([...input.reconciliationIdentifier].length > RECONCILIATION_ID_MAX) {
      issues.push({ field: "reconciliation_identifier", message: `must be at most ${RECONCILIATION_ID_MAX} characters` })
    } else fields.reconciliation_identifier = input.reconciliationIdentifier
  }
  if (input.invoiceNumber !== undefined) fields.invoice_number = input.invoiceNumber
  if (input.orderLines?.length && currency) {
    try {
      // A partial refund or capture must be covered exactly by its lines (reference rule 4); a
      // return fee is deducted from them, so they cover the amount and the fee.
      const fee = "returnFee" in input && input.returnFee ? { ...input.returnFee, goodsType: "handling" as const } : undefined
      const amountMinor = issues.some((i) => i.field === "amount") ? undefined : input.amountMinor
      validateOrderLines(input.orderLines, { currency, expectedTotalMinor: fee ? undefined : amountMinor })
      if (fee && amountMinor !== undefined) issues.push(...returnFeeTotalIssues(input.orderLines, fee, amountMinor))
      // Without a fee the lines were checked just above (amounts too, at the top): encoded as they are.
      Object.assign(fields, fee ? toGatewayOrderLineFields([...input.orderLines, fee], currency) : gatewayOrderLineFields(input.orderLines, currency))
    } catch (error) {
      if (!(error instanceof AltaPayValidationError)) throw error
      issues.push(...error.issues)
    }
  }
  if (issues.length > 0) {
    throw new AltaPayValidationError(`The ${action} was not sent: ${issues.map((i) => `${i.field} ${i.message}`).join("; ")}.`, issues)
  }
  return fields
}

/** What keeps a return fee from being sent: a fee needs the amount and the goods lines it is deducted from, and a price above zero. */
function returnFeeIssues(input: RefundInput): ValidationIssue[] {
  const fee = input.returnFee
  if (!fee) return []
  const issues: ValidationIssue[] = []
  if (input.amountMinor === undefined) issues.push({ field: "returnFee", message: "needs amountMinor (the refund after the fee)" })
  if (!input.orderLines?.length) issues.push({ field: "returnFee", message: "needs the orderLines it is deducted from" })
  if (!(fee.unitPriceMinor > 0)) issues.push({ field: "returnFee.unitPriceMinor", message: "must be greater than zero (AltaPay deducts the fee)" })
  if (fee.taxAmountMinor < 0) issues.push({ field: "returnFee.taxAmountMinor", message: "must not be negative" })
  return issues
}

/** The goods lines less the return fee must be the amount, as AltaPay deducts the fee. */
function returnFeeTotalIssues(lines: readonly OrderLine[], fee: OrderLine, amountMinor: number): ValidationIssue[] {
  const goods = orderLinesTotalMinor(lines)
  const feeMinor = lineTotalMinor(fee, "returnFee")
  if (goods - feeMinor === amountMinor) return []
  return [{ field: "orderLines", message: `lines total ${goods} minor units less the return fee's ${feeMinor} is ${goods - feeMinor}, but the amount is ${amountMinor}` }]
}

function checkTransactionId(transactionId: string): string {
  if (typeof transactionId !== "string" || !TRANSACTION_ID.test(transactionId)) {
    throw new AltaPayValidationError(`Invalid transaction_id "${String(transactionId).slice(0, 40)}": AltaPay ids are 1-32 characters of 0-9 and a-f.`, [
      { field: "transaction_id", message: "must match [0-9a-f]{1,32}" },
    ])
  }
  return transactionId
}

function requireCurrency(currency: string | undefined, field: string): string {
  if (!currency) throw new AltaPayValidationError(`currency is required with ${field}.`, [{ field: "currency", message: `required with ${field}` }])
  return currency
}

function paymentsQuery(filter: PaymentsFilter): Record<string, string> {
  const query: Record<string, string> = {}
  const issues: ValidationIssue[] = []
  if (filter.transactionId !== undefined) {
    try {
      query.transaction_id = checkTransactionId(filter.transactionId)
    } catch (error) {
      issues.push(...(error as AltaPayValidationError).issues)
    }
  }
  if (filter.paymentId !== undefined) {
    if (/^[A-Za-z0-9-]{1,64}$/.test(filter.paymentId)) query.payment_id = filter.paymentId
    else issues.push({ field: "payment_id", message: "must be an AltaPay payment id" })
  }
  if (filter.shopOrderId !== undefined) {
    if (filter.shopOrderId.length > 0 && [...filter.shopOrderId].length <= SHOP_ORDER_ID_MAX) query.shop_orderid = filter.shopOrderId
    else issues.push({ field: "shop_orderid", message: `must be 1-${SHOP_ORDER_ID_MAX} characters` })
  }
  if (issues.length === 0 && Object.keys(query).length === 0) {
    issues.push({ field: "filter", message: "one of transactionId, paymentId or shopOrderId is required" })
  }
  if (issues.length > 0) {
    throw new AltaPayValidationError(`The payments look-up was not sent: ${issues.map((i) => `${i.field} ${i.message}`).join("; ")}.`, issues)
  }
  return query
}
