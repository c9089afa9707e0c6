/**
 * An AltaPay payment as the admin routes and item captures need it: Medusa's payment (amounts, captures, refunds),
 * the provider's data, and the order it pays for with the fields the line builder reads.
 */
import type { MedusaContainer } from "@medusajs/framework/types"
import { ContainerRegistrationKeys, MathBN, MedusaError } from "@medusajs/framework/utils"
import { altapayProviderIds } from "../registrations/from-config"
import type { CartForLines } from "./cart-lines"
import { orderOfCollection, type OrderForLines } from "./order-of-session"
import { toMinorUnits } from "./amounts"
import { paymentDataSchema, type AltaPayPaymentData } from "../payment-data/data"

type Amount = NonNullable<CartForLines["total"]>

export { ORDER_FIELDS_FOR_LINES, type OrderForLines } from "./order-of-session"

export interface AltaPayPayment {
  id: string
  currency_code: string
  provider_id: string
  amount_minor: number
  captured_minor: number
  refunded_minor: number
  /** Medusa's amount less its captures, exactly (major units as decimal text): what a final capture asks Medusa for. */
  uncaptured_exact: string
  canceled_at: string | null
  data: AltaPayPaymentData
  /** `data` as stored, with its seal: what a writer verifies before acting on it. */
  raw_data?: Record<string, unknown>
  /** Medusa's refund records of this payment. */
  medusa_refunds: Array<{ id: string; amount_minor: number; note: string | null; created_at: string | null; created_by: string | null }>
  order: OrderForLines | undefined
}

interface PaymentRow {
  id: string
  currency_code: string
  provider_id: string
  amount: Amount
  raw_amount?: Amount | null
  canceled_at?: string | Date | null
  data?: Record<string, unknown> | null
  payment_collection_id?: string | null
  captures?: Array<{ amount: Amount; raw_amount?: Amount | null } | null> | null
  refunds?: Array<{ id: string; amount: Amount; note?: string | null; created_at?: string | Date | null; created_by?: string | null } | null> | null
}

/**
 * Loads payment `id`. Throws NOT_FOUND for an unknown payment and NOT_ALLOWED when it was not
 * made with one of this store's AltaPay registrations (or its data is not the provider's). Its
 * `provider_id` names the registration whose client, keys and locks act on it.
 */
export async function loadAltaPayPayment(container: MedusaContainer, id: string): Promise<AltaPayPayment> {
  const query = container.resolve(ContainerRegistrationKeys.QUERY)
  const { data: rows } = await query.graph({
    entity: "payment",
    fields: [
      "id",
      "currency_code",
      "provider_id",
      "amount",
      "raw_amount",
      "canceled_at",
      "data",
      "payment_collection_id",
      "captures.amount",
      "captures.raw_amount",
      "refunds.id",
      "refunds.amount",
      "refunds.note",
      "refunds.created_at",
      "refunds.created_by",
    ],
    filters: { id },
  })
  const payment = rows[0] as PaymentRow | undefined
  if (!payment) throw new MedusaError(MedusaError.Types.NOT_FOUND, `Payment ${id} was not found.`)
  const altapay = altapayProviderIds(container)
  if (!altapay.includes(payment.provider_id)) {
    throw new MedusaError(MedusaError.Types.NOT_ALLOWED, `Payment ${id} was made with ${payment.provider_id}, not with AltaPay (${altapay.join(", ") || "not configured"}).`)
  }
  const parsed = paymentDataSchema.safeParse(payment.data ?? {})
  if (!parsed.success) {
    throw new MedusaError(MedusaError.Types.NOT_ALLOWED, `Payment ${id} has no AltaPay data: it was not created by the AltaPay provider.`)
  }
  const currency = payment.currency_code
  const minor = (amount: Amount) => toMinorUnits(amount, currency)
  return {
    id: payment.id,
    currency_code: currency,
    provider_id: payment.provider_id,
    amount_minor: minor(payment.amount),
    // Totals rounded once, as the provider rounds captures and refunds (a running total).
    captured_minor: minor(MathBN.sum(0, ...(payment.captures ?? []).map((c) => c?.amount ?? 0))),
    refunded_minor: minor(MathBN.sum(0, ...(payment.refunds ?? []).map((r) => r?.amount ?? 0))),
    uncaptured_exact: MathBN.sub(payment.raw_amount ?? payment.amount, MathBN.sum(0, ...(payment.captures ?? []).map((c) => c?.raw_amount ?? c?.amount ?? 0))).toFixed(),
    canceled_at: iso(payment.canceled_at),
    data: parsed.data,
    raw_data: payment.data ?? {},
    medusa_refunds: (payment.refunds ?? []).flatMap((r) =>
      r ? [{ id: r.id, amount_minor: minor(r.amount), note: r.note ?? null, created_at: iso(r.created_at), created_by: r.created_by ?? null }] : []
    ),
    order: payment.payment_collection_id ? await orderOfCollection(query, payment.payment_collection_id) : undefined,
  }
}

function iso(value: string | Date | null | undefined): string | null {
  if (!value) return null
  return value instanceof Date ? value.toISOString() : value
}

/**
 * The order payment `id` pays for and the ids of its captures, when one of this store's AltaPay
 * registrations made it; undefined for another provider's payment, or one of no order.
 */
export async function altapayPaymentOrder(container: MedusaContainer, id: string): Promise<{ orderId: string; captureIds: string[] } | undefined> {
  const query = container.resolve(ContainerRegistrationKeys.QUERY)
  const { data } = await query.graph({ entity: "payment", fields: ["provider_id", "captures.id", "payment_collection.order.id"], filters: { id } })
  const payment = data[0] as { provider_id: string; captures?: Array<{ id: string }> | null; payment_collection?: { order?: { id: string } | null } | null } | undefined
  const orderId = payment?.payment_collection?.order?.id
  if (!payment || !orderId || !altapayProviderIds(container).includes(payment.provider_id)) return undefined
  return { orderId, captureIds: (payment.captures ?? []).map((capture) => capture.id) }
}
