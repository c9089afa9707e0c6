/**
 * A local AltaPay: the checkout API, the gateway merchant API, a hosted test payment page,
 * notification callbacks and switchable faults, on one node:http server. For tests, demos and
 * local development of the provider. It is an independent emulator: the only client code it uses is
 * the money module (`src/altapay/money`: ISO 4217 currency data, decimal <-> minor-unit conversion
 * and rounding division), for session amounts, gateway amount parameters, order-line totals and the
 * amounts it writes in JSON, XML and callbacks.
 */
import type { AddressInfo } from "node:net"
import { buildCallback, deliverCallback, deliverChargeback, type CallbackDelivery, type CallbackOptions, type ChargebackInput } from "./callbacks/callbacks"
import type { ReturnMode, SandboxEnv } from "./env"
import { addExampleFundings } from "./fundings/example-fundings"
import { FaultBook, type Faults } from "./faults"
import { DEFAULT_FUNDING_DELAY_MS, FundingBook, type FundingFileInput, type GeneratedFundingFileInput, type StoredFunding } from "./fundings/fundings"
import { payAndNotify } from "./hosted-page/hosted-page"
import { Ledger, type LedgerEntry } from "./ledger"
import { settleOpen, type OpenOutcome } from "./open-settlement"
import { concludeOpenPayment, createPayment, sessionIsSettled, type CompleteResult, type Outcome } from "./payment-flow"
import { createSandboxServer } from "./server"
import { sandboxAgreements, type SandboxAgreements } from "./agreements/sandbox-agreements"
import { CARD_METHOD, Store, findMethod, invoiceTerminalConfig, type PaymentStatus, type StoredPayment } from "./state"
import { transactionSnapshot, type TransactionSnapshot } from "./snapshot"
import { TokenService } from "./checkout/tokens"
import { paymentJson } from "./checkout/views"

export type { FaultKind, FaultSpec, Faults } from "./faults"
export type { LedgerEntry, LedgerEffect, LedgerApi, LedgerAuth } from "./ledger"
export type { CallbackDelivery, CallbackOptions, ChargebackInput, SignatureMode } from "./callbacks/callbacks"
export type { Outcome } from "./payment-flow"
export type { OpenOutcome } from "./open-settlement"
export type { ReturnMode } from "./env"
export type { FundingFileInput, GeneratedFundingFileInput, StoredFunding } from "./fundings/fundings"
export type { GeneratedFundingInput, GeneratedFundingSpec } from "./fundings/generated-fundings"
export { generatedLine } from "./fundings/generated-fundings"
export type { PaymentStatus, TransactionStatus } from "./state"
export type { TransactionSnapshot } from "./snapshot"
export { DEFAULT_INVOICE_CAPTURE_DAYS, INVOICE_METHOD, PAYMENT_METHODS, WALLET_METHODS } from "./state"
export type { MoneyOperation, PaymentNature } from "./state"
export { GatewayErrorCode } from "./gateway/gateway-errors"
export { TEST_CARDS, TEST_CASES, type TestCase, type TestOutcome } from "./test-cards"
export type { SandboxAgreements } from "./agreements/sandbox-agreements"
export type { CardInput } from "./agreements/agreement-page"

