/**
 * How much of a Medusa capture goes to AltaPay. Medusa passes the provider only the capture's id
 * (context.idempotency_key); the amount Medusa recorded for it (a partial capture from the admin)
 * is read through `query`. Captures are rounded as a running total (Medusa keeps 11.2725 DKK), so
 * AltaPay's captures always add up to Medusa's captured total rounded half up.
 */
import type { RemoteQueryFunction } from "@medusajs/framework/types"
import { MathBN } from "@medusajs/framework/utils"
import type { BigNumberInput } from "@medusajs/framework/types"
import { roundedIncrement } from "../../lib/medusa-mapping/amounts"

interface CaptureRow {
  id: string
  raw_amount?: BigNumberInput | null
  amount?: BigNumberInput | null
  created_at?: string | Date | null
}

export type CaptureAmount = { found: true; amountMinor: number; exact: string } | { found: false; reason: string }

/**
 * The minor units to capture for Medusa capture `captureId` of the payment made from payment
 * session `paymentSessionId`: its amount, rounded as a running total over the payment's captures.
 */
export async function medusaCaptureAmount(
  query: Pick<RemoteQueryFunction, "graph"> | undefined,
  paymentSessionId: string,
  captureId: string | undefined,
  currency: string
): Promise<CaptureAmount> {
  if (!query) return { found: false, reason: "the Payment module has no `query` dependency" }
  if (!captureId) return { found: false, reason: "Medusa passed no capture id" }
  const { data } = await query.graph({
    entity: "payment",
    fields: ["id", "captures.id", "captures.raw_amount", "captures.amount", "captures.created_at"],
    filters: { payment_session_id: paymentSessionId },
  })
  const captures = ((data[0] as { captures?: Array<CaptureRow | null> } | undefined)?.captures ?? []).filter((c): c is CaptureRow => !!c)
  const ordered = [...captures].sort((a, b) => time(a) - time(b) || a.id.localeCompare(b.id))
  const index = ordered.findIndex((c) => c.id === captureId)
  if (index < 0) return { found: false, reason: `capture ${captureId} is not among the payment's captures` }
  const amountOf = (c: CaptureRow) => c.raw_amount ?? c.amount ?? 0
  const before = MathBN.sum(0, ...ordered.slice(0, index).map(amountOf))
  const amount = amountOf(ordered[index])
  return { found: true, amountMinor: roundedIncrement(before, amount, currency), exact: MathBN.convert(amount).toFixed() }
}

function time(capture: CaptureRow): number {
  return capture.created_at ? new Date(capture.created_at).getTime() : 0
}
