/**
 * What finance must look at, one query per kind of exception, paged together: captures and refunds
 * no funding line names after the cut-off (a rejected one is listed as rejected, once), lines Medusa
 * has no record of, amounts that differ, captures and refunds paid out twice, rejected lines,
 * unreadable lines, files whose lines do not add up to what AltaPay paid, and lines in a payout's
 * net that nothing explains (a chargeback, an `unknown`).
 */
import type { Knex } from "@medusajs/framework/mikro-orm/knex"
import { amountText } from "../../../altapay/money"
import { EXCEPTION_KINDS, type ExceptionKind, type ExceptionQuery, type PayoutException } from "../types"
import {
  EXPLAINED_OTHER_LINE_TYPES,
  LINE_AMOUNT_SQL,
  LINE_CURRENCY_SQL,
  LINE_FILE_LIVE_SQL,
  LINE_KIND_SQL,
  REJECTED_LINE_TYPES,
  SETTLING_LINE_TYPES,
  TRANSACTION_LINE_TYPES,
  isoOrNull,
  optionalMinorFrom,
  sqlList,
} from "./columns"

type Row = Record<string, any>
type Sql = { sql: string; bindings: Knex.RawBinding[] }

const LINE_COLUMNS = `f.id as file_id, f.filename, f.funding_date, l.id as line_id, l.line_number, l.type as line_type, l.issue`
const MOVEMENT_COLUMNS = `m.medusa_id, m.kind as movement_kind, m.payment_id, m.order_id, m.currency as medusa_currency`
const NO_LINE = `null::text as file_id, null::text as filename, null::text as funding_date, null::text as line_id, null::int as line_number, null::text as line_type, null::text as issue`
const NO_MOVEMENT = `null::text as medusa_id, null::text as movement_kind, null::text as payment_id, null::text as order_id, null::text as medusa_currency`
const LINE_FROM = `from altapay_funding_line l join altapay_funding_file f on f.id = l.file_id and f.deleted_at is null`
const MOVEMENT_JOIN = `left join altapay_money_movement m on m.id = l.movement_id and m.deleted_at is null`

/** SQL: a timestamp per the movement's registration (`case m.provider_id when … then …`), or `fallback` for the rest. */
function perProvider(byProvider: Record<string, Date>, fallback: string, fallbackBindings: Knex.RawBinding[]): Sql {
  const entries = Object.entries(byProvider)
  if (entries.length === 0) return { sql: fallback, bindings: fallbackBindings }
  return {
    sql: `(case m.provider_id ${entries.map(() => `when ? then ?::timestamptz`).join(" ")} else ${fallback} end)`,
    bindings: [...entries.flatMap(([provider, at]) => [provider, at.toISOString()]), ...fallbackBindings],
  }
}

function unfunded(query: ExceptionQuery): Sql {
  const before = perProvider(query.unfundedBefore.byProvider ?? {}, `?::timestamptz`, [query.unfundedBefore.default.toISOString()])
  // A registration's payouts.reconcileFrom: what Medusa recorded before it is finance's earlier business.
  const from = perProvider(query.reconcileFrom ?? {}, `'-infinity'::timestamptz`, [])
  return {
    sql: `select 'unfunded' as kind, ${NO_LINE}, ${MOVEMENT_COLUMNS}, m.currency, m.amount_minor as medusa_amount, null::numeric as altapay_amount, null::numeric as file_net,
                 to_char(m.recorded_at at time zone 'UTC', 'YYYY-MM-DD"T"HH24:MI:SS"Z"') as date, m.id as tiebreak
            from altapay_money_movement m
           where m.deleted_at is null and m.recorded_at < ${before.sql} and m.recorded_at >= ${from.sql}
             and not exists (select 1 from altapay_funding_line l
                              where l.movement_id = m.id and l.deleted_at is null and l.type in (${sqlList(TRANSACTION_LINE_TYPES)}) and ${LINE_FILE_LIVE_SQL})`,
    bindings: [...before.bindings, ...from.bindings],
  }
}

/**
 * Lines in the net that nothing explains, with the order of the payment they name when Medusa has
 * one (an acquirer's chargeback line names the payment it takes back): the settlement amount, signed,
 * is what it took from or added to the payout.
 */
