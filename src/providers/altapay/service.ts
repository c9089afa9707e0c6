/**
 * The AltaPay payment provider: one method per Medusa hook, in the order Medusa calls them. Each
 * is a thin mapping onto the framework-free client in src/altapay; AltaPay failures become
 * MedusaErrors in one place (medusa-errors.ts) and states map in one place (status.ts).
 */
import type {
  AuthorizePaymentInput,
  AuthorizePaymentOutput,
  CancelPaymentInput,
  CancelPaymentOutput,
  CapturePaymentInput,
  CapturePaymentOutput,
  DeletePaymentInput,
  DeletePaymentOutput,
  GetPaymentStatusInput,
  GetPaymentStatusOutput,
  InitiatePaymentInput,
  InitiatePaymentOutput,
  Logger,
  ProviderWebhookPayload,
  RefundPaymentInput,
  RemoteQueryFunction,
  RefundPaymentOutput,
  RetrievePaymentInput,
  RetrievePaymentOutput,
  UpdatePaymentInput,
  UpdatePaymentOutput,
  WebhookActionResult,
} from "@medusajs/framework/types"
import { AbstractPaymentProvider, ContainerRegistrationKeys, MathBN, MedusaError, PaymentActions, PaymentSessionStatus } from "@medusajs/framework/utils"
import {
  AltaPayDeclinedError,
  AltaPayError,
  AUTHORIZED_STATUSES,
  minorToDecimal,
  parseCallback,
  RELEASED_STATUSES,
  proportionalAdjustmentLine,
  statusIn,
  verifyCallbackSignature,
  type AltaPayCallback,
  type AltaPayClient,
  type GatewayTransaction,
} from "../../altapay"
import { roundedIncrement, toBigNumber, toMinorUnits } from "../../lib/amounts"
import { medusaCaptureAmount } from "./capture-amount"
import { sessionCustomer } from "../../lib/customer"
import { IdempotencyCache } from "./idempotency"
import { createRedirectPayment } from "./redirect-payment"
import { scaleOutFrom, type ScaleOut } from "../../lib/scale-out"
import { sharedAltaPayClient } from "../../lib/shared-client"
import { contextLines, sameLines, SessionLines } from "./session-lines"
import { reconciliationId } from "./reconciliation"
import { RefundFlow } from "./refund-flow"
import { toMedusaError } from "../../lib/medusa-errors"
import { notificationUrl, parseAltaPayOptions, terminalFor, type AltaPayOptions } from "../../lib/options"
import {
  freshPaymentData,
  paymentDataSchema,
  readPaymentData,
  requireTransactionId,
  type AltaPayPaymentData,
} from "../../lib/payment-data"
import { pickTransaction, sessionStatusFor, webhookActionFor } from "../../lib/status"
import { hasReconciliation, withTransaction } from "../../lib/transaction-state"

type Cradle = Record<string, unknown> & { logger?: Logger }


export class AltaPayProviderService extends AbstractPaymentProvider<AltaPayOptions> {
  static override identifier = "altapay"

  static override validateOptions(options: Record<string, unknown>): void {
    const parsed = parseAltaPayOptions(options)
    if ("problems" in parsed) {
      throw new MedusaError(
        MedusaError.Types.INVALID_ARGUMENT,
        `AltaPay provider options are invalid:\n- ${parsed.problems.join("\n- ")}\nFix them in the Payment module's providers entry of medusa-config.`
      )
    }
  }

  protected readonly options_: AltaPayOptions
  protected readonly logger_: Logger | undefined
  protected readonly client: AltaPayClient
  private readonly scaleOut: ScaleOut
  private readonly sessionLines: SessionLines
  private readonly query: Pick<RemoteQueryFunction, "graph"> | undefined
  private readonly initiated = new IdempotencyCache<Promise<InitiatePaymentOutput>>()
  private readonly refunds: RefundFlow

