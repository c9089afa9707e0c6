/**
 * The AltaPay Checkout session behind a Medusa payment session: created (initiatePayment), changed
 * with the cart (updatePayment) and retired when Medusa replaces the session (deletePayment).
 */
import type { DeletePaymentInput, DeletePaymentOutput, InitiatePaymentInput, InitiatePaymentOutput, UpdatePaymentInput, UpdatePaymentOutput } from "@medusajs/framework/types"
import { MedusaError, PaymentSessionStatus } from "@medusajs/framework/utils"
import { AUTHORIZED_STATUSES, CAPTURED_STATUSES, statusIn } from "../../altapay"
import { sessionCustomer } from "../../lib/medusa-mapping/customer"
import { toMedusaError } from "../../lib/medusa-mapping/errors"
import { sessionIdFromOrderId, shopOrderIdFor } from "../../lib/medusa-mapping/shop-order-id"
import { transactionForOrder as forOrder } from "../../lib/medusa-mapping/status"
import { freshPaymentData, openPaymentData, type AltaPayPaymentData } from "../../lib/payment-data/data"
import { medusaSession } from "../../lib/medusa-mapping/medusa-session"
import { terminalFor } from "../../lib/registrations/options"
import { capturesAtOnce } from "../../lib/payment-methods/methods"
import type { ProviderContext } from "./context"
import type { IdempotencyCache } from "./idempotency"
import { agreementRequestOf, initiateAgreementSession, updateAgreementSession } from "./agreement-sessions"
import { initiateMerchantCharge, isMerchantCharge } from "./merchant-charge"
import { carriesReservation, initiateCarried } from "./order-edit"
import { createRedirectPayment } from "./redirect-payment"
import { contextLines, sameLines } from "./session-lines"

/** Concurrent and repeated calls with one idempotency key share one AltaPay session (for the same amount). */
export function initiateSession(ctx: ProviderContext, initiated: IdempotencyCache<Promise<InitiatePaymentOutput>>, input: InitiatePaymentInput): Promise<InitiatePaymentOutput> {
  const currency = input.currency_code.toUpperCase()
  const amountMinor = ctx.minor(input.amount, currency, "initiate")
  const key = input.context?.idempotency_key
  // The one key of the browser-writable data read here: Medusa writes session_id over it, last.
  const sessionId = input.data?.session_id
  if (typeof sessionId === "string" && key && sessionId !== key) {
    throw new MedusaError(MedusaError.Types.INVALID_DATA, `AltaPay initiate: the payment session id ${sessionId} differs from Medusa's idempotency key ${key}.`)
  }
  const paymentSessionId = String(sessionId ?? key ?? "")
  if (!paymentSessionId) {
    throw new MedusaError(MedusaError.Types.INVALID_DATA, "AltaPay initiate: Medusa passed no payment session id to use as the AltaPay order id.")
  }
  if (isMerchantCharge(input)) return initiateMerchantCharge(ctx, input, paymentSessionId, amountMinor, currency)
  if (carriesReservation(input)) return initiateCarried(ctx, input, paymentSessionId, amountMinor)
  const cacheKey = key ? `${key}:${amountMinor}:${currency}` : undefined
  const previous = cacheKey ? initiated.get(cacheKey) : undefined
  if (previous) return previous
  const created = createSession(ctx, input, paymentSessionId, amountMinor, currency)
  if (cacheKey) {
    initiated.set(cacheKey, created)
    created.catch(() => initiated.delete(cacheKey))
  }
  return created
}