const unexplainedLine = (): Sql => ({
  sql: `select 'unexplained_line' as kind, ${LINE_COLUMNS}, null::text as medusa_id, null::text as movement_kind, pm.payment_id, pm.order_id, null::text as medusa_currency,
               l.settlement_currency as currency, null::numeric as medusa_amount, l.settlement_amount_minor as altapay_amount, null::numeric as file_net, l.date, l.id as tiebreak
          ${LINE_FROM}
          left join lateral (select m.payment_id, m.order_id from altapay_money_movement m
                              where l.altapay_payment_id is not null and m.altapay_payment_id = l.altapay_payment_id and m.deleted_at is null
                              order by m.recorded_at limit 1) pm on true
         where l.deleted_at is null and l.issue is null
           and l.type not in (${sqlList([...TRANSACTION_LINE_TYPES, ...EXPLAINED_OTHER_LINE_TYPES])})`,
  bindings: [],
})

const lineException = (kind: ExceptionKind, where: string, currency = LINE_CURRENCY_SQL, altapayAmount = LINE_AMOUNT_SQL): Sql => ({
  sql: `select '${kind}' as kind, ${LINE_COLUMNS}, ${MOVEMENT_COLUMNS}, coalesce(${currency}, l.settlement_currency) as currency,
               m.amount_minor as medusa_amount, ${altapayAmount} as altapay_amount, null::numeric as file_net, l.date, l.id as tiebreak
          ${LINE_FROM} ${MOVEMENT_JOIN}
         where l.deleted_at is null and ${where}`,
  bindings: [],
})

const QUERIES: Record<ExceptionKind, (query: ExceptionQuery) => Sql> = {
  unfunded,
  unmatched_line: () => lineException("unmatched_line", `l.movement_id is null and l.type in (${sqlList(SETTLING_LINE_TYPES)})`),
  amount_differs: () =>
    lineException(
      "amount_differs",
      `l.movement_id is not null and m.id is not null and l.type in (${sqlList(SETTLING_LINE_TYPES)}) and m.kind = ${LINE_KIND_SQL}
       and (abs(${LINE_AMOUNT_SQL}) is distinct from m.amount_minor or ${LINE_CURRENCY_SQL} is distinct from m.currency)`
    ),
  // The lines after the first that pay out one capture or refund (by funding date, file, line).
  paid_twice: () =>
    lineException(
      "paid_twice",
      `l.movement_id is not null and m.id is not null and l.type in (${sqlList(SETTLING_LINE_TYPES)})
       and (l.movement_id, l.type) in (select d.movement_id, d.type from altapay_funding_line d
                                        where d.movement_id is not null and d.deleted_at is null and d.type in (${sqlList(SETTLING_LINE_TYPES)})
                                        group by d.movement_id, d.type having count(*) > 1)
       and exists (select 1 from altapay_funding_line o join altapay_funding_file ofile on ofile.id = o.file_id and ofile.deleted_at is null
                    where o.movement_id = l.movement_id and o.deleted_at is null and o.type = l.type
                      and (ofile.funding_date, ofile.filename, o.line_number) < (f.funding_date, f.filename, l.line_number))`
    ),
  rejected: () => lineException("rejected", `l.type in (${sqlList(REJECTED_LINE_TYPES)})`),
  unreadable_line: () => lineException("unreadable_line", `l.issue is not null`, "null::text", "null::numeric"),
  file_total_differs: () => ({
    sql: `select 'file_total_differs' as kind, f.id as file_id, f.filename, f.funding_date, null::text as line_id, null::int as line_number,
                 null::text as line_type, null::text as issue, ${NO_MOVEMENT}, f.currency, null::numeric as medusa_amount,
                 f.amount_minor as altapay_amount, f.net_minor as file_net, f.funding_date as date, f.id as tiebreak
            from altapay_funding_file f
           where f.deleted_at is null and f.net_minor <> f.amount_minor`,
    bindings: [],
  }),
  unexplained_line: unexplainedLine,
}

