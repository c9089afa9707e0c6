/**
 * The follow-up of AltaPay payment sessions Medusa still has as pending (or errored) after the
 * grace period: the callback may have been lost and the customer may never come back.
 *
 * AltaPay is asked by Medusa's own session id (AltaPay's shop_orderid) and what it reserved is
 * compared with Medusa's own amount and currency of the session, so no seal is needed: a session
 * sealed under a previous key is followed up like any other. A session carrying an order edit's kept
 * reservation is asked for by the original's shop_orderid and that transaction (session-payment.ts).
 *
 * - Paid at AltaPay (Medusa's amount and currency, the registration's terminal): Medusa's own
 *   payment processing runs, as the callback would have, so the cart completes into exactly one
 *   order, or a payment link's session is recorded on its order.
 * - Released, refunded or cancelled only on positive evidence: AltaPay states the reservation AND
 *   Medusa states that nothing will use it (the cart became an order with another payment, the
 *   cart or order is gone, the order's collection is paid by another session), seen on two runs
 *   at least the grace period apart. Then under the cart's and the payment's locks, the merchant
 *   is told, and the session is retired.
 * - Anything else (Medusa or AltaPay failed, AltaPay's answer is incomplete, the cart cannot
 *   complete, a reservation of another amount on a cart still open) is tried again with backoff,
 *   and after `jobs.maxAttempts` tries the merchant is told (admin notification) what to do.
 *   Never released for having failed, never silently.
 * - Never paid, and older than the session lifetime: the session is retired (Medusa deletes it,
 *   and the provider expires its AltaPay pages), so an old amount is never payable. Declined at
 *   AltaPay while an order waits on it: the merchant is told once first (declined-payments.ts).
 *
 * Each session is handled under a lock of its own, taken without waiting: a second server running
 * the same job skips what the first is doing, and finds it settled afterwards.
 */
import type { BigNumberInput, FilterablePaymentSessionProps, ILockingModule, IPaymentModuleService, Logger, MedusaContainer, RemoteQueryFunction } from "@medusajs/framework/types"
import { ContainerRegistrationKeys, Modules, PaymentSessionStatus } from "@medusajs/framework/utils"
import { deletePaymentSessionsWorkflow } from "@medusajs/medusa/core-flows"
import { CAPTURED_STATUSES, REFUNDED_STATUSES, minorToDecimal, statusIn, type GatewayTransaction } from "../../altapay"
import { toMinorUnits } from "../medusa-mapping/amounts"
import { recordConfirmedPayment } from "../callbacks/record-payment"
import { tellOfOutsideMovement } from "../callbacks/outside-movements"
import { acceptedTerminals } from "../registrations/options"
import { noteReconciler } from "../callbacks/reconciled-by"
import type { AltaPayRegistration } from "../registrations/registrations"
import { paymentLockKey } from "../scale-out/shared-state"
import { shopOrderIdToAsk } from "../medusa-mapping/shop-order-id"
import { PENDING_AUTHORIZATION, isOpenAtAltaPay, isPaidAtAltaPay, sessionStatusFor, type ExpectedReservation } from "../medusa-mapping/status"
import { SessionMemory } from "./attempts"
import { sessionAtAltaPay, sessionPayment } from "./session-payment"
import { tellOfDeclinedPayment } from "./declined-payments"
import { tellMerchant, type UnclaimedPayment } from "./merchant-notice"
import { RELEASE_REASON_TTL_SECONDS, forgetReleaseReason, releaseReasonKey, releaseReservation } from "./release"
import { nextBatch } from "./batches"
import { followUpStrandedSessions } from "./stranded-follow-up"
import { holdingLock } from "./medusa-lock"
import { isAltaPayOutage, messageOf, type RunReport } from "./run-report"
import { orderOfCart } from "../medusa-mapping/medusa-session"

/** pending_authorization: the order was placed while AltaPay's payment was open. */
// requires_more: a saved card's charge waiting on its 3-D Secure page, which the customer may leave.
const FOLLOWED: string[] = [PaymentSessionStatus.PENDING, PaymentSessionStatus.ERROR, PaymentSessionStatus.REQUIRES_MORE, ...(PENDING_AUTHORIZATION ? [PENDING_AUTHORIZATION] : [])]
/** The merchant was told once that a payment stays open past the session lifetime. */
const OPEN_TOLD_TTL_SECONDS = 35 * 24 * 60 * 60
/** How long to wait for a cart another completion holds. */
const CART_LOCK_WAIT_MS = 30_000
/** The longest a payment link lives (the admin route's limit): an order's session stays payable that long. */
const LINK_LIFETIME_MS = 30 * 24 * 60 * 60 * 1000

