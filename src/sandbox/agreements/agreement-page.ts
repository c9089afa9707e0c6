/**
 * The hosted page of an agreement's set-up (createPaymentRequest's Url), and what follows a charge's
 * 3-D Secure challenge. Submitting the set-up page makes the agreement (after a 3-D Secure challenge
 * where the card or amount asks for one: setting an agreement up is customer-initiated, where
 * AltaPay's Agreements page says Strong Customer Authentication takes place), posts the signed
 * callback (notification, then callback_ok or callback_fail, carrying credit_card_token and the
 * masked card) and relays the shop's redirect to the browser, as the checkout's page does.
 */
import { minorToDecimal } from "../../altapay/money"
import { challengeUrl } from "../challenges"
import { unixSeconds } from "../clock"
import { legacyChecksum, outcomeStatus, post, recordDelivery, signatureHeader, type PostAnswer } from "../callbacks/callbacks"
import type { Exchange, SandboxEnv } from "../env"
import { paymentsResponse } from "../gateway/gateway-xml"
import { escapeHtml, html, redirect, type Reply } from "../http"
import type { StoredTransaction } from "../state"
import { needsChallenge, setupOutcome, TEST_CARDS } from "../test-cards"
import { cardFrom, isExpired, type PendingChallenge, type SandboxCard, type SetupRequest, type StoredAgreement } from "./agreements"
import { chargeTransaction, setupTransaction } from "./charges"

export const page = (status: number, title: string, content: string): Reply =>
  html(status, `<!doctype html><html lang="en"><head><meta charset="utf-8"><title>${escapeHtml(title)}</title></head><body><h1>${escapeHtml(title)}</h1>${content}</body></html>`)

export function showAgreementPage(ex: Exchange, requestId: string): Reply {
  const request = ex.env.store.agreements.requests.get(requestId)
  if (!request) return page(404, "Payment request not found", "<p>This payment request does not exist.</p>")
  if (request.transactionId) return page(409, "Already submitted", "<p>This card has already been submitted.</p>")
  const amount = `${minorToDecimal(request.amountMinor, request.currency.alpha)} ${request.currency.alpha}`
  return page(
    200,
    "AltaPay sandbox: save a card",
    `<p>Order <span id="order">${escapeHtml(request.shopOrderId)}</span>, ${escapeHtml(amount)}, agreement ${escapeHtml(request.agreementType)}.</p>` +
      `<form method="post"><label>Card <input name="card_number" value="${TEST_CARDS.visa}"></label>` +
      `<label>Month <input name="expiry_month" value="12"></label><label>Year <input name="expiry_year" value="2030"></label>` +
      `<button name="outcome" value="authorize" id="authorize">Save card</button><button name="outcome" value="decline" id="decline">Decline</button></form>`
  )
}

export interface CardInput {
  cardNumber?: string
  expiryMonth?: string
  expiryYear?: string
  outcome?: "authorize" | "decline"
}

export interface SetupResult {
  reply: Reply
  agreement?: StoredAgreement
  transaction?: StoredTransaction
  /** The 3-D Secure page the customer was sent to; nothing is set up until it is answered. */
  challengeUrl?: string
}

/** Submits the set-up page (also `sandbox.agreements.submit`): the agreement, its callbacks, the customer's way on. */
export async function submitAgreement(env: SandboxEnv, requestId: string, input: CardInput): Promise<SetupResult> {
  const request = env.store.agreements.requests.get(requestId)
  if (!request) return { reply: page(404, "Payment request not found", "<p>This payment request does not exist.</p>") }
  if (request.transactionId || request.challengeId) return { reply: page(409, "Already submitted", "<p>This card has already been submitted.</p>") }
  const cardNumber = input.cardNumber ?? TEST_CARDS.visa
  const card = cardFrom(cardNumber, input.expiryMonth ?? "12", input.expiryYear ?? "2030", requestId)
  if (typeof card === "string") return { reply: page(400, "Card refused", `<p>${escapeHtml(card)}</p>`) }
  const declined = input.outcome === "decline" ? "Card declined" : isExpired(card, env.now()) ? "Card expired" : setupRefusal(cardNumber, request)
  if (!declined && needsChallenge(cardNumber, request.amountMinor, request.currency.alpha)) {
    request.challengeId = env.store.challenges.open({ kind: "setup", requestId, card })
    const url = challengeUrl(env.url, request.challengeId)
    return { reply: redirect(303, url), challengeUrl: url }
  }
  return finishSetup(env, request, card, { declined })
}

/** Why AltaPay's TestAcquirer refuses this set-up (test-cards.ts), or undefined. */
function setupRefusal(cardNumber: string, request: SetupRequest): string | undefined {
  const outcome = setupOutcome(cardNumber, request.amountMinor, request.currency.alpha, request.type)
  if (outcome === "declined") return "Card declined (TestAcquirer test card or amount)"
  if (outcome === "error") return "The acquirer failed to process the card (TestAcquirer test card or amount)"
  return undefined
}