export interface SandboxOptions {
  /** 0 (default) picks a free port. */
  port?: number
  host?: string
  username: string
  password: string
  /** Enables the callback checksum and the AltaPay-Signature header. */
  callbackSecret?: string
  /** Millisecond clock; inject one to test token and link expiry. */
  now?: () => number
  /**
   * Send the notification callback and the customer's return post when the hosted page is
   * submitted (default true); false is a store AltaPay cannot reach.
   */
  autoCallbacks?: boolean
  /**
   * Keep the reconciliation_identifier a capture or refund was sent with (default true). false
   * stores a new UUID instead: the reference allows the field only with a `type` it does not
   * define, so a client must not rely on AltaPay keeping it.
   */
  keepReconciliationIdentifiers?: boolean
  /**
   * Accept a session orderId outside shop_orderid's documented `[a-zA-Z0-9-]{1,100}` (default false:
   * refused with a 400, as AltaPay types it): for testing sessions a store created before it sent
   * ids that fit, such as Medusa's own `payses_...`.
   */
  legacyShopOrderIds?: boolean
  /** Called with each ledger entry as it is recorded (a copy): `npx altapay-sandbox` prints them. */
  onLedgerEntry?: (entry: LedgerEntry) => void
  /**
   * How the customer returns after the payment page. "server-post" (default, as AltaPay documents
   * it): the sandbox POSTs the signed callback form to the session's success/failure URL and relays
   * a 301/302/303/307 answer to the browser (an HTML answer is shown without scripts).
   * "browser-redirect": the old sandbox behaviour, a 303 of the browser to that URL with the outcome
   * in the query string; no test of this plugin's own flow relies on it.
   */
  returnMode?: ReturnMode
  /**
   * Time from a capture or refund to the funding file (payout) that holds it, on the sandbox's
   * clock; default one day. false: no funding files from the sandbox's own payments.
   */
  fundingDelayMs?: number | false
  /** Currency payouts are made in (default EUR); others are converted at a fixed rate table. */
  fundingCurrency?: string
  /** Add an `unknown` line to every funding file made from payments (default true). */
  fundingUnknownLine?: boolean
  /** Start with example funding files (every line Type, fees, a conversion): `--example-fundings`. */
  exampleFundings?: boolean
  /**
   * Offer the Klarna invoice terminal (`INVOICE_METHOD`, "Klarna DKK Sandbox Terminal"; default off):
   * its payments need order lines, partial captures must repeat reserved lines exactly, captures
   * are refused after `captureWithinDays` (default 28) and refund lines must relate to reserved ones.
   * `--invoice-terminal`.
   */
  invoiceTerminal?: boolean | { captureWithinDays?: number }
  /**
   * The card terminal surcharges consumer cards: a card payment reserves this percent more than the
   * session's amount, stated as SurchargeAmount (reserved = amount + surcharge; sdk-php
   * AltapayAPIPayment::getInitialAmount). Default none. `--surcharge-percent`.
   */
  surchargePercent?: number
  /**
   * Offer AltaPay's wallet and app terminals beside the card and MobilePay (`WALLET_METHODS`;
   * default off): Apple Pay and Google Pay pay as a card does; Vipps and Swish switch to their app on
   * AltaPay's page, where the customer approves now or later (an open payment, concluded with
   * `concludeOpenPayment` and its notification); Swish is captured when the customer pays.
   */
  walletTerminals?: boolean
}

/** Payouts: funding files as fundingList lists them and fundingDownload serves them. */
export interface SandboxFundings {
  /** Makes the funding files that are due now (fundingList does this too) and returns them. */
  settle(): StoredFunding[]
  /** The capture or refund with this reconciliation identifier comes back rejected (payment_rejected, refund_rejected). */
  reject(reconciliationIdentifier: string): void
  /** Serves a funding file given whole, e.g. one with a malformed line. */
  add(input: FundingFileInput): StoredFunding
  /**
   * A file of `lines` generated payment and refund lines (1 to 1,000,000), written as it is
   * downloaded, never held: for scale tests. Line `firstIndex + n` is the same in every run.
   */
  addGenerated(input: GeneratedFundingFileInput): StoredFunding
  /** Every funding file, oldest first. */
  list(): StoredFunding[]
}

export interface SimulatePaymentOptions {
  outcome?: Outcome
  paymentMethodId?: string
  /** The card typed in (TEST_CARDS, test-cards.ts): a declined or erroring test card changes an "authorize". No 3-D Secure here: pay on the page for the challenge. */
  cardNumber?: string
  /** Deliver the notification callback (default: the sandbox's autoCallbacks). */
  callback?: boolean
}

export interface SimulatedPayment {
  paymentId: string
  transactionId?: string
  status: PaymentStatus
  callbackStatus?: number
}