interface SessionRow {
  id: string
  status: string
  amount: BigNumberInput
  currency_code: string
  updated_at: string | Date
  data?: Record<string, unknown> | null
  payment?: { id: string } | null
  payment_collection?: {
    id: string
    status?: string
    cart?: { id: string; email?: string | null } | null
    order?: { id: string; status?: string; email?: string | null } | null
  } | null
}

type Outcome =
  | "order placed"
  | "payment recorded"
  | "released"
  | "captured without order"
  | "expired"
  | "waiting"
  | "retried later"
  | "backing off"
  | "confirming unused"
  | "settled meanwhile"
  | "busy on another server"
  | "open at AltaPay"

/** A collection paid by another session (or given up): nothing will use this session's payment. */
const DONE_COLLECTION: unknown[] = ["authorized", "completed", "canceled"]

/** Why nothing will use the payment when the order's collection is done by another payment, else undefined. */
const paidByAnother = (collection: NonNullable<SessionRow["payment_collection"]>, order: string): string | undefined =>
  DONE_COLLECTION.includes(collection.status) ? `${order}: its payment collection ${collection.id} is ${collection.status} by another payment` : undefined

export async function followUpPaymentSessions(container: MedusaContainer, registration: AltaPayRegistration, now: Date, report: RunReport): Promise<void> {
  await new SessionFollowUp(container, registration, now, report).run()
  if (!report.stopped) await followUpStrandedSessions(container, registration, now, report)
}

class SessionFollowUp {
  private readonly query: Pick<RemoteQueryFunction, "graph">
  private readonly payments: IPaymentModuleService
  private readonly locking: ILockingModule
  private readonly logger: Logger
  private readonly memory: SessionMemory

  constructor(
    private readonly container: MedusaContainer,
    private readonly registration: AltaPayRegistration,
    private readonly now: Date,
    private readonly report: RunReport
  ) {
    this.query = container.resolve(ContainerRegistrationKeys.QUERY)
    this.payments = container.resolve<IPaymentModuleService>(Modules.PAYMENT)
    this.locking = container.resolve<ILockingModule>(Modules.LOCKING)
    this.logger = container.resolve<Logger>(ContainerRegistrationKeys.LOGGER)
    this.memory = new SessionMemory(registration.store)
  }

  async run(): Promise<void> {
    const { providerId, options } = this.registration
    const cutoff = new Date(this.now.getTime() - options.jobs.graceMinutes * 60_000)
    const ids = await nextBatch(this.registration.store, `sessions:${providerId}`, options.jobs.batchSize, async (skip, take) =>
      (
        await this.payments.listPaymentSessions(
          // `status` is a column of the model, though FilterablePaymentSessionProps does not list it.
          { provider_id: providerId, status: FOLLOWED, updated_at: { $lte: cutoff.toISOString() } } as FilterablePaymentSessionProps,
          { select: ["id"], skip, take, order: { updated_at: "ASC", id: "ASC" } }
        )
      ).map((s) => s.id)
    )
    this.report.looked(providerId, ids.length)
    await this.report.each("payment session", ids, async (id) => this.report.count(await this.followUp(id)))
  }

  /** One session, under its own lock (skipped when another server holds it). */
  private followUp(sessionId: string): Promise<Outcome> {
    return this.holding(`altapay:follow-up:session:${sessionId}`, 0, () => this.examine(sessionId), "busy on another server")
  }

