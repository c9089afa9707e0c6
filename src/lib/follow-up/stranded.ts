/**
 * Payment sessions Medusa no longer has, whose AltaPay payment may still be (or become) paid: a
 * session Medusa deleted (a new session replaced it, the cart changed, the follow-up retired it)
 * and a session a callback or a customer's return names that Medusa does not know. No hook may
 * release such a payment on the spot: a cart completion that read the session before it was
 * deleted may be authorizing it at that very moment. They are noted here, in the shared store,
 * and the session follow-up decides (stranded-follow-up.ts), on two runs a grace period apart and
 * under the cart's lock.
 *
 * The shared store is Medusa's cache module (Redis in production, where a note outlives a restart);
 * each note is also logged when it is written, so a lost note still leaves its trace.
 */
import type { Logger } from "@medusajs/framework/types"
import type { Lock, SharedStore } from "../scale-out/shared-state"

/** Long enough for a payment link's life: a note is dropped by its follow-up well before this. */
const NOTE_TTL_SECONDS = 35 * 24 * 60 * 60
/** The most notes one registration keeps; past it the oldest go (and were logged when written). */
const MAX_NOTES = 5_000

export interface StrandedNote {
  sessionId: string
  /**
   * The shop_orderid AltaPay knows the session by (shop-order-id.ts). Absent on notes written before
   * the mapping, whose sessions were created with the session id itself.
   */
  shopOrderId?: string
  /**
   * A purchase with a saved card: its charge keeps the agreement's set-up shop_orderid (and names the
   * session in its transaction_info), so it is looked for there (session-payment.ts). `agreementId`
   * when the session was noted before authorization learnt that shop_orderid: it is asked for then.
   */
  agreementOrderId?: string
  agreementId?: string
  /** What Medusa knew of the session when it was noted (none for a session Medusa never had). */
  cartId: string | null
  collectionId: string | null
  /** The sealed amount the session asked for, when the note came from its sealed data. */
  amountMinor: number | null
  currency: string | null
  noted_at: string
  why: "deleted" | "unknown to Medusa" | "second payment"
  /**
   * For "second payment": the one transaction followed, paid under the session's shop_orderid after
   * Medusa recorded another for the session (an app payment approved after the customer paid again).
   * It can never be an order's (Medusa makes one payment of a session); the session's own is not touched.
   */
  secondTransactionId?: string
  /** The follow-up looks again no earlier than this (backoff while nothing is paid). */
  next_at?: string
  looks?: number
  /** The merchant was told that a payment on it stays pending past the session lifetime. */
  told_pending?: boolean
}

export class StrandedSessions {
  /**
   * `providerKey`: the registration (options.providerId), so each registration's follow-up reads
   * the notes its own provider wrote; `lock`: one writer of the index at a time, across servers
   * where Medusa has a locking module.
   */
  constructor(
    private readonly store: SharedStore,
    private readonly lock: Lock,
    private readonly providerKey: string
  ) {}

  private get indexKey(): string {
    return `altapay:stranded:${this.providerKey}`
  }

  private noteKey(sessionId: string): string {
    return `altapay:stranded:${this.providerKey}:${sessionId}`
  }

  /** Notes a session; a note already there keeps what it knew, adding what this one knows. */
  async note(note: Omit<StrandedNote, "noted_at"> & { noted_at?: string }): Promise<void> {
    const id = strandedNoteId(note)
    await this.lock(this.indexKey, async () => {
      const previous = await this.store.get<StrandedNote>(this.noteKey(id))
      const merged: StrandedNote = {
        ...note,
        ...(previous ?? {}),
        cartId: previous?.cartId ?? note.cartId,
        collectionId: previous?.collectionId ?? note.collectionId,
        amountMinor: previous?.amountMinor ?? note.amountMinor,
        currency: previous?.currency ?? note.currency,
        noted_at: previous?.noted_at ?? note.noted_at ?? new Date().toISOString(),
      }
      const shopOrderId = previous?.shopOrderId ?? note.shopOrderId
      if (shopOrderId) merged.shopOrderId = shopOrderId
      await this.store.set(this.noteKey(id), merged, NOTE_TTL_SECONDS)
      const index = (await this.store.get<string[]>(this.indexKey)) ?? []
      if (!index.includes(id)) await this.store.set(this.indexKey, [...index, id].slice(-MAX_NOTES), NOTE_TTL_SECONDS)
    })
  }

