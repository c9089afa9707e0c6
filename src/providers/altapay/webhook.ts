/**
 * getWebhookActionAndData: an AltaPay callback -> Medusa's webhook action. With a callback secret
 * the callback is verified (on when it reached this store) and, when freshly signed, trusted; without
 * one, or when its signature is stale, nothing in it is trusted and AltaPay's own record decides. Either way, who reconciled is noted for authorize.
 */
import type { ProviderWebhookPayload, WebhookActionResult } from "@medusajs/framework/types"
import { PaymentActions } from "@medusajs/framework/utils"
import { AltaPayCallbackSignatureError, CHARGEBACK_STATUS, isFreshlySigned, parseCallback, type AltaPayCallback, type GatewayTransaction } from "../../altapay"
import { arrivalTime } from "../../lib/callbacks/arrival"
import { chargedSessionAction, confirmedActionFor, statedAction } from "../../lib/callbacks/confirmed-action"
import type { StrandedNote } from "../../lib/follow-up/stranded"
import { noteCallbackReceived, noteCallbackRefused, noteRefused } from "../../lib/health/hooks"
import { noteReconciler } from "../../lib/callbacks/reconciled-by"
import { webhookRawBody } from "../../lib/callbacks/webhook-body"
import { registrationName } from "../../lib/observability/observer"
import { countLatePost } from "../../lib/observability/telemetry"
import { medusaSession, type MedusaSession } from "../../lib/medusa-mapping/medusa-session"
import { otherPaymentsFor, transactionForOrder } from "../../lib/medusa-mapping/status"
import { sessionIdFromOrderId } from "../../lib/medusa-mapping/shop-order-id"
import type { ProviderContext } from "./context"

export async function webhookAction(ctx: ProviderContext, payload: ProviderWebhookPayload["payload"]): Promise<WebhookActionResult> {
  const rawBody = webhookRawBody(payload.rawData)
  let callback: AltaPayCallback
  // A signed callback is trusted as it stands; an unsigned one (no secret) or a stale one is only
  // a hint to ask AltaPay: a retry keeps its first `t`, and AltaPay's own verifiers ignore the age.
  let trusted = false
  // Medusa before 2.14.2 and 2.15.1 keeps only JSON bodies raw (medusajs/medusa#15202): AltaPay's
  // form post arrives parsed, and a signature over bytes nobody kept cannot be checked.
  const unverifiable = rawBody.length === 0 && hasFields(payload.data)
  if (unverifiable && ctx.options.callbackSecret) warnUnverifiable(ctx)
  try {
    if (ctx.options.callbackSecret && !unverifiable) {
      // Judged on when the callback reached this store (stamped by the plugin's middleware), not
      // on when Medusa's event subscriber gets to it; without a stamp, now.
      const arrivedAt = arrivalTime(payload.headers, rawBody, ctx.arrivalKeys)
      trusted = isFreshlySigned({
        rawBody,
        signatureHeader: headerOf(payload.headers, "altapay-signature"),
        secret: ctx.options.callbackSecret,
        toleranceSeconds: ctx.options.callbackToleranceSeconds,
        now: () => arrivedAt ?? Date.now(),
      })
      if (!trusted) {
        ctx.logger?.info("AltaPay callback: signed, but older than callbackToleranceSeconds; AltaPay's record decides.")
        countLatePost(registrationName(ctx.options))
      }
    }
    callback = parseCallback(rawBody.length > 0 ? rawBody.toString("utf8") : (payload.data as Record<string, unknown>))
  } catch (error) {
    // Logged without the body: it may carry card and customer details.
    ctx.logger?.warn(`AltaPay callback refused: ${error instanceof Error ? error.message : String(error)}${unsignedHint(error)}`)
    await noteCallbackRefused(ctx.scaleOut, ctx.options, error)
    return { action: PaymentActions.NOT_SUPPORTED }
  }
  await noteCallbackReceived(ctx.scaleOut, ctx.options, ctx.arrivalKeys, { headers: payload.headers, rawBody })
  // Medusa has no payment state for a chargeback: no workflow runs. The plugin's subscriber
  // (src/subscribers/altapay-chargebacks.ts) records it on the payment and tells the merchant.
  if (callback.status === CHARGEBACK_STATUS) return { action: PaymentActions.NOT_SUPPORTED }
  // A saved card's charge keeps the agreement's shop_orderid, which names another session.
  if (callback.type === "subscription_payment") return chargeAction(ctx, callback)
  // shop_orderid is the session's id with `-` for `_`, or the id itself for sessions made before that.
  const sessionId = sessionIdFromOrderId(callback.shopOrderId)
  // Signed but without the amount or currency Medusa needs: AltaPay's record supplies them.
  const stated = trusted ? statedAction(callback) : undefined
  const confirmed = stated ? { result: stated, transactionId: callback.transactionId, transactions: undefined } : await confirmedAction(ctx, callback.shopOrderId)
  return forMedusa(ctx, sessionId, confirmed.result, { shopOrderId: callback.shopOrderId }, confirmed.transactionId, confirmed.transactions)
}

