/**
 * An AltaPay payment as the admin routes need it: Medusa's payment (amounts, captures, refunds),
 * the provider's data, and the order it pays for with the fields the line builder reads.
 */
import type { MedusaContainer } from "@medusajs/framework/types"
import { ContainerRegistrationKeys, MathBN, MedusaError } from "@medusajs/framework/utils"
import { altapayProviderIds } from "../../../../lib/registrations/from-config"
import { CART_FIELDS_FOR_LINES, type CartForLines } from "../../../../lib/medusa-mapping/cart-lines"
import { toMinorUnits } from "../../../../lib/medusa-mapping/amounts"
import { paymentDataSchema, type AltaPayPaymentData } from "../../../../lib/payment-data/data"

type Amount = NonNullable<CartForLines["total"]>

/** Orders carry items, shipping methods and credit lines under the same names as carts. */
export const ORDER_FIELDS_FOR_LINES = [...CART_FIELDS_FOR_LINES, "display_id", "items.detail.quantity"] // Medusa 2.12 returns order items.quantity only with this

export interface OrderForLines extends CartForLines {
  display_id?: number | null
  email?: string | null
}

export interface AltaPayPayment {
  id: string
  currency_code: string
  provider_id: string
  amount_minor: number
  captured_minor: number
  refunded_minor: number
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
  canceled_at?: string | Date | null
  data?: Record<string, unknown> | null
  payment_collection_id?: string | null
  captures?: Array<{ amount: Amount } | null> | null
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
      "canceled_at",
      "data",
      "payment_collection_id",
      "captures.amount",
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
    canceled_at: iso(payment.canceled_at),
    data: parsed.data,
    raw_data: payment.data ?? {},
    medusa_refunds: (payment.refunds ?? []).flatMap((r) =>
      r ? [{ id: r.id, amount_minor: minor(r.amount), note: r.note ?? null, created_at: iso(r.created_at), created_by: r.created_by ?? null }] : []
    ),
    order: payment.payment_collection_id ? await loadOrderOfCollection(container, payment.payment_collection_id) : undefined,
  }
}

async function loadOrderOfCollection(container: MedusaContainer, paymentCollectionId: string): Promise<OrderForLines | undefined> {
  const query = container.resolve(ContainerRegistrationKeys.QUERY)
  const { data: links } = await query.graph({ entity: "order_payment_collection", fields: ["order_id"], filters: { payment_collection_id: paymentCollectionId } })
  const orderId = (links[0] as { order_id?: string } | undefined)?.order_id
  if (!orderId) return undefined
  const { data: orders } = await query.graph({ entity: "order", fields: ORDER_FIELDS_FOR_LINES, filters: { id: orderId } })
  return orders[0] as OrderForLines | undefined
}

function iso(value: string | Date | null | undefined): string | null {
  if (!value) return null
  return value instanceof Date ? value.toISOString() : value
}
