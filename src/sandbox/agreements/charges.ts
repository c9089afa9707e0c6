/** The transactions of agreements: the set-up (hosted page) and each charge on it. */
import { randomUUID } from "node:crypto"
import type { SandboxEnv } from "../env"
import type { StoredTransaction } from "../state"
import type { PendingChallenge, SetupRequest, StoredAgreement } from "./agreements"

function baseTransaction(env: SandboxEnv, fields: Pick<StoredTransaction, "shopOrderId" | "terminal" | "authType" | "status" | "currency" | "card">): StoredTransaction {
  const now = env.now()
  return {
    transactionId: env.store.newTransactionId(),
    paymentId: randomUUID(),
    shop: "AltaPay Sandbox Shop",
    reservedMinor: 0,
    capturedMinor: 0,
    refundedMinor: 0,
    nature: "CreditCard",
    captures: [],
    refunds: [],
    customer: {},
    paymentInfos: {},
    reconciliation: [],
    pending: [],
    createdAt: now,
    updatedAt: now,
    ...fields,
  }
}

/** The set-up transaction: recurring_confirmed once the card is accepted, recurring_failed when declined. */
export function setupTransaction(env: SandboxEnv, request: SetupRequest, card: StoredAgreement["card"], declined?: string): StoredTransaction {
  const t = baseTransaction(env, {
    shopOrderId: request.shopOrderId,
    terminal: request.terminal,
    authType: request.type,
    status: declined ? "recurring_failed" : "recurring_confirmed",
    currency: request.currency,
    card: { maskedPan: card.maskedPan, month: card.month, year: card.year, scheme: card.scheme, token: card.token },
  })
  t.paymentInfos = { ...request.transactionInfo }
  if (declined) {
    t.merchantErrorMessage = declined
    t.cardHolderErrorMessage = declined
  } else {
    t.recurringDefaultMinor = request.amountMinor
  }
  env.store.transactions.set(t.transactionId, t)
  return t
}

/** A charge's transaction before any money moved: the agreement's order, card and the charge's infos. */
function chargeBase(env: SandboxEnv, agreement: StoredAgreement, charge: PendingChallenge, status: StoredTransaction["status"]): StoredTransaction {
  const t = baseTransaction(env, {
    shopOrderId: agreement.shopOrderId,
    terminal: agreement.terminal,
    authType: "subscription_payment",
    status,
    currency: agreement.currency,
    card: { maskedPan: agreement.card.maskedPan, month: agreement.card.month, year: agreement.card.year, scheme: agreement.card.scheme, token: agreement.card.token },
  })
  t.paymentInfos = { ...charge.transactionInfo }
  return t
}

/** A charge on an agreement: reserved (reserveSubscriptionCharge) or reserved and captured (chargeSubscription). */
export function chargeTransaction(env: SandboxEnv, agreement: StoredAgreement, charge: PendingChallenge): StoredTransaction {
  const captured = charge.method === "chargeSubscription"
  const t = chargeBase(env, agreement, charge, captured ? "captured" : "preauth")
  moveCharge(env, t, charge)
  env.store.transactions.set(t.transactionId, t)
  charge.transactionId = t.transactionId
  return t
}

/** A charge AltaPay answered Open (AltaPay's test amount 13.64: "the transaction will remain in PENDING status"). */
export function openChargeTransaction(env: SandboxEnv, agreement: StoredAgreement, charge: PendingChallenge): StoredTransaction {
  const t = chargeBase(env, agreement, charge, "pending")
  t.openCharge = charge
  env.store.transactions.set(t.transactionId, t)
  charge.transactionId = t.transactionId
  return t
}

/** Settles an open charge (`sandbox.agreements.settle`): reserved or captured as asked, or failed with nothing moved. */
export function settleOpenCharge(env: SandboxEnv, transactionId: string, outcome: "success" | "fail"): StoredTransaction {
  const t = env.store.transactions.get(transactionId)
  const charge = t?.openCharge
  if (!t || !charge || t.status !== "pending") throw new Error(`Transaction ${transactionId} is not an open charge.`)
  delete t.openCharge
  if (outcome === "success") {
    t.status = charge.method === "chargeSubscription" ? "captured" : "preauth"
    moveCharge(env, t, charge)
  } else {
    t.status = "preauth_error"
    t.merchantErrorMessage = "The open charge was declined (sandbox settle: fail)."
    t.cardHolderErrorMessage = "The payment was declined."
  }
  t.updatedAt = env.now()
  return t
}

/** The money of a charge: reserved, and captured with its reconciliation identifier for chargeSubscription. */
function moveCharge(env: SandboxEnv, t: StoredTransaction, charge: PendingChallenge): void {
  const captured = charge.method === "chargeSubscription"
  t.reservedMinor = charge.amountMinor
  if (captured) {
    t.capturedMinor = charge.amountMinor
    const id = (env.config.keepReconciliationIdentifiers && charge.reconciliationIdentifier) || randomUUID()
    t.reconciliation.push({ id, amountMinor: charge.amountMinor, type: "captured", at: env.now() })
    t.captures.push({ amountMinor: charge.amountMinor, reconciliationIdentifier: id, at: env.now(), ...(charge.orderLines ? { orderLines: charge.orderLines } : {}) })
  } else if (charge.reconciliationIdentifier) {
    // A reservation names its identifier in the transaction's infos (our assumption; AltaPay's
    // reservesubscription.xml sample has none), so a lost answer can still be found.
    t.paymentInfos.reconciliation_identifier = charge.reconciliationIdentifier
  }
}
