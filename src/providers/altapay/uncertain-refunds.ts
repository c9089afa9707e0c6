/**
 * Refunds whose outcome we could not learn (no answer, and AltaPay could not be asked). Medusa
 * drops its refund record when the provider throws, so the merchant will retry with a new refund
 * id; before that retry is sent, AltaPay is asked whether the uncertain attempt went through,
 * and if it did, the retry adopts it instead of refunding a second time. Kept in Medusa's cache
 * module when the Payment module has one (Redis: every server and restart sees them), else in
 * this process. Callers hold the payment's lock, so read-modify-write here is safe.
 */
import type { RefundRecord } from "../../lib/payment-data/data"
import { memoryStore, type SharedStore } from "../../lib/scale-out/shared-state"

export interface UncertainRefund {
  reconciliationIdentifier: string
  amountMinor: number
  /** AltaPay's refunded amount just before the attempt: growth by exactly `amountMinor` is it. */
  refundedBeforeMinor: number
  at: number
  /** What the attempt sent and was for, so a refund that adopts it records it in full. */
  record?: Pick<RefundRecord, "order_lines" | "items" | "note">
}

const MAX_AGE_MS = 24 * 60 * 60 * 1000

export class UncertainRefunds {
  private readonly store: SharedStore

  constructor(
    shared?: SharedStore,
    private readonly maxAgeMs = MAX_AGE_MS
  ) {
    // Without a cache module: this process only, each attempt dropped after `maxAgeMs` (not the
    // process store, whose bound on its size could drop an attempt still to be settled).
    this.store = shared ?? memoryStore()
  }

  async remember(transactionId: string, attempt: Omit<UncertainRefund, "at">): Promise<void> {
    await this.save(transactionId, [...(await this.list(transactionId)), { ...attempt, at: Date.now() }])
  }

  /** The open attempts of a transaction; they stay until `settle` is called for them. */
  async list(transactionId: string): Promise<UncertainRefund[]> {
    const stored = (await this.store.get<UncertainRefund[]>(key(transactionId))) ?? []
    return stored.filter((a) => Date.now() - a.at < this.maxAgeMs)
  }

  async settle(transactionId: string, reconciliationIdentifier: string): Promise<void> {
    await this.save(
      transactionId,
      (await this.list(transactionId)).filter((a) => a.reconciliationIdentifier !== reconciliationIdentifier)
    )
  }

  private async save(transactionId: string, attempts: UncertainRefund[]): Promise<void> {
    if (attempts.length === 0) return this.store.delete(key(transactionId))
    await this.store.set(key(transactionId), attempts, Math.ceil(this.maxAgeMs / 1000))
  }
}

const key = (transactionId: string) => `altapay:uncertain-refunds:${transactionId}`
