/** An agreement's card read from a transaction (gateway XML) or from the set-up callback. */
import { parseCallback, type AltaPayCallback } from "../callbacks"
import type { GatewayTransaction } from "../gateway-types"
import { latestTransaction, parseGatewayResponse } from "../xml"
import { resolveCurrency } from "../xml-readers"
import { secretTokenOf } from "./secret-token"
import type { AgreementCard } from "./types"

/** The card of an agreement's set-up transaction (its TransactionId is the agreement id). */
export function agreementCardOf(transaction: GatewayTransaction): AgreementCard {
  const info = transaction.cardInformation
  const expiry = info?.expiry ?? transaction.creditCardExpiry
  const maskedPan = transaction.creditCardMaskedPan ?? info?.maskedPan
  return {
    agreementId: transaction.transactionId,
    paymentId: transaction.paymentId,
    maskedPan,
    lastFourDigits: info?.lastFourDigits ?? maskedPan?.slice(-4),
    expiry: expiry?.month && expiry.year ? { month: expiry.month, year: expiry.year } : undefined,
    scheme: transaction.paymentSchemeName ?? info?.scheme,
    terminal: transaction.terminal,
    // Older answers give only the numeric code (sdk-php CallbackXML_subscriptionAndCharge_released.xml: 978).
    currency: resolveCurrency(transaction.merchantCurrencyAlpha, transaction.merchantCurrency).alpha || undefined,
    transactionStatus: transaction.transactionStatus,
    token: transaction.creditCardToken ?? info?.token,
  }
}

/** The set-up callback (OK, fail or notification post), without its raw `xml` or token text. */
export interface AgreementCallback extends Omit<AltaPayCallback, "xml"> {
  /** The agreement's card; undefined when the callback names no transaction. */
  card?: AgreementCard
}

/**
 * Reads an agreement set-up callback: the usual fields, plus the card from its `xml` (the set-up
 * transaction), falling back to the form's `credit_card_token` and `masked_credit_card`.
 */
export function parseAgreementCallback(body: string | URLSearchParams | Record<string, unknown>): AgreementCallback {
  const fields = body instanceof URLSearchParams || typeof body === "string" ? Object.fromEntries(new URLSearchParams(body)) : body
  const { xml, ...callback } = parseCallback(body)
  const transactions = xml ? parseGatewayResponse(xml).transactions : []
  // subscriptionAndReserve/-Charge callbacks carry the set-up and its first charge (subscription_payment).
  const setUps = transactions.filter((t) => t.authType !== "subscription_payment")
  const setUp = setUps.find((t) => t.transactionId === callback.transactionId) ?? latestTransaction(setUps.length > 0 ? setUps : transactions)
  const card = setUp ? agreementCardOf(setUp) : callback.transactionId ? { agreementId: callback.transactionId } : undefined
  if (card) {
    card.token ??= secretTokenOf(text(fields.credit_card_token))
    card.maskedPan ??= text(fields.masked_credit_card)
  }
  return { ...callback, card }
}

const text = (value: unknown): string | undefined => (typeof value === "string" && value !== "" ? value : undefined)