export async function listPayoutExceptions(knex: Knex, query: ExceptionQuery): Promise<{ exceptions: PayoutException[]; count: number }> {
  const kinds = query.kinds && query.kinds.length > 0 ? EXCEPTION_KINDS.filter((k) => query.kinds!.includes(k)) : [...EXCEPTION_KINDS]
  const parts = kinds.map((kind) => QUERIES[kind](query))
  // The page is among each kind's first offset + limit rows in the same order: each kind keeps only
  // those (a top-N, not a sort of every exception) before the kinds are merged.
  const top = query.offset + query.limit
  const page = parts.map((p) => `(select * from (${p.sql}) k order by k.date desc nulls last, k.tiebreak limit ?)`).join(" union all ")
  const counts = parts.map((p) => `(select count(*) from (${p.sql}) k)`).join(" + ")
  const [rows, total] = await Promise.all([
    knex.raw(`select * from (${page}) e order by e.date desc nulls last, e.kind, e.tiebreak limit ? offset ?`, [
      ...parts.flatMap((p) => [...p.bindings, top]),
      query.limit,
      query.offset,
    ]),
    knex.raw(
      `select (${counts})::int as count`,
      parts.flatMap((p) => p.bindings)
    ),
  ])
  return { exceptions: rows.rows.map(exception), count: total.rows[0]?.count ?? 0 }
}

function exception(row: Row): PayoutException {
  const medusaAmountMinor = optionalMinorFrom(row.medusa_amount)
  const altapayAmountMinor = optionalMinorFrom(row.altapay_amount)
  const e: PayoutException = {
    kind: row.kind,
    message: "",
    fileId: row.file_id,
    filename: row.filename,
    fundingDate: row.funding_date,
    lineId: row.line_id,
    lineNumber: row.line_number,
    lineType: row.line_type,
    medusaId: row.medusa_id,
    paymentId: row.payment_id,
    orderId: row.order_id,
    currency: row.currency,
    medusaAmountMinor,
    medusaCurrency: row.medusa_currency,
    altapayAmountMinor,
    date: isoOrNull(row.date),
  }
  return { ...e, message: messageFor(e, row) }
}

function messageFor(e: PayoutException, row: Row): string {
  const money = (minor: number | null, currency = e.currency) => (minor === null || !currency ? "no amount" : amountText(Math.abs(minor), currency))
  const medusaMoney = money(e.medusaAmountMinor, e.medusaCurrency)
  const where = `${e.filename} line ${e.lineNumber}`
  const record = `${row.movement_kind ?? "record"} ${e.medusaId}`
  switch (e.kind) {
    case "unfunded":
      return `Medusa's ${record} of ${medusaMoney} (${e.date}) is in no AltaPay payout yet: check it at AltaPay (captured? settled?) before the books close.`
    case "unmatched_line":
      return `${where}: a ${e.lineType} of ${money(e.altapayAmountMinor)} that Medusa has no capture or refund for (made outside Medusa, or its record was not synced yet).`
    case "amount_differs":
      return `${where}: AltaPay ${e.lineType === "refund" ? "refunded" : "settled"} ${money(e.altapayAmountMinor)} where Medusa's ${record} is ${medusaMoney}.`
    case "paid_twice":
      return `${where}: pays out Medusa's ${record} of ${medusaMoney} again; an earlier funding line paid it already (a funding sent twice?). Ask AltaPay before booking it.`
    case "rejected":
      return `${where}: the acquirer rejected this ${e.lineType === "refund_rejected" ? "refund" : "payment"} of ${money(e.altapayAmountMinor)}${e.medusaId ? ` (Medusa's ${record})` : ""}; no money moved for it.`
    case "unreadable_line":
      return `${where} could not be read (${row.issue}); its cells are kept on the line.`
    case "unexplained_line": {
      const signed = e.altapayAmountMinor === null || !e.currency ? "no amount" : amountText(e.altapayAmountMinor, e.currency)
      const of = e.orderId ? ` on order ${e.orderId}` : e.paymentId ? ` on payment ${e.paymentId}` : ""
      return `${where}: a line of type ${e.lineType} (${signed})${of} is in the payout's net but is neither a payment, a refund nor one of AltaPay's fees: find out from AltaPay or the acquirer what it is and book it by hand.`
    }
    case "file_total_differs":
      return `${e.filename}: its lines add up to ${money(optionalMinorFrom(row.file_net))} net, but AltaPay paid ${money(e.altapayAmountMinor)}: the file may be incomplete; compare it with AltaPay's.`
  }
}
