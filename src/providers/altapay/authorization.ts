/** authorizePayment: whether AltaPay reserved exactly what the session asked, on our terminal, and who found out. */
import type { AuthorizePaymentInput, AuthorizePaymentOutput } from "@medusajs/framework/types"
import { PaymentSessionStatus } from "@medusajs/framework/utils"
import type { GatewayTransaction } from "../../altapay"
import { reconcilerOf } from "../../lib/callbacks/reconciled-by"
import { namesSession, sessionIdFromOrderId } from "../../lib/medusa-mapping/shop-order-id"
import { agreementSetUpFor, isOpenAtAltaPay, openPaymentStatus, sessionStatusFor, transactionForOrder as forOrder } from "../../lib/medusa-mapping/status"
import { openPaymentData, type AltaPayPaymentData } from "../../lib/payment-data/data"
import { withTransaction } from "../../lib/payment-data/transaction-state"
import { acceptedTerminals, terminalFor } from "../../lib/registrations/options"
import { chargeSavedCard, type SavedCardCharge } from "./agreement-charges"
import { assertSessionStillFits } from "./session-still-fits"
import { checkFraud } from "./fraud-check"
import type { ProviderContext } from "./context"
import { authorizeMerchantCharge } from "./merchant-charge"
import { authorizeCarried } from "./order-edit"
import { dataFromMedusa } from "./unsealed-session"

/**
 * Authorizes the session Medusa names (its id is the idempotency key) and no other: the sealed
 * data must be that session's, and the AltaPay payment whose shop_orderid is that id must have
 * reserved exactly the sealed amount, in the sealed currency, on one of the registration's
 * terminals. Data whose seal does not verify (a key change) is replaced by Medusa's own amount
 * and currency of the session (unsealed-session.ts). Medusa is told the capture AltaPay really made,
 * whatever capture mode the session was created with (captureModeChange).
 */
export async function authorizeSession(ctx: ProviderContext, input: AuthorizePaymentInput): Promise<AuthorizePaymentOutput> {
  const sessionId = input.context?.idempotency_key
  const opened = openPaymentData(input.data, ctx.sealKeys)
  const refusal = !sessionId
    ? "Medusa passed no payment session id"
    : opened.sealed && !namesSession(opened.data.order_id, sessionId)
      ? `the data is payment session ${opened.data.order_id}'s`
      : undefined
  // Sealed under another key (or not ours): only Medusa's own figures for this session count.
  let data =
    refusal === undefined
      ? opened.sealed
        ? opened.data
        : await dataFromMedusa(opened, sessionId!, {
            query: ctx.query,
            logger: ctx.logger,
            autoCapture: ctx.options.autoCapture,
            terminalFor: (currency) => terminalFor(ctx.options, currency) ?? null,
          })
      : undefined
  if (!data) {
    const why = refusal ?? (opened.sealed ? "" : `${opened.problem}, and Medusa's own amount for the session could not be read`)
    ctx.logger?.warn(`AltaPay authorize ${sessionId ?? "(no session id)"}: ${why}; not authorized, and nothing was asked of AltaPay.`)
    return { status: PaymentSessionStatus.ERROR, data: input.data }
  }
  if (data.agreement?.mode === "merchant_charge") return authorizeMerchantCharge(ctx, data)
  if (data.order_edit?.carried) return authorizeCarried(ctx, data)
  // Medusa never compares the payment with the cart or order it pays: one changed since is refused before AltaPay is asked.
  await assertSessionStillFits(ctx, sessionId!, data)
  const found = await sessionPayment(ctx, data)
  if ("answer" in found) return found.answer
  data = found.data
  const expected = { amountMinor: data.amount_minor, currency: data.currency, terminals: terminalsFor(ctx, data) }
  const stated = sessionStatusFor(found.transaction, expected)
  // Open at AltaPay (a bank or acquirer still deciding): Medusa may place the order and await the payment.
  const openOrStated = found.transaction && isOpenAtAltaPay(found.transaction) ? openPaymentStatus() : stated.status
  // The registration's fraud policy: Deny releases (through the door), Challenge holds capture.
  const checked = await checkFraud(ctx, data, found.transaction, openOrStated)
  const { status, transaction } = checked
  data = checked.data
  const reason = found.reason ?? stated.reason ?? checked.reason
  if (reason) ctx.logger?.warn(`AltaPay authorize ${data.order_id}: ${reason}`)
  if (stated.notice) ctx.logger?.warn(`AltaPay authorize ${data.order_id}: ${stated.notice}`)
  const modeChange = captureModeChange(transaction, status, data.auto_capture)
  if (modeChange) ctx.logger?.warn(`AltaPay authorize ${data.order_id}: ${modeChange.warning}`)
  const authorized = status === PaymentSessionStatus.AUTHORIZED || status === PaymentSessionStatus.CAPTURED
  const now = new Date().toISOString()
  const authorizedAt = authorized ? (data.authorized_at ?? now) : null
  const reconciled = { at: now, by: await reconcilerOf(ctx.store, sessionIdFromOrderId(data.order_id)) }
  const autoCapture = modeChange ? modeChange.autoCapture : data.auto_capture
  return {
    status,
    data: ctx.seal({ ...withTransaction(data, transaction), auto_capture: autoCapture, failure_reason: reason ?? null, authorized_at: authorizedAt, reconciled }),
  }
}

