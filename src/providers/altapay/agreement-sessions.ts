/**
 * Payment sessions on AltaPay agreements (issue 32), asked for in the session's `data` through
 * Medusa's own store route: `{ save_card: true }` saves the card while paying, `{ saved_card_id }`
 * pays with one of the customer's saved cards. Medusa's `context.customer` (the signed-in
 * customer; a browser cannot set it) decides whose cards count.
 *
 * Saving goes through AltaPay's hosted page with createPaymentRequest `subscriptionAndReserve`
 * (`subscriptionAndCharge` with autoCapture): the page sets the agreement up and reserves the order
 * in one visit, both under this session's shop_orderid, so the customer's return, the callback and
 * authorization find the payment as for any other session. A saved card is charged at
 * authorization (agreement-charges.ts).
 */
import type { InitiatePaymentInput, InitiatePaymentOutput } from "@medusajs/framework/types"
import { MedusaError, PaymentSessionStatus } from "@medusajs/framework/utils"
import { toMedusaError } from "../../lib/medusa-mapping/errors"
import { sessionIdFromOrderId } from "../../lib/medusa-mapping/shop-order-id"
import { freshPaymentData, type AgreementPayment, type AltaPayPaymentData } from "../../lib/payment-data/data"
import { terminalFor } from "../../lib/registrations/options"
import type { SavedCardRecord } from "../../modules/altapay-saved-cards/types"
import type { ProviderContext } from "./context"

export type AgreementRequest = { kind: "save_card" } | { kind: "saved_card"; savedCardId: string }

/** What the session's (browser-written) data asks for; undefined: an ordinary payment. */
export function agreementRequestOf(data: Record<string, unknown> | undefined): AgreementRequest | undefined {
  const savedCardId = data?.saved_card_id
  const saveCard = data?.save_card
  if (savedCardId !== undefined && savedCardId !== null) {
    if (typeof savedCardId !== "string" || !/^[\w-]{1,64}$/.test(savedCardId)) throw invalid("saved_card_id must be the id of one of your saved cards.")
    if (saveCard === true) throw invalid("send either save_card or saved_card_id, not both.")
    return { kind: "saved_card", savedCardId }
  }
  if (saveCard === undefined || saveCard === null || saveCard === false) return undefined
  if (saveCard !== true) throw invalid("save_card must be true or false.")
  return { kind: "save_card" }
}

interface SessionBasics {
  paymentSessionId: string
  orderId: string
  amountMinor: number
  currency: string
}

/** initiatePayment for a session that saves a card or pays with one. */
export async function initiateAgreementSession(
  ctx: ProviderContext,
  input: InitiatePaymentInput,
  basics: SessionBasics,
  request: AgreementRequest
): Promise<InitiatePaymentOutput> {
  if (!ctx.options.savedCards.enabled) {
    throw new MedusaError(MedusaError.Types.NOT_ALLOWED, `AltaPay: saved cards are off for pp_altapay_${ctx.options.providerId} (its savedCards option).`)
  }
  const customerId = input.context?.customer?.id
  if (!customerId) throw new MedusaError(MedusaError.Types.NOT_ALLOWED, "AltaPay: saving or using a saved card needs a signed-in customer.")
  const { lines, source } = await ctx.sessionLines.resolve({ context: input.context, ...basics })
  const common = {
    order_id: basics.orderId,
    amount_minor: basics.amountMinor,
    currency: basics.currency,
    auto_capture: ctx.options.autoCapture,
    order_lines: lines,
    order_lines_source: source,
  }
  if (request.kind === "saved_card") {
    const card = await customerCard(ctx, customerId, request.savedCardId)
    if (card.currency !== basics.currency) {
      throw invalid(`the saved card is for ${card.currency} payments and this cart is in ${basics.currency}; choose another card or pay with a new one.`)
    }
    const agreement: AgreementPayment = { mode: "saved_card", customer_id: customerId, saved_card_id: card.id, agreement_id: card.agreement_id, agreement_order_id: null }
    // No AltaPay session: the charge is made at authorization, on the card's terminal.
    const data = freshPaymentData({ ...common, altapay_session_id: card.agreement_id, terminal: card.terminal })
    return { id: card.agreement_id, status: PaymentSessionStatus.PENDING, data: ctx.seal({ ...data, masked_pan: card.masked_pan, card_scheme: card.scheme, agreement }) }
  }
  const page = await setUpWhilePaying(ctx, { ...basics, customerId, lines: common.order_lines })
  const agreement: AgreementPayment = { mode: "setup", customer_id: customerId, saved_card_id: null, agreement_id: null, agreement_order_id: basics.orderId }
  const data = freshPaymentData({ ...common, altapay_session_id: page.paymentRequestId, terminal: page.terminal, redirect_url: page.url })
  return { id: page.paymentRequestId, status: PaymentSessionStatus.PENDING, data: ctx.seal({ ...data, agreement }) }
}