  constructor(cradle: Cradle, options: AltaPayOptions) {
    super(cradle, options)
    AltaPayProviderService.validateOptions(options as unknown as Record<string, unknown>)
    this.options_ = (parseAltaPayOptions(options) as { options: AltaPayOptions }).options
    this.logger_ = optionalDependency<Logger>(cradle, ContainerRegistrationKeys.LOGGER)
    this.query = optionalDependency<Pick<RemoteQueryFunction, "graph">>(cradle, ContainerRegistrationKeys.QUERY)
    this.sessionLines = new SessionLines(this.query, this.logger_, { productUrlTemplate: this.options_.productUrlTemplate })
    this.scaleOut = scaleOutFrom((name) => optionalDependency(cradle, name))
    this.client = sharedAltaPayClient(this.options_, { debug: (m) => this.logger_?.debug(m), warn: (m) => this.logger_?.warn(m) }, this.scaleOut)
    this.refunds = new RefundFlow(this.client, this.options_, this.logger_, (transactionId, action) => this.lookupOne(transactionId, action), this.scaleOut.store)
  }

  // --- checkout ---------------------------------------------------------------------------

  async initiatePayment(input: InitiatePaymentInput): Promise<InitiatePaymentOutput> {
    const currency = input.currency_code.toUpperCase()
    const amountMinor = this.minor(input.amount, currency, "initiate")
    const key = input.context?.idempotency_key
    const orderId = String(input.data?.session_id ?? key ?? "")
    if (!orderId) {
      throw new MedusaError(MedusaError.Types.INVALID_DATA, "AltaPay initiate: Medusa passed no payment session id to use as the AltaPay order id.")
    }
    // Concurrent and repeated calls with one key share one AltaPay session (for the same amount).
    const cacheKey = key ? `${key}:${amountMinor}:${currency}` : undefined
    const previous = cacheKey ? this.initiated.get(cacheKey) : undefined
    if (previous) return previous
    const created = this.createSession(input, orderId, amountMinor, currency)
    if (cacheKey) {
      this.initiated.set(cacheKey, created)
      created.catch(() => this.initiated.delete(cacheKey))
    }
    return created
  }

  private async createSession(input: InitiatePaymentInput, orderId: string, amountMinor: number, currency: string): Promise<InitiatePaymentOutput> {
    const { lines, source } = await this.sessionLines.resolve({ context: input.context, paymentSessionId: orderId, amountMinor, currency })
    const terminal = terminalFor(this.options_, currency) ?? null
    try {
      const session = await this.client.checkout.createSession({
        orderId,
        amountMinor,
        currency,
        orderLines: lines,
        customer: sessionCustomer(input.context),
        transactionInfo: { medusa_payment_session_id: orderId },
        callbacks: this.callbackUrls(orderId),
        configuration: this.sessionConfiguration(this.options_.autoCapture),
      })
      // The plugin's store route asks for the storefront flow: its browser creates the payment itself.
      const flow = (input.context as { altapay?: { flow?: unknown } } | undefined)?.altapay?.flow === "storefront" ? "storefront" : this.options_.flow
      const redirect = flow === "redirect" ? await createRedirectPayment(this.client, session.sessionId, terminal) : undefined
      return {
        id: session.sessionId,
        status: PaymentSessionStatus.PENDING,
        data: freshPaymentData({
          altapay_session_id: session.sessionId,
          order_id: orderId,
          amount_minor: amountMinor,
          currency,
          terminal,
          auto_capture: this.options_.autoCapture,
          order_lines: lines,
          order_lines_source: source,
          redirect_url: redirect?.url ?? null,
          payment_id: redirect?.paymentId ?? null,
        }),
      }
    } catch (error) {
      throw toMedusaError(error, "session creation")
    }
  }

