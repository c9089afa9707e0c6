/**
 * A customer's purchase with a saved card, made at authorization: reserveSubscriptionCharge
 * (chargeSubscription with autoCapture) with unscheduled type `charge`, the customer-initiated one,
 * which may answer Result=Redirect for 3-D Secure. A charge keeps the agreement's set-up
 * shop_orderid (api-php reservesubscription.xml), so this session's charge is the one whose
 * transaction_info names the session. Through the money door (lib/money-door): it is looked up
 * before one is made, so a retried cart completion, a lost answer or the return after 3-D Secure
 * never charges twice, and a charge AltaPay does not show yet after a timeout blocks another until
 * AltaPay has had time to finish it. The card and the cart's customer are read when it is charged.
 */
import type { AuthorizePaymentOutput } from "@medusajs/framework/types"
import { MedusaError, PaymentSessionStatus } from "@medusajs/framework/utils"
import { AltaPayDeclinedError, AltaPayError, type GatewayTransaction } from "../../altapay"
import { customerError } from "../../lib/medusa-mapping/customer-error"
import { toMedusaError } from "../../lib/medusa-mapping/errors"
import { sessionSubject } from "../../lib/money-door/attempts"
import { customerMessage } from "../../lib/languages/customer-messages"
import { cartCustomerOfSession } from "../../lib/medusa-mapping/medusa-session"
import { chargeForSession } from "../../lib/medusa-mapping/status"
import type { AltaPayPaymentData } from "../../lib/payment-data/data"
import { queryCustomerCards } from "../../lib/saved-cards/query"
import type { ProviderContext } from "./context"

export type SavedCardCharge =
  /** The session's charge (undefined: none, and none could be made), with the data to keep. */
  | { data: AltaPayPaymentData; transaction: GatewayTransaction | undefined; reason?: string }
  /** 3-D Secure: the customer must go to `data.redirect_url` first. */
  | { answer: AuthorizePaymentOutput }

export function chargeSavedCard(ctx: ProviderContext, data: AltaPayPaymentData, sessionId: string): Promise<SavedCardCharge> {
  const agreement = data.agreement
  if (agreement?.mode !== "saved_card" || !agreement.agreement_id) throw new Error("chargeSavedCard needs a saved-card session")
  const agreementId = agreement.agreement_id
  let known = data
  // Charges keep the agreement set-up's shop_orderid: the session's charge is found by it.
  const look = async (): Promise<GatewayTransaction[] | undefined> => {
    const agreementOrderId = known.agreement?.agreement_order_id ?? (await ctx.lookupOne(agreementId, "saved-card charge"))?.shopOrderId
    if (!agreementOrderId) return undefined
    known = { ...data, agreement: { ...agreement, agreement_order_id: agreementOrderId } }
    return ctx.lookup({ shopOrderId: agreementOrderId }, "saved-card charge")
  }
  // Medusa's completions lock the cart, but the follow-up job and a retry may authorize the same
  // session too: one decision at a time per session, on every server (the door's lock).
  return ctx.door.move<{ transactions: GatewayTransaction[] | undefined }, SavedCardCharge>({
    kind: "charge",
    subject: sessionSubject(sessionId),
    lockKey: `altapay:saved-card-charge:${sessionId}`,
    attempt: { id: data.order_id, amountMinor: data.amount_minor, currency: data.currency, key: sessionId },
    // The session's charge at AltaPay decides: a retried completion, a lost answer or the return after 3-D Secure never charges twice.
    lookFirst: true,
    recorded: () => false,
    look: async () => ({ transactions: await look() }),
    happened: (record) => chargeForSession(sessionId, record.transactions ?? []) !== undefined,
    adopt: (_attempt, record) => ({ data: known, transaction: chargeForSession(sessionId, record.transactions ?? []) }),
    prepare: async (record) => {
      if (!record?.transactions)
        throw new MedusaError(
          MedusaError.Types.NOT_ALLOWED,
          `AltaPay has no agreement ${agreementId}; the saved card cannot be charged. Choose another card or pay with a new one.`
        )
      await refuseUnlessCardChargeable(ctx, known, sessionId)
      return { send: () => charge(ctx, known, sessionId) }
    },
  })
}

/**
 * Read at the moment of money, not when the session was made: the card must still be saved (not
 * deleted since), and the cart must still be the card holder's (Medusa lets a signed-in holder of a
 * cart id take the cart over, and the session survives when the total does not change).
 */
async function refuseUnlessCardChargeable(ctx: ProviderContext, data: AltaPayPaymentData, sessionId: string): Promise<void> {
  const agreement = data.agreement!
  if (!ctx.query) throw new MedusaError(MedusaError.Types.UNEXPECTED_STATE, "AltaPay: saved cards need ContainerRegistrationKeys.QUERY in the Payment module's dependencies.")
  const owner = await cartCustomerOfSession(ctx.query, sessionId)
  if (owner !== agreement.customer_id) {
    ctx.logger?.warn(`AltaPay ${data.order_id}: the cart is no longer the saved card's holder's (the session was made for another customer); nothing was charged.`)
    throw customerError("saved_card_not_yours")
  }
  const [card] = await queryCustomerCards(ctx.query, { id: agreement.saved_card_id ?? "", customer_id: agreement.customer_id, provider_id: `pp_altapay_${ctx.options.providerId}` })
  if (!card || card.agreement_id !== agreement.agreement_id) {
    throw customerError("saved_card_removed")
  }
}

async function charge(ctx: ProviderContext, data: AltaPayPaymentData, sessionId: string): Promise<SavedCardCharge> {
  const agreementId = data.agreement!.agreement_id!
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
      return { answer: { status: PaymentSessionStatus.REQUIRES_MORE, data: ctx.seal({ ...data, redirect_url: result.redirect.url, failure_reason: null }) } }
    }
    return { data, transaction: result.transaction }
  } catch (error) {
    if (error instanceof AltaPayDeclinedError) {
      const message = error.cardHolderMessage ?? error.merchantMessage ?? customerMessage("card_declined")
      ctx.logger?.warn(`AltaPay ${data.order_id}: the saved card was declined (${error.merchantMessage ?? error.result}).`)
      throw customerError("saved_card_declined", { altapay: message })
    }
    if (error instanceof AltaPayError && error.mayHaveReachedAltaPay) throw error // the door settles a lost answer
    throw toMedusaError(error, "saved-card charge", ctx.logger)
  }
}