  private async examine(sessionId: string): Promise<Outcome> {
    const session = await this.session(sessionId)
    if (!session || !FOLLOWED.includes(session.status) || session.payment?.id) return "settled meanwhile"
    if (await this.memory.backingOff(session.id, this.now)) return "backing off"
    const expected = this.expected(session)
    // AltaPay's shop_orderid is Medusa's own session id (in the form its data records): no seal needed
    // to ask, since only transactions naming this session count (shop-order-id.ts).
    const transaction = await this.paymentOf(session)
    const { status, reason, finding } = sessionStatusFor(transaction, expected)
    // Open: the acquirer has not concluded and AltaPay sets no time limit, so it is never retired.
    if (transaction && isOpenAtAltaPay(transaction)) return this.open(session, transaction)
    // Declined, its callback lost: an order waiting on it is the merchant's to hear of, before the session is retired.
    if (transaction) await tellOfDeclinedPayment(this.container, this.registration, session, transaction)
    if (!transaction || !(isPaidAtAltaPay(transaction) || status === PaymentSessionStatus.CANCELED)) return this.expired(session) ? this.expire(session) : "waiting"
    // An answer that does not say what was reserved is no evidence of anything: ask again later.
    if (finding === "unknown") return this.retryLater(session, transaction, reason!)
    if (status === PaymentSessionStatus.AUTHORIZED || status === PaymentSessionStatus.CAPTURED) return this.completeAsCallback(session, transaction)
    if (finding === "mismatch") return this.unusedOrRetry(session, transaction, reason!)
    if (status === PaymentSessionStatus.CANCELED) return this.reportReleased(session, transaction)
    return this.expired(session) ? this.expire(session) : "waiting"
  }

  /** Medusa's own amount and currency of the session, and the terminals this registration takes payments on. */
  private expected(session: SessionRow): ExpectedReservation {
    const currency = session.currency_code.toUpperCase()
    return { amountMinor: toMinorUnits(session.amount, currency), currency, terminals: acceptedTerminals(this.registration.options, currency) }
  }

  /** What AltaPay's callback would have triggered, with the session read again under the cart's lock (../callbacks/record-payment.ts). */
  private async completeAsCallback(session: SessionRow, transaction: GatewayTransaction): Promise<Outcome> {
    await noteReconciler(this.registration.store, session.id, "job")
    const cartId = session.payment_collection?.cart?.id
    const { outcome, error } = await recordConfirmedPayment(this.container, { id: session.id, cartId: cartId ?? null })
    // Deleted meanwhile: the provider noted it, and the retired sessions' follow-up takes its payment.
    if (outcome === "gone") return "settled meanwhile"
    if (await this.claimed(session.id, cartId)) {
      // Part captured, or refunded, in AltaPay's merchant interface before the payment was recorded: Medusa's books do not show it.
      if (movedBeforeRecorded(transaction)) {
        await tellOfOutsideMovement(this.container, this.registration, askedAs(session)).catch((error: unknown) =>
          this.logger.warn(
            `AltaPay follow-up: payment session ${session.id} was recorded, but AltaPay shows money moved in its merchant interface before that, and telling you failed (${messageOf(error)}): compare the order's AltaPay panel with AltaPay.`
          )
        )
      }
      return this.done(session, cartId ? "order placed" : "payment recorded")
    }
    // The cart could not complete (stock, the cart) or its lock stayed taken: the error says which.
    if (isAltaPayOutage(error)) throw error
    const failure = error ? messageOf(error) : "Medusa did not record the payment"
    return this.unusedOrRetry(session, transaction, `${this.target(session)} could not take the payment: ${failure}`)
  }

  /**
   * A paid session no order has taken: given back only when Medusa positively states that nothing
   * will use it, on two runs at least the grace period apart; else tried again later.
   */
  private async unusedOrRetry(session: SessionRow, transaction: GatewayTransaction, why: string): Promise<Outcome> {
    const unused = await this.unusedBecause(session)
    if (!unused) {
      await this.memory.stillUsed(session.id)
      return this.retryLater(session, transaction, why)
    }
    const since = await this.memory.unusedSince(session.id, transaction.transactionId, this.now)
    if (this.now.getTime() - since.getTime() < this.registration.options.jobs.graceMinutes * 60_000) return "confirming unused"
    return this.giveBack(session, transaction, `${unused} (${why})`)
  }

  /** Why Medusa states nothing will use this session's payment, or undefined when something still may. */
  private async unusedBecause(session: SessionRow): Promise<string | undefined> {
    const fresh = await this.session(session.id)
    if (!fresh || fresh.payment?.id) return undefined
    const collection = fresh.payment_collection
    const cartId = collection?.cart?.id
    if (cartId) {
      // An order of the cart that waits on its payment (a completion stopped before authorizing,
      // its lock still taken) is this payment's to take.
      const orderId = await this.orderOf(cartId)
      return orderId ? paidByAnother(collection!, `cart ${cartId} already became order ${orderId}`) : undefined
    }
    const order = collection?.order
    if (order) return order.status === "canceled" ? `order ${order.id} is canceled` : paidByAnother(collection!, `order ${order.id}`)
    return `the cart or order of payment collection ${collection?.id ?? "(none)"} is gone`
  }