export interface Sandbox {
  /** Origin of the sandbox, e.g. http://127.0.0.1:8787. */
  url: string
  /** Same origin; the client appends /checkout/v1/api/... */
  checkoutUrl: string
  /** Same origin; the client appends /merchant/API/... */
  gatewayUrl: string
  /** Base of the hosted test payment pages: `${hostedPageUrl}/<paymentId>`. */
  hostedPageUrl: string
  /**
   * Pays a session as a customer would: completes its latest unpaid payment (or a new one on the
   * given or card method) with the outcome, then sends the callback.
   */
  simulatePayment(sessionId: string, opts?: SimulatePaymentOptions): Promise<SimulatedPayment>
  /** (Re)delivers the notification callback of a paid payment: duplicates, late or forged callbacks. */
  sendCallback(paymentId: string, opts?: CallbackOptions): Promise<CallbackDelivery>
  /**
   * Posts a chargeback notification (status ChargebackEvent, one ChargebackEvent in the xml) for a
   * transaction to its session's notification URL, signed like every callback.
   */
  sendChargeback(transactionId: string, input?: ChargebackInput, opts?: CallbackOptions): Promise<CallbackDelivery>
  /** The callback a paid payment would send (raw form body and headers), without sending it. */
  callbackFor(paymentId: string, opts?: CallbackOptions): { rawBody: string; headers: Record<string, string> }
  ledger(): LedgerEntry[]
  clearLedger(): void
  transaction(transactionId: string): TransactionSnapshot | undefined
  /**
   * Finishes the transaction's operations answered `Open`: "success" moves the money (the
   * reconciliation identifier appears), "fail" drops them. Recorded in the ledger.
   */
  settleOpen(transactionId: string, outcome: OpenOutcome, reconciliationIdentifier?: string): void
  /** The acquirer concludes a payment made with outcome "open" (AltaPay's open payments): reserved, or declined. */
  concludeOpenPayment(transactionId: string, outcome: "authorize" | "decline"): void
  /**
   * Whether paying on the hosted page (and `simulatePayment` by default) sends the notification
   * callback and the customer's return post: off is a store that never hears from AltaPay (down,
   * behind a proxy that refuses it); the customer then sees AltaPay's own result page.
   */
  setAutoCallbacks(on: boolean): void
  /**
   * Holds every customer return (the success/failure post) until `gate` resolves for its payment,
   * e.g. until AltaPay's notification callback has made the order; undefined stops holding.
   */
  holdReturns(gate: ((paymentId: string) => Promise<void>) | undefined): void
  /** The checkout payment record as GET /payment/{id} returns it. */
  payment(paymentId: string): Record<string, unknown> | undefined
  faults: Faults
  fundings: SandboxFundings
  /** Agreements (saved cards): submit a set-up page, answer a 3-D Secure challenge, end an agreement. */
  agreements: SandboxAgreements
  /**
   * Answers a 3-D Secure page (`/sandbox/3ds/<id>`: a payment's, a set-up's or a charge's) as the
   * customer's browser does, POSTing it: the status and Location the browser gets next.
   */
  challenge(challengeUrlOrId: string, outcome?: "authenticated" | "failed"): Promise<{ status: number; location?: string }>
  setClock(now: () => number): void
  /**
   * The reservation's authorisation lapses now (AuthorisationExpiryDate in the past); the next
   * capture reauthorises it, or (`"fails"`) ends `reauth_failed` as AltaPay's FAQ describes.
   */
  lapseReservation(transactionId: string, reauth?: "succeeds" | "fails"): void
  close(): Promise<void>
}

