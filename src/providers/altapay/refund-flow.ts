/**
 * A Medusa refund at AltaPay, never twice and never lost. AltaPay has no idempotency key, so each
 * refund carries a reconciliation identifier derived from Medusa's refund id; the payment is looked
 * up before sending (a retried call, live refundable amount) and again after any lost answer.
 * Attempts whose outcome stayed unknown are remembered, and the next refund of the payment first
 * asks AltaPay whether they happened (adopting one instead of refunding again). However a refund is
 * learned of (answered, found after a lost answer, adopted), it is recorded in full: amount, lines,
 * items and note. The caller holds the payment's lock: the before/after comparisons rely on it.
 */
import { MedusaError } from "@medusajs/framework/utils"
import type { Logger } from "@medusajs/framework/types"
import { AltaPayError, proportionalAdjustmentLine, type AltaPayClient, type GatewayTransaction, type OrderLine } from "../../altapay"
import { toBigNumber } from "../../lib/medusa-mapping/amounts"
import { toMedusaError } from "../../lib/medusa-mapping/errors"
import type { AltaPayOptions } from "../../lib/registrations/options"
import type { AltaPayPaymentData, PendingRefund, RefundRecord } from "../../lib/payment-data/data"
import { reconciliationId } from "./reconciliation"
import { hasReconciliation, withTransaction } from "../../lib/payment-data/transaction-state"
import type { SharedStore } from "../../lib/scale-out/shared-state"
import { UncertainRefunds } from "./uncertain-refunds"

export interface RefundRequest {
  data: AltaPayPaymentData
  transactionId: string
  amountMinor: number
  /** Medusa's exact amount for this refund (major units), kept so later refunds round their running total. */
  medusaAmount?: string
  /** Medusa's refund id (the idempotency key). */
  refundId: string | null
}

type Lookup = (transactionId: string, action: string) => Promise<GatewayTransaction | undefined>

export class RefundFlow {
  private readonly uncertainRefunds: UncertainRefunds

  constructor(
    private readonly client: AltaPayClient,
    private readonly options: AltaPayOptions,
    private readonly logger: Logger | undefined,
    private readonly lookupOne: Lookup,
    store?: SharedStore
  ) {
    this.uncertainRefunds = new UncertainRefunds(store)
  }