  async updatePayment(input: UpdatePaymentInput): Promise<UpdatePaymentOutput> {
    const data = readPaymentData(input.data, "update")
    const currency = input.currency_code.toUpperCase()
    const amountMinor = this.minor(input.amount, currency, "update")
    const sameAmount = amountMinor === data.amount_minor && currency === data.currency
    if (data.transaction_id) {
      if (sameAmount && !contextLines(input.context)) return { data }
      throw new MedusaError(
        MedusaError.Types.NOT_ALLOWED,
        "AltaPay update: the customer has already paid this session; it cannot change amount or lines. Cancel it and create a new payment session."
      )
    }
    // The same amount can hide other lines (a tax rate or a promotion changed): compare the lines.
    const { lines, source } = await this.sessionLines.resolve({ context: input.context, paymentSessionId: data.order_id, amountMinor, currency })
    if (sameAmount && sameLines(lines, data.order_lines)) return { data }
    try {
      await this.client.checkout.updateSession(data.altapay_session_id, {
        orderId: data.order_id,
        amountMinor,
        currency,
        orderLines: lines,
        customer: sessionCustomer(input.context),
        callbacks: this.callbackUrls(data.order_id),
        configuration: this.sessionConfiguration(data.auto_capture),
      })
      // The old payment page was for the old amount; a new one replaces it.
      const redirect = data.redirect_url ? await createRedirectPayment(this.client, data.altapay_session_id, data.terminal) : undefined
      return {
        data: {
          ...data,
          amount_minor: amountMinor,
          currency,
          order_lines: lines,
          order_lines_source: source,
          ...(redirect ? { redirect_url: redirect.url, payment_id: redirect.paymentId } : {}),
        },
      }
    } catch (error) {
      throw toMedusaError(error, "session update")
    }
  }

  /**
   * Medusa deletes a session when the cart total or currency changes. The old AltaPay session must
   * not stay payable: its pending payment pages are expired (by updating the session), and a
   * reservation a customer made on it anyway is released, since no order will ever claim it.
   * A session this provider authorized is different: its reservation belongs to a Medusa Payment
   * (Medusa deletes such sessions too, e.g. when anyone starts a new session on the collection),
   * and only Medusa's cancel may release it.
   */
  async deletePayment(input: DeletePaymentInput): Promise<DeletePaymentOutput> {
    const parsed = paymentDataSchema.safeParse(input.data ?? {})
    if (!parsed.success) return { data: input.data }
    const data = parsed.data
    if (data.authorized_at) return { data: input.data }
    try {
      const transaction = pickTransaction(await this.client.gateway.payments({ shopOrderId: data.order_id }))
      if (transaction && statusIn(transaction.transactionStatus, AUTHORIZED_STATUSES) && (transaction.capturedAmount?.minor ?? 0) === 0) {
        await this.client.gateway.releaseReservation({ transactionId: transaction.transactionId })
        this.logger_?.warn(`AltaPay ${data.order_id}: released a payment made on a replaced session.`)
        return { data: withTransaction(data, transaction) }
      }
      if (transaction?.capturedAmount && transaction.capturedAmount.minor > 0) {
        // Auto-capture on a session no order will claim: money taken, and only a person can decide.
        this.logger_?.error(
          `AltaPay ${data.order_id}: a replaced session's payment is captured (transaction ${transaction.transactionId}, ${transaction.capturedAmount.decimal} ${data.currency}) and no order claims it. Refund it in AltaPay's merchant interface.`
        )
      }
      if (!transaction) {
        await this.client.checkout.updateSession(data.altapay_session_id, {
          orderId: data.order_id,
          amountMinor: data.amount_minor,
          currency: data.currency,
          orderLines: data.order_lines,
          callbacks: this.callbackUrls(data.order_id),
          configuration: this.sessionConfiguration(data.auto_capture),
        })
      }
    } catch (error) {
      // Deleting must not block the cart; the amount check at authorization still guards it.
      this.logger_?.warn(`AltaPay ${data.order_id}: could not retire the replaced session: ${error instanceof Error ? error.message : String(error)}`)
    }
    return { data: input.data }
  }

