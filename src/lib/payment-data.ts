/**
 * What the provider keeps in Medusa's payment session / payment `data`: only what later hooks need
 * and what a merchant wants to see. Never a token, a password or a callback secret. The
 * storefront can put keys into session data, so every key we own is always written by us.
 */
import { MedusaError } from "@medusajs/framework/utils"
import { z } from "zod"
import { GOODS_TYPES, type OrderLine } from "../altapay"

export const orderLineSchema = z.object({
  description: z.string().min(1),
  itemId: z.string().min(1),
  quantity: z.number().positive(),
  unitPriceMinor: z.number().int(),
  taxAmountMinor: z.number().int(),
  taxPercent: z.number().min(0),
  goodsType: z.enum(GOODS_TYPES).optional(),
  discountPercent: z.number().optional(),
  unitCode: z.string().optional(),
  imageUrl: z.string().optional(),
  productUrl: z.string().optional(),
}) satisfies z.ZodType<OrderLine>

const refundRecordSchema = z.object({
  /** Medusa's refund id (the idempotency key), when the refund came through Medusa. */
  refund_id: z.string().nullable(),
  reconciliation_identifier: z.string(),
  amount_minor: z.number().int(),
  /** Medusa's exact refund amount (major units, e.g. "10.005"): later refunds round their running total from it. */
  medusa_amount: z.string().optional(),
  /** succeeded: money returned; open: AltaPay has not finished (settled by status reads or callbacks). */
  status: z.enum(["succeeded", "open"]),
  created_at: z.string(),
  order_lines: z.array(orderLineSchema).optional(),
  /** Order items this refund returned money for (item-level refunds), to track refundable quantities. */
  items: z.array(z.object({ line_item_id: z.string(), quantity: z.number().int().positive() })).optional(),
  note: z.string().optional(),
})
export type RefundRecord = z.infer<typeof refundRecordSchema>

export const pendingRefundSchema = z.object({
  amount_minor: z.number().int().positive(),
  order_lines: z.array(orderLineSchema).min(1),
  items: z.array(z.object({ line_item_id: z.string(), quantity: z.number().int().positive() })).optional(),
  note: z.string().optional(),
  requested_at: z.string(),
})
export type PendingRefund = z.infer<typeof pendingRefundSchema>

const captureRecordSchema = z.object({
  capture_id: z.string().nullable(),
  reconciliation_identifier: z.string(),
  amount_minor: z.number().int(),
  created_at: z.string(),
})
export type CaptureRecord = z.infer<typeof captureRecordSchema>

export const paymentDataSchema = z.looseObject({
  altapay_session_id: z.string().min(1),
  /** AltaPay's shop_orderid: the Medusa payment session id. */
  order_id: z.string().min(1),
  amount_minor: z.number().int().positive(),
  currency: z.string().length(3),
  terminal: z.string().nullable(),
  auto_capture: z.boolean(),
  order_lines: z.array(orderLineSchema),
  order_lines_source: z.enum(["store_route", "query", "summary"]),
  /** Where to send the customer (redirect flow). */
  redirect_url: z.string().nullable(),
  payment_id: z.string().nullable(),
  transaction_id: z.string().nullable(),
  transaction_status: z.string().nullable(),
  masked_pan: z.string().nullable(),
  card_scheme: z.string().nullable(),
  reserved_minor: z.number().int().nullable(),
  captured_minor: z.number().int().nullable(),
  refunded_minor: z.number().int().nullable(),
  failure_reason: z.string().nullable(),
  /**
   * When this provider told Medusa the session is authorized: from then on a Medusa Payment owns
   * the reservation, and only Medusa's cancel may release it.
   */
  authorized_at: z.string().nullish(),
  captures: z.array(captureRecordSchema),
  refunds: z.array(refundRecordSchema),
  /**
   * Lines for the next refund of exactly `amount_minor`, written by the admin item-refund route
   * just before it runs Medusa's refund workflow (Medusa passes only an amount to the provider).
   */
  pending_refund: pendingRefundSchema.nullish(),
})
export type AltaPayPaymentData = z.infer<typeof paymentDataSchema>

/** The stored data of a payment that has not been paid yet. */
export function freshPaymentData(
  fields: Pick<AltaPayPaymentData, "altapay_session_id" | "order_id" | "amount_minor" | "currency" | "terminal" | "auto_capture" | "order_lines" | "order_lines_source"> &
    Partial<Pick<AltaPayPaymentData, "redirect_url" | "payment_id">>
): AltaPayPaymentData {
  return {
    redirect_url: null,
    payment_id: null,
    transaction_id: null,
    transaction_status: null,
    masked_pan: null,
    card_scheme: null,
    reserved_minor: null,
    captured_minor: null,
    refunded_minor: null,
    failure_reason: null,
    authorized_at: null,
    captures: [],
    refunds: [],
    // Medusa merges the browser's session data under ours: nothing of theirs may shape a refund.
    pending_refund: null,
    ...fields,
  }
}

/** Reads `data` written by this provider; anything else is a clear error, not a crash later. */
export function readPaymentData(data: Record<string, unknown> | undefined, hook: string): AltaPayPaymentData {
  const parsed = paymentDataSchema.safeParse(data ?? {})
  if (!parsed.success) {
    const fields = [...new Set(parsed.error.issues.map((i) => i.path.join(".") || "data"))].join(", ")
    throw new MedusaError(
      MedusaError.Types.INVALID_DATA,
      `AltaPay ${hook}: the payment's data was not written by the AltaPay provider (bad or missing: ${fields}). Create a new AltaPay payment session.`
    )
  }
  return parsed.data
}

export function requireTransactionId(data: AltaPayPaymentData, hook: string): string {
  if (!data.transaction_id) {
    throw new MedusaError(
      MedusaError.Types.NOT_ALLOWED,
      `AltaPay ${hook}: the payment has no AltaPay transaction yet (the customer has not paid). Authorize it first.`
    )
  }
  return data.transaction_id
}