/**
 * The AltaPay payment of the session: its own shop_orderid's, or its charge on a saved card (made
 * here when there is none yet). A card saved while paying gets its agreement id recorded.
 */
async function sessionPayment(ctx: ProviderContext, data: AltaPayPaymentData): Promise<SavedCardCharge> {
  if (data.agreement?.mode === "saved_card") return chargeSavedCard(ctx, data, sessionIdFromOrderId(data.order_id))
  const transactions = await ctx.lookup({ shopOrderId: data.order_id }, "authorization")
  const setUp = data.agreement?.mode === "setup" ? agreementSetUpFor(data.order_id, transactions) : undefined
  const withAgreement = setUp && data.agreement ? { ...data, agreement: { ...data.agreement, agreement_id: setUp.transactionId } } : data
  return { data: withAgreement, transaction: forOrder(data.order_id, transactions) }
}

/**
 * When AltaPay's capture at authorization is not the one the session was created with (the browser's
 * CUSTOMER token may change the AltaPay session's `autoCapture`; some methods never capture at once),
 * Medusa is told what AltaPay did, never what was configured: a captured payment is reported
 * captured (Medusa then never captures it again, and a cancelled order is refunded, not released);
 * a payment only reserved is reported authorized (reporting it captured would make Medusa book money
 * AltaPay never took, and the reservation would lapse). The data then records the mode AltaPay used.
 */
function captureModeChange(transaction: GatewayTransaction | undefined, status: PaymentSessionStatus, autoCapture: boolean): { autoCapture: boolean; warning: string } | undefined {
  const id = transaction?.transactionId
  if (status === PaymentSessionStatus.CAPTURED && !autoCapture) {
    return {
      autoCapture: true,
      warning: `AltaPay captured transaction ${id} already, though this session was created without autoCapture (its AltaPay session may have been changed from the browser); recorded as captured, so Medusa will not capture it again and a cancelled order needs a refund.`,
    }
  }
  if (status === PaymentSessionStatus.AUTHORIZED && autoCapture) {
    return {
      autoCapture: false,
      warning: `AltaPay only reserved transaction ${id}, though this session was created with autoCapture (the payment method does not capture at once, or its AltaPay session was changed from the browser); recorded as authorized: capture it from the order page before the reservation expires.`,
    }
  }
  return undefined
}

/**
 * The registration's terminals, plus the one this server sealed into the session when it created it:
 * a payment made on the terminal we asked for still counts after the merchant changes `terminal(s)`.
 */
function terminalsFor(ctx: ProviderContext, data: AltaPayPaymentData): string[] | undefined {
  const configured = acceptedTerminals(ctx.options, data.currency)
  return configured && data.terminal && !configured.includes(data.terminal) ? [...configured, data.terminal] : configured
}
