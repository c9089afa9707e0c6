/**
 * capturePayment: one capture at AltaPay, never twice, through the money door (lib/money-door): a
 * lost answer is settled by AltaPay's record, and a retry under a new capture id adopts an earlier
 * attempt AltaPay made instead of capturing again. Each carries a reconciliation identifier
 * derived from Medusa's capture id.
 */
import type { CapturePaymentInput } from "@medusajs/framework/types"
import { MedusaError } from "@medusajs/framework/utils"
import { z } from "zod"
import { AltaPayDeclinedError } from "../../altapay"
import { captureWindowClosed, paymentMethodOf } from "../../lib/payment-methods/methods"
import { toMedusaError } from "../../lib/medusa-mapping/errors"
import { happenedOn, recordedIn, transactionSubject, type TransactionRecord } from "../../lib/money-door/transaction-record"
import { orderLineSchema, type AltaPayPaymentData, type CaptureRecord } from "../../lib/payment-data/data"
import { withTransaction } from "../../lib/payment-data/transaction-state"
import { paymentLockKey } from "../../lib/scale-out/shared-state"
import { medusaCaptureAmount } from "./capture-amount"
import { captureLines, type CaptureLines } from "./capture-lines"
import type { ProviderContext } from "./context"
import { lostMovements } from "./lost-movements"
import { isOwnReconciliationId, reconciliationId } from "./reconciliation"
import { sessionIdFromOrderId } from "../../lib/medusa-mapping/shop-order-id"

export async function captureReservation(ctx: ProviderContext, input: CapturePaymentInput, data: AltaPayPaymentData, transactionId: string): Promise<{ data: AltaPayPaymentData }> {
  const captureId = input.context?.idempotency_key
  const reconciliationIdentifier = reconciliationId("capture", captureId)
  // A capture of ours whose answer was lost, folded in from AltaPay's record since, is not Medusa's yet:
  // this capture may be its retry, which adopts it through the door.
  const alreadyCaptured = (data.captured_minor ?? 0) - unansweredOwnMinor(data)
  if (alreadyCaptured >= data.amount_minor) return { data } // auto-capture, or captured before: never twice
  if (captureId && data.captures.some((c) => c.reconciliation_identifier === reconciliationIdentifier)) return { data }

  const method = paymentMethodOf(ctx.options)
  const closed = captureWindowClosed(method, data.authorized_at, Date.now())
  if (closed) throw new MedusaError(MedusaError.Types.NOT_ALLOWED, `AltaPay capture of ${data.order_id}: ${closed}`)
  const amountMinor = await captureAmount(ctx, data, captureId, data.amount_minor - alreadyCaptured)
  if (amountMinor <= 0) {
    ctx.logger?.warn(`AltaPay capture ${reconciliationIdentifier}: Medusa's capture rounds to nothing in ${data.currency}; nothing was sent.`)
    return { data }
  }
  if (method.partialCaptureByAgreement && alreadyCaptured + amountMinor < data.amount_minor) {
    ctx.logger?.warn(
      `AltaPay capture ${reconciliationIdentifier}: a partial ${method.name} capture works only where ${method.name} agreed it with you; AltaPay answers if it does not.`
    )
  }
  const chosen = await captureLines(ctx, data, amountMinor)
  const detail: CaptureDetail = { lines: chosen.lines, ...(chosen.items ? { items: chosen.items } : {}), ...(chosen.fulfillmentId ? { fulfillmentId: chosen.fulfillmentId } : {}) }
  try {
    return await ctx.door.move<TransactionRecord, { data: AltaPayPaymentData }>({
      kind: "capture",
      subject: transactionSubject(transactionId),
      lockKey: paymentLockKey(transactionId),
      attempt: { id: reconciliationIdentifier, amountMinor, currency: data.currency, key: captureId ?? null },
      lookFirst: false,
      recorded: (a) => recordedIn(data, a),
      look: async () => ({ transaction: await ctx.lookupOne(transactionId, "capture check") }),
      happened: happenedOn,
      adopt: (a, record) => {
        // What AltaPay captured is the attempt's lines and items; this request's pending lines are used up by it.
        const sent = a.detail ? captureDetailSchema.parse(a.detail) : detail
        const captured = withCapture(data, {
          captureId,
          reconciliationIdentifier: a.id,
          amountMinor: a.amountMinor,
          chosen: { lines: sent.lines, items: sent.items, fulfillmentId: sent.fulfillmentId, fromPending: chosen.fromPending },
        })
        return { data: withTransaction(captured, record.transaction) }
      },
      // AltaPay's own total before this capture: what shows, later, that this one was made.
      prepare: () => ({ beforeMinor: data.captured_minor ?? 0, detail: { ...detail }, send }),
    })
  } catch (error) {
    throw toMedusaError(error, "capture", ctx.logger)
  }

  async function send(): Promise<{ data: AltaPayPaymentData }> {
    try {
      const result = await ctx.client.gateway.captureReservation({
        transactionId,
        amountMinor,
        currency: data.currency,
        orderLines: chosen.lines,
        reconciliationIdentifier,
        ...(chosen.trackingInfo ? { trackingInfo: chosen.trackingInfo } : {}),
      })
      if (result.result === "Open") ctx.logger?.warn(`AltaPay capture ${reconciliationIdentifier} is Open: the open-results job follows it up.`)
      const captured = withCapture(data, { captureId, reconciliationIdentifier, amountMinor, chosen, status: result.result === "Open" ? "open" : undefined })
      return { data: withTransaction(captured, result.transaction) }
    } catch (error) {
      if (!(error instanceof AltaPayDeclinedError)) throw error
      // Declined because it is captured in full already (elsewhere, or auto-capture): AltaPay's state decides.
      const transaction = await ctx.lookupOne(transactionId, "capture check").catch(() => undefined)
      if (transaction && (transaction.capturedAmount?.minor ?? 0) >= data.amount_minor) return { data: withTransaction(data, transaction) }
      throw error
    }
  }
}

