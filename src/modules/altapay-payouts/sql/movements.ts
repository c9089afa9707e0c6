/** Medusa's captures and refunds on AltaPay payments, copied in once each (by Medusa id). */
import type { Knex } from "@medusajs/framework/mikro-orm/knex"
import { generateEntityId } from "@medusajs/framework/utils"
import type { MoneyMovementInput } from "../types"
import { moneyColumns } from "./columns"

const BATCH_SIZE = 500

/** Inserts the captures and refunds not stored yet; the Medusa ids of those this call inserted. */
export async function recordMovements(knex: Knex, movements: MoneyMovementInput[]): Promise<string[]> {
  const inserted: string[] = []
  for (let start = 0; start < movements.length; start += BATCH_SIZE) {
    const rows = movements.slice(start, start + BATCH_SIZE).map(movementRow)
    const insert = knex("altapay_money_movement").insert(rows).toSQL()
    const result = await knex.raw(`${insert.sql} on conflict ("medusa_id") where deleted_at is null do nothing returning "medusa_id"`, insert.bindings)
    inserted.push(...result.rows.map((row: { medusa_id: string }) => row.medusa_id))
  }
  return inserted
}

/**
 * Up to when Medusa has been read for all of these registrations: the oldest of their cursors; null
 * (read everything) when one has none, as a registration just added or just given payouts.
 */
export async function movementsSyncedThrough(knex: Knex, providerIds: string[]): Promise<Date | null> {
  if (providerIds.length === 0) return null
  const rows: Array<{ provider_id: string; synced_through: Date | string }> = await knex("altapay_payout_cursor")
    .whereNull("deleted_at")
    .whereIn("provider_id", providerIds)
    .select("provider_id", "synced_through")
  if (new Set(rows.map((row) => row.provider_id)).size < new Set(providerIds).size) return null
  return new Date(Math.min(...rows.map((row) => new Date(row.synced_through).getTime())))
}

/** After a read of everything created before `at`: the registrations' cursors move there (never back). */
export async function markMovementsSynced(knex: Knex, providerIds: string[], at: Date): Promise<void> {
  for (const providerId of new Set(providerIds)) {
    await knex.raw(
      `insert into altapay_payout_cursor (id, provider_id, synced_through) values (?, ?, ?)
       on conflict (provider_id) where deleted_at is null
       do update set synced_through = greatest(altapay_payout_cursor.synced_through, excluded.synced_through), updated_at = now()`,
      [generateEntityId(undefined, "apcur"), providerId, at]
    )
  }
}

function movementRow(m: MoneyMovementInput): Record<string, unknown> {
  if (!Number.isSafeInteger(m.amountMinor) || m.amountMinor < 0) {
    throw new Error(`AltaPay payouts: ${m.kind} ${m.medusaId} has amount ${m.amountMinor}; expected whole positive minor units.`)
  }
  return {
    id: generateEntityId(undefined, "apmove"),
    kind: m.kind,
    medusa_id: m.medusaId,
    payment_id: m.paymentId,
    order_id: m.orderId,
    provider_id: m.providerId,
    // The plugin sends medusa-<kind>-<Medusa id> (src/providers/altapay/reconciliation.ts); a payment
    // whose data lost the record still matches on it.
    reconciliation_identifier: m.reconciliationIdentifier ?? `medusa-${m.kind}-${m.medusaId}`,
    altapay_payment_id: m.altapayPaymentId,
    altapay_order_id: m.altapayOrderId,
    currency: m.currency.toUpperCase(),
    ...moneyColumns("amount_minor", m.amountMinor),
    recorded_at: m.recordedAt,
  }
}