  /**
   * A paid transaction under the shop_orderid of a session Medusa recorded another payment of: the
   * customer paid twice (an app payment approved after paying again). Noted for the follow-up job,
   * which releases it or tells the merchant to refund it.
   */
  async noteSecondPayment(sessionId: string, transactionId: string, source: string, logger: Pick<Logger, "warn"> | undefined, shopOrderId?: string): Promise<void> {
    logger?.warn(
      `${source} for payment session ${sessionId}: AltaPay transaction ${transactionId} is a second payment of it (Medusa recorded another); the follow-up job releases it, or tells you to refund it where it was captured.`
    )
    const note = {
      sessionId,
      ...withoutUndefined({ shopOrderId }),
      secondTransactionId: transactionId,
      cartId: null,
      collectionId: null,
      amountMinor: null,
      currency: null,
      why: "second payment" as const,
    }
    await this.note(note).catch((error: unknown) =>
      logger?.warn(
        `${source} for payment session ${sessionId}: the second payment ${transactionId} could not be noted for the follow-up job (${error instanceof Error ? error.message : String(error)}).`
      )
    )
  }

  /**
   * A paid session a callback or a customer's return names that Medusa does not have: no cart is
   * touched, it is logged and noted for the follow-up job. A note that cannot be written is logged.
   */
  async noteUnknown(sessionId: string, source: string, logger: Pick<Logger, "warn"> | undefined, at: Pick<StrandedNote, "shopOrderId" | "agreementOrderId"> = {}): Promise<void> {
    logger?.warn(`${source} for payment session ${sessionId}: AltaPay reports it paid, but Medusa has no such session; no cart was touched, and the follow-up job takes it.`)
    const note = { sessionId, ...withoutUndefined(at), cartId: null, collectionId: null, amountMinor: null, currency: null, why: "unknown to Medusa" as const }
    await this.note(note).catch((error: unknown) =>
      logger?.warn(`${source} for payment session ${sessionId}: could not be noted for the follow-up job (${error instanceof Error ? error.message : String(error)}).`)
    )
  }

  /** Up to `take` noted session ids from position `skip`, oldest first. */
  async list(skip: number, take: number): Promise<string[]> {
    return ((await this.store.get<string[]>(this.indexKey)) ?? []).slice(skip, skip + take)
  }

  /** A note by its id (strandedNoteId): the session's id, or for a second payment the session's and the transaction's. */
  async get(id: string): Promise<StrandedNote | undefined> {
    return this.store.get<StrandedNote>(this.noteKey(id))
  }

  async update(note: StrandedNote): Promise<void> {
    await this.store.set(this.noteKey(strandedNoteId(note)), note, NOTE_TTL_SECONDS)
  }

  async forget(id: string): Promise<void> {
    await this.lock(this.indexKey, async () => {
      await this.store.delete(this.noteKey(id))
      const index = (await this.store.get<string[]>(this.indexKey)) ?? []
      if (index.includes(id))
        await this.store.set(
          this.indexKey,
          index.filter((noted) => noted !== id),
          NOTE_TTL_SECONDS
        )
    })
  }
}

/** Where a note is kept: by its session, or for a second payment by its session and transaction. */
export const strandedNoteId = (note: Pick<StrandedNote, "sessionId" | "secondTransactionId">): string =>
  note.secondTransactionId ? `${note.sessionId}~${note.secondTransactionId}` : note.sessionId

/** Only the members that are set: a note is JSON in the shared store. */
function withoutUndefined<T extends object>(value: T): Partial<T> {
  return Object.fromEntries(Object.entries(value).filter(([, member]) => member !== undefined)) as Partial<T>
}
