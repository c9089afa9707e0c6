/**
 * The one door every money movement goes through: captures, refunds, releases, a customer's charge
 * on a saved card and a merchant's charge. AltaPay has no idempotency key, and Medusa hands a retry
 * a new key (it deletes a capture or refund row whose provider call threw, medusajs/medusa#16292,
 * #16681), so the door does not rely on keys:
 *
 * 1. Under the subject's lock, it reads the attempts it sent on the subject and has not seen
 *    recorded (attempts.ts).
 * 2. Any such attempt, or a road that decides on AltaPay's record anyway, makes it ask AltaPay
 *    first. An earlier attempt AltaPay shows done is adopted by the same movement (never sent
 *    again), refuses a movement of another amount (Medusa has no record of it: the message says
 *    how to record it), and otherwise stays for the follow-up job. One AltaPay does not show yet
 *    refuses every movement for twice the answer timeout: AltaPay may still be working on it.
 *    A road that looked first may also name earlier attempts of its own the book does not hold
 *    (unrecordedOn): the same rules apply to them.
 * 3. It records the new attempt (the one cache write a movement costs) and sends it.
 * 4. A lost answer is settled by AltaPay's record when AltaPay can be asked; otherwise the attempt
 *    is marked uncertain and the movement fails with "trying again is safe". A refusal that surely
 *    never reached AltaPay forgets the attempt (a road's `retryUnsent` keeps a passing failure's
 *    for the follow-up job).
 *
 * The roads (capture, refund, ... beside their hooks) keep only what differs between them: how
 * AltaPay's record is read, what shows an attempt happened, what is sent and what is answered.
 */
import type { Logger } from "@medusajs/framework/types"
import { MedusaError } from "@medusajs/framework/utils"
import { AltaPayError, minorToDecimal } from "../../altapay"
import { customerMessageCode } from "../languages/customer-messages"
import { ALTAPAY_UNREACHABLE } from "../medusa-mapping/errors"
import type { Lock, ScaleOut } from "../scale-out/shared-state"
import { AttemptBook, UncertainIndex, sessionSubject, type Attempt, type MoneyKind } from "./attempts"

export interface Road<Record, Answer> {
  kind: MoneyKind
  /** What one money decision is about, e.g. `transaction:<id>`: attempts are kept per subject. */
  subject: string
  /** The lock under which the subject's decisions are made (re-entrant: a caller may hold it already). */
  lockKey: string
  /** This movement: what AltaPay will know it by, and for how much. */
  attempt: Pick<Attempt, "id" | "amountMinor" | "currency" | "key">
  /** The road decides on AltaPay's record even with nothing uncertain (it reads it before sending anyway). */
  lookFirst: boolean
  /** Whether the road's own data already records an attempt (answered earlier): no AltaPay call needed. */
  recorded(attempt: Attempt): boolean
  /** AltaPay's record of the subject; throws when AltaPay cannot be asked. */
  look(): Promise<Record>
  /** Whether AltaPay's record shows the attempt went through. */
  happened(record: Record, attempt: Attempt): boolean
  /**
   * The answer for a movement AltaPay already made: this one, found before sending (a retried call)
   * or after its answer was lost, or an earlier attempt this movement adopts.
   */
  adopt(attempt: Attempt, record: Record, found: Found): Answer | Promise<Answer>
  /**
   * What is sent, given AltaPay's record when it was read first; it may still refuse (nothing is
   * recorded or sent then). Its `beforeMinor` and `detail` are recorded with the attempt.
   */
  prepare(record: Record | undefined): Prepared<Answer> | Promise<Prepared<Answer>>
  /**
   * Earlier attempts of this road that AltaPay's record shows made, that the road's data does not
   * record and the book does not hold (`held`: the ids it holds): the book was not seen (another
   * server's memory, a restarted or evicted cache). Asked only when the road looked first; throws to
   * refuse (nothing sent) when it cannot tell.
   */
  unrecordedOn?(record: Record, held: ReadonlySet<string>): Attempt[] | Promise<Attempt[]>
  /**
   * A movement that surely never reached AltaPay for a passing reason (no answer, a 5xx) stays on
   * record for the follow-up job to make, where the caller's Medusa flow goes on without it.
   */
  retryUnsent?: boolean
}

export type Found = "before sending" | "after a lost answer" | "earlier attempt"

