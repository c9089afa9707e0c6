/** The order page's question: which payout did each capture and refund of this payment go into? */
import type { Knex } from "@medusajs/framework/mikro-orm/knex"
import type { MatchMethod, MovementPayout } from "../types"
import { LINE_FEES_SQL, REJECTED_LINE_TYPES, SETTLING_LINE_TYPES, isoOrNull, minorFrom, optionalMinorFrom } from "./columns"

type Row = Record<string, any>

export async function payoutsForPayments(knex: Knex, paymentIds: string[]): Promise<Record<string, MovementPayout[]>> {
  const byPayment: Record<string, MovementPayout[]> = Object.fromEntries(paymentIds.map((id) => [id, []]))
  if (paymentIds.length === 0) return byPayment
  const rows = await knex.raw(
    `select m.id as movement_id, m.payment_id, m.kind, m.medusa_id, m.amount_minor, m.currency, m.recorded_at,
            l.id as line_id, l.file_id, l.date as line_date, l.type, l.match_method, l.settlement_currency,
            l.settlement_amount_minor, ${LINE_FEES_SQL} as fees_minor, f.filename, f.funding_date
       from altapay_money_movement m
       left join altapay_funding_line l on l.movement_id = m.id and l.deleted_at is null
       left join altapay_funding_file f on f.id = l.file_id and f.deleted_at is null
      where m.deleted_at is null and m.payment_id = any(?)
      order by m.recorded_at, m.id, f.funding_date, l.line_number`,
    [paymentIds]
  )
  const byMovement = new Map<string, MovementPayout>()
  for (const row of rows.rows as Row[]) {
    let payout = byMovement.get(row.movement_id)
    if (!payout) {
      payout = {
        kind: row.kind,
        medusaId: row.medusa_id,
        amountMinor: minorFrom(row.amount_minor),
        currency: row.currency,
        recordedAt: isoOrNull(row.recorded_at) ?? "",
        status: "awaiting",
        lines: [],
      }
      byMovement.set(row.movement_id, payout)
      byPayment[row.payment_id]?.push(payout)
    }
    if (!row.line_id || !row.filename) continue
    const settlementAmountMinor = optionalMinorFrom(row.settlement_amount_minor)
    const feesMinor = minorFrom(row.fees_minor)
    payout.lines.push({
      lineId: row.line_id,
      fileId: row.file_id,
      filename: row.filename,
      fundingDate: row.funding_date,
      lineDate: row.line_date,
      type: row.type,
      method: row.match_method as MatchMethod,
      settlementCurrency: row.settlement_currency,
      settlementAmountMinor,
      feesMinor,
      netMinor: settlementAmountMinor === null ? null : settlementAmountMinor + feesMinor,
    })
    if ((SETTLING_LINE_TYPES as readonly string[]).includes(row.type)) payout.status = "funded"
    else if (payout.status === "awaiting" && (REJECTED_LINE_TYPES as readonly string[]).includes(row.type)) payout.status = "rejected"
  }
  return byPayment
}
