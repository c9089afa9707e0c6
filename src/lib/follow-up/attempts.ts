/**
 * What the session follow-up remembers between runs, in the shared store (every server reads
 * the same): how often a paid session could not be recorded and when to try again (backoff), and
 * since when Medusa has stated that nothing will use a reservation (a release needs that on two
 * runs at least the grace period apart). Lost state only makes the job wait longer: it never
 * releases anything on its own.
 */
import type { SharedStore } from "../scale-out/shared-state"

/** Kept as long as a payment link can live: an order's session may wait that long. */
const STATE_TTL_SECONDS = 30 * 24 * 60 * 60

export interface Attempts {
  tries: number
  /** ISO time before which the session is not tried again. */
  next_at: string
  /** The merchant has been told (once). */
  told: boolean
}

export interface BackoffPolicy {
  intervalMinutes: number
  retryMaxMinutes: number
  maxAttempts: number
}

const attemptsKey = (sessionId: string) => `altapay:follow-up:attempts:${sessionId}`
const unusedKey = (sessionId: string) => `altapay:follow-up:unused-since:${sessionId}`

export class SessionMemory {
  constructor(private readonly store: SharedStore) {}

  async attempts(sessionId: string): Promise<Attempts | undefined> {
    return this.store.get<Attempts>(attemptsKey(sessionId)).catch(() => undefined)
  }

  /** One more failed try: when the next one is due, and whether the merchant must be told now. */
  async failed(sessionId: string, now: Date, policy: BackoffPolicy): Promise<{ attempts: Attempts; tellNow: boolean }> {
    const previous = await this.attempts(sessionId)
    const tries = (previous?.tries ?? 0) + 1
    // interval, 2x, 4x ... up to retryMaxMinutes: a Medusa or AltaPay hiccup gets quick retries, a lasting problem fewer.
    const waitMinutes = Math.min(policy.intervalMinutes * 2 ** (tries - 1), policy.retryMaxMinutes)
    const tellNow = tries >= policy.maxAttempts && !previous?.told
    const attempts = { tries, next_at: new Date(now.getTime() + waitMinutes * 60_000).toISOString(), told: (previous?.told ?? false) || tellNow }
    await this.store.set(attemptsKey(sessionId), attempts, STATE_TTL_SECONDS).catch(() => undefined)
    return { attempts, tellNow }
  }

  /** Not to be tried before `next_at`. */
  async backingOff(sessionId: string, now: Date): Promise<boolean> {
    const attempts = await this.attempts(sessionId)
    return !!attempts && now.getTime() < Date.parse(attempts.next_at)
  }

  /** When Medusa first stated (on an earlier run) that nothing will use the reservation of `transactionId`. */
  async unusedSince(sessionId: string, transactionId: string, now: Date): Promise<Date> {
    const seen = await this.store.get<{ at: string; transaction_id: string }>(unusedKey(sessionId)).catch(() => undefined)
    if (seen && seen.transaction_id === transactionId) return new Date(seen.at)
    await this.store.set(unusedKey(sessionId), { at: now.toISOString(), transaction_id: transactionId }, STATE_TTL_SECONDS).catch(() => undefined)
    return now
  }

  /** Medusa uses the session after all (or the evidence changed): the count starts again. */
  async stillUsed(sessionId: string): Promise<void> {
    await this.store.delete(unusedKey(sessionId)).catch(() => undefined)
  }
}
