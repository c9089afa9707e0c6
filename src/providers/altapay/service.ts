/**
 * The AltaPay payment provider: one method per Medusa hook, in the order Medusa calls them. Each
 * is a thin mapping onto the framework-free client in src/altapay; AltaPay failures become
 * MedusaErrors in one place (medusa-errors.ts) and states map in one place (status.ts).
 *
 * What the provider acts on comes from the provider: data it sealed (payment-data.ts), or a live
 * read at AltaPay for the Medusa payment session id Medusa itself passed. Captures, refunds and
 * releases of one payment run under the payment's lock, starting from its newest data.
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
import { returnUrlsFor } from "./return-urls"
import { noteReconciler, reconcilerOf } from "../../lib/reconciled-by"
import { paymentLockKey, processStore, scaleOutFrom, type ScaleOut, type SharedStore } from "../../lib/scale-out"
import { sharedAltaPayClient } from "../../lib/shared-client"
import { contextLines, sameLines, SessionLines } from "./session-lines"
import { reconciliationId } from "./reconciliation"
import { RefundFlow } from "./refund-flow"
import { toMedusaError } from "../../lib/medusa-errors"
import { notificationUrl, parseAltaPayOptions, terminalFor, type AltaPayOptions } from "../../lib/options"
import {
  freshPaymentData,
  openPaymentData,
  requireTransactionId,
  sealPaymentData,
  untrustedDataError,
  type AltaPayPaymentData,
  type SealedPaymentData,
} from "../../lib/payment-data"
import { PaymentJournal } from "../../lib/payment-journal"
import { serverKeys, type ServerKeys } from "../../lib/server-keys"
import { pickTransaction, sessionStatusFor, transactionForOrder as forOrder, webhookActionFor } from "../../lib/status"
import { hasReconciliation, withTransaction } from "../../lib/transaction-state"
import { trustedPaymentData } from "../../lib/trusted-payment-data"
import { arrivalTime } from "../../lib/webhook-arrival"
import { confirmedActionFor } from "../../lib/confirmed-action"

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
  private readonly sealKeys: ServerKeys
  private readonly arrivalKeys: ServerKeys
  private readonly journal: PaymentJournal
  /** Medusa's cache module when the Payment module has one, else this process's store. */
  private readonly store: SharedStore

  constructor(cradle: Cradle, options: AltaPayOptions) {
    super(cradle, options)
    AltaPayProviderService.validateOptions(options as unknown as Record<string, unknown>)
    this.options_ = (parseAltaPayOptions(options) as { options: AltaPayOptions }).options
    this.logger_ = optionalDependency<Logger>(cradle, ContainerRegistrationKeys.LOGGER)
    this.query = optionalDependency<Pick<RemoteQueryFunction, "graph">>(cradle, ContainerRegistrationKeys.QUERY)
    this.sessionLines = new SessionLines(this.query, this.logger_, { productUrlTemplate: this.options_.productUrlTemplate })
    this.scaleOut = scaleOutFrom((name) => optionalDependency(cradle, name))
    this.sealKeys = serverKeys(this.options_, "payment-data-seal")
    this.arrivalKeys = serverKeys(this.options_, "webhook-arrival")
    this.store = this.scaleOut.store ?? processStore()
    this.journal = new PaymentJournal(this.sealKeys, this.store, (m) => this.logger_?.warn(m))
    this.client = sharedAltaPayClient(this.options_, { debug: (m) => this.logger_?.debug(m), warn: (m) => this.logger_?.warn(m) }, this.scaleOut)
    this.refunds = new RefundFlow(this.client, this.options_, this.logger_, (transactionId, action) => this.lookupOne(transactionId, action), this.scaleOut.store)
  }

  // --- checkout ---------------------------------------------------------------------------

  async initiatePayment(input: InitiatePaymentInput): Promise<InitiatePaymentOutput> {
    const currency = input.currency_code.toUpperCase()
    const amountMinor = this.minor(input.amount, currency, "initiate")
    const key = input.context?.idempotency_key
    // The one key of the browser-writable data read here: Medusa writes session_id over it, last.
    const sessionId = input.data?.session_id
    if (typeof sessionId === "string" && key && sessionId !== key) {
      throw new MedusaError(MedusaError.Types.INVALID_DATA, `AltaPay initiate: the payment session id ${sessionId} differs from Medusa's idempotency key ${key}.`)
    }
    const orderId = String(sessionId ?? key ?? "")
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
        callbacks: await this.callbackUrls(orderId),
        configuration: this.sessionConfiguration(this.options_.autoCapture),
      })
      // The plugin's store route asks for the storefront flow: its browser creates the payment itself.
      const flow = (input.context as { altapay?: { flow?: unknown } } | undefined)?.altapay?.flow === "storefront" ? "storefront" : this.options_.flow
      const redirect = flow === "redirect" ? await createRedirectPayment(this.client, session.sessionId, terminal) : undefined
      return {
        id: session.sessionId,
        status: PaymentSessionStatus.PENDING,
        data: this.seal(
          freshPaymentData({
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
          })
        ),
      }
    } catch (error) {
      throw toMedusaError(error, "session creation")
    }
  }

  async updatePayment(input: UpdatePaymentInput): Promise<UpdatePaymentOutput> {
    const opened = openPaymentData(input.data, this.sealKeys)
    if (!opened.sealed) {
      this.logger_?.debug(`AltaPay update: ${opened.problem}; nothing was sent to AltaPay.`)
      return { data: input.data }
    }
    const data = opened.data
    const currency = input.currency_code.toUpperCase()
    const amountMinor = this.minor(input.amount, currency, "update")
    const sameAmount = amountMinor === data.amount_minor && currency === data.currency
    if (data.transaction_id) {
      if (sameAmount && !contextLines(input.context)) return { data: this.seal(data) }
      throw new MedusaError(
        MedusaError.Types.NOT_ALLOWED,
        "AltaPay update: the customer has already paid this session; it cannot change amount or lines. Cancel it and create a new payment session."
      )
    }
    // The same amount can hide other lines (a tax rate or a promotion changed): compare the lines.
    const { lines, source } = await this.sessionLines.resolve({ context: input.context, paymentSessionId: data.order_id, amountMinor, currency })
    if (sameAmount && sameLines(lines, data.order_lines)) return { data: this.seal(data) }
    try {
      await this.client.checkout.updateSession(data.altapay_session_id, {
        orderId: data.order_id,
        amountMinor,
        currency,
        orderLines: lines,
        customer: sessionCustomer(input.context),
        callbacks: await this.callbackUrls(data.order_id),
        configuration: this.sessionConfiguration(data.auto_capture),
      })
      // The old payment page was for the old amount; a new one replaces it.
      const redirect = data.redirect_url ? await createRedirectPayment(this.client, data.altapay_session_id, data.terminal) : undefined
      return {
        data: this.seal({
          ...data,
          amount_minor: amountMinor,
          currency,
          order_lines: lines,
          order_lines_source: source,
          ...(redirect ? { redirect_url: redirect.url, payment_id: redirect.paymentId } : {}),
        }),
      }
    } catch (error) {
      throw toMedusaError(error, "session update")
    }
  }

  /**
   * Medusa deletes a session when the cart total or currency changes. The old AltaPay session must
   * not stay payable: its pending payment pages are expired (by updating the session), and a
   * reservation a customer made on it anyway is released, since no order will ever claim it.
   *
   * Medusa passes only `data` here, and it may be a browser's (Medusa deletes sessions before the
   * provider's data is merged in, and rolls back with the browser's data), so only sealed data
   * leads to any AltaPay call. A sealed copy may still be stale (saved from the store API before
   * its session was authorized and sent again later), so a reservation is released only when
   * Medusa's own record shows its session owns no payment: a session this provider authorized
   * belongs to a Medusa Payment, and only Medusa's cancel may release it.
   */
  async deletePayment(input: DeletePaymentInput): Promise<DeletePaymentOutput> {
    const opened = openPaymentData(input.data, this.sealKeys)
    if (!opened.sealed) {
      this.logger_?.debug(`AltaPay delete: ${opened.problem}; nothing was sent to AltaPay.`)
      return { data: input.data }
    }
    const data = opened.data
    if (data.authorized_at) return { data: input.data }
    try {
      const transaction = forOrder(data.order_id, await this.client.gateway.payments({ shopOrderId: data.order_id }))
      if (transaction && statusIn(transaction.transactionStatus, AUTHORIZED_STATUSES) && (transaction.capturedAmount?.minor ?? 0) === 0) {
        const owner = await this.medusaPaymentOf(data.order_id)
        if (owner !== "none") {
          this.logger_?.info(
            `AltaPay ${data.order_id}: left reservation ${transaction.transactionId} alone: ${owner === "payment" ? "a Medusa payment owns it" : "Medusa cannot confirm that no payment owns it (give the Payment module the query dependency)"}.`
          )
          return { data: input.data }
        }
        await this.client.gateway.releaseReservation({ transactionId: transaction.transactionId })
        this.logger_?.warn(`AltaPay ${data.order_id}: released a payment made on a replaced session.`)
        return { data: this.seal(withTransaction(data, transaction)) }
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
          callbacks: await this.callbackUrls(data.order_id),
          configuration: this.sessionConfiguration(data.auto_capture),
        })
      }
    } catch (error) {
      // Deleting must not block the cart; the amount check at authorization still guards it.
      this.logger_?.warn(`AltaPay ${data.order_id}: could not retire the replaced session: ${error instanceof Error ? error.message : String(error)}`)
    }
    return { data: input.data }
  }

  /**
   * Authorizes the session Medusa names (its id is the idempotency key) and no other: the sealed
   * data must be that session's, and the AltaPay payment whose shop_orderid is that id must have
   * reserved exactly the sealed amount, in the sealed currency.
   */
  async authorizePayment(input: AuthorizePaymentInput): Promise<AuthorizePaymentOutput> {
    const sessionId = input.context?.idempotency_key
    const opened = openPaymentData(input.data, this.sealKeys)
    const refusal = !opened.sealed
      ? opened.problem
      : !sessionId
        ? "Medusa passed no payment session id"
        : opened.data.order_id !== sessionId
          ? `the data is payment session ${opened.data.order_id}'s`
          : undefined
    if (refusal !== undefined || !opened.sealed) {
      this.logger_?.warn(`AltaPay authorize ${sessionId ?? "(no session id)"}: ${refusal}; not authorized, and nothing was asked of AltaPay.`)
      return { status: PaymentSessionStatus.ERROR, data: input.data }
    }
    const data = opened.data
    const transaction = forOrder(data.order_id, await this.lookup({ shopOrderId: data.order_id }, "authorization"))
    const { status, reason } = sessionStatusFor(transaction, { amountMinor: data.amount_minor, currency: data.currency })
    if (reason) this.logger_?.warn(`AltaPay authorize ${data.order_id}: ${reason}`)
    const authorized = status === PaymentSessionStatus.AUTHORIZED || status === PaymentSessionStatus.CAPTURED
    const now = new Date().toISOString()
    const authorizedAt = authorized ? (data.authorized_at ?? now) : null
    const reconciled = { at: now, by: await reconcilerOf(this.store, data.order_id) }
    return { status, data: this.seal({ ...withTransaction(data, transaction), failure_reason: reason ?? null, authorized_at: authorizedAt, reconciled }) }
  }

  // --- after the order ------------------------------------------------------------------

  async capturePayment(input: CapturePaymentInput): Promise<CapturePaymentOutput> {
    const { data, transactionId } = await this.paidPaymentData(input.data, "capture")
    return { data: await this.serialized(transactionId, data, async (latest) => (await this.capture(input, latest, transactionId)).data) }
  }

  private async capture(input: CapturePaymentInput, data: AltaPayPaymentData, transactionId: string): Promise<{ data: AltaPayPaymentData }> {
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
      : proportionalAdjustmentLine(data.order_lines, amountMinor, {
          itemId: alreadyCaptured === 0 ? "capture" : "capture-remaining",
          description: alreadyCaptured === 0 ? "Partial capture" : "Remaining capture",
        })
    try {
      const result = await this.client.gateway.captureReservation({ transactionId, amountMinor, currency: data.currency, orderLines, reconciliationIdentifier })
      if (result.result === "Open") this.logger_?.warn(`AltaPay capture ${reconciliationIdentifier} is Open: the open-results job follows it up.`)
      const captured = withCapture(data, captureId, reconciliationIdentifier, amountMinor, result.result === "Open" ? "open" : undefined)
      return { data: withTransaction(captured, result.transaction) }
    } catch (error) {
      // Declined because it is captured already, or the answer was lost: AltaPay's state decides.
      if (error instanceof AltaPayDeclinedError || (error instanceof AltaPayError && error.mayHaveReachedAltaPay)) {
        const transaction = await this.lookupOne(transactionId, "capture check").catch(() => undefined)
        if (transaction && hasReconciliation(transaction, reconciliationIdentifier, "captured")) {
          // This capture went through and only its answer was lost: keep its record.
          return { data: withTransaction(withCapture(data, captureId, reconciliationIdentifier, amountMinor), transaction) }
        }
        if (transaction && (transaction.capturedAmount?.minor ?? 0) >= data.amount_minor) return { data: withTransaction(data, transaction) }
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
    const { data, transactionId } = await this.paidPaymentData(input.data, "refund")
    const refundId = input.context?.idempotency_key ?? null
    return {
      data: await this.serialized(transactionId, data, async (latest) => {
        // The running total is taken from the newest data, under the lock: a concurrent refund is in it.
        const { amountMinor, medusaAmount } = this.refundAmount(input.amount, latest)
        return (await this.refunds.run({ data: latest, transactionId, amountMinor, medusaAmount, refundId })).data
      }),
    }
  }

  async cancelPayment(input: CancelPaymentInput): Promise<CancelPaymentOutput> {
    const data = await this.paymentData(input.data, "cancel")
    if (!data?.transaction_id) return { data: data ? this.seal(data) : input.data } // never paid: nothing reserved at AltaPay
    const transactionId = data.transaction_id
    return { data: await this.serialized(transactionId, data, (latest) => this.release(latest, transactionId)) }
  }

  private async release(data: AltaPayPaymentData, transactionId: string): Promise<AltaPayPaymentData> {
    if ((data.captured_minor ?? 0) > 0) throw capturedCannotCancel(data)
    try {
      const result = await this.client.gateway.releaseReservation({ transactionId })
      return withTransaction(data, result.transaction)
    } catch (error) {
      if (error instanceof AltaPayDeclinedError || (error instanceof AltaPayError && error.mayHaveReachedAltaPay)) {
        const transaction = await this.lookupOne(transactionId, "cancel check").catch(() => undefined)
        if (statusIn(transaction?.transactionStatus, RELEASED_STATUSES)) return withTransaction(data, transaction)
        if ((transaction?.capturedAmount?.minor ?? 0) > 0) throw capturedCannotCancel(data)
      }
      throw toMedusaError(error, "release")
    }
  }

  async retrievePayment(input: RetrievePaymentInput): Promise<RetrievePaymentOutput> {
    const data = await this.paymentData(input.data, "retrieve")
    if (!data) return { data: input.data }
    return { data: this.seal(withTransaction(data, await this.liveTransaction(data))) }
  }

  async getPaymentStatus(input: GetPaymentStatusInput): Promise<GetPaymentStatusOutput> {
    const data = await this.paymentData(input.data, "status")
    if (!data) return { status: PaymentSessionStatus.PENDING, data: input.data }
    const transaction = await this.liveTransaction(data)
    return { status: sessionStatusFor(transaction, { amountMinor: data.amount_minor, currency: data.currency }).status, data: this.seal(withTransaction(data, transaction)) }
  }

  // --- callbacks ----------------------------------------------------------------------------

  async getWebhookActionAndData(payload: ProviderWebhookPayload["payload"]): Promise<WebhookActionResult> {
    const rawBody = rawBodyOf(payload)
    let callback: AltaPayCallback
    try {
      if (this.options_.callbackSecret) {
        // Judged on when the callback reached this store (stamped by the plugin's middleware), not
        // on when Medusa's event subscriber gets to it; without a stamp, now.
        const arrivedAt = arrivalTime(payload.headers, rawBody, this.arrivalKeys)
        verifyCallbackSignature({
          rawBody,
          signatureHeader: headerOf(payload.headers, "altapay-signature"),
          secret: this.options_.callbackSecret,
          toleranceSeconds: this.options_.callbackToleranceSeconds,
          now: () => arrivedAt ?? Date.now(),
        })
      }
      callback = parseCallback(rawBody.length > 0 ? rawBody.toString("utf8") : (payload.data as Record<string, unknown>))
    } catch (error) {
      // Logged without the body: it may carry card and customer details.
      this.logger_?.warn(`AltaPay callback refused: ${error instanceof Error ? error.message : String(error)}`)
      return { action: PaymentActions.NOT_SUPPORTED }
    }
    let result: WebhookActionResult
    if (this.options_.callbackSecret) {
      const action = webhookActionFor(callback)
      if (callback.amountMinor === undefined || !callback.currency) return { action: PaymentActions.NOT_SUPPORTED }
      result = { action, data: { session_id: callback.shopOrderId, amount: toBigNumber(callback.amountMinor, callback.currency) } }
    } else {
      result = await this.confirmedAction(callback.shopOrderId)
    }
    // Medusa authorizes the session next (processPaymentWorkflow): the payment records the callback did.
    if (result.action === PaymentActions.AUTHORIZED || result.action === PaymentActions.SUCCESSFUL) await noteReconciler(this.store, callback.shopOrderId, "callback")
    return result
  }

  // --- helpers ------------------------------------------------------------------------------

  /**
   * One capture, refund or release of a payment at a time, in every configuration (see
   * scale-out.ts), starting from the newest copy of its data: Medusa read `data` before waiting
   * for the lock, and the previous holder's answer may not be stored yet. The answer is sealed,
   * one revision newer, and kept for the next holder.
   */
  private serialized(transactionId: string, data: AltaPayPaymentData, job: (latest: AltaPayPaymentData) => Promise<AltaPayPaymentData>): Promise<SealedPaymentData> {
    return this.scaleOut.paymentLock(paymentLockKey(transactionId), async () => {
      const latest = await this.journal.newest(transactionId, data)
      const sealed = this.seal({ ...(await job(latest)), revision: latest.revision + 1 })
      await this.journal.write(transactionId, sealed)
      return sealed
    })
  }

  private seal(data: AltaPayPaymentData): SealedPaymentData {
    return sealPaymentData(data, this.sealKeys)
  }

  /** A Payment's data to act on (trusted-payment-data.ts); undefined: unproven, and nothing at AltaPay to ask about. */
  private paymentData(raw: Record<string, unknown> | undefined, hook: string): Promise<AltaPayPaymentData | undefined> {
    return trustedPaymentData(raw, hook, { keys: this.sealKeys, lookupTransaction: (id) => this.lookupOne(id, `${hook} check`), logger: this.logger_ })
  }

  private async paidPaymentData(raw: Record<string, unknown> | undefined, hook: string): Promise<{ data: AltaPayPaymentData; transactionId: string }> {
    const data = await this.paymentData(raw, hook)
    if (!data) throw untrustedDataError(hook, "the data was not written by the AltaPay provider and names no AltaPay transaction")
    return { data, transactionId: requireTransactionId(data, hook) }
  }

  /**
   * Whether Medusa's payment session `sessionId` owns a payment: "none" only when Medusa's record
   * shows the session unauthorized and without a payment; "unknown" without the query dependency.
   */
  private async medusaPaymentOf(sessionId: string): Promise<"none" | "payment" | "unknown"> {
    if (!this.query) return "unknown"
    try {
      const { data } = await this.query.graph({ entity: "payment_session", fields: ["id", "status", "authorized_at", "payment.id"], filters: { id: sessionId } })
      const session = data[0] as { status?: string; authorized_at?: unknown; payment?: { id?: string } | null } | undefined
      if (!session) return "unknown"
      const owned = !!session.authorized_at || !!session.payment?.id || session.status === PaymentSessionStatus.AUTHORIZED || session.status === PaymentSessionStatus.CAPTURED
      return owned ? "payment" : "none"
    } catch (error) {
      this.logger_?.warn(`AltaPay ${sessionId}: could not read the Medusa payment session: ${error instanceof Error ? error.message : String(error)}`)
      return "unknown"
    }
  }

  /**
   * Without a callback secret nothing in a callback is trusted: AltaPay's own record decides. A
   * look-up that fails throws, so Medusa's event retry (attempts: 3, Redis event bus) runs again.
   */
  private async confirmedAction(shopOrderId: string): Promise<WebhookActionResult> {
    return confirmedActionFor(shopOrderId, await this.lookup({ shopOrderId }, "callback confirmation"))
  }

  private sessionConfiguration(autoCapture: boolean) {
    return { autoCapture, language: this.options_.language, ...(this.options_.country ? { country: this.options_.country } : {}) }
  }

  // Async so the call sites stay as they are; the return endpoints need nothing per session.
  private async callbackUrls(_orderId: string) {
    return { notification: notificationUrl(this.options_), ...returnUrlsFor(this.options_) }
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
    return data.transaction_id ? this.lookupOne(data.transaction_id, "status read") : forOrder(data.order_id, await this.lookup({ shopOrderId: data.order_id }, "status read"))
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

function withCapture(data: AltaPayPaymentData, captureId: string | undefined, reconciliationIdentifier: string, amountMinor: number, status?: "open"): AltaPayPaymentData {
  return {
    ...data,
    captures: [
      ...data.captures,
      {
        capture_id: captureId ?? null,
        reconciliation_identifier: reconciliationIdentifier,
        amount_minor: amountMinor,
        ...(status ? { status } : {}),
        created_at: new Date().toISOString(),
      },
    ],
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
