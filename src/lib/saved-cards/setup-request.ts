/**
 * AltaPay's hosted page where a customer adds a card without paying: createPaymentRequest
 * `verifyCard` with an unscheduled agreement (AltaPay's "VerifyCard as unscheduled Charges";
 * Magento's plugin does the same), its callbacks to the plugin's saved-card return, and the
 * transaction_info that names the customer, so the return keeps the card only for them. Both ways
 * in start it here: the plugin's POST /store/altapay/saved-cards (account-setup.ts) and Medusa's
 * own savePaymentMethod (providers/altapay/account-holders.ts).
 */
import { randomBytes } from "node:crypto"
import { MedusaError } from "@medusajs/framework/utils"
import { currencyInfo, type AltaPayClient } from "../../altapay"
import { terminalFor, type AltaPayOptions } from "../registrations/options"

/** transaction_info marking a set-up started from the account page, and for whom. */
export const SETUP_MARK = "medusa_saved_card_setup"
export const SETUP_CUSTOMER = "medusa_customer_id"
export const CARD_RETURN_KINDS = ["success", "failure", "notification"] as const
export type CardReturnKind = (typeof CARD_RETURN_KINDS)[number]

/** The plugin's saved-card return of one registration. */
export function cardReturnUrl(backendUrl: string, providerId: string, kind: CardReturnKind): string {
  return `${backendUrl.replace(/\/+$/, "")}/altapay/saved-card-return/${encodeURIComponent(providerId)}/${kind}`
}

export interface CardSetupRequest {
  /** createPaymentRequest's PaymentRequestId. */
  paymentRequestId: string
  /** AltaPay's page to send the customer to. */
  url: string
  terminal: string
  /** Alphabetic ISO 4217. */
  currency: string
}

/** Asks AltaPay for the page where `customerId` adds a card for `currency` payments (throws AltaPay's errors as they are). */
export async function requestCardSetup(client: AltaPayClient, options: AltaPayOptions, input: { customerId: string; currency: string }): Promise<CardSetupRequest> {
  const currency = knownCurrency(input.currency)
  const terminal = terminalFor(options, currency.alpha)
  if (!terminal) throw new MedusaError(MedusaError.Types.INVALID_DATA, `No AltaPay terminal is configured for ${currency.alpha}.`)
  const request = await client.agreements.setupAgreement({
    terminal,
    shopOrderId: `card-${randomBytes(12).toString("hex")}`,
    // "The amount has to be positive" (setupSubscription page): one unit of the currency, verified, not charged.
    amountMinor: 10 ** currency.exponent,
    currency: currency.alpha,
    type: "verifyCard",
    agreement: { type: "unscheduled", unscheduledType: "charge" },
    callbacks: {
      success: cardReturnUrl(options.backendUrl, options.providerId, "success"),
      failure: cardReturnUrl(options.backendUrl, options.providerId, "failure"),
      notification: cardReturnUrl(options.backendUrl, options.providerId, "notification"),
    },
    transactionInfo: { [SETUP_MARK]: `pp_altapay_${options.providerId}`, [SETUP_CUSTOMER]: input.customerId },
  })
  return { paymentRequestId: request.paymentRequestId, url: request.url, terminal, currency: currency.alpha }
}

function knownCurrency(code: string): ReturnType<typeof currencyInfo> {
  try {
    return currencyInfo(code)
  } catch {
    throw new MedusaError(MedusaError.Types.INVALID_DATA, `"${String(code).slice(0, 10)}" is not an ISO 4217 currency code.`)
  }
}
