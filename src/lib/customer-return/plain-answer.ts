/**
 * What AltaPay shows the customer when the registration has no landing page (no successUrl or
 * failureUrl): the one customer text the server puts in a language itself, since no storefront
 * stands between it and the customer. The language is the payment page's (the cart's locale, else
 * its country, else the registration's `language`), where it is one of ours; else English.
 */
import type { RemoteQueryFunction } from "@medusajs/framework/types"
import { customerMessage, type CustomerMessageKey } from "../languages/customer-messages"
import { languageOf } from "../languages/languages"
import { cartLanguageHints, paymentPageLanguage } from "../medusa-mapping/language"
import type { ReturnOutcome } from "./landing"

const KEYS: Record<ReturnOutcome, CustomerMessageKey> = { paid: "return_paid", review: "return_review", declined: "return_not_paid", unconfirmed: "return_not_paid" }

export async function plainAnswer(
  query: Pick<RemoteQueryFunction, "graph"> | undefined,
  sessionId: string,
  outcome: ReturnOutcome,
  /** AltaPay's message for the customer, from its verified post: already in the payment page's language. */
  cardholderMessage: string | undefined,
  registrationLanguage: string
): Promise<string> {
  const hints = await cartLanguageHints(query, sessionId)
  const text = customerMessage(KEYS[outcome], {}, languageOf(paymentPageLanguage(hints, registrationLanguage)) ?? "en")
  return cardholderMessage ? `${text}\n\n${cardholderMessage}` : text
}
