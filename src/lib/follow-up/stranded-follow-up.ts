/**
 * The follow-up of sessions Medusa no longer has (stranded.ts): a payment made on one can never
 * become an order, so it is given back, but only on evidence that nothing uses it.
 *
 * - Medusa has the session again, or a Medusa payment was made from it (a cart completion
 *   authorized it as it was being deleted): the note is dropped; the payment is the order's.
 * - Paid at AltaPay (a saved card's charge: under its agreement's shop_orderid, session-payment.ts): released (captured money cannot be, and the merchant is told to refund it)
 *   once Medusa shows no payment made from it on two runs at least the grace period apart, and
 *   once more right before the release, under the cart's lock (the lock Medusa's completion holds
 *   while it authorizes) with AltaPay's state read again under that lock.
 * - Open at AltaPay (the acquirer has not concluded): followed until it settles; the merchant is
 *   told once when it outlives the session lifetime.
 * - Not paid: looked at again with growing pauses while its CUSTOMER token could still pay it,
 *   then the note is dropped.
 */
import type { ILockingModule, IPaymentModuleService, MedusaContainer, RemoteQueryFunction } from "@medusajs/framework/types"
import { ContainerRegistrationKeys, Modules } from "@medusajs/framework/utils"
import { CAPTURED_STATUSES, REFUNDED_STATUSES, RELEASED_STATUSES, statusIn, type GatewayTransaction } from "../../altapay"
import { medusaSession, orderOfCart, paymentOfSession } from "../medusa-mapping/medusa-session"
import { namesSession } from "../medusa-mapping/shop-order-id"
import { heldElsewhere, isOpenAtAltaPay, isPaidAtAltaPay, pickTransaction } from "../medusa-mapping/status"
import type { AltaPayRegistration } from "../registrations/registrations"
import { paymentLockKey } from "../scale-out/shared-state"
import { SessionMemory } from "./attempts"
import { sessionPayment } from "./session-payment"
import { nextBatch } from "./batches"
import { holdingLock } from "./medusa-lock"
import { tellMerchant, type UnclaimedPayment } from "./merchant-notice"
import { RELEASE_REASON_TTL_SECONDS, forgetReleaseReason, releaseReasonKey, releaseReservation } from "./release"
import type { RunReport } from "./run-report"
import { StrandedSessions, type StrandedNote } from "./stranded"

/** A CUSTOMER token lives an hour (AltaPay's Authentication page); an hour more for a 3-D Secure or bank step. */
const WATCH_UNPAID_MS = 2 * 60 * 60_000
const CART_LOCK_WAIT_MS = 30_000

type Outcome =
  | "retired session: not due"
  | "retired session: its order's"
  | "retired session: not paid"
  | "retired session: never paid"
  | "retired session: open at AltaPay"
  | "retired session: confirming unused"
  | "retired session: released"
  | "retired session: captured without order"
  | "retired session: busy on another server"

const COUNTED: ReadonlySet<Outcome> = new Set<Outcome>([
  "retired session: confirming unused",
  "retired session: released",
  "retired session: captured without order",
  "retired session: open at AltaPay",
])

export async function followUpStrandedSessions(container: MedusaContainer, registration: AltaPayRegistration, now: Date, report: RunReport): Promise<void> {
  const follow = new StrandedFollowUp(container, registration, now)
  const ids = await nextBatch(registration.store, `stranded:${registration.providerId}`, registration.options.jobs.batchSize, (skip, take) => follow.stranded.list(skip, take))
  await report.each("retired payment session", ids, async (id) => {
    const outcome = await follow.followUp(id)
    // Only what moved money or waits on it is counted: every retired session is noted, most never paid.
    if (COUNTED.has(outcome)) report.count(outcome)
  })
}

class StrandedFollowUp {
  readonly stranded: StrandedSessions
  private readonly query: Pick<RemoteQueryFunction, "graph">
  private readonly locking: ILockingModule
  private readonly memory: SessionMemory
  private readonly graceMs: number

  constructor(
    private readonly container: MedusaContainer,
    private readonly registration: AltaPayRegistration,
    private readonly now: Date
  ) {
    this.stranded = new StrandedSessions(registration.store, registration.scaleOut.paymentLock, registration.options.providerId)
    this.query = container.resolve(ContainerRegistrationKeys.QUERY)
    this.locking = container.resolve<ILockingModule>(Modules.LOCKING)
    this.memory = new SessionMemory(registration.store)
    this.graceMs = registration.options.jobs.graceMinutes * 60_000
  }

  /** Under the session's own lock, the one the session follow-up takes. */
  followUp(sessionId: string): Promise<Outcome> {
    return holdingLock(this.locking, `altapay:follow-up:session:${sessionId}`, 0, () => this.examine(sessionId), "retired session: busy on another server")
  }

