/**
 * A payment session whose seal does not verify when Medusa authorizes it: sealed under a previous
 * key (paymentDataSecret changed, or the API password changed since it was sealed without a
 * secret), or written by a browser. Nothing in such data is trusted:
 * AltaPay is asked by Medusa's own session id (its shop_orderid), and what AltaPay reserved must
 * equal Medusa's own amount and currency of that session, read from Medusa's database. Then the
 * session authorizes like any other, with a fresh seal; the stored lines are replaced by one
 * summary line (a browser may have written them), and nothing else unproven is kept.
 */
import type { Logger, RemoteQueryFunction } from "@medusajs/framework/types"
import { toMinorUnits } from "../../lib/medusa-mapping/amounts"
import { namesSession, shopOrderIdToAsk } from "../../lib/medusa-mapping/shop-order-id"
import { freshPaymentData, type AltaPayPaymentData, type OpenedPaymentData } from "../../lib/payment-data/data"
import { summaryLine } from "./session-lines"

/** Medusa's own amount and currency of payment session `sessionId`, or undefined when Medusa has no such session. */
export async function medusaSessionAmount(query: Pick<RemoteQueryFunction, "graph">, sessionId: string): Promise<{ amountMinor: number; currency: string } | undefined> {
  const { data } = await query.graph({ entity: "payment_session", fields: ["id", "amount", "currency_code"], filters: { id: sessionId } })
  const row = data[0] as { amount?: string | number; currency_code?: string } | undefined
  if (!row?.currency_code || row.amount === undefined || row.amount === null) return undefined
  const currency = row.currency_code.toUpperCase()
  return { amountMinor: toMinorUnits(row.amount, currency), currency }
}

/**
 * The data to authorize an unsealed session with, built from Medusa's own figures only; undefined
 * when it cannot be (no query dependency, or Medusa does not know the session).
 */
export async function dataFromMedusa(
  opened: Extract<OpenedPaymentData, { sealed: false }>,
  sessionId: string,
  deps: { query?: Pick<RemoteQueryFunction, "graph">; logger?: Pick<Logger, "warn">; autoCapture: boolean; terminalFor: (currency: string) => string | null }
): Promise<AltaPayPaymentData | undefined> {
  if (!deps.query) return undefined
  const medusa = await medusaSessionAmount(deps.query, sessionId)
  if (!medusa) return undefined
  deps.logger?.warn(
    `AltaPay authorize ${sessionId}: ${opened.problem}. AltaPay is asked by Medusa's session id and must have reserved Medusa's own amount for it; see "Key rotation" in the README.`
  )
  return freshPaymentData({
    // Only used to expire unpaid pages; a paid session never needs it again.
    altapay_session_id: namesSession(opened.data?.order_id, sessionId) ? opened.data!.altapay_session_id : sessionId,
    // The shop_orderid the session was created with, as its data says, else today's form.
    order_id: shopOrderIdToAsk(sessionId, opened.data?.order_id),
    amount_minor: medusa.amountMinor,
    currency: medusa.currency,
    terminal: deps.terminalFor(medusa.currency),
    auto_capture: deps.autoCapture,
    order_lines: summaryLine(sessionId, medusa.amountMinor),
    order_lines_source: "summary",
  })
}