  async authorizePayment(input: AuthorizePaymentInput): Promise<AuthorizePaymentOutput> {
    const data = readPaymentData(input.data, "authorize")
    const transaction = pickTransaction(await this.lookup({ shopOrderId: data.order_id }, "authorization"))
    const { status, reason } = sessionStatusFor(transaction, data.amount_minor)
    if (reason) this.logger_?.warn(`AltaPay authorize ${data.order_id}: ${reason}`)
    const authorized = status === PaymentSessionStatus.AUTHORIZED || status === PaymentSessionStatus.CAPTURED
    const authorizedAt = authorized ? (data.authorized_at ?? new Date().toISOString()) : null
    return { status, data: { ...withTransaction(data, transaction), failure_reason: reason ?? null, authorized_at: authorizedAt } }
  }

  // --- after the order ------------------------------------------------------------------

  async capturePayment(input: CapturePaymentInput): Promise<CapturePaymentOutput> {
    const data = readPaymentData(input.data, "capture")
    const transactionId = requireTransactionId(data, "capture")
    return this.serialized(transactionId, () => this.capture(input, data, transactionId))
  }

  private async capture(input: CapturePaymentInput, data: AltaPayPaymentData, transactionId: string): Promise<CapturePaymentOutput> {
    const captureId = input.context?.idempotency_key
    const reconciliationIdentifier = reconciliationId("capture", captureId)
    const alreadyCaptured = data.captured_minor ?? 0
    if (alreadyCaptured >= data.amount_minor) return { data } // auto-capture, or captured before: never twice
    if (captureId && data.captures.some((c) => c.reconciliation_identifier === reconciliationIdentifier)) return { data }

    const amountMinor = await this.captureAmount(data, captureId, data.amount_minor - alreadyCaptured)
    if (amountMinor <= 0) {
      this.logger_?.warn(`AltaPay capture ${reconciliationIdentifier}: Medusa's capture rounds to nothing in ${data.currency}; nothing was sent.`)
      return { data }
    }
    const whole = alreadyCaptured === 0 && amountMinor === data.amount_minor
    const orderLines = whole
      ? data.order_lines
      : proportionalAdjustmentLine(data.order_lines, amountMinor, { itemId: alreadyCaptured === 0 ? "capture" : "capture-remaining", description: alreadyCaptured === 0 ? "Partial capture" : "Remaining capture" })
    try {
      const result = await this.client.gateway.captureReservation({ transactionId, amountMinor, currency: data.currency, orderLines, reconciliationIdentifier })
      const captured = withCapture(data, captureId, reconciliationIdentifier, amountMinor)
      return { data: withTransaction(captured, result.transaction) }
    } catch (error) {
      // Declined because it is captured already, or the answer was lost: AltaPay's state decides.
      if (error instanceof AltaPayDeclinedError || (error instanceof AltaPayError && error.mayHaveReachedAltaPay)) {
        const transaction = await this.lookupOne(transactionId, "capture check").catch(() => undefined)
        if (transaction && (hasReconciliation(transaction, reconciliationIdentifier, "captured") || (transaction.capturedAmount?.minor ?? 0) >= data.amount_minor)) {
          return { data: withTransaction(data, transaction) }
        }
      }
      throw toMedusaError(error, "capture")
    }
  }

  /**
   * Exactly what Medusa recorded for this capture (a partial capture from the admin), read through
   * `query`; without `query`, or when the capture cannot be found, what is left of the reservation.
   */
  private async captureAmount(data: AltaPayPaymentData, captureId: string | undefined, remainingMinor: number): Promise<number> {
    const read = await medusaCaptureAmount(this.query, data.order_id, captureId, data.currency).catch((error: unknown) => ({
      found: false as const,
      reason: error instanceof Error ? error.message : String(error),
    }))
    if (read.found) return Math.min(read.amountMinor, remainingMinor)
    this.logger_?.warn(`AltaPay capture of ${data.order_id}: Medusa's capture amount could not be read (${read.reason}); capturing what is left of the reservation.`)
    return remainingMinor
  }

  async refundPayment(input: RefundPaymentInput): Promise<RefundPaymentOutput> {
    const data = readPaymentData(input.data, "refund")
    const transactionId = requireTransactionId(data, "refund")
    const { amountMinor, medusaAmount } = this.refundAmount(input.amount, data)
    return this.serialized(transactionId, () => this.refunds.run({ data, transactionId, amountMinor, medusaAmount, refundId: input.context?.idempotency_key ?? null }))
  }