/** The set-up page's result once the card is known (and any challenge answered): the transaction, the agreement, the callbacks. */
export async function finishSetup(
  env: SandboxEnv,
  request: SetupRequest,
  card: SandboxCard & { threeDSecure: boolean },
  { declined, threeDSecure }: { declined?: string; threeDSecure?: "Successful" | "Declined" }
): Promise<SetupResult> {
  const t = setupTransaction(env, request, card, declined)
  if (threeDSecure) t.threeDSecureResult = threeDSecure
  request.transactionId = t.transactionId
  let agreement: StoredAgreement | undefined
  if (!declined) {
    agreement = {
      id: t.transactionId,
      paymentRequestId: request.paymentRequestId,
      type: request.agreementType,
      unscheduledType: request.unscheduledType,
      card,
      terminal: request.terminal,
      currency: request.currency,
      amountMinor: request.amountMinor,
      shopOrderId: request.shopOrderId,
      status: "active",
      callbacks: request.callbacks,
    }
    env.store.agreements.agreements.set(agreement.id, agreement)
  }
  // subscriptionAndReserve/-Charge also pay on this page: a subscription_payment beside the set-up
  // (sdk-csharp SubscriptionResult: Payment recurring_confirmed, RecurringPayment captured).
  const alsoCharged = request.type === "subscriptionAndReserve" || request.type === "subscriptionAndCharge"
  const charge =
    agreement && alsoCharged
      ? chargeTransaction(env, agreement, {
          id: request.paymentRequestId,
          agreementId: agreement.id,
          method: request.type === "subscriptionAndCharge" ? "chargeSubscription" : "reserveSubscriptionCharge",
          amountMinor: request.amountMinor,
          orderLines: request.orderLines,
          transactionInfo: request.transactionInfo,
        })
      : undefined
  const relayed = await deliverOutcome(env, request.callbacks, { setUp: t, charge, type: request.type, failed: Boolean(declined), amountMinor: request.amountMinor })
  if (relayed) return { reply: relayed, agreement, transaction: t }
  const status = outcomeStatus(t)
  return {
    reply: page(200, declined ? "Card not saved" : "Card saved", `<p id="result" data-status="${status}">Agreement ${escapeHtml(t.transactionId)}: ${escapeHtml(status)}.</p>`),
    agreement,
    transaction: t,
  }
}

export async function submitAgreementPage(ex: Exchange, requestId: string): Promise<Reply> {
  const form = new URLSearchParams(ex.rawBody)
  const outcome = form.get("outcome") === "decline" ? "decline" : "authorize"
  ex.params = { requestId, outcome, expiry: `${form.get("expiry_month") ?? ""}/${form.get("expiry_year") ?? ""}` }
  const { reply } = await submitAgreement(ex.env, requestId, {
    cardNumber: form.get("card_number") ?? undefined,
    expiryMonth: form.get("expiry_month") ?? undefined,
    expiryYear: form.get("expiry_year") ?? undefined,
    outcome,
  })
  return reply
}

interface Outcome {
  /** The set-up transaction (its card and shop_orderid); the agreement id. */
  setUp: StoredTransaction
  /** The charge made with it (subscriptionAndReserve/-Charge, or a charge after 3-D Secure). */
  charge?: StoredTransaction
  /** The callback's `type`: the request's type (Magento Controller/Index/Ok.php reads `verifycard`). */
  type: string
  failed: boolean
  /** What the callback's `amount` says: the request's, or the charge's. */
  amountMinor: number
  /** transaction_info of a charge that was not made (a failed challenge); else the transaction's own. */
  transactionInfo?: Record<string, string>
}

/**
 * Posts the notification, then callback_ok or callback_fail, and relays the shop's redirect to the
 * browser as the checkout's page does; undefined when the shop sent the customer nowhere.
 */