export async function startSandbox(options: SandboxOptions): Promise<Sandbox> {
  if (!options.username || !options.password) throw new Error("startSandbox needs a username and a password.")
  let clock = options.now ?? Date.now
  const now = (): number => clock()
  const env: SandboxEnv = {
    config: {
      username: options.username,
      password: options.password,
      callbackSecret: options.callbackSecret,
      autoCallbacks: options.autoCallbacks ?? true,
      keepReconciliationIdentifiers: options.keepReconciliationIdentifiers ?? true,
      legacyShopOrderIds: options.legacyShopOrderIds ?? false,
      returnMode: options.returnMode ?? "server-post",
      ...(options.invoiceTerminal ? { invoiceTerminal: invoiceTerminalConfig(options.invoiceTerminal) } : {}),
      ...(options.surchargePercent ? { surchargePercent: options.surchargePercent } : {}),
      ...(options.walletTerminals ? { walletTerminals: true } : {}),
    },
    store: new Store(),
    tokens: new TokenService(now, options.username),
    ledger: new Ledger(options.onLedgerEntry),
    faults: new FaultBook(),
    fundings: new FundingBook({
      delayMs: options.fundingDelayMs ?? DEFAULT_FUNDING_DELAY_MS,
      currency: options.fundingCurrency ?? "EUR",
      unknownLine: options.fundingUnknownLine ?? true,
    }),
    url: "",
    now,
  }
  if (options.exampleFundings) addExampleFundings(env.fundings, now())
  const { server, destroySockets } = createSandboxServer(env)
  const host = options.host ?? "127.0.0.1"
  await new Promise<void>((resolve, reject) => {
    server.once("error", reject)
    server.listen(options.port ?? 0, host, () => {
      server.off("error", reject)
      resolve()
    })
  })
  const { port } = server.address() as AddressInfo
  const publicHost = host === "0.0.0.0" || host === "::" ? "127.0.0.1" : host.includes(":") ? `[${host}]` : host
  env.url = `http://${publicHost}:${port}`

  const simulatePayment = async (sessionId: string, opts: SimulatePaymentOptions = {}): Promise<SimulatedPayment> => {
    const session = env.store.sessions.get(sessionId)
    if (!session) throw new Error(`Unknown session ${sessionId}.`)
    if (sessionIsSettled(env, session)) throw new Error(`Session ${sessionId} already has an authorized payment.`)
    const method = findMethod(opts.paymentMethodId ?? CARD_METHOD.id, env.config)
    if (!method) throw new Error(`Unknown payment method ${opts.paymentMethodId}.`)
    const unpaid = [...session.paymentIds]
      .reverse()
      .map((id) => env.store.payments.get(id))
      .find((p): p is StoredPayment => p?.status === "CREATED" && (!opts.paymentMethodId || p.paymentMethodId === method.id))
    const payment = unpaid ?? createPayment(env, session, method)
    const outcome = opts.outcome ?? "authorize"
    const details = opts.cardNumber ? { cardNumber: opts.cardNumber } : {}
    const notify = (r: CompleteResult): void => {
      env.ledger.record({
        at: env.now(),
        api: "hosted",
        method: "SIMULATE",
        path: `/sandbox/pay/${payment.paymentId}`,
        operation: "payment.simulate",
        auth: "none",
        params: { sessionId, outcome },
        status: r.ok ? 200 : 409,
        ...(r.ok ? { effects: r.effects } : {}),
      })
    }
    const { result, callbackStatus } = await payAndNotify(env, payment, outcome, opts.callback ?? env.config.autoCallbacks, notify, details)
    if (!result.ok) throw new Error(result.message)
    return {
      paymentId: payment.paymentId,
      transactionId: result.transaction.transactionId,
      status: payment.status,
      ...(callbackStatus !== undefined ? { callbackStatus } : {}),
    }
  }

  const sendCallback = async (paymentId: string, opts: CallbackOptions = {}): Promise<CallbackDelivery> => {
    const payment = env.store.payments.get(paymentId)
    if (!payment) throw new Error(`Unknown payment ${paymentId}.`)
    return deliverCallback(env, payment, opts)
  }

  const sendChargeback = async (transactionId: string, input: ChargebackInput = {}, opts: CallbackOptions = {}): Promise<CallbackDelivery> => {
    const t = env.store.transactions.get(transactionId)
    const payment = t ? env.store.payments.get(t.paymentId) : undefined
    if (!t || !payment) throw new Error(`Unknown transaction ${transactionId}.`)
    return deliverChargeback(env, payment, t, input, opts)
  }

  const callbackFor = (paymentId: string, opts: CallbackOptions = {}) => {
    const payment = env.store.payments.get(paymentId)
    const t = payment?.transactionId ? env.store.transactions.get(payment.transactionId) : undefined
    if (!payment || !t) throw new Error(`Payment ${paymentId} is unknown or not paid yet.`)
    const { body, headers } = buildCallback(env, payment, t, opts)
    return { rawBody: body, headers }
  }

  const transaction = (transactionId: string): TransactionSnapshot | undefined => {
    const t = env.store.transactions.get(transactionId)
    return t && transactionSnapshot(t)
  }

  let closing: Promise<void> | undefined
  const close = (): Promise<void> => {
    closing ??= new Promise<void>((resolve) => {
      server.close(() => resolve())
      server.closeAllConnections()
      destroySockets()
    })
    return closing
  }

  return {
    url: env.url,
    checkoutUrl: env.url,
    gatewayUrl: env.url,
    hostedPageUrl: `${env.url}/sandbox/pay`,
    simulatePayment,
    sendCallback,
    sendChargeback,
    callbackFor,
    ledger: () => env.ledger.list(),
    clearLedger: () => env.ledger.clear(),
    transaction,
    payment: (paymentId) => {
      const payment = env.store.payments.get(paymentId)
      return payment ? paymentJson(payment) : undefined
    },
    concludeOpenPayment: (transactionId, outcome) => {
      const transaction = concludeOpenPayment(env, transactionId, outcome)
      const moved = { transactionId, amountMinor: transaction.reservedMinor, currency: transaction.currency.alpha, result: "Success" }
      // An app that captures as it is paid (Swish) was captured just now: the ledger shows that capture too.
      const capture = transaction.status === "captured" ? transaction.captures.at(-1) : undefined
      const effects = [
        { type: "authorize" as const, ...moved },
        ...(capture ? [{ type: "capture" as const, ...moved, reconciliationIdentifier: capture.reconciliationIdentifier }] : []),
      ]
      env.ledger.simulated(env.now(), `/sandbox/conclude/${transactionId}`, "payment.conclude", { transactionId, outcome }, outcome === "authorize" ? effects : [])
    },
    settleOpen: (transactionId, outcome, reconciliationIdentifier) => {
      const effects = settleOpen(env, transactionId, outcome, reconciliationIdentifier)
      const params = { transactionId, outcome, ...(reconciliationIdentifier ? { reconciliationIdentifier } : {}) }
      env.ledger.simulated(env.now(), `/sandbox/settle/${transactionId}`, "open.settle", params, effects)
    },
    setAutoCallbacks: (on) => {
      env.config.autoCallbacks = on
    },
    holdReturns: (gate) => {
      env.beforeReturn = gate
    },
    faults: env.faults,
    fundings: {
      settle: () => structuredClone(env.fundings.settle(env.store, env.now())),
      reject: (id) => env.fundings.reject(id),
      add: (input) => structuredClone(env.fundings.add(input, env.now())),
      addGenerated: (input) => structuredClone(env.fundings.addGenerated(input, env.now())),
      list: () => structuredClone(env.fundings.all()),
    },
    agreements: sandboxAgreements(env),
    challenge: async (challengeUrlOrId, outcome = "authenticated") => {
      const url = challengeUrlOrId.includes("/") ? challengeUrlOrId : `${env.url}/sandbox/3ds/${challengeUrlOrId}`
      const answer = await fetch(url, { method: "POST", body: new URLSearchParams({ outcome }), redirect: "manual" })
      await answer.arrayBuffer()
      return { status: answer.status, location: answer.headers.get("location") ?? undefined }
    },
    setClock: (next) => {
      clock = next
    },
    lapseReservation: (transactionId, reauth = "succeeds") => {
      const t = env.store.transactions.get(transactionId)
      if (!t) throw new Error(`Unknown transaction ${transactionId}.`)
      t.authorisationExpiresAt = env.now() - 1
      t.reauth = reauth
    },
    close,
  }
}
