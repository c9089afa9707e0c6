/**
 * A customer's purchase with a saved card, made at authorization: reserveSubscriptionCharge
 * (chargeSubscription with autoCapture) with unscheduled type `charge`, the customer-initiated one,
 * which may answer Result=Redirect for 3-D Secure. A charge keeps the agreement's set-up
 * shop_orderid (api-php reservesubscription.xml), so this session's charge is the one whose
 * transaction_info names the session; it is looked up before one is made, so a retried cart
 * completion, a lost answer or the return after 3-D Secure never charges twice.
 */
import type { AuthorizePaymentOutput } from "@medusajs/framework/types"
import { MedusaError, PaymentSessionStatus } from "@medusajs/framework/utils"
import { AltaPayDeclinedError, type GatewayTransaction } from "../../altapay"
import { toMedusaError } from "../../lib/medusa-mapping/errors"
import { chargeForSession } from "../../lib/medusa-mapping/status"
import type { AltaPayPaymentData } from "../../lib/payment-data/data"
import type { ProviderContext } from "./context"

export type SavedCardCharge =
  /** The session's charge (undefined: none, and none could be made), with the data to keep. */
  | { data: AltaPayPaymentData; transaction: GatewayTransaction | undefined; reason?: string }
  /** 3-D Secure: the customer must go to `data.redirect_url` first. */
  | { answer: AuthorizePaymentOutput }

export function chargeSavedCard(ctx: ProviderContext, data: AltaPayPaymentData, sessionId: string): Promise<SavedCardCharge> {
  // Medusa's completions lock the cart, but the follow-up job and a retry may authorize the same
  // session too: one look-up-then-charge at a time per session, on every server.
  return ctx.scaleOut.paymentLock(`altapay:saved-card-charge:${sessionId}`, () => lookUpOrCharge(ctx, data, sessionId))
}

async function lookUpOrCharge(ctx: ProviderContext, data: AltaPayPaymentData, sessionId: string): Promise<SavedCardCharge> {
  const agreement = data.agreement
  if (agreement?.mode !== "saved_card" || !agreement.agreement_id) throw new Error("chargeSavedCard needs a saved-card session")
  const agreementId = agreement.agreement_id
  const agreementOrderId = agreement.agreement_order_id ?? (await ctx.lookupOne(agreementId, "saved-card charge"))?.shopOrderId
  if (!agreementOrderId) return { data, transaction: undefined, reason: `AltaPay has no agreement ${agreementId}; the saved card cannot be charged.` }
  const known = { ...data, agreement: { ...agreement, agreement_order_id: agreementOrderId } }
  const existing = chargeForSession(sessionId, await ctx.lookup({ shopOrderId: agreementOrderId }, "saved-card charge"))
  if (existing) return { data: known, transaction: existing }
  const charge = data.auto_capture ? ctx.client.agreements.chargeSubscription : ctx.client.agreements.reserveSubscriptionCharge
  try {
    const result = await charge.call(ctx.client.agreements, {
      agreementId,
      amountMinor: data.amount_minor,
      currency: data.currency,
      unscheduledType: "charge",
      reconciliationIdentifier: data.order_id,
      orderLines: data.order_lines,
      transactionInfo: { medusa_payment_session_id: sessionId },
    })
    if (result.outcome === "redirect") {
      // AltaPay's 3-D Secure page; its answer comes back through the plugin's customer return.
      return { answer: { status: PaymentSessionStatus.REQUIRES_MORE, data: ctx.seal({ ...known, redirect_url: result.redirect.url, failure_reason: null }) } }
    }
    return { data: known, transaction: result.transaction }
  } catch (error) {
    if (error instanceof AltaPayDeclinedError) {
      const message = error.cardHolderMessage ?? error.merchantMessage ?? "The card was declined."
      ctx.logger?.warn(`AltaPay ${data.order_id}: the saved card was declined (${error.merchantMessage ?? error.result}).`)
      throw new MedusaError(MedusaError.Types.NOT_ALLOWED, `Your saved card was declined: ${message} Choose another card or pay with a new one.`)
    }
    throw toMedusaError(error, "saved-card charge", ctx.logger)
  }
}
