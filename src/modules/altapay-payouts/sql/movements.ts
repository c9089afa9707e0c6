/** Medusa's captures and refunds on AltaPay payments, copied in once each (by Medusa id). */
import type { Knex } from "@medusajs/framework/mikro-orm/knex"
import { generateEntityId } from "@medusajs/framework/utils"
import type { MoneyMovementInput } from "../types"
import { moneyColumns } from "./columns"

const BATCH_SIZE = 500

export async function recordMovements(knex: Knex, movements: MoneyMovementInput[]): Promise<number> {
  let inserted = 0
  for (let start = 0; start < movements.length; start += BATCH_SIZE) {
    const rows = movements.slice(start, start + BATCH_SIZE).map(movementRow)
    const insert = knex("altapay_money_movement").insert(rows).toSQL()
    const result = await knex.raw(`${insert.sql} on conflict ("medusa_id") where deleted_at is null do nothing returning "id"`, insert.bindings)
    inserted += result.rows.length
  }
  return inserted
}

export async function latestMovementAt(knex: Knex): Promise<Date | null> {
  const row = await knex("altapay_money_movement").whereNull("deleted_at").max({ latest: "recorded_at" }).first()
  return row?.latest ? new Date(row.latest) : null
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