async function createSession(ctx: ProviderContext, input: InitiatePaymentInput, paymentSessionId: string, amountMinor: number, currency: string): Promise<InitiatePaymentOutput> {
  let orderId: string
  try {
    orderId = shopOrderIdFor(paymentSessionId)
  } catch (error) {
    throw new MedusaError(MedusaError.Types.INVALID_DATA, `AltaPay initiate: ${(error as Error).message}`)
  }
  const agreementRequest = agreementRequestOf(input.data)
  if (agreementRequest) return initiateAgreementSession(ctx, input, { paymentSessionId, orderId, amountMinor, currency }, agreementRequest)
  const { lines, source, customer } = await ctx.sessionLines.resolve({ context: input.context, paymentSessionId, amountMinor, currency })
  const terminal = terminalFor(ctx.options, currency) ?? null
  const pageLanguage = await ctx.pageLanguage(paymentSessionId)
  // A method AltaPay captures when the customer pays (Swish) is asked for so: its record then matches the session.
  const autoCapture = capturesAtOnce(ctx.options)
  try {
    const session = await ctx.client.checkout.createSession({
      orderId,
      amountMinor,
      currency,
      orderLines: lines,
      customer: sessionCustomer(input.context, customer),
      transactionInfo: { medusa_payment_session_id: paymentSessionId },
      callbacks: ctx.callbackUrls(),
      configuration: ctx.sessionConfiguration(autoCapture, pageLanguage),
    })
    // The plugin's store route asks for the storefront flow: its browser creates the payment itself.
    const flow = (input.context as { altapay?: { flow?: unknown } } | undefined)?.altapay?.flow === "storefront" ? "storefront" : ctx.options.flow
    const redirect = flow === "redirect" ? await createRedirectPayment(ctx.client, session.sessionId, terminal) : undefined
    return {
      id: session.sessionId,
      status: PaymentSessionStatus.PENDING,
      data: ctx.seal(
        freshPaymentData({
          altapay_session_id: session.sessionId,
          order_id: orderId,
          amount_minor: amountMinor,
          currency,
          terminal,
          auto_capture: autoCapture,
          order_lines: lines,
          order_lines_source: source,
          redirect_url: redirect?.url ?? null,
          payment_id: redirect?.paymentId ?? null,
          page_language: pageLanguage,
        })
      ),
    }
  } catch (error) {
    throw toMedusaError(error, "session creation", ctx.logger)
  }
}

export async function updateSession(ctx: ProviderContext, input: UpdatePaymentInput): Promise<UpdatePaymentOutput> {
  const opened = openPaymentData(input.data, ctx.sealKeys)
  if (!opened.sealed) {
    ctx.logger?.debug(`AltaPay update: ${opened.problem}; nothing was sent to AltaPay.`)
    return { data: input.data }
  }
  const data = opened.data
  const currency = input.currency_code.toUpperCase()
  const amountMinor = ctx.minor(input.amount, currency, "update")
  const sameAmount = amountMinor === data.amount_minor && currency === data.currency
  if (data.transaction_id) {
    if (sameAmount && !contextLines(input.context)) return { data: ctx.seal(data) }
    throw new MedusaError(
      MedusaError.Types.NOT_ALLOWED,
      "AltaPay update: the customer has already paid this session; it cannot change amount or lines. Cancel it and create a new payment session."
    )
  }
  // The same amount can hide other lines (a tax rate or a promotion changed): compare the lines.
  const { lines, source, customer } = await ctx.sessionLines.resolve({ context: input.context, paymentSessionId: sessionIdFromOrderId(data.order_id), amountMinor, currency })
  // The cart's language changed (its locale, its country): AltaPay's page follows it.
  const pageLanguage = await ctx.pageLanguage(sessionIdFromOrderId(data.order_id))
  if (sameAmount && sameLines(lines, data.order_lines) && (data.page_language ?? pageLanguage) === pageLanguage) return { data: ctx.seal(data) }
  if (data.agreement) {
    const changed = { amount_minor: amountMinor, currency, order_lines: lines, order_lines_source: source }
    return { data: ctx.seal(await updateAgreementSession(ctx, { ...data, agreement: data.agreement }, changed)) }
  }
  try {
    await ctx.client.checkout.updateSession(data.altapay_session_id, {
      orderId: data.order_id,
      amountMinor,
      currency,
      orderLines: lines,
      customer: sessionCustomer(input.context, customer),
      callbacks: ctx.callbackUrls(),
      configuration: ctx.sessionConfiguration(data.auto_capture, pageLanguage),
    })
    // The old payment page was for the old amount; a new one replaces it.
    const redirect = data.redirect_url ? await createRedirectPayment(ctx.client, data.altapay_session_id, data.terminal) : undefined
    return {
      data: ctx.seal({
        ...data,
        amount_minor: amountMinor,
        currency,
        order_lines: lines,
        order_lines_source: source,
        page_language: pageLanguage,
        ...(redirect ? { redirect_url: redirect.url, payment_id: redirect.paymentId } : {}),
      }),
    }
  } catch (error) {
    throw toMedusaError(error, "session update", ctx.logger)
  }
}