  private async examine(id: string): Promise<Outcome> {
    const note = await this.stranded.get(id)
    if (!note) return this.drop(id, "retired session: its order's")
    const sessionId = note.sessionId
    const notedAt = Date.parse(note.noted_at)
    // A note is written just before Medusa deletes the session: looked at after the grace period.
    const dueAt = note.next_at ? Date.parse(note.next_at) : notedAt + this.graceMs
    if (this.now.getTime() < dueAt) return "retired session: not due"
    if (note.secondTransactionId) return this.examineSecond(id, note, note.secondTransactionId)
    if ((await this.ownership(note)).claimed) return this.drop(sessionId, "retired session: its order's")
    const transaction = await this.paymentOf(note)
    if (transaction && isPaidAtAltaPay(transaction)) {
      const since = await this.memory.unusedSince(sessionId, transaction.transactionId, this.now)
      if (this.now.getTime() - since.getTime() < this.graceMs) return "retired session: confirming unused"
      return this.giveBack(note)
    }
    if (transaction && isOpenAtAltaPay(transaction)) return this.open(note, transaction)
    const released = await this.releasedUntold(id, note, transaction)
    if (released) return released
    if (this.now.getTime() - notedAt >= WATCH_UNPAID_MS) return this.drop(sessionId, "retired session: never paid")
    await this.later(note)
    return "retired session: not paid"
  }

  /**
   * A second payment of a session (stranded.ts): given back once AltaPay shows it paid, under the
   * session's shop_orderid, while Medusa's payment of the session holds another transaction, read
   * again under the transaction's lock. Until Medusa holds a payment of the session it may still be
   * the one recorded: looked at again, then dropped (the session's own follow-up takes it then).
   */
  private async examineSecond(id: string, note: StrandedNote, transactionId: string): Promise<Outcome> {
    const recordedOther = async () => {
      const held = (await medusaSession(this.query, note.sessionId))?.paymentTransactionId
      return held && held !== transactionId ? held : undefined
    }
    const paid = async () => {
      const found = pickTransaction(await this.registration.client.gateway.payments({ transactionId }))
      // Never another Medusa record's (a merchant's charge on the card this session saved keeps its shop_orderid).
      return found && namesSession(found.shopOrderId, note.sessionId) && !heldElsewhere(found, note.sessionId) ? found : undefined
    }
    const transaction = (await recordedOther()) ? await paid() : undefined
    if (transaction && isOpenAtAltaPay(transaction)) return this.open(note, transaction)
    if (!transaction || !isPaidAtAltaPay(transaction)) {
      const released = await this.releasedUntold(id, note, transaction)
      if (released) return released
      if (this.now.getTime() - Date.parse(note.noted_at) >= WATCH_UNPAID_MS) return this.drop(id, "retired session: never paid")
      await this.later(note)
      return "retired session: not paid"
    }
    const giveBack = async (): Promise<Outcome> => {
      const held = await recordedOther()
      const latest = held ? await paid() : undefined
      if (!held || !latest || !isPaidAtAltaPay(latest)) return this.drop(id, "retired session: never paid")
      const why = `payment session ${note.sessionId} is paid by AltaPay transaction ${held}, which Medusa recorded; this was a second payment of it (the customer paid again, then approved the first too)`
      const captured = (latest.capturedAmount?.minor ?? 0) > 0 || statusIn(latest.transactionStatus, [...CAPTURED_STATUSES, ...REFUNDED_STATUSES])
      if (!captured) {
        await this.registration.store.set(releaseReasonKey(transactionId), why, RELEASE_REASON_TTL_SECONDS).catch(() => undefined)
        await releaseReservation(this.registration, latest)
      }
      await this.tell(note, latest, captured ? "captured" : "released", why)
      return this.drop(id, captured ? "retired session: captured without order" : "retired session: released")
    }
    return this.registration.scaleOut.paymentLock(paymentLockKey(transactionId), giveBack)
  }

  /**
   * Released by an earlier run that stopped before the merchant was told (the process died, or the
   * release's answer was lost while AltaPay could not be asked): the reason it stored first says
   * so, and the merchant is told now. Without it, a released transaction was never this job's.
   */
  private async releasedUntold(id: string, note: StrandedNote, transaction: GatewayTransaction | undefined): Promise<Outcome | undefined> {
    if (!transaction || !statusIn(transaction.transactionStatus, RELEASED_STATUSES)) return undefined
    const why = await this.registration.store.get<string>(releaseReasonKey(transaction.transactionId))
    if (!why) return undefined
    await this.tell(note, transaction, "released", why)
    return this.drop(id, "retired session: released")
  }

  /**
   * Medusa has the session again, or an order holds a Medusa payment made from it: claimed. A
   * payment made from it while its cart became no order (the completion failed after authorizing,
   * as the session was deleted) is no order's: `orphan`, given back through Medusa (giveBack).
   */
  private async ownership(note: StrandedNote): Promise<{ claimed: boolean; orphan?: string }> {
    if (await medusaSession(this.query, note.sessionId)) return { claimed: true }
    const payment = await paymentOfSession(this.query, note.sessionId)
    if (!payment) return { claimed: false }
    if (!note.cartId || (await orderOfCart(this.query, note.cartId))) return { claimed: true }
    return { claimed: false, orphan: payment.id }
  }

