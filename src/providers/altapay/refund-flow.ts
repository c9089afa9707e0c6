/**
 * A Medusa refund at AltaPay, never twice and never lost, through the money door (lib/money-door):
 * each refund carries a reconciliation identifier derived from Medusa's refund id; the payment is
 * looked up before sending (a retried call, the live refundable amount), an earlier attempt whose
 * answer was lost is adopted instead of refunding again, whatever id Medusa gave the retry.
 * However a refund is learned of (answered, found after a lost answer, adopted), it is recorded in
 * full: amount, lines, items, note and any return fee kept.
 */
import { MedusaError } from "@medusajs/framework/utils"
import type { Logger, RemoteQueryFunction } from "@medusajs/framework/types"
import { z } from "zod"
import { minorToDecimal, proportionalAdjustmentLine, type AltaPayClient, type GatewayTransaction, type OrderLine } from "../../altapay"
import { wholeItemsOnly } from "../../lib/item-captures/basis"
import { toMedusaError } from "../../lib/medusa-mapping/errors"
import type { Attempt } from "../../lib/money-door/attempts"
import type { MoneyDoor } from "../../lib/money-door/door"
import { happenedOn, recordedIn, totalMinor, transactionSubject, unrecordedRefunds, type TransactionRecord } from "../../lib/money-door/transaction-record"
import { sessionIdFromOrderId } from "../../lib/medusa-mapping/shop-order-id"
import type { AltaPayOptions } from "../../lib/registrations/options"
import { orderLineSchema, returnFeeSchema, type AltaPayPaymentData, type PendingRefund, type RefundRecord } from "../../lib/payment-data/data"
import { lostMovements, medusaMovementIds } from "./lost-movements"
import { reconciliationId } from "./reconciliation"
import { withTransaction } from "../../lib/payment-data/transaction-state"
import { paymentLockKey } from "../../lib/scale-out/shared-state"

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
type Query = Pick<RemoteQueryFunction, "graph">

/** What every identifier of ours starts with: `medusa-refund-<Medusa's refund id>`. */
const REFUND_PREFIX = reconciliationId("refund", "")

export class RefundFlow {
  constructor(
    private readonly client: AltaPayClient,
    private readonly options: AltaPayOptions,
    private readonly logger: Logger | undefined,
    private readonly lookupOne: Lookup,
    private readonly door: MoneyDoor,
    /** Medusa's `query`: whether a refund AltaPay shows still has its Medusa row (lostRefunds). */
    private readonly query?: Query
  ) {}

  /** The newest data without the refunds Medusa lost (lost-movements.ts): the retry adopts each through the door. */
  async withoutLost(newest: AltaPayPaymentData, stored: AltaPayPaymentData): Promise<AltaPayPaymentData> {
    const lost = await lostMovements(this.query, "refund", newest, stored)
    if (lost.size === 0) return newest
    this.logger?.warn(
      `AltaPay refund ${[...lost].join(", ")}: made at AltaPay, but Medusa did not keep its record; a refund of the same amount records it instead of sending it again.`
    )
    return { ...newest, refunds: newest.refunds.filter((r) => !lost.has(r.reconciliation_identifier)) }
  }

  async run({ data, transactionId, amountMinor, medusaAmount, refundId }: RefundRequest): Promise<{ data: AltaPayPaymentData }> {
    if (amountMinor <= 0) {
      throw new MedusaError(
        MedusaError.Types.INVALID_DATA,
        `AltaPay refund: ${medusaAmount ?? "the amount"} ${data.currency} rounds to no money to return (AltaPay refunds whole minor units; refunds are rounded half up as a running total). Nothing was sent.`
      )
    }
    const reconciliationIdentifier = reconciliationId("refund", refundId ?? undefined)
    // Item-level refunds leave their exact lines in data for this amount; they are used once.
    const pending = isPendingRefundFor(data.pending_refund, amountMinor) ? data.pending_refund! : undefined
    const consumed = (data: AltaPayPaymentData): AltaPayPaymentData => (pending ? { ...data, pending_refund: null } : data)
    const recordOf = (attempt: Attempt, orderLines: OrderLine[] | undefined, status: RefundRecord["status"], returnFee = pending?.return_fee): RefundRecord => ({
      refund_id: refundId,
      reconciliation_identifier: attempt.id,
      amount_minor: attempt.amountMinor,
      ...(medusaAmount !== undefined ? { medusa_amount: medusaAmount } : {}),
      status,
      created_at: new Date(attempt.at).toISOString(),
      ...(orderLines ? { order_lines: orderLines } : {}),
      ...(pending?.items ? { items: pending.items } : {}),
      ...(pending?.note ? { note: pending.note } : {}),
      ...(returnFee ? { return_fee: returnFee } : {}),
    })
    try {
      return await this.door.move<TransactionRecord, { data: AltaPayPaymentData }>({
        kind: "refund",
        subject: transactionSubject(transactionId),
        lockKey: paymentLockKey(transactionId),
        attempt: { id: reconciliationIdentifier, amountMinor, currency: data.currency, key: refundId },
        // Looked up first: a retried call may have gone through, and AltaPay's refundable amount is live.
        lookFirst: true,
        recorded: (a) => recordedIn(data, a),
        look: async () => ({ transaction: await this.lookupOne(transactionId, "refund check") }),
        happened: happenedOn,
        unrecordedOn: (record, held) => lostRefunds(this.query, data, record, held),
        adopt: (a, record) => {
          // The lines and fee are what AltaPay got; the items and note are what this refund is for, else the attempt's.
          const sent = refundDetailSchema.safeParse(a.detail ?? {})
          const attempted = sent.success ? sent.data : {}
          const adopted = {
            ...recordOf(a, attempted.order_lines, "succeeded", attempted.return_fee),
            ...(pending ? {} : pickDefined({ items: attempted.items, note: attempted.note })),
          }
          return { data: consumed(recorded(data, record.transaction, adopted)) }
        },
        prepare: (record) => {
          const current = withTransaction(data, record?.transaction)
          const refundable = (current.captured_minor ?? 0) - (current.refunded_minor ?? 0)
          if (amountMinor > refundable && !this.options.allowOverRefund) {
            throw new MedusaError(
              MedusaError.Types.INVALID_DATA,
              `AltaPay refund: ${formatMinor(amountMinor, data.currency)} is more than the ${formatMinor(Math.max(refundable, 0), data.currency)} still refundable (captured ${formatMinor(current.captured_minor ?? 0, data.currency)}, refunded ${formatMinor(current.refunded_minor ?? 0, data.currency)}). Nothing was sent.`
            )
          }
          const orderLines = pending?.order_lines ?? refundLines(current, amountMinor, wholeItemsOnly(current, this.options))
          const detail: RefundDetail = { order_lines: orderLines, ...pickDefined({ items: pending?.items, note: pending?.note, return_fee: pending?.return_fee }) }
          return {
            beforeMinor: totalMinor(record?.transaction, "refunded"),
            detail,
            send: async () => {
              const result = await this.client.gateway.refundCapturedReservation({
                transactionId,
                amountMinor,
                currency: data.currency,
                reconciliationIdentifier,
                orderLines,
                // A return fee the shop keeps (Klarna): AltaPay deducts it from the lines, which total the amount and the fee.
                ...(pending?.return_fee ? { returnFee: pending.return_fee } : {}),
                ...(this.options.allowOverRefund ? { allowOverRefund: true } : {}),
              })
              const status = result.result === "Open" ? ("open" as const) : ("succeeded" as const)
              if (status === "open") this.logger?.warn(`AltaPay refund ${reconciliationIdentifier} is Open: it settles when AltaPay reports it.`)
              return {
                data: consumed(recorded(current, result.transaction, recordOf({ id: reconciliationIdentifier, amountMinor, at: Date.now() } as Attempt, orderLines, status))),
              }
            },
          }
        },
      })
    } catch (error) {
      throw toMedusaError(error, "refund", this.logger)
    }
  }
}