  async run({ data, transactionId, amountMinor, medusaAmount, refundId }: RefundRequest): Promise<{ data: AltaPayPaymentData }> {
    if (amountMinor <= 0) {
      throw new MedusaError(
        MedusaError.Types.INVALID_DATA,
        `AltaPay refund: ${medusaAmount ?? "the amount"} ${data.currency} rounds to no money to return (AltaPay refunds whole minor units; refunds are rounded half up as a running total). Nothing was sent.`
      )
    }
    const reconciliationIdentifier = reconciliationId("refund", refundId ?? undefined)

    // Look first: a refund with this identifier may already have gone through (a retried call).
    const before = await this.lookupOne(transactionId, "refund check")
    const current = withTransaction(data, before)
    if (hasReconciliation(before, reconciliationIdentifier, "refunded")) return { data: current }
    // Item-level refunds leave their exact lines in data for this amount; they are used once.
    const pending = isPendingRefundFor(current.pending_refund, amountMinor) ? current.pending_refund! : undefined
    const consumed = (data: AltaPayPaymentData): AltaPayPaymentData => (pending ? { ...data, pending_refund: null } : data)
    const adopted = await this.adoptUncertainRefund(transactionId, before, amountMinor)
    if (adopted) {
      this.logger?.warn(
        `AltaPay refund ${adopted.reconciliation_identifier} had gone through without an answer; recorded now as Medusa refund ${refundId ?? "(no id)"} instead of refunding again.`
      )
      // The lines are what AltaPay got; the items and note are what this refund is for, else the attempt's.
      const record: RefundRecord = {
        ...adopted,
        refund_id: refundId,
        ...(pending?.items ? { items: pending.items } : {}),
        ...(pending?.note ? { note: pending.note } : {}),
      }
      return { data: consumed({ ...current, refunds: withRefundRecord(data.refunds, current.refunds, record) }) }
    }

    const refundable = (current.captured_minor ?? 0) - (current.refunded_minor ?? 0)
    if (amountMinor > refundable && !this.options.allowOverRefund) {
      throw new MedusaError(
        MedusaError.Types.INVALID_DATA,
        `AltaPay refund: ${formatMinor(amountMinor, data.currency)} is more than the ${formatMinor(Math.max(refundable, 0), data.currency)} still refundable (captured ${formatMinor(current.captured_minor ?? 0, data.currency)}, refunded ${formatMinor(current.refunded_minor ?? 0, data.currency)}). Nothing was sent.`
      )
    }
    const orderLines = pending?.order_lines ?? refundLines(current, amountMinor)
    const record: RefundRecord = {
      refund_id: refundId,
      reconciliation_identifier: reconciliationIdentifier,
      amount_minor: amountMinor,
      ...(medusaAmount !== undefined ? { medusa_amount: medusaAmount } : {}),
      status: "succeeded",
      created_at: new Date().toISOString(),
      order_lines: orderLines,
      ...(pending?.items ? { items: pending.items } : {}),
      ...(pending?.note ? { note: pending.note } : {}),
    }
    try {
      const result = await this.client.gateway.refundCapturedReservation({
        transactionId,
        amountMinor,
        currency: data.currency,
        reconciliationIdentifier,
        orderLines,
        ...(this.options.allowOverRefund ? { allowOverRefund: true } : {}),
      })
      const status = result.result === "Open" ? ("open" as const) : ("succeeded" as const)
      if (status === "open") this.logger?.warn(`AltaPay refund ${reconciliationIdentifier} is Open: it settles when AltaPay reports it.`)
      return { data: consumed(recorded(current, result.transaction, { ...record, status })) }
    } catch (error) {
      if (error instanceof AltaPayError && error.mayHaveReachedAltaPay) {
        const after = await this.lookupOne(transactionId, "refund reconciliation").catch(() => undefined)
        if (after && hasReconciliation(after, reconciliationIdentifier, "refunded")) {
          this.logger?.warn(`AltaPay refund ${reconciliationIdentifier}: the answer was lost but AltaPay shows the refund; recorded once.`)
          return { data: consumed(recorded(current, after, record)) }
        }
        if (after && refundedMinor(after) - refundedMinor(before) === amountMinor) {
          // Refunds of this payment are serialized (the caller holds its lock), so exactly this
          // much more refunded is this attempt, even where AltaPay did not keep the identifier.
          this.logger?.warn(`AltaPay refund ${reconciliationIdentifier}: the answer was lost; AltaPay's refunded amount grew by exactly this refund, so it is recorded once.`)
          return { data: consumed(recorded(current, after, record)) }
        }
        // Not seen (yet): a slow AltaPay may still complete it, so the next refund checks again first.
        await this.uncertainRefunds.remember(transactionId, {
          reconciliationIdentifier,
          amountMinor,
          refundedBeforeMinor: refundedMinor(before),
          record: { order_lines: orderLines, ...(record.items ? { items: record.items } : {}), ...(record.note ? { note: record.note } : {}) },
        })
        throw new MedusaError(
          MedusaError.Types.UNEXPECTED_STATE,
          after
            ? `AltaPay refund ${reconciliationIdentifier}: no answer from AltaPay (${error.message}), and AltaPay shows no such refund yet. Trying again is safe: the plugin checks AltaPay for this attempt before sending another.`
            : `AltaPay refund ${reconciliationIdentifier}: no answer from AltaPay and the payment could not be checked. The refund may have been made: trying again is safe (the plugin checks AltaPay for this attempt first), or look for reconciliation identifier ${reconciliationIdentifier} in AltaPay.`
        )
      }
      throw toMedusaError(error, "refund", this.logger)
    }
  }

