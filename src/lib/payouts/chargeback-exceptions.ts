/**
 * Chargebacks among the payout exceptions: an acquirer may take a disputed amount back from a
 * payout, so finance sees each chargeback AltaPay notified (recorded on the payment's sealed data
 * by lib/callbacks/chargebacks.ts) beside the payouts module's own exceptions. Kept apart from the
 * module: it reads Medusa's payments, not funding files, and only data whose seal verifies.
 */
import type { MedusaContainer } from "@medusajs/framework/types"
import { ContainerRegistrationKeys } from "@medusajs/framework/utils"
import type { Knex } from "@medusajs/framework/mikro-orm/knex"
import { minorToDecimal } from "../../altapay"
import { EXCEPTION_KINDS, type ExceptionKind, type PayoutException } from "../../modules/altapay-payouts/types"
import { openPaymentData } from "../payment-data/data"
import { altapayOptionsFromConfig } from "../registrations/from-config"
import { serverKeys } from "../registrations/server-keys"

export const CHARGEBACK_EXCEPTION = "chargeback"
/** The kinds the exception routes list: the payouts module's, and chargebacks. */
export const LISTED_EXCEPTION_KINDS = [...EXCEPTION_KINDS, CHARGEBACK_EXCEPTION] as const
export type ListedExceptionKind = (typeof LISTED_EXCEPTION_KINDS)[number]
export type ListedPayoutException = Omit<PayoutException, "kind"> & { kind: ListedExceptionKind }

interface PaymentRow {
  id: string
  provider_id: string
  payment_collection_id: string | null
  data: Record<string, unknown> | null
}

/** Every chargeback recorded on an AltaPay payment, newest first. */
export async function chargebackExceptions(container: MedusaContainer): Promise<ListedPayoutException[]> {
  const knex = container.resolve<Knex>(ContainerRegistrationKeys.PG_CONNECTION)
  const rows = (await knex("payment")
    .select("id", "provider_id", "payment_collection_id", "data")
    .whereNull("deleted_at")
    .andWhere("provider_id", "like", "pp\\_altapay\\_%")
    .andWhereRaw("jsonb_typeof(data->'chargebacks') = 'array' and jsonb_array_length(data->'chargebacks') > 0")) as PaymentRow[]
  if (rows.length === 0) return []
  const orders = await ordersOf(
    container,
    rows.map((r) => r.payment_collection_id).filter((id): id is string => !!id)
  )
  const exceptions: ListedPayoutException[] = []
  for (const row of rows) {
    let keys
    try {
      keys = serverKeys(altapayOptionsFromConfig(container, row.provider_id).options, "payment-data-seal")
    } catch {
      continue
    }
    // Only what the provider sealed: a browser's session data could carry a `chargebacks` key too.
    const opened = openPaymentData(row.data, keys)
    if (!opened.sealed) continue
    const orderId = row.payment_collection_id ? (orders.get(row.payment_collection_id) ?? null) : null
    for (const c of opened.data.chargebacks ?? []) {
      const reason = [c.reason_code, c.reason].filter(Boolean).join(" ") || "no reason given"
      exceptions.push({
        kind: CHARGEBACK_EXCEPTION,
        message: `AltaPay chargeback (${c.type}) on ${orderId ? `order ${orderId}` : `payment ${row.id}`}: ${reason}, ${minorToDecimal(c.amount_minor, c.currency)} ${c.currency}. The acquirer may take it back from a payout.`,
        fileId: null,
        filename: null,
        fundingDate: null,
        lineId: null,
        lineNumber: null,
        lineType: null,
        medusaId: row.id,
        paymentId: row.id,
        orderId,
        currency: c.currency,
        medusaAmountMinor: null,
        medusaCurrency: null,
        altapayAmountMinor: c.amount_minor,
        date: c.date,
      })
    }
  }
  return exceptions.sort((a, b) => Date.parse(b.date ?? "") - Date.parse(a.date ?? "") || 0)
}

async function ordersOf(container: MedusaContainer, paymentCollectionIds: string[]): Promise<Map<string, string>> {
  if (paymentCollectionIds.length === 0) return new Map()
  const query = container.resolve(ContainerRegistrationKeys.QUERY)
  const { data } = await query.graph({
    entity: "order_payment_collection",
    fields: ["order_id", "payment_collection_id"],
    filters: { payment_collection_id: paymentCollectionIds },
  })
  return new Map((data as Array<{ order_id: string; payment_collection_id: string }>).map((l) => [l.payment_collection_id, l.order_id]))
}

/**
 * One page of the module's exceptions and the chargebacks together: chargebacks first (they are
 * few), then the module's, counted as one list.
 */
export async function listWithChargebacks(
  container: MedusaContainer,
  kinds: ListedExceptionKind[] | undefined,
  page: { limit: number; offset: number },
  listModule: (kinds: ExceptionKind[] | undefined, page: { limit: number; offset: number }) => Promise<{ exceptions: PayoutException[]; count: number }>
): Promise<{ exceptions: ListedPayoutException[]; count: number }> {
  const wantsChargebacks = !kinds || kinds.includes(CHARGEBACK_EXCEPTION)
  return mergeExceptionPages(wantsChargebacks ? await chargebackExceptions(container) : [], kinds, page, listModule)
}

/** listWithChargebacks given the chargebacks: the page arithmetic. */
export async function mergeExceptionPages(
  chargebacks: ListedPayoutException[],
  kinds: ListedExceptionKind[] | undefined,
  page: { limit: number; offset: number },
  listModule: (kinds: ExceptionKind[] | undefined, page: { limit: number; offset: number }) => Promise<{ exceptions: PayoutException[]; count: number }>
): Promise<{ exceptions: ListedPayoutException[]; count: number }> {
  const moduleKinds = kinds?.filter((k): k is ExceptionKind => k !== CHARGEBACK_EXCEPTION)
  const wantsModule = !moduleKinds || moduleKinds.length > 0
  const own = chargebacks.slice(page.offset, page.offset + page.limit)
  if (!wantsModule) return { exceptions: own, count: chargebacks.length }
  const rest = page.limit - own.length
  const moduleOffset = Math.max(0, page.offset - chargebacks.length)
  // Asked for one row at least: the module's count is needed either way.
  const listed = await listModule(moduleKinds, { offset: moduleOffset, limit: Math.max(rest, 1) })
  return { exceptions: [...own, ...(rest > 0 ? listed.exceptions : [])], count: chargebacks.length + listed.count }
}