export type Prepared<Answer> =
  | (Pick<Attempt, "beforeMinor" | "detail"> & {
      /** The money call itself. */
      send(): Promise<Answer>
    })
  /** AltaPay's record decided: nothing is sent, and nothing recorded. */
  | { answer: Answer }

export interface DoorOptions {
  /** Where attempts are kept: Medusa's cache module, shared by every server; else this process. */
  book: AttemptBook
  lock: Lock
  /** How long AltaPay may take to answer: an attempt it does not show blocks others for twice this. */
  headersTimeoutMs: number
  logger?: Pick<Logger, "warn" | "error">
}

const NAMES: Record<MoneyKind, string> = {
  capture: "capture",
  refund: "refund",
  release: "release",
  charge: "saved-card charge",
  "merchant-charge": "charge",
  "order-update": "order update",
}

/** AltaPay failures that pass: the same call later may go through (not a refusal, nor a wrong set-up). */
const PASSING = new Set<AltaPayError["code"]>(["http", "timeout", "network"])

export class MoneyDoor {
  private readonly uncertain: UncertainIndex

  constructor(private readonly options: DoorOptions) {
    this.uncertain = new UncertainIndex(options.book.store, options.lock)
  }

  move<R, A>(road: Road<R, A>): Promise<A> {
    return this.options.lock(road.lockKey, () => this.decideAndSend(road))
  }

  private async decideAndSend<R, A>(road: Road<R, A>): Promise<A> {
    const { book, logger } = this.options
    const name = NAMES[road.kind]
    const stored = await book.list(road.subject).catch((error: unknown) => {
      throw notAskable(`AltaPay ${name}: the plugin could not read its record of earlier attempts (${message(error)})`)
    })
    const open = stored.filter((a) => !road.recorded(a))
    let me: Attempt = { ...road.attempt, kind: road.kind, at: Date.now() }
    let record: R | undefined
    if (road.lookFirst || open.length > 0) {
      try {
        record = await road.look()
      } catch (error) {
        if (open.length === 0) throw error
        throw notAskable(`AltaPay ${name}: an earlier attempt on this payment got no answer and AltaPay cannot be asked about it now (${message(error)})`)
      }
    }
    const kept: Attempt[] = []
    if (record !== undefined) {
      if (road.happened(record, me)) return road.adopt(me, record, "before sending") // a retried call AltaPay already made
      for (const earlier of open) {
        if (road.happened(record, earlier)) {
          if (earlier.kind === me.kind && earlier.amountMinor === me.amountMinor) {
            await book
              .save(
                road.subject,
                open.filter((a) => a !== earlier)
              )
              .catch(() => undefined)
            logger?.warn(`AltaPay ${name} ${earlier.id} had gone through without an answer; recorded now as ${me.key ?? "this request"} instead of sending it again.`)
            return road.adopt(earlier, record, "earlier attempt")
          }
          if (earlier.kind === me.kind) throw unrecordedEarlier(name, earlier)
          kept.push(earlier) // another kind of movement (a capture seen while refunding): the follow-up records it
          continue
        }
        const waitMs = earlier.unsent ? 0 : earlier.at + 2 * this.options.headersTimeoutMs - Date.now()
        // NOT_ALLOWED, not CONFLICT: Medusa's error handler replaces a CONFLICT's message.
        if (waitMs > 0) {
          throw new MedusaError(
            MedusaError.Types.NOT_ALLOWED,
            `AltaPay ${name}: an earlier ${NAMES[earlier.kind]} (${earlier.id}) got no answer and AltaPay does not show it yet, so nothing was sent. Try again in ${Math.ceil(waitMs / 1000)} s.`,
            customerMessageCode("earlier_attempt_pending")
          )
        }
        // AltaPay never made it (and has had time to): forgotten.
      }
      if (road.lookFirst && road.unrecordedOn) {
        // The same rules for an attempt the book lost, rebuilt from AltaPay's record (no extra call).
        const held = new Set(stored.map((a) => a.id))
        const lost = (await road.unrecordedOn(record, held)).filter((a) => a.kind === me.kind && !held.has(a.id) && !road.recorded(a))
        const same = lost.find((a) => a.amountMinor === me.amountMinor)
        if (same) {
          logger?.warn(
            `AltaPay ${name} ${same.id} had gone through without an answer (AltaPay shows it; the plugin had no record of it); recorded now as ${me.key ?? "this request"} instead of sending it again.`
          )
          return road.adopt(same, record, "earlier attempt")
        }
        if (lost[0]) throw unrecordedEarlier(name, lost[0])
      }
    }
    const plan = await road.prepare(record)
    if ("answer" in plan) {
      await book.save(road.subject, kept).catch(() => undefined)
      return plan.answer
    }
    me = { ...me, ...(plan.beforeMinor !== undefined ? { beforeMinor: plan.beforeMinor } : {}), ...(plan.detail ? { detail: plan.detail } : {}) }
    // The intent is on record before anything is sent: a retry with any key finds it.
    await book.save(road.subject, [...kept, me]).catch((error: unknown) => {
      throw notAskable(`AltaPay ${name}: the plugin could not record the attempt before sending it (${message(error)}); nothing was sent`)
    })
    try {
      return await plan.send()
    } catch (error) {
      if (!(error instanceof AltaPayError && error.mayHaveReachedAltaPay)) {
        // Surely not made: nothing to settle later, unless the road's caller goes on without it.
        const retry = road.retryUnsent && error instanceof AltaPayError && PASSING.has(error.code)
        await book.save(road.subject, retry ? [...kept, { ...me, uncertain: true, unsent: true }] : kept).catch(() => undefined)
        if (retry) await this.uncertain.note(road.subject).catch(() => undefined)
        throw error
      }
      const after = await road.look().then(
        (r) => ({ record: r }),
        () => undefined
      )
      if (after && road.happened(after.record, me)) {
        logger?.warn(`AltaPay ${name} ${me.id}: the answer was lost but AltaPay shows it; recorded once.`)
        return road.adopt(me, after.record, "after a lost answer")
      }
      // Its window runs from now: AltaPay may still be working on it, however long finding out took.
      await book.save(road.subject, [...kept, { ...me, uncertain: true, at: Date.now() }]).catch(() => undefined)
      if (!road.subject.startsWith(sessionSubject(""))) await this.uncertain.note(road.subject).catch(() => undefined)
      const what = `AltaPay ${name} ${me.id} of ${amountOf(me)}`
      logger?.warn(
        `${what}: no answer (${error.message}); ${after ? "AltaPay does not show it yet" : "AltaPay could not be asked"}. The next movement on this payment asks AltaPay first.`
      )
      throw new MedusaError(
        MedusaError.Types.UNEXPECTED_STATE,
        after
          ? `${what}: no answer from AltaPay, and AltaPay shows no such ${name} yet. Trying again is safe: the plugin checks AltaPay for this attempt before sending another.`
          : `${what}: no answer from AltaPay and the payment could not be checked. It may have been made: trying again is safe (the plugin checks AltaPay for this attempt first), or look for reconciliation identifier ${me.id} in AltaPay.`,
        // AltaPay could not be asked: an outage to a follow-up run, which stops and tries next run.
        after ? undefined : ALTAPAY_UNREACHABLE
      )
    }
  }
}

