/**
 * The newest data of each payment, as last written under its lock. Medusa reads a payment's data
 * before it calls the provider, and stores the provider's answer after the provider returns: both
 * outside the payment's lock. So a hook that waited for the lock may hold a copy older than what
 * the previous holder wrote (a refund's record, a pending refund's lines). Every write under the
 * lock is also kept here, and the next holder starts from whichever copy is newer.
 * Kept in Medusa's cache module when the Payment module has one (every server sees it), else in
 * this process.
 */
import { openPaymentData, sealedJson, type AltaPayPaymentData, type SealedPaymentData } from "./data"
import { processStore, type SharedStore } from "../scale-out/shared-state"
import type { ServerKeys } from "../registrations/server-keys"

/**
 * Long enough to outlive any wait for the lock (minutes at most) plus Medusa's write after it.
 * Every payment leaves an entry, so this bounds what a store's cache keeps per payment: an hour of
 * payments, not a day's (with Medusa's in-memory cache that is this process's heap).
 */
const TTL_SECONDS = 60 * 60

/**
 * Never throws: the journal only narrows a race, so a cache that is down must not fail a capture
 * or refund (least of all after AltaPay moved the money); it is logged instead.
 */
export class PaymentJournal {
  private readonly store: SharedStore

  constructor(
    private readonly keys: ServerKeys,
    shared?: SharedStore,
    private readonly warn: (message: string) => void = () => {}
  ) {
    this.store = shared ?? processStore()
  }

  /** `data` or the journal's copy of the same payment, whichever was written later. */
  async newest(transactionId: string, data: AltaPayPaymentData): Promise<AltaPayPaymentData> {
    const stored = await this.store.get<Record<string, unknown>>(key(transactionId)).catch((error: unknown) => {
      this.warn(`AltaPay payment ${transactionId}: could not read its newest data from the cache (${error instanceof Error ? error.message : String(error)}); using Medusa's copy.`)
      return undefined
    })
    // Only a newer copy is used, so only a newer copy is worth reading and checking (the seal check is the cost).
    if (!stored || !(typeof stored.revision === "number" && stored.revision > data.revision)) return data
    const copy = typeof stored.json === "string" ? parsed(stored.json) : stored // an entry written as an object (before 0.3.1)
    const opened = openPaymentData(copy, this.keys)
    if (!opened.sealed || opened.data.transaction_id !== transactionId || opened.data.order_id !== data.order_id) return data
    return opened.data.revision > data.revision ? opened.data : data
  }

  /**
   * Kept as its revision and its JSON text: reading the revision, which is all most reads need, then
   * costs no copy of the whole data, and the text is the one sealing made (sealedJson).
   */
  async write(transactionId: string, data: SealedPaymentData): Promise<void> {
    const entry: JournalEntry = { revision: data.revision, json: sealedJson(data) }
    await this.store.set(key(transactionId), entry, TTL_SECONDS).catch((error: unknown) => {
      this.warn(`AltaPay payment ${transactionId}: could not keep its newest data in the cache (${error instanceof Error ? error.message : String(error)}).`)
    })
  }
}

interface JournalEntry {
  revision: number
  json: string
}

/** A journal text that does not parse is no copy at all (openPaymentData refuses it). */
function parsed(json: string): Record<string, unknown> | undefined {
  try {
    return JSON.parse(json) as Record<string, unknown>
  } catch {
    return undefined
  }
}

const key = (transactionId: string) => `altapay:payment-data:${transactionId}`