  /**
   * An earlier refund of this amount whose answer was lost and which AltaPay shows as done: the
   * record to attribute to the refund being asked for now. Attempts AltaPay never made are forgotten.
   */
  private async adoptUncertainRefund(transactionId: string, transaction: GatewayTransaction | undefined, amountMinor: number): Promise<RefundRecord | undefined> {
    for (const attempt of await this.uncertainRefunds.list(transactionId)) {
      const happened =
        hasReconciliation(transaction, attempt.reconciliationIdentifier, "refunded") ||
        (transaction !== undefined && refundedMinor(transaction) - attempt.refundedBeforeMinor === attempt.amountMinor)
      if (!happened) {
        // A request AltaPay may still be working on: refunding again now could refund twice.
        const waitMs = attempt.at + 2 * this.options.headersTimeoutMs - Date.now()
        if (waitMs > 0) {
          // NOT_ALLOWED, not CONFLICT: Medusa's error handler replaces a CONFLICT's message.
          throw new MedusaError(
            MedusaError.Types.NOT_ALLOWED,
            `AltaPay refund: an earlier refund attempt (${attempt.reconciliationIdentifier}) got no answer and AltaPay does not show it yet, so nothing was sent. Try again in ${Math.ceil(waitMs / 1000)} s.`
          )
        }
        await this.uncertainRefunds.settle(transactionId, attempt.reconciliationIdentifier)
        continue
      }
      if (attempt.amountMinor === amountMinor) {
        await this.uncertainRefunds.settle(transactionId, attempt.reconciliationIdentifier)
        return {
          refund_id: null,
          reconciliation_identifier: attempt.reconciliationIdentifier,
          amount_minor: amountMinor,
          status: "succeeded",
          created_at: new Date(attempt.at).toISOString(),
          ...attempt.record,
        }
      }
    }
    return undefined
  }
}

/** `data` with AltaPay's live figures and this refund's record (see withRefundRecord). */
function recorded(data: AltaPayPaymentData, transaction: GatewayTransaction | undefined, record: RefundRecord): AltaPayPaymentData {
  const folded = withTransaction(data, transaction)
  return { ...folded, refunds: withRefundRecord(data.refunds, folded.refunds, record) }
}

/**
 * Puts a refund's full record into `refunds` (AltaPay's view folded into `known`): over the bare
 * copy the fold added for the same refund, found by identifier or, where AltaPay did not keep
 * ours, as the one new refunded identifier of this amount (then that identifier is kept).
 */
function withRefundRecord(known: RefundRecord[], refunds: RefundRecord[], record: RefundRecord): RefundRecord[] {
  const same = refunds.findIndex((r) => r.reconciliation_identifier === record.reconciliation_identifier)
  if (same >= 0) return refunds.map((r, i) => (i === same ? { ...record, status: r.status === "succeeded" ? "succeeded" : record.status } : r))
  const knownIds = new Set(known.map((r) => r.reconciliation_identifier))
  const added = refunds.findIndex((r) => !knownIds.has(r.reconciliation_identifier) && r.refund_id === null && r.amount_minor === record.amount_minor)
  if (added >= 0) return refunds.map((r, i) => (i === added ? { ...record, reconciliation_identifier: r.reconciliation_identifier, status: r.status } : r))
  return [...refunds, record]
}

function refundedMinor(transaction: GatewayTransaction | undefined): number {
  return transaction?.refundedAmount?.minor ?? 0
}

/**
 * Full refund of an untouched payment: its own lines. Anything else: one line splitting the amount
 * like the goods' net and tax (credit lines paid part of the bill and do not change the split).
 */
function refundLines(data: AltaPayPaymentData, amountMinor: number): OrderLine[] {
  const untouched = (data.refunded_minor ?? 0) === 0 && (data.captured_minor ?? 0) === data.amount_minor
  if (untouched && amountMinor === data.amount_minor) return data.order_lines
  return proportionalAdjustmentLine(data.order_lines, amountMinor, { itemId: "refund", description: "Refund" })
}

const PENDING_REFUND_MAX_AGE_MS = 15 * 60 * 1000

/** A stale pending refund (its workflow failed long ago) must not shape an unrelated refund. */
function isPendingRefundFor(pending: PendingRefund | null | undefined, amountMinor: number): boolean {
  if (!pending || pending.amount_minor !== amountMinor) return false
  const ageMs = Date.now() - Date.parse(pending.requested_at)
  return ageMs >= 0 && ageMs < PENDING_REFUND_MAX_AGE_MS
}

function formatMinor(minor: number, currency: string): string {
  return `${toBigNumber(minor, currency).toString()} ${currency}`
}