  async cancelPayment(input: CancelPaymentInput): Promise<CancelPaymentOutput> {
    const data = readPaymentData(input.data, "cancel")
    if (!data.transaction_id) return { data } // never paid: nothing reserved at AltaPay
    if ((data.captured_minor ?? 0) > 0) throw capturedCannotCancel(data)
    try {
      const result = await this.client.gateway.releaseReservation({ transactionId: data.transaction_id })
      return { data: withTransaction(data, result.transaction) }
    } catch (error) {
      if (error instanceof AltaPayDeclinedError || (error instanceof AltaPayError && error.mayHaveReachedAltaPay)) {
        const transaction = await this.lookupOne(data.transaction_id, "cancel check").catch(() => undefined)
        if (statusIn(transaction?.transactionStatus, RELEASED_STATUSES)) return { data: withTransaction(data, transaction) }
        if ((transaction?.capturedAmount?.minor ?? 0) > 0) throw capturedCannotCancel(data)
      }
      throw toMedusaError(error, "release")
    }
  }

  async retrievePayment(input: RetrievePaymentInput): Promise<RetrievePaymentOutput> {
    const data = readPaymentData(input.data, "retrieve")
    return { data: withTransaction(data, await this.liveTransaction(data)) }
  }

  async getPaymentStatus(input: GetPaymentStatusInput): Promise<GetPaymentStatusOutput> {
    const data = readPaymentData(input.data, "status")
    const transaction = await this.liveTransaction(data)
    return { status: sessionStatusFor(transaction, data.amount_minor).status, data: withTransaction(data, transaction) }
  }

  // --- callbacks ----------------------------------------------------------------------------

  async getWebhookActionAndData(payload: ProviderWebhookPayload["payload"]): Promise<WebhookActionResult> {
    const rawBody = rawBodyOf(payload)
    let callback: AltaPayCallback
    try {
      if (this.options_.callbackSecret) {
        verifyCallbackSignature({
          rawBody,
          signatureHeader: headerOf(payload.headers, "altapay-signature"),
          secret: this.options_.callbackSecret,
          toleranceSeconds: this.options_.callbackToleranceSeconds,
        })
      }
      callback = parseCallback(rawBody.length > 0 ? rawBody.toString("utf8") : (payload.data as Record<string, unknown>))
    } catch (error) {
      // Logged without the body: it may carry card and customer details.
      this.logger_?.warn(`AltaPay callback refused: ${error instanceof Error ? error.message : String(error)}`)
      return { action: PaymentActions.NOT_SUPPORTED }
    }
    if (this.options_.callbackSecret) {
      const action = webhookActionFor(callback)
      if (callback.amountMinor === undefined || !callback.currency) return { action: PaymentActions.NOT_SUPPORTED }
      return { action, data: { session_id: callback.shopOrderId, amount: toBigNumber(callback.amountMinor, callback.currency) } }
    }
    return this.confirmedAction(callback.shopOrderId)
  }

  // --- helpers ------------------------------------------------------------------------------

  /** One capture or refund per AltaPay transaction at a time, across servers when locking is shared. */
  private serialized<T>(transactionId: string, job: () => Promise<T>): Promise<T> {
    return this.scaleOut.lock ? this.scaleOut.lock(`altapay:transaction:${transactionId}`, job) : job()
  }

  /** Without a callback secret nothing in a callback is trusted: AltaPay's own record decides. */
  private async confirmedAction(shopOrderId: string): Promise<WebhookActionResult> {
    const transaction = pickTransaction(await this.lookup({ shopOrderId }, "callback confirmation").catch(() => []))
    const reserved = transaction?.reservedAmount
    if (!transaction || !reserved?.currency) return { action: PaymentActions.NOT_SUPPORTED }
    const { status } = sessionStatusFor(transaction, reserved.minor)
    const action =
      status === PaymentSessionStatus.CAPTURED
        ? PaymentActions.SUCCESSFUL
        : status === PaymentSessionStatus.AUTHORIZED
          ? PaymentActions.AUTHORIZED
          : status === PaymentSessionStatus.ERROR
            ? PaymentActions.FAILED
            : PaymentActions.NOT_SUPPORTED
    return { action, data: { session_id: shopOrderId, amount: toBigNumber(reserved.minor, reserved.currency) } }
  }



