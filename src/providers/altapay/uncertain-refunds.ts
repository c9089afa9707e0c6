/**
 * Refunds whose outcome we could not learn (no answer, and AltaPay could not be asked). Medusa
 * drops its refund record when the provider throws, so the merchant will retry with a new refund
 * id; before that retry is sent, AltaPay is asked whether the uncertain attempt went through,
 * and if it did, the retry adopts it instead of refunding a second time.
 */
export interface UncertainRefund {
  reconciliationIdentifier: string
  amountMinor: number
  /** AltaPay's refunded amount just before the attempt: growth by exactly `amountMinor` is it. */
  refundedBeforeMinor: number
  at: number
}

export class UncertainRefunds {
  private readonly byTransaction = new Map<string, UncertainRefund[]>()

  constructor(private readonly maxAgeMs = 24 * 60 * 60 * 1000) {}

  remember(transactionId: string, attempt: Omit<UncertainRefund, "at">): void {
    this.byTransaction.set(transactionId, [...this.list(transactionId), { ...attempt, at: Date.now() }])
  }

  /** The open attempts of a transaction; they stay until `settle` is called for them. */
  list(transactionId: string): UncertainRefund[] {
    const fresh = (this.byTransaction.get(transactionId) ?? []).filter((a) => Date.now() - a.at < this.maxAgeMs)
    if (fresh.length === 0) this.byTransaction.delete(transactionId)
    return fresh
  }

  settle(transactionId: string, reconciliationIdentifier: string): void {
    const left = this.list(transactionId).filter((a) => a.reconciliationIdentifier !== reconciliationIdentifier)
    if (left.length === 0) this.byTransaction.delete(transactionId)
    else this.byTransaction.set(transactionId, left)
  }
}