function unrecordedEarlier(name: string, earlier: Attempt): MedusaError {
  const amount = amountOf(earlier)
  return new MedusaError(
    MedusaError.Types.NOT_ALLOWED,
    `AltaPay ${name}: an earlier ${name} of ${amount} (${earlier.id}) got no answer at the time, but AltaPay shows it made, and Medusa has no record of it. Nothing was sent: ${name} exactly ${amount} to record it (AltaPay is not asked to move money again), then the rest.`
  )
}

/** "40.00 DKK"; a currency AltaPay's answer did not name leaves the minor units. */
function amountOf(attempt: Attempt): string {
  try {
    return `${minorToDecimal(attempt.amountMinor, attempt.currency)} ${attempt.currency}`
  } catch {
    return `${attempt.amountMinor} (minor units)`
  }
}

function notAskable(what: string): MedusaError {
  return new MedusaError(MedusaError.Types.NOT_ALLOWED, `${what}. Nothing was sent; try again in a moment.`)
}

function message(error: unknown): string {
  return error instanceof Error ? error.message : String(error)
}

/** The door on the cache and locks the provider has (the routes and jobs get the same instances: registrations.ts). */
export function moneyDoorFor(scaleOut: Pick<ScaleOut, "store" | "paymentLock">, headersTimeoutMs: number, logger?: DoorOptions["logger"]): MoneyDoor {
  return new MoneyDoor({ book: new AttemptBook(scaleOut.store), lock: scaleOut.paymentLock, headersTimeoutMs, ...(logger ? { logger } : {}) })
}
