/**
 * What is about to authorize a payment session: its AltaPay callback or the follow-up job. Medusa
 * passes the provider's authorizePayment nothing that tells the paths apart (the callback, the
 * job and the customer's return all complete the cart the same way), so each path that is not the
 * customer's return leaves a short-lived note first, and authorizePayment records it on the
 * payment (`reconciled.by`). Kept where the payment journal is: Medusa's cache module when the
 * Payment module has one, else this process.
 */
import type { Reconciler } from "../payment-data/data"
import type { SharedStore } from "../scale-out/shared-state"

/** Covers the callback's processing delay and a completion waiting for the cart's lock. */
const TTL_SECONDS = 10 * 60

export async function noteReconciler(store: SharedStore, sessionId: string, by: Exclude<Reconciler, "return">): Promise<void> {
  // Only a label on the payment: a cache that is down must not stop a callback or the job.
  await store.set(key(sessionId), by, TTL_SECONDS).catch(() => undefined)
}

/** What is authorizing `sessionId`: the noted path, else the customer's return. */
export async function reconcilerOf(store: SharedStore, sessionId: string): Promise<Reconciler> {
  const noted = await store.get<Reconciler>(key(sessionId)).catch(() => undefined)
  return noted === "callback" || noted === "job" ? noted : "return"
}

const key = (sessionId: string) => `altapay:reconciled-by:${sessionId}`
