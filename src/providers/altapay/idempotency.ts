/**
 * Remembers what initiatePayment returned per idempotency key, so a retried call returns the same
 * AltaPay session instead of creating a second one. Bounded and time-limited: Medusa retries
 * within seconds, not hours. Each entry holds a session's data (its order lines), so expired
 * entries are dropped as new ones arrive: what a long-running server keeps is what the last ten
 * minutes of checkouts created, at most `maxEntries`, however many checkouts it has served.
 */
export class IdempotencyCache<T> {
  private readonly entries = new Map<string, { value: T; expiresAt: number }>()

  constructor(
    private readonly ttlMs = 10 * 60 * 1000,
    private readonly maxEntries = 2_000,
    private readonly now: () => number = Date.now
  ) {}

  get(key: string): T | undefined {
    const entry = this.entries.get(key)
    if (!entry) return undefined
    if (entry.expiresAt <= this.now()) {
      this.entries.delete(key)
      return undefined
    }
    return entry.value
  }

  delete(key: string): void {
    this.entries.delete(key)
  }

  set(key: string, value: T): void {
    this.entries.delete(key)
    const now = this.now()
    this.entries.set(key, { value, expiresAt: now + this.ttlMs })
    // Maps iterate in insertion order and every entry lives equally long: the first key is the
    // oldest, so expired entries are all at the front.
    for (const [oldest, entry] of this.entries) {
      if (entry.expiresAt > now && this.entries.size <= this.maxEntries) break
      this.entries.delete(oldest)
    }
  }

  /** Entries held now (expired ones included until the next write). */
  get size(): number {
    return this.entries.size
  }
}