  /** Not recorded yet: tried again with backoff; after `maxAttempts` tries the merchant is told, once. */
  private async retryLater(session: SessionRow, transaction: GatewayTransaction, why: string): Promise<Outcome> {
    const { intervalMinutes, retryMaxMinutes, maxAttempts } = this.registration.options.jobs
    const { attempts, tellNow } = await this.memory.failed(session.id, this.now, { intervalMinutes, retryMaxMinutes, maxAttempts })
    this.logger.warn(
      `AltaPay follow-up: payment session ${session.id} (${this.target(session)}) is paid but not recorded (try ${attempts.tries}): ${why}; tried again after ${attempts.next_at}.`
    )
    if (tellNow) await this.tell(session, transaction, "attention", why)
    return "retried later"
  }

  private async done(session: SessionRow, outcome: Outcome): Promise<Outcome> {
    await this.memory.stillUsed(session.id)
    return outcome
  }

  private target(session: SessionRow): string {
    const collection = session.payment_collection
    if (collection?.cart?.id) return `cart ${collection.cart.id}`
    if (collection?.order?.id) return `order ${collection.order.id}`
    return `payment collection ${collection?.id ?? "(none)"}`
  }

  /**
   * A payment nothing will use: released (captured money cannot be, and a person is told to
   * refund it), the merchant told why, the session retired. Under the cart's lock, so a
   * completion cannot authorize the session meanwhile; the release under the payment's lock.
   */
  private async giveBack(session: SessionRow, transaction: GatewayTransaction, why: string): Promise<Outcome> {
    const cartId = session.payment_collection?.cart?.id
    const run = async (): Promise<Outcome> => {
      const fresh = await this.session(session.id)
      // Authorized meanwhile: the reservation is a Medusa payment's, and only Medusa's cancel releases it.
      if (!fresh || fresh.payment?.id) return "settled meanwhile"
      // A captured status counts even when the answer leaves CapturedAmount out: releasing then would be refused, or free only the rest.
      const captured = (transaction.capturedAmount?.minor ?? 0) > 0 || statusIn(transaction.transactionStatus, [...CAPTURED_STATUSES, ...REFUNDED_STATUSES])
      if (!captured) {
        await this.registration.store.set(releaseReasonKey(transaction.transactionId), why, RELEASE_REASON_TTL_SECONDS).catch(() => undefined)
        await this.registration.scaleOut.paymentLock(paymentLockKey(transaction.transactionId), () => releaseReservation(this.registration, transaction))
      }
      await this.tell(session, transaction, captured ? "captured" : "released", why)
      await this.retire(session)
      return captured ? "captured without order" : "released"
    }
    // Medusa's own lock of the cart (the key its completion takes); still held after a while: next run.
    return cartId ? this.holding(cartId, CART_LOCK_WAIT_MS, run, "retried later") : run()
  }

  private holding(key: string, waitMs: number, job: () => Promise<Outcome>, busy: Outcome): Promise<Outcome> {
    return holdingLock(this.locking, key, waitMs, job, busy)
  }

  /** Released earlier (a run stopped after releasing, or someone released it in AltaPay): make sure the merchant knows. */
  private async reportReleased(session: SessionRow, transaction: GatewayTransaction): Promise<Outcome> {
    const why =
      (await this.registration.store.get<string>(releaseReasonKey(transaction.transactionId)).catch(() => undefined)) ??
      "AltaPay shows the reservation released and no order claims it"
    await this.tell(session, transaction, "released", why)
    await this.retire(session)
    return "released"
  }

  private async tell(session: SessionRow, transaction: GatewayTransaction, kind: UnclaimedPayment["kind"], why: string): Promise<void> {
    const currency = session.currency_code.toUpperCase()
    const reserved = transaction.reservedAmount
    const collection = session.payment_collection
    await tellMerchant(this.container, {
      kind,
      providerId: this.registration.providerId,
      sessionId: session.id,
      cartId: collection?.cart?.id ?? null,
      orderId: collection?.cart ? null : (collection?.order?.id ?? null),
      email: collection?.cart?.email ?? collection?.order?.email ?? null,
      transactionId: transaction.transactionId,
      // An open payment reserves nothing yet: the session's own amount then.
      amount:
        reserved && reserved.minor > 0 ? `${reserved.decimal} ${reserved.currency || currency}` : `${minorToDecimal(toMinorUnits(session.amount, currency), currency)} ${currency}`,
      why,
    })
    if (kind === "released") await forgetReleaseReason(this.registration.store, transaction.transactionId)
  }

