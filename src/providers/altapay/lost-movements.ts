/**
 * Captures and refunds Medusa lost after the provider answered them. Medusa's capturePayment and
 * refundPayment store the provider's answer inside the same try as the provider's call, and delete
 * their capture or refund when that store fails; the merchant's retry then comes with a new id. The
 * provider reads its own newest copy of the data first (the journal, context.ts), which holds the
 * answered movement: taken as Medusa's, the retry would be sent to AltaPay again. A movement is
 * lost when Medusa's stored copy lacks it and Medusa has no capture or refund of its id; Medusa is
 * asked only when its stored copy lacks one the newest has.
 */
import type { RemoteQueryFunction } from "@medusajs/framework/types"
import { MedusaError } from "@medusajs/framework/utils"
import { sessionIdFromOrderId } from "../../lib/medusa-mapping/shop-order-id"
import type { AltaPayPaymentData } from "../../lib/payment-data/data"
import { isOwnReconciliationId } from "./reconciliation"

type Query = Pick<RemoteQueryFunction, "graph">
type Kind = "capture" | "refund"

/** The reconciliation identifiers of the `kind` movements in `newest` that Medusa lost. */
export async function lostMovements(query: Query | undefined, kind: Kind, newest: AltaPayPaymentData, stored: AltaPayPaymentData): Promise<Set<string>> {
  const answered = (data: AltaPayPaymentData) => answeredMovements(data, kind).filter((m) => isOwnReconciliationId(kind, m.reconciliationId))
  const storedIds = new Set(answered(stored).map((m) => m.reconciliationId))
  const unstored = answered(newest).filter((m) => !storedIds.has(m.reconciliationId))
  if (unstored.length === 0) return new Set()
  let medusa: Set<string>
  try {
    medusa = await medusaMovementIds(query, kind, sessionIdFromOrderId(newest.order_id))
  } catch (error) {
    throw new MedusaError(
      MedusaError.Types.NOT_ALLOWED,
      `AltaPay ${kind}: the plugin's record shows ${kind} ${unstored.map((m) => m.reconciliationId).join(", ")}, which Medusa's copy of the payment does not, and Medusa could not be asked whether it still has it (${error instanceof Error ? error.message : String(error)}). Nothing was sent; try again in a moment.`
    )
  }
  return new Set(unstored.filter((m) => !medusa.has(m.medusaId)).map((m) => m.reconciliationId))
}

/** The ids of Medusa's captures or refunds on the payment made from the session; throws when it cannot say. */
export async function medusaMovementIds(query: Query | undefined, kind: Kind, paymentSessionId: string): Promise<Set<string>> {
  if (!query) throw new Error("the Payment module has no `query` dependency")
  const rows = kind === "capture" ? "captures" : "refunds"
  const { data } = await query.graph({ entity: "payment", fields: ["id", `${rows}.id`], filters: { payment_session_id: paymentSessionId } })
  const payment = data[0] as Record<string, Array<{ id: string } | null> | undefined> | undefined
  if (!payment) throw new Error(`Medusa has no payment for payment session ${paymentSessionId}`)
  return new Set((payment[rows] ?? []).flatMap((r) => (r ? [r.id] : [])))
}

/** The movements an answer of the provider recorded: with Medusa's id (a fold of AltaPay's record has none). */
function answeredMovements(data: AltaPayPaymentData, kind: Kind): Array<{ reconciliationId: string; medusaId: string }> {
  const records =
    kind === "capture"
      ? data.captures.map((c) => [c.reconciliation_identifier, c.capture_id] as const)
      : data.refunds.map((r) => [r.reconciliation_identifier, r.refund_id] as const)
  return records.flatMap(([reconciliationId, medusaId]) => (medusaId === null ? [] : [{ reconciliationId, medusaId }]))
}
