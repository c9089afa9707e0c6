/**
 * Ties funding lines to Medusa's captures and refunds. First by the reconciliation identifier the
 * plugin sent with the capture or refund; then, for lines still untied, by the Payment column (the
 * gateway's TransactionId, which the movement carries from the payment data's `transaction_id`) and
 * the amount, only where exactly one line and one capture or refund pair up (`match_method` says
 * which). Only lines not tied yet are looked at, so a run repeats nothing and a capture or refund
 * recorded later still finds its line.
 */
import type { Knex } from "@medusajs/framework/mikro-orm/knex"
import type { MatchResult } from "../types"
import { LINE_AMOUNT_SQL, LINE_CURRENCY_SQL, LINE_KIND_SQL, TRANSACTION_LINE_TYPES, sqlList } from "./columns"

const BY_RECONCILIATION_IDENTIFIER = `
  update altapay_funding_line l
     set movement_id = m.id, match_method = 'reconciliation_identifier', updated_at = now()
    from altapay_money_movement m
   where l.movement_id is null and l.deleted_at is null and m.deleted_at is null
     and l.type in (${sqlList(TRANSACTION_LINE_TYPES)})
     and l.reconciliation_identifier = m.reconciliation_identifier
     and m.kind = ${LINE_KIND_SQL}`

// A capture or refund already paid out by a line of the same type is not paired again.
const BY_PAYMENT_AND_AMOUNT = `
  with candidates as (
    select l.id as line_id, m.id as movement_id
      from altapay_funding_line l
      join altapay_money_movement m
        on m.altapay_payment_id = l.altapay_payment_id and m.deleted_at is null
       and m.kind = ${LINE_KIND_SQL}
       and m.currency = ${LINE_CURRENCY_SQL}
       and m.amount_minor = abs(${LINE_AMOUNT_SQL})
     where l.movement_id is null and l.deleted_at is null and l.altapay_payment_id is not null
       and l.type in (${sqlList(TRANSACTION_LINE_TYPES)})
       and not exists (
         select 1 from altapay_funding_line o join altapay_funding_file ofile on ofile.id = o.file_id and ofile.deleted_at is null
          where o.movement_id = m.id and o.deleted_at is null and o.type = l.type)
  ),
  counted as (
    select line_id, movement_id,
           count(*) over (partition by line_id) as per_line,
           count(*) over (partition by movement_id) as per_movement
      from candidates
  )
  update altapay_funding_line l
     set movement_id = c.movement_id, match_method = 'payment_and_amount', updated_at = now()
    from counted c
   where l.id = c.line_id and c.per_line = 1 and c.per_movement = 1`

export async function matchLines(knex: Knex): Promise<MatchResult> {
  const byReconciliationIdentifier = await knex.raw(BY_RECONCILIATION_IDENTIFIER)
  const byPaymentAndAmount = await knex.raw(BY_PAYMENT_AND_AMOUNT)
  return { byReconciliationIdentifier: byReconciliationIdentifier.rowCount ?? 0, byPaymentAndAmount: byPaymentAndAmount.rowCount ?? 0 }
}