/**
 * Medusa deletes a session when the cart total or currency changes, when a shopper starts a new
 * one, and when the follow-up job retires it. The old AltaPay session must not stay payable: its
 * pending payment pages are expired (by updating the session).
 *
 * A reservation made on it is never released here: Medusa deletes sessions without the cart's
 * lock, so a cart completion may be authorizing this very session at the same moment (and then
 * Medusa's order depends on the reservation). The session is noted instead (lib/follow-up/stranded.ts)
 * and the follow-up job releases its payment only when, on two runs a grace period apart and under
 * the cart's lock, Medusa shows no payment made from it. Noted for every retired session, paid or
 * not yet: a browser holding the session's CUSTOMER token can still pay it for up to an hour.
 *
 * Medusa passes only `data` here, and it may be a browser's (Medusa deletes sessions before the
 * provider's data is merged in, and rolls back with the browser's data), so only sealed data
 * leads to any AltaPay call or note.
 */
export async function retireSession(ctx: ProviderContext, input: DeletePaymentInput): Promise<DeletePaymentOutput> {
  const opened = openPaymentData(input.data, ctx.sealKeys)
  if (!opened.sealed) {
    ctx.logger?.debug(`AltaPay delete: ${opened.problem}; nothing was sent to AltaPay.`)
    return { data: input.data }
  }
  const data = opened.data
  // Noted even when authorized: Medusa deletes an authorized session only when something went wrong
  // (a completion that authorized it did not become an order); the follow-up job tells which.
  await noteRetired(ctx, data)
  // An agreement session has no Checkout session to expire (its set-up page cannot be expired).
  if (data.authorized_at || data.agreement) return { data: input.data }
  try {
    const transaction = forOrder(data.order_id, await ctx.client.gateway.payments({ shopOrderId: data.order_id }))
    if (transaction && statusIn(transaction.transactionStatus, [...AUTHORIZED_STATUSES, ...CAPTURED_STATUSES])) {
      ctx.logger?.warn(
        `AltaPay ${data.order_id}: the replaced session has a payment (transaction ${transaction.transactionId}, ${transaction.transactionStatus}); the follow-up job keeps it while an order may use it, and releases it (or, captured, tells you to refund it) once Medusa shows none does.`
      )
    }
    if (!transaction) {
      await ctx.client.checkout.updateSession(data.altapay_session_id, {
        orderId: data.order_id,
        amountMinor: data.amount_minor,
        currency: data.currency,
        orderLines: data.order_lines,
        callbacks: ctx.callbackUrls(),
        configuration: ctx.sessionConfiguration(data.auto_capture),
      })
    }
  } catch (error) {
    // Deleting must not block the cart; the amount check at authorization still guards it.
    ctx.logger?.warn(`AltaPay ${data.order_id}: could not retire the replaced session: ${error instanceof Error ? error.message : String(error)}`)
  }
  return { data: input.data }
}

/** The note the follow-up job works from, with the cart Medusa still shows for the session (read before Medusa deletes it). */
async function noteRetired(ctx: ProviderContext, data: AltaPayPaymentData): Promise<void> {
  try {
    const sessionId = sessionIdFromOrderId(data.order_id)
    const medusa = ctx.query ? await medusaSession(ctx.query, sessionId).catch(() => undefined) : undefined
    // A saved card's charge (a 3-D Secure one may complete after this) is listed under its agreement's shop_orderid.
    const savedCard = data.agreement?.mode === "saved_card" ? data.agreement : undefined
    await ctx.stranded.note({
      sessionId,
      shopOrderId: data.order_id,
      ...(savedCard?.agreement_order_id ? { agreementOrderId: savedCard.agreement_order_id } : savedCard?.agreement_id ? { agreementId: savedCard.agreement_id } : {}),
      cartId: medusa?.cartId ?? null,
      collectionId: medusa?.collectionId ?? null,
      amountMinor: data.amount_minor,
      currency: data.currency,
      why: "deleted",
    })
  } catch (error) {
    ctx.logger?.warn(
      `AltaPay ${data.order_id}: the retired session could not be noted for the follow-up job (${error instanceof Error ? error.message : String(error)}); a payment made on it is found by its callback or its customer's return.`
    )
  }
}