async function deliverOutcome(env: SandboxEnv, callbacks: Record<string, string>, outcome: Outcome): Promise<Reply | undefined> {
  const notification = callbacks.callback_notification
  if (notification) await deliver(env, outcome, notification, "callback.notification")
  const target = outcome.failed ? callbacks.callback_fail : callbacks.callback_ok
  const answer = target ? await deliver(env, outcome, target, outcome.failed ? "callback.failure" : "callback.success") : undefined
  if (answer && [301, 302, 303, 307].includes(answer.status) && answer.location && /^https?:\/\//.test(answer.location)) return redirect(303, answer.location)
  return undefined
}

/** The signed callback of a set-up, as every AltaPay callback, plus the card: credit_card_token and masked_credit_card. */
async function deliver(env: SandboxEnv, { setUp, charge, type, amountMinor, transactionInfo }: Outcome, target: string, operation: string): Promise<PostAnswer> {
  const fields = new URLSearchParams()
  // The payment the callback reports: the charge when there is one (its amount, status and infos).
  const t = charge ?? setUp
  const amount = minorToDecimal(amountMinor, t.currency.alpha)
  const entries: [string, string][] = [
    ["shop_orderid", t.shopOrderId],
    ["amount", amount],
    ["currency", t.currency.numeric],
    ["type", type],
    ["transaction_id", t.transactionId],
    ["payment_id", t.paymentId],
    ["status", outcomeStatus(t)],
    ["payment_status", t.status],
    ["require_capture", "false"],
    ["nature", t.nature],
    ["masked_credit_card", setUp.card?.maskedPan ?? ""],
    ["credit_card_token", setUp.card?.token ?? ""],
  ]
  for (const [key, value] of entries) fields.set(key, value)
  if (t.merchantErrorMessage) fields.set("error_message", t.merchantErrorMessage)
  for (const [key, value] of Object.entries(charge ? t.paymentInfos : (transactionInfo ?? t.paymentInfos))) fields.set(`transaction_info[${key}]`, value)
  fields.set("xml", paymentsResponse(charge ? [setUp, charge] : [setUp], env.now()))
  const secret = env.config.callbackSecret
  if (secret) fields.set("checksum", legacyChecksum({ amount, currency: t.currency.numeric, shop_orderid: t.shopOrderId }, secret))
  const body = fields.toString()
  const headers: Record<string, string> = { "content-type": "application/x-www-form-urlencoded" }
  if (secret) headers["altapay-signature"] = signatureHeader(body, unixSeconds(env.now()), secret)
  const url = new URL(target)
  const answer = await post(url, body, headers)
  recordDelivery(env, url, operation, { transaction_id: t.transactionId, status: outcomeStatus(t), agreement: true }, answer)
  return answer
}

/**
 * A charge's challenge answered (also `sandbox.agreements.completeChallenge`): the charge is made,
 * or nothing is charged. Callbacks are the page's (answerChargeChallenge).
 */
export function completeChargeChallenge(
  env: SandboxEnv,
  challengeId: string,
  outcome: "authenticated" | "failed"
): { status: number; charge?: PendingChallenge; transaction?: StoredTransaction } {
  const challenge = env.store.challenges.get(challengeId)
  if (!challenge) return { status: env.store.challenges.wasAnswered(challengeId) ? 409 : 404 }
  if (challenge.kind !== "charge") return { status: 409 }
  env.store.challenges.close(challengeId)
  const agreement = env.store.agreements.agreements.get(challenge.charge.agreementId)
  if (!agreement || outcome === "failed") return { status: 200, charge: challenge.charge }
  const transaction = chargeTransaction(env, agreement, challenge.charge)
  transaction.threeDSecureResult = "Successful"
  return { status: 200, charge: challenge.charge, transaction }
}

/**
 * The customer answered a charge's 3-D Secure page. Where AltaPay then sends the customer is not
 * documented (our assumption): to the agreement set-up request's callback_ok / callback_fail,
 * posted signed like every callback, with the charge's transaction (its PaymentInfos name the
 * shop's payment), and the shop's redirect relayed. Without such callbacks the page says what happened.
 */
export async function answerChargeChallenge(env: SandboxEnv, challengeId: string, outcome: "authenticated" | "failed"): Promise<Reply> {
  const { status, charge, transaction } = completeChargeChallenge(env, challengeId, outcome)
  if (status !== 200) return page(status, "Challenge not found", "<p>No open 3-D Secure challenge with that id.</p>")
  const agreement = charge && env.store.agreements.agreements.get(charge.agreementId)
  const setUp = agreement && env.store.transactions.get(agreement.id)
  if (agreement && setUp && charge) {
    const relayed = await deliverOutcome(env, agreement.callbacks, {
      setUp,
      charge: transaction,
      type: "subscription_payment",
      failed: !transaction,
      amountMinor: charge.amountMinor,
      transactionInfo: charge.transactionInfo,
    })
    if (relayed) return relayed
  }
  return page(
    200,
    "3-D Secure done",
    `<p id="result" data-status="${transaction ? "succeeded" : "failed"}" data-transaction="${escapeHtml(transaction?.transactionId ?? "")}">${transaction ? "Authenticated" : "Not authenticated"}.</p>`
  )
}

/** A set-up page's challenge answered: the agreement is set up, or the set-up fails (3dsecure_failed is for payments; a set-up is recurring_failed). */
export async function answerSetupChallenge(
  env: SandboxEnv,
  requestId: string,
  card: SandboxCard & { threeDSecure: boolean },
  outcome: "authenticated" | "failed"
): Promise<SetupResult> {
  const request = env.store.agreements.requests.get(requestId)
  if (!request) return { reply: page(404, "Payment request not found", "<p>This payment request does not exist.</p>") }
  return outcome === "authenticated"
    ? finishSetup(env, request, card, { threeDSecure: "Successful" })
    : finishSetup(env, request, card, { declined: "3-D Secure authentication failed", threeDSecure: "Declined" })
}
