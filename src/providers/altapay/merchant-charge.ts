/**
 * The payment session of a charge the merchant already made on a customer's saved card (an
 * AltaPay agreement; src/lib/saved-cards/merchant-charge/). Nothing is sent to AltaPay here:
 * initiate seals what the session's context names, and authorize accepts it only when AltaPay's
 * own record of the transaction is that charge, for this session's amount and collection.
 */
import type { AuthorizePaymentOutput, InitiatePaymentInput, InitiatePaymentOutput } from "@medusajs/framework/types"
import { MedusaError, PaymentSessionStatus } from "@medusajs/framework/utils"
import type { GatewayTransaction } from "../../altapay"
import { medusaSession } from "../../lib/medusa-mapping/medusa-session"
import { sessionIdFromOrderId, shopOrderIdFor } from "../../lib/medusa-mapping/shop-order-id"
import { sessionStatusFor } from "../../lib/medusa-mapping/status"
import { freshPaymentData, type AltaPayPaymentData } from "../../lib/payment-data/data"
import { withTransaction } from "../../lib/payment-data/transaction-state"
import { terminalFor } from "../../lib/registrations/options"
import { CHARGE_AUTH_TYPE, CHARGE_INFO, merchantChargeContextSchema, merchantChargeIn, paymentInfo } from "../../lib/saved-cards/merchant-charge/context"
import type { ProviderContext } from "./context"

/** Whether Medusa creates this session for a merchant-started charge (its context names one). */
export function isMerchantCharge(input: InitiatePaymentInput): boolean {
  return merchantChargeIn(input.context) !== undefined
}

export async function initiateMerchantCharge(
  ctx: ProviderContext,
  input: InitiatePaymentInput,
  paymentSessionId: string,
  amountMinor: number,
  currency: string
): Promise<InitiatePaymentOutput> {
  const parsed = merchantChargeContextSchema.safeParse(merchantChargeIn(input.context))
  if (!parsed.success) {
    throw new MedusaError(MedusaError.Types.INVALID_DATA, `AltaPay initiate: the merchant charge is incomplete (${parsed.error.issues.map((i) => i.path.join(".")).join(", ")}).`)
  }
  const charge = parsed.data
  let orderId: string
  try {
    // The session's own shop_orderid, as for every session: code mapping data to a session reads it.
    orderId = shopOrderIdFor(paymentSessionId)
  } catch (error) {
    throw new MedusaError(MedusaError.Types.INVALID_DATA, `AltaPay initiate: ${(error as Error).message}`)
  }
  const data: AltaPayPaymentData = {
    ...freshPaymentData({
      // The schema needs one; a charge has no Checkout session, and its transaction names it.
      altapay_session_id: charge.transaction_id,
      order_id: orderId,
      amount_minor: amountMinor,
      currency,
      terminal: terminalFor(ctx.options, currency) ?? null,
      auto_capture: ctx.options.autoCapture,
      order_lines: charge.order_lines ?? [],
      order_lines_source: "summary",
    }),
    transaction_id: charge.transaction_id,
    agreement: {
      mode: "merchant_charge",
      customer_id: charge.customer_id,
      saved_card_id: charge.saved_card_id,
      agreement_id: charge.agreement_id,
      agreement_order_id: charge.agreement_order_id,
      payment_collection_id: charge.payment_collection_id,
    },
  }
  return { id: charge.transaction_id, status: PaymentSessionStatus.PENDING, data: ctx.seal(data) }
}

/**
 * AUTHORIZED (reserved) or CAPTURED (captured) only when AltaPay's transaction is a charge on the
 * session's agreement that names the session's payment collection, for exactly the session's
 * amount and currency; the session must be in that collection. Anything else is ERROR, with why.
 */
export async function authorizeMerchantCharge(ctx: ProviderContext, data: AltaPayPaymentData): Promise<AuthorizePaymentOutput> {
  const refuse = (reason: string): AuthorizePaymentOutput => {
    ctx.logger?.warn(`AltaPay authorize ${data.order_id} (merchant charge): ${reason}; not authorized.`)
    return { status: PaymentSessionStatus.ERROR, data: ctx.seal({ ...data, failure_reason: reason }) }
  }
  const agreement = data.agreement
  if (!data.transaction_id || !agreement?.agreement_order_id || !agreement.payment_collection_id) return refuse("the session names no charge")
  if (ctx.query) {
    const medusa = await medusaSession(ctx.query, sessionIdFromOrderId(data.order_id))
    if (medusa && medusa.collectionId !== agreement.payment_collection_id) return refuse(`the charge pays collection ${agreement.payment_collection_id}, not this session's`)
  }
  const transaction = await ctx.lookupOne(data.transaction_id, "merchant charge check")
  const mismatch = chargeMismatch(transaction, agreement.agreement_order_id, agreement.payment_collection_id)
  if (mismatch) return refuse(mismatch)
  // The charge is on the agreement's terminal: its agreement, not the terminal list, ties it to the registration.
  const { status, reason } = sessionStatusFor(transaction, { amountMinor: data.amount_minor, currency: data.currency })
  if (status !== PaymentSessionStatus.AUTHORIZED && status !== PaymentSessionStatus.CAPTURED) {
    return refuse(reason ?? `AltaPay shows transaction ${data.transaction_id} as ${transaction?.transactionStatus ?? "unknown"}`)
  }
  return {
    status,
    data: ctx.seal({
      ...withTransaction(data, transaction),
      auto_capture: status === PaymentSessionStatus.CAPTURED,
      failure_reason: null,
      authorized_at: data.authorized_at ?? new Date().toISOString(),
    }),
  }
}

function chargeMismatch(transaction: GatewayTransaction | undefined, agreementOrderId: string, collectionId: string): string | undefined {
  if (!transaction) return "AltaPay has no such transaction"
  const id = transaction.transactionId
  if (transaction.authType !== CHARGE_AUTH_TYPE) return `transaction ${id} is not a charge on an agreement (${transaction.authType ?? "no authType"})`
  if (transaction.shopOrderId !== agreementOrderId) return `transaction ${id} is not a charge on this agreement`
  const named = paymentInfo(transaction, CHARGE_INFO.collection)
  if (named !== collectionId) return `transaction ${id} pays ${named ? `collection ${named}` : "no Medusa collection"}, not ${collectionId}`
  return undefined
}
