/**
 * A merchant-started charge recorded in Medusa: a payment session on the order's collection that
 * names the charge (the provider verifies it against AltaPay, src/providers/altapay/merchant-charge.ts),
 * then Medusa's processPaymentWorkflow, as for a paid payment link: authorized, and for a captured
 * charge captured too, with the order's transaction, so the order shows it paid. Under the order's
 * lock, and again safe to repeat: a session already made for the charge is used, not another.
 */
import type { BigNumberValue, MedusaContainer } from "@medusajs/framework/types"
import { ContainerRegistrationKeys, MedusaError, PaymentActions } from "@medusajs/framework/utils"
import { createPaymentSessionsWorkflow, processPaymentWorkflow } from "@medusajs/medusa/core-flows"
import { AttemptBook, UncertainIndex, collectionSubject } from "../../money-door/attempts"
import { openPaymentData, provenSessionData } from "../../payment-data/data"
import { altapayFromConfig } from "../../registrations/from-config"
import { serverKeys, type ServerKeys } from "../../registrations/server-keys"
import type { ScaleOut } from "../../scale-out/shared-state"
import type { AgreementCharge } from "./charge"
import { chargeLockKey, merchantChargeSessionContext } from "./context"

export interface RecordedAgreementCharge {
  payment_id: string
  payment_collection_id: string
  payment_session_id: string
  transaction_id: string
  amount_minor: number
  currency: string
  status: "captured" | "authorized"
  /** False when AltaPay already had the charge (a retry): nothing was charged now. */
  charged: boolean
}

interface SessionRow {
  id: string
  provider_id: string
  status: string
  /** Medusa's exact amount (the collection's), which may have more digits than the currency. */
  amount: BigNumberValue
  data?: Record<string, unknown> | null
}

interface PaymentRow {
  id: string
  payment_session_id: string
  captured_at?: string | Date | null
  canceled_at?: string | Date | null
}

export async function recordAgreementCharge(container: MedusaContainer, charge: AgreementCharge): Promise<RecordedAgreementCharge> {
  const { options, scaleOut } = altapayFromConfig(container, charge.provider_id)
  return scaleOut.paymentLock(chargeLockKey(charge.order_id), async () => {
    let recorded: RecordedAgreementCharge
    try {
      recorded = await recordUnderLock(container, charge, serverKeys(options, "payment-data-seal"))
    } catch (error) {
      await settleAttempt(scaleOut, charge, "not recorded")
      throw error
    }
    await settleAttempt(scaleOut, charge, "recorded")
    return recorded
  })
}

/**
 * The door's attempt of the charge, once Medusa's record of it is settled either way. Recorded: it
 * goes, so the book holds only charges being made or made without a record, on which no payment
 * link is created (link-sessions.ts). Not recorded: it stays, uncertain, so the follow-up job
 * records it when nobody tries again (uncertain-money.ts). The cache failing changes neither answer.
 */
async function settleAttempt(scaleOut: Pick<ScaleOut, "store" | "paymentLock">, charge: AgreementCharge, outcome: "recorded" | "not recorded"): Promise<void> {
  const book = new AttemptBook(scaleOut.store)
  const subject = collectionSubject(charge.payment_collection_id)
  try {
    const attempts = await book.list(subject)
    const mine = attempts.find((a) => a.id === charge.reconciliation_identifier)
    if (!mine) return
    if (outcome === "recorded")
      return await book.save(
        subject,
        attempts.filter((a) => a !== mine)
      )
    await book.save(
      subject,
      attempts.map((a) => (a === mine ? { ...a, uncertain: true } : a))
    )
    await new UncertainIndex(book.store, scaleOut.paymentLock).note(subject)
  } catch {
    // Recorded: a stale attempt only refuses links for its hour. Not recorded: the error already says to try again.
  }
}

