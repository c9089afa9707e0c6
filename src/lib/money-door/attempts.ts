/**
 * The attempts to move money the door has sent and not yet seen settled, per subject (one AltaPay
 * payment, one payment session's charge, one payment collection). Kept in Medusa's cache module
 * when the caller has one (Redis: every server and a restart see them), else in this process.
 * Written once per movement, before it is sent; an attempt AltaPay answered stays until the next
 * movement of the subject finds it recorded, or its hour is over (no second write on success).
 * Callers hold the subject's lock, so read-modify-write here is safe.
 */
import { memoryStore, type SharedStore } from "../scale-out/shared-state"

/** order-update: AltaPay's updateOrder lowering an invoice reservation (lib/item-captures/order-edit.ts). */
export type MoneyKind = "capture" | "refund" | "release" | "charge" | "merchant-charge" | "order-update"

export interface Attempt {
  kind: MoneyKind
  /** What AltaPay finds the attempt by: the reconciliation identifier it carries (release: the transaction). */
  id: string
  amountMinor: number
  /** ISO 4217, for messages. */
  currency: string
  /** When it was recorded, ms since the epoch. */
  at: number
  /** The Medusa key it was made under (capture or refund id, payment session, collection), for logs. */
  key: string | null
  /**
   * AltaPay's total of this kind on the subject just before it was sent (captured or refunded):
   * growth by exactly `amountMinor` is this attempt, where AltaPay does not keep our identifier.
   */
  beforeMinor?: number
  /** What the road needs to record an adopted attempt in full (lines, items, note), as JSON. */
  detail?: Record<string, unknown>
  /** Set once the door learned nothing of its outcome (no answer, AltaPay not askable). */
  uncertain?: boolean
  /** Surely never reached AltaPay, kept for the follow-up to make (a road's `retryUnsent`): nothing to wait for. */
  unsent?: boolean
}

/**
 * An uncertain attempt: long enough for a merchant's retry days later and for the follow-up job to
 * settle it; it is also logged when it turns uncertain, so an expired one leaves its trace.
 */
const UNCERTAIN_TTL_SECONDS = 7 * 24 * 60 * 60
/** An attempt sent and (most likely) answered: kept only to cover a crash between send and answer. */
const SENT_TTL_SECONDS = 60 * 60

const PROCESS_ATTEMPTS = Symbol.for("medusa-payment-altapay.money-attempts")

export class AttemptBook {
  readonly store: SharedStore

  /**
   * Without a cache module: one store for this process (provider, routes and jobs alike), bounded by
   * age only, never by count: the process store's bound could drop an attempt still to be settled.
   */
  constructor(shared?: SharedStore) {
    const global = globalThis as Record<symbol, unknown>
    this.store = shared ?? ((global[PROCESS_ATTEMPTS] as SharedStore | undefined) ??= memoryStore())
  }

  async list(subject: string): Promise<Attempt[]> {
    return (await this.store.get<Attempt[]>(key(subject))) ?? []
  }

  /** Replaces the subject's attempts (an empty list deletes the key). */
  async save(subject: string, attempts: Attempt[]): Promise<void> {
    if (attempts.length === 0) return this.store.delete(key(subject))
    await this.store.set(key(subject), attempts, attempts.some((a) => a.uncertain) ? UNCERTAIN_TTL_SECONDS : SENT_TTL_SECONDS)
  }
}

const key = (subject: string) => `altapay:money:${subject}`

/** Subjects with an uncertain attempt, for the follow-up job (lib/follow-up/uncertain-money.ts). */
const UNCERTAIN_INDEX = "altapay:money-uncertain"
/** The most subjects the index keeps; past it the oldest go (each was logged when it turned uncertain). */
const MAX_INDEXED = 5_000

/**
 * The subjects with an attempt the door could not settle: a payment (`transaction:`) or a payment
 * collection (`collection:`). A session's charge is the session follow-up's (it looks the charge up).
 * Read-modify-write under `lock`, since different subjects' movements may note at once.
 */
export class UncertainIndex {
  constructor(
    private readonly store: SharedStore,
    private readonly lock: <T>(key: string, job: () => Promise<T>) => Promise<T>
  ) {}

  list(): Promise<string[]> {
    return this.store.get<string[]>(UNCERTAIN_INDEX).then((subjects) => subjects ?? [])
  }

  note(subject: string): Promise<void> {
    return this.change((subjects) => (subjects.includes(subject) ? subjects : [...subjects, subject].slice(-MAX_INDEXED)))
  }

  forget(subject: string): Promise<void> {
    return this.change((subjects) => subjects.filter((s) => s !== subject))
  }

  private change(edit: (subjects: string[]) => string[]): Promise<void> {
    return this.lock(UNCERTAIN_INDEX, async () => {
      const before = await this.list()
      const after = edit(before)
      if (after.length !== before.length) await this.store.set(UNCERTAIN_INDEX, after, UNCERTAIN_TTL_SECONDS)
    })
  }
}

/** The subject of one payment session's charge on a saved card (the session follow-up settles those). */
export const sessionSubject = (paymentSessionId: string) => `session:${paymentSessionId}`

/** The subject of one Medusa payment collection's charges (merchant charges, payment links). */
export const collectionSubject = (paymentCollectionId: string) => `collection:${paymentCollectionId}`
