/**
 * A checkout payment's life at the "acquirer": created for a session, then authorized, declined or
 * failed exactly once, which creates the gateway transaction. The hosted page, payment links and
 * `simulatePayment` all go through here, so they behave the same.
 */
import { randomUUID } from "node:crypto"
import type { SandboxEnv } from "./env"
import type { PaymentDetails } from "./challenges"
import { reservationLines } from "./gateway/invoice-rules"
import { fraudRecommendation, paymentOutcome } from "./test-cards"
import { authorisationExpiry, avsResult, surchargeFor } from "./reservation-facts"
import type { LedgerEffect } from "./ledger"
import {
  DEFAULT_INVOICE_CAPTURE_DAYS,
  type PaymentMethod,
  type PaymentStatus,
  type StoredPayment,
  type StoredSession,
  type StoredTransaction,
  type TransactionStatus,
  WAS_AUTHORIZED,
  findMethod,
} from "./state"

/** open: the acquirer has not concluded (AltaPay's "Open payments"); concludeOpenPayment decides it later. */
export type Outcome = "authorize" | "decline" | "fail" | "open"

export function createPayment(env: SandboxEnv, session: StoredSession, method: PaymentMethod): StoredPayment {
  const now = env.now()
  const payment: StoredPayment = {
    paymentId: randomUUID(),
    sessionId: session.sessionId,
    shopOrderId: session.body.order.orderId,
    status: "CREATED",
    paymentMethodId: method.id,
    terminal: method.terminalName,
    amountMinor: session.amountMinor,
    currency: session.currency,
    createdAt: now,
    updatedAt: now,
  }
  env.store.payments.set(payment.paymentId, payment)
  session.paymentIds.push(payment.paymentId)
  return payment
}

export type CompleteResult = { ok: true; transaction: StoredTransaction; effects: LedgerEffect[] } | { ok: false; reason: "expired" | "completed"; message: string }

const MESSAGES: Record<Exclude<Outcome, "authorize" | "open"> | "challenge", { merchant: string; cardHolder: string; status: TransactionStatus; payment: PaymentStatus }> = {
  decline: {
    merchant: "Card declined by the sandbox acquirer (test outcome).",
    cardHolder: "Your card was declined.",
    status: "epayment_declined",
    payment: "DECLINED",
  },
  fail: {
    merchant: "The sandbox acquirer failed to process the payment (test outcome).",
    cardHolder: "The payment could not be processed. Please try again.",
    status: "preauth_error",
    payment: "FAILED",
  },
  challenge: {
    merchant: "The cardholder did not pass 3-D Secure (sandbox challenge answered Fail).",
    cardHolder: "The payment was not authenticated.",
    status: "3dsecure_failed",
    payment: "DECLINED",
  },
}

/** The outcome a card's test number or amount imposes on a payment the customer authorized (test-cards.ts). */
function cardOutcome(requested: Outcome, nature: string, payment: StoredPayment, details: PaymentDetails): Outcome {
  if (requested !== "authorize" || nature !== "CreditCard") return requested
  const outcome = paymentOutcome(details.cardNumber, payment.amountMinor, payment.currency.alpha)
  return outcome === "declined" ? "decline" : outcome === "error" ? "fail" : "authorize"
}

