/**
 * Operations the gateway answered `Open` (the "open" fault) finish later, as AltaPay's acquirers
 * do: `settleOpen` performs them now (money moves, the reconciliation identifier appears on the
 * transaction) or lets them fail (nothing moves, they disappear from the transaction's pending
 * list). Tests use it to check that what the merchant's store recorded as Open gets settled.
 */
import { randomUUID } from "node:crypto"
import type { SandboxEnv } from "./env"
import type { LedgerEffect } from "./ledger"
import { syncPayment } from "./payment-flow"
import type { PendingOperation, StoredTransaction } from "./state"

export type OpenOutcome = "success" | "fail"

/** Settles the transaction's Open operations (only the one with `reconciliationIdentifier`, when given). */
export function settleOpen(env: SandboxEnv, transactionId: string, outcome: OpenOutcome, reconciliationIdentifier?: string): LedgerEffect[] {
  const t = env.store.transactions.get(transactionId)
  if (!t) throw new Error(`Unknown transaction ${transactionId}.`)
  const settling = t.pending.filter((p) => reconciliationIdentifier === undefined || p.reconciliationIdentifier === reconciliationIdentifier)
  t.pending = t.pending.filter((p) => !settling.includes(p))
  const effects = settling.map((p) => (outcome === "success" ? perform(env, t, p) : effectOf(t, p, "Failed", p.reconciliationIdentifier)))
  if (settling.length > 0) {
    t.updatedAt = env.now()
    syncPayment(env, t)
  }
  return effects
}

function perform(env: SandboxEnv, t: StoredTransaction, p: PendingOperation): LedgerEffect {
  if (p.type === "release") {
    t.status = "released"
    return effectOf(t, p, "Success")
  }
  const id = (env.config.keepReconciliationIdentifiers && p.reconciliationIdentifier) || randomUUID()
  const type = p.type === "capture" ? "captured" : "refunded"
  if (p.type === "capture") t.capturedMinor += p.amountMinor
  else t.refundedMinor += p.amountMinor
  t.status = type
  t.reconciliation.push({ id, amountMinor: p.amountMinor, type, at: env.now() })
  return effectOf(t, p, "Success", id)
}

function effectOf(t: StoredTransaction, p: PendingOperation, result: string, reconciliationIdentifier?: string): LedgerEffect {
  return {
    type: p.type,
    transactionId: t.transactionId,
    amountMinor: p.amountMinor,
    currency: t.currency.alpha,
    result,
    ...(reconciliationIdentifier ? { reconciliationIdentifier } : {}),
  }
}