  private sessionConfiguration(autoCapture: boolean) {
    return { autoCapture, language: this.options_.language, ...(this.options_.country ? { country: this.options_.country } : {}) }
  }

  private callbackUrls(orderId: string) {
    const fill = (url?: string) => url?.replace(/\{session_id\}/g, encodeURIComponent(orderId))
    return { notification: notificationUrl(this.options_), success: fill(this.options_.successUrl), failure: fill(this.options_.failureUrl) }
  }

  /**
   * A refund's minor units. Medusa keeps refunds exact (10.005 DKK); refunds are rounded as a
   * running total, so AltaPay's refunded total is always Medusa's refunded total rounded half up.
   */
  private refundAmount(amount: RefundPaymentInput["amount"], data: AltaPayPaymentData): { amountMinor: number; medusaAmount: string } {
    try {
      const before = MathBN.sum(0, ...data.refunds.map((r) => r.medusa_amount ?? minorToDecimal(r.amount_minor, data.currency)))
      return { amountMinor: roundedIncrement(before, amount, data.currency), medusaAmount: MathBN.convert(amount).toFixed() }
    } catch (error) {
      throw toMedusaError(error, "refund")
    }
  }

  private minor(amount: InitiatePaymentInput["amount"], currency: string, action: string): number {
    try {
      return toMinorUnits(amount, currency)
    } catch (error) {
      throw toMedusaError(error, action)
    }
  }

  private lookup(filter: { shopOrderId?: string; transactionId?: string }, action: string): Promise<GatewayTransaction[]> {
    return this.client.gateway.payments(filter).catch((error: unknown) => {
      throw toMedusaError(error, action)
    })
  }

  private async lookupOne(transactionId: string, action: string): Promise<GatewayTransaction | undefined> {
    return pickTransaction(await this.lookup({ transactionId }, action))
  }

  private async liveTransaction(data: AltaPayPaymentData): Promise<GatewayTransaction | undefined> {
    return data.transaction_id ? this.lookupOne(data.transaction_id, "status read") : pickTransaction(await this.lookup({ shopOrderId: data.order_id }, "status read"))
  }
}

/** A module dependency that may not be registered (awilix throws on unknown names). */
function optionalDependency<T>(cradle: Cradle, name: string): T | undefined {
  try {
    return cradle[name] as T | undefined
  } catch {
    return undefined
  }
}


function withCapture(data: AltaPayPaymentData, captureId: string | undefined, reconciliationIdentifier: string, amountMinor: number): AltaPayPaymentData {
  return {
    ...data,
    captures: [...data.captures, { capture_id: captureId ?? null, reconciliation_identifier: reconciliationIdentifier, amount_minor: amountMinor, created_at: new Date().toISOString() }],
  }
}

function capturedCannotCancel(data: AltaPayPaymentData): MedusaError {
  return new MedusaError(
    MedusaError.Types.NOT_ALLOWED,
    `AltaPay cancel: payment ${data.order_id} (transaction ${data.transaction_id}) is captured, so the reservation cannot be released. Refund it instead.`
  )
}


function rawBodyOf(payload: ProviderWebhookPayload["payload"]): Buffer {
  if (Buffer.isBuffer(payload.rawData)) return payload.rawData
  if (typeof payload.rawData === "string") return Buffer.from(payload.rawData, "utf8")
  return Buffer.alloc(0)
}

function headerOf(headers: Record<string, unknown>, name: string): string | undefined {
  const value = headers[name] ?? Object.entries(headers).find(([k]) => k.toLowerCase() === name)?.[1]
  return Array.isArray(value) ? String(value[0]) : typeof value === "string" ? value : undefined
}