/** Performs the customer's outcome on a payment; a payment completes at most once. */
export function completePayment(env: SandboxEnv, payment: StoredPayment, requested: Outcome, details: PaymentDetails = {}): CompleteResult {
  if (payment.status === "EXPIRED") {
    return { ok: false, reason: "expired", message: "This payment expired because its session changed; start a new payment." }
  }
  if (payment.status !== "CREATED") {
    return { ok: false, reason: "completed", message: `This payment was already completed (status ${payment.status}).` }
  }
  const session = env.store.sessions.get(payment.sessionId)
  if (!session) return { ok: false, reason: "expired", message: "The session of this payment no longer exists." }
  const now = env.now()
  const nature = findMethod(payment.paymentMethodId, env.config)?.nature ?? "CreditCard"
  // An invoice terminal reserves order lines; without complete ones the provider refuses the payment.
  const invoice =
    nature === "Invoice" && (requested === "authorize" || requested === "open")
      ? reservationLines(session.body.order.orderLines, env.config.invoiceTerminal?.captureWithinDays ?? DEFAULT_INVOICE_CAPTURE_DAYS)
      : undefined
  const refusal = invoice && "refusal" in invoice ? invoice.refusal : undefined
  const failedChallenge = details.threeDSecure === "Declined"
  const outcome: Outcome = refusal ? "fail" : failedChallenge ? "decline" : cardOutcome(requested, nature, payment, details)
  const transaction: StoredTransaction = {
    transactionId: env.store.newTransactionId(),
    paymentId: payment.paymentId,
    shopOrderId: payment.shopOrderId,
    shop: "AltaPay Sandbox Shop",
    terminal: payment.terminal,
    authType: "payment",
    status: nature === "Invoice" ? "invoice_initialized" : "preauth",
    currency: payment.currency,
    reservedMinor: 0,
    capturedMinor: 0,
    refundedMinor: 0,
    nature,
    ...(invoice && !("refusal" in invoice) ? { invoice } : {}),
    ...(details.threeDSecure ? { threeDSecureResult: details.threeDSecure } : {}),
    captures: [],
    refunds: [],
    customer: (session.body.order.customer as Record<string, unknown> | undefined) ?? {},
    paymentInfos: { ...(session.body.order.transactionInfo ?? {}) },
    reconciliation: [],
    pending: [],
    createdAt: now,
    updatedAt: now,
  }
  const effects: LedgerEffect[] = []
  const effect = (type: LedgerEffect["type"], amountMinor: number, result: string, reconciliationIdentifier?: string): void => {
    effects.push({
      type,
      transactionId: transaction.transactionId,
      amountMinor,
      currency: payment.currency.alpha,
      result,
      ...(reconciliationIdentifier ? { reconciliationIdentifier } : {}),
    })
  }

  if (outcome === "open") {
    transaction.status = "pending"
    payment.status = "PENDING"
  } else if (outcome === "authorize") {
    const card = nature === "CreditCard"
    const surcharge = card ? surchargeFor(payment.amountMinor, env.config.surchargePercent) : 0
    transaction.reservedMinor = payment.amountMinor + surcharge
    if (surcharge > 0) transaction.surchargeMinor = surcharge
    transaction.authorisationExpiresAt = authorisationExpiry(now, nature, transaction.invoice)
    const fraud = card ? fraudRecommendation(payment.amountMinor, payment.currency.alpha) : undefined
    if (fraud) transaction.fraudRecommendation = fraud
    if (card) transaction.avs = avsResult(transaction.customer)
    payment.status = "AUTHORIZED"
    payment.authType = "payment"
    payment.maskedPan = "411111******1111"
    payment.cardScheme = "Visa"
    session.status = "COMPLETED"
    effect("authorize", payment.amountMinor, "Success")
    if (session.body.configuration?.autoCapture === true) {
      const reconciliationId = randomUUID()
      transaction.status = "captured"
      transaction.authType = "paymentAndCapture"
      transaction.capturedMinor = transaction.reservedMinor
      transaction.reconciliation.push({ id: reconciliationId, amountMinor: transaction.reservedMinor, type: "captured", at: now })
      transaction.captures.push({ amountMinor: transaction.reservedMinor, reconciliationIdentifier: reconciliationId, at: now })
      for (const line of transaction.invoice?.lines ?? []) line.captured = true
      payment.status = "CAPTURED"
      payment.authType = "paymentAndCapture"
      effect("capture", transaction.reservedMinor, "Success", reconciliationId)
    }
  } else {
    const failure = refusal
      ? { ...MESSAGES.fail, merchant: refusal, cardHolder: "The invoice payment could not be created." }
      : failedChallenge
        ? MESSAGES.challenge
        : MESSAGES[outcome]
    transaction.status = failure.status
    transaction.merchantErrorMessage = failure.merchant
    transaction.cardHolderErrorMessage = failure.cardHolder
    payment.status = failure.payment
    payment.reason = failure.merchant
    effect("decline", payment.amountMinor, outcome === "decline" ? "Declined" : "Failed")
  }
  payment.transactionId = transaction.transactionId
  payment.updatedAt = now
  env.store.transactions.set(transaction.transactionId, transaction)
  return { ok: true, transaction, effects }
}

const PAYMENT_STATUS: Record<TransactionStatus, PaymentStatus> = {
  pending: "PENDING",
  preauth: "AUTHORIZED",
  invoice_initialized: "AUTHORIZED",
  "3dsecure_failed": "DECLINED",
  captured: "CAPTURED",
  refunded: "REFUNDED",
  released: "RELEASED",
  epayment_declined: "DECLINED",
  preauth_error: "FAILED",
  recurring_confirmed: "AUTHORIZED",
  recurring_failed: "FAILED",
  reauth_failed: "DECLINED",
}

/** Keeps the checkout payment in step with its gateway transaction after a capture/refund/release. */
export function syncPayment(env: SandboxEnv, transaction: StoredTransaction): void {
  const payment = env.store.payments.get(transaction.paymentId)
  if (!payment) return
  payment.status = PAYMENT_STATUS[transaction.status]
  payment.authType = transaction.authType
  payment.updatedAt = transaction.updatedAt
}

/** A session is settled once one of its payments authorized; after that it cannot change. */
export const sessionIsSettled = (env: SandboxEnv, session: StoredSession): boolean =>
  session.paymentIds.some((id) => {
    const payment = env.store.payments.get(id)
    return payment !== undefined && WAS_AUTHORIZED.has(payment.status)
  })

/** Session changes make earlier unpaid payments unpayable, so a stale amount can never be paid. */
export function expireUnpaidPayments(env: SandboxEnv, session: StoredSession): void {
  for (const id of session.paymentIds) {
    const payment = env.store.payments.get(id)
    if (payment?.status === "CREATED") {
      payment.status = "EXPIRED"
      payment.reason = "The session was updated after this payment was created."
      payment.updatedAt = env.now()
    }
  }
}

/** The acquirer concludes an open payment: reserved in full, or declined. */
export function concludeOpenPayment(env: SandboxEnv, transactionId: string, outcome: "authorize" | "decline"): StoredTransaction {
  const transaction = env.store.transactions.get(transactionId)
  if (!transaction || transaction.status !== "pending") throw new Error(`Transaction ${transactionId} is not an open payment.`)
  const payment = env.store.payments.get(transaction.paymentId)!
  if (outcome === "authorize") {
    transaction.status = transaction.nature === "Invoice" ? "invoice_initialized" : "preauth"
    transaction.reservedMinor = payment.amountMinor
  } else {
    transaction.status = "epayment_declined"
    transaction.merchantErrorMessage = MESSAGES.decline.merchant
    transaction.cardHolderErrorMessage = MESSAGES.decline.cardHolder
  }
  transaction.updatedAt = env.now()
  syncPayment(env, transaction)
  return transaction
}