async function recordUnderLock(container: MedusaContainer, charge: AgreementCharge, keys: ServerKeys): Promise<RecordedAgreementCharge> {
  const transactionId = charge.context.transaction_id
  const sessions = await sessionsOf(container, charge.payment_collection_id)
  let session = sessions.find((s) => s.provider_id === charge.provider_id && provenSessionData(s, keys)?.transaction_id === transactionId)
  if (!session) {
    const { result } = await createPaymentSessionsWorkflow(container).run({
      input: { payment_collection_id: charge.payment_collection_id, provider_id: charge.provider_id, context: merchantChargeSessionContext(charge.context) },
    })
    session = { id: result.id, provider_id: result.provider_id, status: result.status, amount: result.amount, data: result.data }
  }
  let payment = await paymentOf(container, session.id)
  if (!payment || (charge.captured && !payment.captured_at)) {
    const action = charge.captured ? PaymentActions.SUCCESSFUL : PaymentActions.AUTHORIZED
    // Medusa's exact amount, not the charge's minor units: the order's transaction then settles
    // its pending difference exactly (the charge took the same amount, rounded to the currency).
    const { errors } = await processPaymentWorkflow(container).run({ input: { action, data: { session_id: session.id, amount: session.amount } }, throwOnError: false })
    if (errors.length > 0) throw await notRecorded(container, keys, session.id, transactionId, String(errors[0]?.error?.message ?? errors[0]?.error))
    payment = await paymentOf(container, session.id)
  }
  if (!payment) throw await notRecorded(container, keys, session.id, transactionId, "Medusa made no payment of the session")
  return {
    payment_id: payment.id,
    payment_collection_id: charge.payment_collection_id,
    payment_session_id: session.id,
    transaction_id: transactionId,
    amount_minor: charge.amount_minor,
    currency: charge.currency,
    status: payment.captured_at ? "captured" : "authorized",
    charged: !charge.found,
  }
}

/** The payment sessions of a collection (also used by lib/item-captures/order-edit.ts). */
export async function sessionsOf(container: MedusaContainer, collectionId: string): Promise<SessionRow[]> {
  const query = container.resolve(ContainerRegistrationKeys.QUERY)
  const { data } = await query.graph({
    entity: "payment_collection",
    fields: ["id", "payment_sessions.id", "payment_sessions.provider_id", "payment_sessions.status", "payment_sessions.amount", "payment_sessions.data"],
    filters: { id: collectionId },
  })
  const collection = data[0] as { payment_sessions?: Array<SessionRow | null> | null } | undefined
  return (collection?.payment_sessions ?? []).filter((s): s is SessionRow => !!s)
}

/** The Medusa payment of a session, not canceled. */
export async function paymentOf(container: MedusaContainer, sessionId: string): Promise<PaymentRow | undefined> {
  const query = container.resolve(ContainerRegistrationKeys.QUERY)
  const { data } = await query.graph({ entity: "payment", fields: ["id", "payment_session_id", "captured_at", "canceled_at"], filters: { payment_session_id: sessionId } })
  return (data as PaymentRow[]).find((p) => !p.canceled_at)
}

/** Why Medusa did not record the charge: the provider's reason in the session's data, else Medusa's error. */
async function notRecorded(container: MedusaContainer, keys: ServerKeys, sessionId: string, transactionId: string, medusaError: string): Promise<MedusaError> {
  const query = container.resolve(ContainerRegistrationKeys.QUERY)
  const { data } = await query.graph({ entity: "payment_session", fields: ["id", "data"], filters: { id: sessionId } })
  const opened = openPaymentData((data[0] as { data?: Record<string, unknown> } | undefined)?.data, keys)
  const reason = opened.data?.failure_reason ?? medusaError
  return new MedusaError(
    MedusaError.Types.UNEXPECTED_STATE,
    `AltaPay charge ${transactionId} was made, but Medusa did not record it (${reason}). Trying again is safe: the plugin finds this charge at AltaPay and records it instead of charging again.`
  )
}