  /**
   * Released under the cart's lock, after Medusa's record and AltaPay's state are read once more
   * under it: a completion authorizing the session holds that lock, so it has either made its
   * payment (seen here) or not started (and cannot: the session is gone).
   */
  private async giveBack(note: StrandedNote): Promise<Outcome> {
    const run = async (): Promise<Outcome> => {
      const { claimed, orphan } = await this.ownership(note)
      if (claimed) return this.drop(note.sessionId, "retired session: its order's")
      const latest = await this.paymentOf(note)
      if (!latest || !isPaidAtAltaPay(latest) || heldElsewhere(latest, note.sessionId)) return this.drop(note.sessionId, "retired session: never paid")
      const why =
        note.why === "deleted"
          ? `Medusa deleted payment session ${note.sessionId} (replaced, or retired by the follow-up job) and ${orphan ? `its payment ${orphan} became no order` : "no payment was made from it"}`
          : `Medusa has no payment session ${note.sessionId}`
      const captured = (latest.capturedAmount?.minor ?? 0) > 0 || statusIn(latest.transactionStatus, [...CAPTURED_STATUSES, ...REFUNDED_STATUSES])
      if (!captured) {
        await this.registration.store.set(releaseReasonKey(latest.transactionId), why, RELEASE_REASON_TTL_SECONDS).catch(() => undefined)
        // A Medusa payment no order holds is canceled through Medusa (its provider releases it), so Medusa's record agrees.
        if (orphan) await this.container.resolve<IPaymentModuleService>(Modules.PAYMENT).cancelPayment(orphan)
        else await this.registration.scaleOut.paymentLock(paymentLockKey(latest.transactionId), () => releaseReservation(this.registration, latest))
      }
      await this.tell(note, latest, captured ? "captured" : "released", why)
      return this.drop(note.sessionId, captured ? "retired session: captured without order" : "retired session: released")
    }
    return note.cartId ? holdingLock(this.locking, note.cartId, CART_LOCK_WAIT_MS, run, "retired session: busy on another server") : run()
  }

  /** The noted session's payment at AltaPay; a saved card's charge under its agreement's shop_orderid (session-payment.ts). */
  private paymentOf(note: StrandedNote): Promise<GatewayTransaction | undefined> {
    return sessionPayment(this.registration.client, {
      sessionId: note.sessionId,
      shopOrderId: askedAs(note),
      agreementOrderId: note.agreementOrderId,
      agreementId: note.agreementId,
    })
  }

  private async open(note: StrandedNote, transaction: GatewayTransaction): Promise<Outcome> {
    const lifetimeMs = this.registration.options.jobs.sessionLifetimeMinutes * 60_000
    if (!note.told_pending && this.now.getTime() - Date.parse(note.noted_at) >= lifetimeMs) {
      await this.tell(note, transaction, "pending", `the payment is still open at AltaPay (${transaction.transactionStatus}) and its session is gone from Medusa`)
      note = { ...note, told_pending: true }
    }
    await this.later(note)
    return "retired session: open at AltaPay"
  }

  /** Next look after a pause that doubles each time, from the grace period up to the job's longest retry pause. */
  private async later(note: StrandedNote): Promise<void> {
    const looks = (note.looks ?? 0) + 1
    const pauseMs = Math.min(this.graceMs * 2 ** (looks - 1), this.registration.options.jobs.retryMaxMinutes * 60_000)
    await this.stranded.update({ ...note, looks, next_at: new Date(this.now.getTime() + pauseMs).toISOString() })
  }

  private async drop(sessionId: string, outcome: Outcome): Promise<Outcome> {
    await this.stranded.forget(sessionId)
    await this.memory.stillUsed(sessionId)
    return outcome
  }

  private async tell(note: StrandedNote, transaction: GatewayTransaction, kind: UnclaimedPayment["kind"], why: string): Promise<void> {
    const reserved = transaction.reservedAmount
    await tellMerchant(this.container, {
      kind,
      providerId: this.registration.providerId,
      sessionId: note.sessionId,
      cartId: note.cartId,
      email: null,
      transactionId: transaction.transactionId,
      amount: reserved ? `${reserved.decimal} ${reserved.currency ?? note.currency ?? ""}`.trim() : "an amount AltaPay does not state",
      why,
    })
    if (kind === "released") await forgetReleaseReason(this.registration.store, transaction.transactionId)
  }
}

/** The shop_orderid AltaPay knows a noted session by: the one noted, else (a note from before the mapping) the session id itself. */
const askedAs = (note: StrandedNote): string => note.shopOrderId ?? note.sessionId