/** updatePayment for an agreement session not yet paid: a new set-up page for the new amount, or (saved card) just the new figures. */
export async function updateAgreementSession(
  ctx: ProviderContext,
  data: AltaPayPaymentData & { agreement: AgreementPayment },
  changed: Pick<AltaPayPaymentData, "amount_minor" | "currency" | "order_lines" | "order_lines_source">
): Promise<AltaPayPaymentData> {
  if (data.agreement.mode !== "setup") return { ...data, ...changed }
  // The old page still reserves the old amount: authorization then finds a mismatch and refuses it.
  const page = await setUpWhilePaying(ctx, {
    paymentSessionId: sessionIdFromOrderId(data.order_id),
    orderId: data.order_id,
    amountMinor: changed.amount_minor,
    currency: changed.currency,
    customerId: data.agreement.customer_id,
    lines: changed.order_lines,
  })
  return { ...data, ...changed, altapay_session_id: page.paymentRequestId, redirect_url: page.url, terminal: page.terminal }
}

async function setUpWhilePaying(
  ctx: ProviderContext,
  input: SessionBasics & { customerId: string; lines: AltaPayPaymentData["order_lines"] }
): Promise<{ paymentRequestId: string; url: string; terminal: string }> {
  const terminal = terminalFor(ctx.options, input.currency)
  if (!terminal) throw invalid(`no terminal is configured for ${input.currency} (the terminal or terminals option): AltaPay's hosted page needs one to save a card.`)
  try {
    const request = await ctx.client.agreements.setupAgreement({
      terminal,
      shopOrderId: input.orderId,
      amountMinor: input.amountMinor,
      currency: input.currency,
      type: ctx.options.autoCapture ? "subscriptionAndCharge" : "subscriptionAndReserve",
      // Unscheduled: the customer's later purchases (`charge`) and the merchant's charges both use it.
      agreement: { type: "unscheduled", unscheduledType: "charge" },
      callbacks: ctx.callbackUrls(),
      orderLines: input.lines,
      transactionInfo: { medusa_payment_session_id: input.paymentSessionId, medusa_customer_id: input.customerId },
    })
    return { paymentRequestId: request.paymentRequestId, url: request.url, terminal }
  } catch (error) {
    throw toMedusaError(error, "saved-card set-up", ctx.logger)
  }
}

/** One of the customer's saved cards on this registration; another customer's is "not found". */
async function customerCard(ctx: ProviderContext, customerId: string, cardId: string): Promise<SavedCardRecord> {
  if (!ctx.query) throw new MedusaError(MedusaError.Types.UNEXPECTED_STATE, "AltaPay: saved cards need ContainerRegistrationKeys.QUERY in the Payment module's dependencies.")
  const { data } = await ctx.query.graph({
    entity: "altapay_saved_card",
    fields: ["id", "customer_id", "provider_id", "agreement_id", "masked_pan", "expiry_month", "expiry_year", "scheme", "terminal", "currency"],
    filters: { id: cardId, customer_id: customerId, provider_id: `pp_altapay_${ctx.options.providerId}` },
  })
  const card = (data as SavedCardRecord[])[0]
  if (!card) throw new MedusaError(MedusaError.Types.NOT_FOUND, `Saved card ${cardId} was not found.`)
  return card
}

const invalid = (message: string) => new MedusaError(MedusaError.Types.INVALID_DATA, `AltaPay: ${message}`)