/** What an attempt sent, kept with it so a retry that adopts it records the capture in full. */
const captureDetailSchema = z.object({
  lines: z.array(orderLineSchema),
  items: z.array(z.object({ line_item_id: z.string(), quantity: z.number().int().positive() })).optional(),
  fulfillmentId: z.string().optional(),
})
type CaptureDetail = z.infer<typeof captureDetailSchema>

/**
 * Exactly what Medusa recorded for this capture (a partial capture from the admin), read through
 * `query`; without `query`, or when the capture cannot be found, what is left of the reservation.
 */
async function captureAmount(ctx: ProviderContext, data: AltaPayPaymentData, captureId: string | undefined, remainingMinor: number): Promise<number> {
  const read = await medusaCaptureAmount(ctx.query, sessionIdFromOrderId(data.order_id), captureId, data.currency).catch((error: unknown) => ({
    found: false as const,
    reason: error instanceof Error ? error.message : String(error),
  }))
  if (read.found) return Math.min(read.amountMinor, remainingMinor)
  ctx.logger?.warn(`AltaPay capture of ${data.order_id}: Medusa's capture amount could not be read (${read.reason}); capturing what is left of the reservation.`)
  return remainingMinor
}

interface CaptureSent {
  captureId: string | undefined
  reconciliationIdentifier: string
  amountMinor: number
  chosen: CaptureLines
  status?: "open"
}

/**
 * The newest data with the captures Medusa lost (lost-movements.ts) as a fold of AltaPay's record
 * keeps them, unanswered: this capture may be the retry, which adopts one through the door.
 */
export async function withoutLostCaptures(ctx: ProviderContext, newest: AltaPayPaymentData, stored: AltaPayPaymentData): Promise<AltaPayPaymentData> {
  const lost = await lostMovements(ctx.query, "capture", newest, stored)
  if (lost.size === 0) return newest
  ctx.logger?.warn(
    `AltaPay capture ${[...lost].join(", ")}: made at AltaPay, but Medusa did not keep its record; a capture of the same amount records it instead of sending it again.`
  )
  const unanswered = ({ reconciliation_identifier, amount_minor, created_at }: CaptureRecord): CaptureRecord => ({
    capture_id: null,
    reconciliation_identifier,
    amount_minor,
    created_at,
  })
  return { ...newest, captures: newest.captures.map((c) => (lost.has(c.reconciliation_identifier) ? unanswered(c) : c)) }
}

/**
 * Captures of ours that AltaPay's record showed and no answer of ours recorded (a lost answer, folded
 * in by a later read of the record): the fold keeps only the identifier and amount, never the lines.
 */
function unansweredOwnMinor(data: AltaPayPaymentData): number {
  return data.captures
    .filter((c) => c.capture_id === null && !c.order_lines && isOwnReconciliationId("capture", c.reconciliation_identifier))
    .reduce((sum, c) => sum + c.amount_minor, 0)
}

/**
 * The capture recorded with the lines and items it took, over the bare copy a fold of AltaPay's
 * record made of the same capture (one record per AltaPay capture); an item capture's pending lines are used up.
 */
function withCapture(data: AltaPayPaymentData, sent: CaptureSent): AltaPayPaymentData {
  const { chosen } = sent
  const folded = data.captures.find((c) => c.reconciliation_identifier === sent.reconciliationIdentifier)
  const record: CaptureRecord = {
    capture_id: sent.captureId ?? null,
    reconciliation_identifier: sent.reconciliationIdentifier,
    amount_minor: sent.amountMinor,
    order_lines: chosen.lines,
    ...(chosen.items ? { items: chosen.items } : {}),
    ...(chosen.fulfillmentId ? { fulfillment_id: chosen.fulfillmentId } : {}),
    ...(sent.status ? { status: sent.status } : {}),
    created_at: folded?.created_at ?? new Date().toISOString(),
  }
  return {
    ...data,
    ...(chosen.fromPending ? { pending_capture: null } : {}),
    captures: folded ? data.captures.map((c) => (c === folded ? record : c)) : [...data.captures, record],
  }
}