  /** Medusa deletes the session; the provider's deletePayment expires its unpaid AltaPay pages. */
  private async retire(session: SessionRow): Promise<void> {
    await deletePaymentSessionsWorkflow(this.container).run({ input: { ids: [session.id] } })
  }

  /** Followed until AltaPay settles it; past the session lifetime the merchant is told, once. */
  private async open(session: SessionRow, transaction: GatewayTransaction): Promise<Outcome> {
    const key = `altapay:follow-up:open-told:${session.id}`
    if (this.expired(session) && !(await this.registration.store.get<boolean>(key).catch(() => undefined))) {
      await this.tell(session, transaction, "pending", `the payment is open at AltaPay (${transaction.transactionStatus}), and the bank or acquirer has not concluded it`)
      await this.registration.store.set(key, true, OPEN_TOLD_TTL_SECONDS).catch(() => undefined)
    }
    return "open at AltaPay"
  }

  /**
   * The session's payment at AltaPay: by its shop_orderid, or, for a purchase with a saved card
   * (whose charge keeps the agreement's shop_orderid), by the agreement's, where only a charge whose
   * transaction_info names this session counts; an order edit's carried reservation by the
   * original's shop_orderid and transaction. Unsealed data only says where to ask.
   */
  private paymentOf(session: SessionRow): Promise<GatewayTransaction | undefined> {
    return sessionPayment(this.registration.client, sessionAtAltaPay(session, this.registration.keys))
  }

  private async expire(session: SessionRow): Promise<Outcome> {
    // Asked again just before: paid (or open) now, the next run records it instead. A payment made
    // after this look-up is not lost either: the provider releases nothing when Medusa deletes the
    // session; it notes it, and the retired-session follow-up decides on two runs (stranded-follow-up.ts).
    const latest = await this.paymentOf(session)
    if (latest && (isPaidAtAltaPay(latest) || isOpenAtAltaPay(latest))) return "waiting"
    await this.retire(session)
    await this.memory.stillUsed(session.id)
    return "expired"
  }

  private expired(session: SessionRow): boolean {
    // A payment link for an order may be paid until it expires: its session lives at least as long.
    const forOrder = !!session.payment_collection?.order && !session.payment_collection.cart
    const lifetimeMs = Math.max(this.registration.options.jobs.sessionLifetimeMinutes * 60_000, forOrder ? LINK_LIFETIME_MS : 0)
    return this.now.getTime() - new Date(session.updated_at).getTime() >= lifetimeMs
  }

  /** The session has a Medusa payment, and for a cart, the cart an order. */
  private async claimed(sessionId: string, cartId: string | undefined): Promise<boolean> {
    const fresh = await this.session(sessionId)
    if (!fresh?.payment?.id) return false
    return !cartId || !!(await this.orderOf(cartId))
  }

  private async session(id: string): Promise<SessionRow | undefined> {
    const { data } = await this.query.graph({
      entity: "payment_session",
      fields: [
        "id",
        "status",
        "amount",
        "currency_code",
        "updated_at",
        "data",
        "payment.id",
        "payment_collection.id",
        "payment_collection.status",
        "payment_collection.cart.id",
        "payment_collection.cart.email",
        "payment_collection.order.id",
        "payment_collection.order.status",
        "payment_collection.order.email",
      ],
      filters: { id },
    })
    return data[0] as SessionRow | undefined
  }

  private orderOf(cartId: string): Promise<string | undefined> {
    return orderOfCart(this.query, cartId)
  }
}

/** AltaPay shows part of the payment captured, or some refunded: moved in its merchant interface when Medusa has not recorded the payment yet. */
const movedBeforeRecorded = (t: GatewayTransaction): boolean =>
  (t.refundedAmount?.minor ?? 0) > 0 || ((t.capturedAmount?.minor ?? 0) > 0 && (t.capturedAmount?.minor ?? 0) < (t.reservedAmount?.minor ?? 0))

/** The shop_orderid a session was created with: its data's order_id when that names it, else today's form. */
const askedAs = (session: SessionRow): string => shopOrderIdToAsk(session.id, session.data?.order_id)