/**
 * A saved card's charge (the callback after its 3-D Secure page): the session it pays is the one
 * AltaPay's record of the charge names in its transaction_info, never the posted shop_orderid (the
 * agreement's, i.e. the session that saved the card). Asked by its transaction id, signed or not:
 * the record also gives the amount. Then as any paid callback: Medusa's workflow for a session
 * Medusa has, a note for the follow-up job (where to find the charge) for one it no longer has.
 */
async function chargeAction(ctx: ProviderContext, callback: AltaPayCallback): Promise<WebhookActionResult> {
  if (!callback.transactionId) return { action: PaymentActions.NOT_SUPPORTED }
  const charge = (await ctx.lookup({ transactionId: callback.transactionId }, "callback confirmation")).find((t) => t.transactionId === callback.transactionId)
  const paid = charge && chargedSessionAction(charge, callback.shopOrderId)
  if (!paid) return { action: PaymentActions.NOT_SUPPORTED }
  return forMedusa(ctx, paid.sessionId, paid.result, { agreementOrderId: callback.shopOrderId }, charge.transactionId)
}

/**
 * A paid action goes to Medusa only for a session Medusa has, and, once Medusa holds a payment of
 * it, only for that payment's own transaction; anything else as it is.
 */
async function forMedusa(
  ctx: ProviderContext,
  sessionId: string,
  result: WebhookActionResult,
  at: Pick<StrandedNote, "shopOrderId" | "agreementOrderId">,
  transactionId: string | undefined,
  transactions?: GatewayTransaction[]
): Promise<WebhookActionResult> {
  if (result.action !== PaymentActions.AUTHORIZED && result.action !== PaymentActions.SUCCESSFUL) return result
  // Medusa runs processPaymentWorkflow on this next: only for a session Medusa has (see strandedSession).
  const session = await medusaHas(ctx, sessionId, at)
  if (!session) return { action: PaymentActions.NOT_SUPPORTED }
  // Given SUCCESSFUL for a session that has a payment, Medusa captures that payment for the posted
  // amount. A customer's token can put any shop_orderid on its own session, so a payment the
  // customer made elsewhere (captured at once) would capture another order's reservation.
  // Or the customer paid twice (an app payment approved after paying again): the follow-up job gives that one back.
  if (session.paymentTransactionId && session.paymentTransactionId !== transactionId) {
    if (transactionId) await ctx.stranded.noteSecondPayment(sessionId, transactionId, "AltaPay callback", ctx.logger, at.shopOrderId)
    else
      ctx.logger?.warn(
        `AltaPay callback for payment session ${sessionId}: it states no transaction, and Medusa's payment ${session.paymentId} holds ${session.paymentTransactionId}; nothing done.`
      )
    return { action: PaymentActions.NOT_SUPPORTED }
  }
  if (!session.paymentTransactionId && at.shopOrderId) await noteOtherPayments(ctx, sessionId, at.shopOrderId, transactions)
  // Medusa authorizes the session next (processPaymentWorkflow): the payment records the callback did.
  await noteReconciler(ctx.store, sessionId, "callback")
  return result
}

/**
 * Before Medusa holds a payment of the session, authorize records the one transactionForOrder picks
 * (the latest paid), whichever transaction this callback is for: every other paid one under the
 * shop_orderid is a second payment, noted now since its own callback may be spent already. The
 * follow-up gives one back only once Medusa holds another. A signed callback asks AltaPay here only;
 * a failed look-up is logged and the callback still goes on (the session's follow-up remains).
 */
