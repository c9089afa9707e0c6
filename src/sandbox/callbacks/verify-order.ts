/**
 * The shop's last word before the money moves, as AltaPay documents callback_verify_order: "This
 * URL is called just before the payment is processed", after the customer has typed in the card
 * or identified themselves with the payment provider. "To allow the payment to proceed, you must
 * return a HTTP response with code 200, and a HTML/TEXT response with the value OKAY. Anything else
 * results in an error message, and an aborted/declined transaction"; "the first 255 characters of
 * your response is shown as an error message to the customer" (AltaPay's Payment Verify Order Page).
 * HTML/XML tags are stripped first, and an HTTP status other than 200 fails the payment with an
 * error (sdk-csharp AltaPayApi/Service/Requests/Common/PaymentRequestConfig.cs). The callback is
 * "done in the same way as other callbacks" (the same file): the callback form, signed.
 *
 * The sandbox asks when the session names `callbacks.verifyOrder` (how the Checkout API takes the
 * URL is not documented: docs/altapay-wire-facts.md, "Verify order").
 */
import { minorToDecimal } from "../../altapay/money"
import { unixSeconds } from "../clock"
import type { SandboxEnv } from "../env"
import { completePayment, type CompleteResult } from "../payment-flow"
import type { StoredPayment } from "../state"
import { legacyChecksum, post, recordDelivery, signatureHeader } from "./callbacks"

/** What AltaPay shows at most of the shop's refusal. */
const MESSAGE_LIMIT = 255

export type ShopVerdict = { go: true } | { go: false; merchantMessage: string; cardholderMessage: string; mustBeShown: boolean }

/** Asks the session's verify-order URL about a payment about to be charged; `go` when none is set. */
export async function askShop(env: SandboxEnv, payment: StoredPayment, card?: { maskedPan?: string }): Promise<ShopVerdict> {
  const target = env.store.sessions.get(payment.sessionId)?.body.callbacks?.verifyOrder
  if (typeof target !== "string" || target === "") return { go: true }
  const { body, headers } = verifyForm(env, payment, card)
  const url = new URL(target)
  const answer = await post(url, body, headers)
  const text = answer.body.replace(/<[^>]*>/g, "").trim()
  const verdict: ShopVerdict =
    answer.status === 200 && text === "OKAY"
      ? { go: true }
      : answer.status === 200
        ? {
            go: false,
            merchantMessage: `The shop refused the order at verify-order: ${text.slice(0, MESSAGE_LIMIT)}`,
            cardholderMessage: text.slice(0, MESSAGE_LIMIT),
            mustBeShown: true,
          }
        : {
            go: false,
            merchantMessage: `The shop's verify-order URL answered ${answer.status || `nothing (${answer.error ?? "unreachable"})`}; the payment failed.`,
            cardholderMessage: "The payment could not be completed. Please try again.",
            mustBeShown: false,
          }
  recordDelivery(env, url, "callback.verifyOrder", { payment_id: payment.paymentId, answer: verdict.go ? "OKAY" : answer.status === 200 ? "refused" : "error" }, answer)
  return verdict
}

/** The payment aborted by the shop's answer: no reservation, the shop's text as the customer's message. */
export function declineForShop(env: SandboxEnv, payment: StoredPayment, verdict: Extract<ShopVerdict, { go: false }>): CompleteResult {
  const result = completePayment(env, payment, "fail")
  if (!result.ok) return result
  const t = result.transaction
  t.merchantErrorMessage = verdict.merchantMessage
  t.cardHolderErrorMessage = verdict.cardholderMessage
  t.cardHolderMessageMustBeShown = verdict.mustBeShown
  payment.reason = verdict.merchantMessage
  return result
}

/** The callback form of a payment not made yet: its order, amount and currency, the card when it is one. */
function verifyForm(env: SandboxEnv, payment: StoredPayment, card?: { maskedPan?: string }): { body: string; headers: Record<string, string> } {
  const session = env.store.sessions.get(payment.sessionId)
  const amount = minorToDecimal(payment.amountMinor, payment.currency.alpha)
  const fields = new URLSearchParams()
  fields.set("shop_orderid", payment.shopOrderId)
  fields.set("amount", amount)
  fields.set("currency", payment.currency.numeric)
  fields.set("type", "payment")
  fields.set("payment_id", payment.paymentId)
  if (card?.maskedPan) fields.set("masked_credit_card", card.maskedPan)
  for (const [key, value] of Object.entries(session?.body.order.transactionInfo ?? {})) fields.set(`transaction_info[${key}]`, value)
  const secret = env.config.callbackSecret
  if (secret) fields.set("checksum", legacyChecksum({ amount, currency: payment.currency.numeric, shop_orderid: payment.shopOrderId }, secret))
  const body = fields.toString()
  const headers: Record<string, string> = { "content-type": "application/x-www-form-urlencoded" }
  if (secret) headers["altapay-signature"] = signatureHeader(body, unixSeconds(env.now()), secret)
  return { body, headers }
}

/** A card number as AltaPay masks it in callbacks (first six, last four). */
export function maskedPan(cardNumber: string | undefined): string | undefined {
  const digits = cardNumber?.replace(/\D/g, "")
  return digits && digits.length >= 12 ? `${digits.slice(0, 6)}${"*".repeat(digits.length - 10)}${digits.slice(-4)}` : undefined
}
