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
  }
  env.store.transactions.set(t.transactionId, t)
  return t
}

/** A charge on an agreement: reserved (reserveSubscriptionCharge) or reserved and captured (chargeSubscription). */
export function chargeTransaction(env: SandboxEnv, agreement: StoredAgreement, charge: PendingChallenge): StoredTransaction {
  const captured = charge.method === "chargeSubscription"
  const t = baseTransaction(env, {
    shopOrderId: agreement.shopOrderId,
    terminal: agreement.terminal,
    authType: "subscription_payment",
    status: captured ? "captured" : "preauth",
    currency: agreement.currency,
    card: { maskedPan: agreement.card.maskedPan, month: agreement.card.month, year: agreement.card.year, scheme: agreement.card.scheme, token: agreement.card.token },
  })
  t.reservedMinor = charge.amountMinor
  t.paymentInfos = { ...charge.transactionInfo }
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
  env.store.transactions.set(t.transactionId, t)
  charge.transactionId = t.transactionId
  return t
}