async function noteOtherPayments(ctx: ProviderContext, sessionId: string, shopOrderId: string, known: GatewayTransaction[] | undefined): Promise<void> {
  let transactions = known
  if (!transactions) {
    try {
      transactions = await ctx.lookup({ shopOrderId }, "second-payment check")
    } catch (error) {
      ctx.logger?.warn(
        `AltaPay callback for payment session ${sessionId}: could not ask AltaPay for other payments under ${shopOrderId} (${error instanceof Error ? error.message : String(error)}); none noted.`
      )
      return
    }
  }
  for (const other of otherPaymentsFor(shopOrderId, transactions)) await ctx.stranded.noteSecondPayment(sessionId, other.transactionId, "AltaPay callback", ctx.logger, shopOrderId)
}

/**
 * The session a paid callback names, as Medusa has it; undefined when Medusa does not. Given a session id it does not have,
 * Medusa's processPaymentWorkflow looks the cart up with an undefined payment collection id, which
 * matches every row, and completes a stranger's cart. Such a payment (made on a session Medusa
 * deleted) is noted for the follow-up job instead. Without the query dependency nothing can be
 * checked, so nothing is started: the customer's return and the follow-up job still record it.
 */
async function medusaHas(ctx: ProviderContext, sessionId: string, at: Pick<StrandedNote, "shopOrderId" | "agreementOrderId">): Promise<MedusaSession | undefined> {
  if (!ctx.query) {
    ctx.logger?.warn(
      `AltaPay callback for ${sessionId}: not acted on, since the Payment module has no \`query\` dependency to check the session with; add ContainerRegistrationKeys.QUERY to its dependencies. The customer's return and the follow-up job record the payment meanwhile.`
    )
    return undefined
  }
  // A failing read throws: Medusa's event retry runs again.
  const session = await medusaSession(ctx.query, sessionId)
  if (session) return session
  await ctx.stranded.noteUnknown(sessionId, "AltaPay callback", ctx.logger, at)
  await noteRefused(ctx.scaleOut, ctx.options, "callback", "unknown-session")
  return undefined
}

/**
 * Without a callback secret, or with a stale signature, nothing in a callback is trusted: AltaPay's own record decides. A
 * look-up that fails throws, so Medusa's event retry (attempts: 3, Redis event bus) runs again.
 */
async function confirmedAction(
  ctx: ProviderContext,
  shopOrderId: string
): Promise<{ result: WebhookActionResult; transactionId: string | undefined; transactions: GatewayTransaction[] }> {
  const transactions = await ctx.lookup({ shopOrderId }, "callback confirmation")
  return { result: confirmedActionFor(shopOrderId, transactions), transactionId: transactionForOrder(shopOrderId, transactions)?.transactionId, transactions }
}

function hasFields(data: unknown): boolean {
  return !!data && typeof data === "object" && Object.keys(data).length > 0
}

let toldUnverifiable = false

/** Once per process: every callback is a hint to ask AltaPay until Medusa keeps the raw body. */
function warnUnverifiable(ctx: ProviderContext): void {
  if (toldUnverifiable) return
  toldUnverifiable = true
  ctx.logger?.warn(
    "AltaPay callbacks: this Medusa does not keep a form post's raw body (Medusa before 2.14.2, and 2.15.0, keep only JSON bodies raw), so AltaPay-Signature cannot be checked. Each callback is taken as a hint and AltaPay's own record decides, one look-up per callback; chargeback notifications, which must be signed, are not recorded. Upgrade Medusa to 2.14.2, 2.15.1 or later to have callbacks verified."
  )
}

function headerOf(headers: Record<string, unknown>, name: string): string | undefined {
  const value = headers[name] ?? Object.entries(headers).find(([k]) => k.toLowerCase() === name)?.[1]
  return Array.isArray(value) ? String(value[0]) : typeof value === "string" ? value : undefined
}

/** Every callback unsigned while callbackSecret is set: AltaPay has no webhook secret, which only the merchant can add. */
function unsignedHint(error: unknown): string {
  if (!(error instanceof AltaPayCallbackSignatureError) || !/carries no AltaPay-Signature/.test(error.message)) return ""
  return " AltaPay signs only with a webhook secret of its own: add one equal to callbackSecret in AltaPay's Merchant Interface (Settings > Configuration, Webhook Secrets)."
}