/**
 * Refunds of ours AltaPay shows that neither the data nor the attempt book accounts for, as earlier
 * attempts whose answer was lost (their amount from AltaPay's record): Medusa deleted the row of a
 * refund whose provider call threw. One whose row Medusa still has is being made by another server
 * right now and is left alone. When Medusa cannot be asked it refuses: nothing is sent.
 */
async function lostRefunds(query: Query | undefined, data: AltaPayPaymentData, record: TransactionRecord, held: ReadonlySet<string>): Promise<Attempt[]> {
  const found = unrecordedRefunds(record, data, REFUND_PREFIX, held)
  if (found.length === 0) return []
  const refuse = (why: string) =>
    new MedusaError(
      MedusaError.Types.NOT_ALLOWED,
      `AltaPay refund: AltaPay shows refund ${found.map((r) => r.id).join(", ")}, which this payment's data does not record, and ${why}. Nothing was sent; try again in a moment.`
    )
  let medusa: Set<string>
  try {
    medusa = await medusaMovementIds(query, "refund", sessionIdFromOrderId(data.order_id))
  } catch (error) {
    throw refuse(`Medusa could not be asked whether it is a refund still being made (${error instanceof Error ? error.message : String(error)})`)
  }
  return found
    .filter((r) => !medusa.has(r.id.slice(REFUND_PREFIX.length)))
    .map((r) => {
      if (!r.amount) throw refuse("AltaPay does not say its amount")
      return { kind: "refund", id: r.id, amountMinor: r.amount.minor, currency: data.currency, key: r.id.slice(REFUND_PREFIX.length), at: r.date?.getTime() ?? Date.now() }
    })
}

/** What a refund attempt sent and was for, kept with it so a refund that adopts it records it in full. */
const refundDetailSchema = z.object({
  order_lines: z.array(orderLineSchema).optional(),
  items: z.array(z.object({ line_item_id: z.string(), quantity: z.number().int().positive() })).optional(),
  note: z.string().optional(),
  return_fee: returnFeeSchema.optional(),
})
type RefundDetail = z.infer<typeof refundDetailSchema>

function pickDefined<T extends Record<string, unknown>>(values: T): Partial<T> {
  return Object.fromEntries(Object.entries(values).filter(([, v]) => v !== undefined)) as Partial<T>
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

/**
 * The lines of a refund by amount (Refund items sends its own). Full refund of an untouched payment:
 * its own lines. Anything else on a card: one line splitting the amount like the goods' net and tax
 * (credit lines paid part of the bill and do not change the split). An invoice payment (Klarna)
 * refuses a line it did not reserve, so it gets none: AltaPay's goodwill refund of the amount ("Refund
 * a Klarna payment": order lines "Leave blank for goodwill refunds").
 */
function refundLines(data: AltaPayPaymentData, amountMinor: number, invoice: boolean): OrderLine[] | undefined {
  const untouched = (data.refunded_minor ?? 0) === 0 && (data.captured_minor ?? 0) === data.amount_minor
  if (untouched && amountMinor === data.amount_minor) return data.order_lines
  if (invoice) return undefined
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
  return `${minorToDecimal(minor, currency)} ${currency}`
}
