/**
 * What the plugin's refusals mean for the customer, in the customer's language (en, da, sv, nb, fi,
 * de). Medusa answers in English with a stable code (`altapay_saved_card_declined`, …); this turns
 * the code, or the English text where a client kept only the message (Medusa's starter does), into
 * the shopper's words. Browser-safe.
 *
 *   catch (error) {
 *     show(customerMessageFor(error, { locale: cart.locale, countryCode: cart.shipping_address?.country_code }) ?? myOwnGenericText)
 *   }
 */
import { CUSTOMER_MESSAGES, customerMessage, customerMessageCode, type CustomerMessageKey } from "../lib/languages/customer-messages"
import { chooseLanguage, type Language } from "../lib/languages/languages"
import { templateParts, type TextValues } from "../lib/languages/text"

export type { Language } from "../lib/languages/languages"

export interface CustomerLanguageHints {
  /** The cart's locale (Medusa's cart.locale, BCP 47), or the storefront's. */
  locale?: string | null
  /** The shipping country, or the storefront's country (ISO 3166-1 alpha-2). */
  countryCode?: string | null
  /** One of the six, chosen by the storefront itself: wins over the rest. */
  language?: Language
}

/** The customer's language: `language`, else the locale's, else the country's, else English. */
export const storefrontLanguage = (hints: CustomerLanguageHints = {}): Language => hints.language ?? chooseLanguage(hints.locale, [hints.countryCode])

/** The English text of a message as a pattern: its placeholders catch their values. */
function englishPattern(key: CustomerMessageKey): { pattern: RegExp; names: string[] } {
  const names: string[] = []
  const source = templateParts(CUSTOMER_MESSAGES.en[key] as string)
    .map((part) => {
      if (typeof part === "string") return part.replace(/[.*+?^${}()|[\]\\]/g, "\\$&")
      names.push(part.name)
      return "(.+?)"
    })
    .join("")
  return { pattern: new RegExp(source), names }
}

/** The refusals a customer may meet, each known by its code and by its English words. */
const RECOGNISED: Array<{ key: CustomerMessageKey; pattern: RegExp; names: string[] }> = [
  { key: "saved_card_declined", ...englishPattern("saved_card_declined") },
  { key: "saved_card_removed", ...englishPattern("saved_card_removed") },
  { key: "saved_card_not_yours", ...englishPattern("saved_card_not_yours") },
  { key: "cart_changed_after_payment", ...englishPattern("cart_changed_after_payment") },
  // The money door's words (written for the merchant) end in the wait.
  { key: "earlier_attempt_pending", pattern: /does not show it yet, so nothing was sent\. Try again in (\d+) s\./, names: ["seconds"] },
]

/** What an error says, whatever carried it: an AltaPayCheckoutError, Medusa's error body, js-sdk's FetchError, or the message alone. */
function said(error: unknown): { code?: string; message: string } {
  if (typeof error === "string") return { message: error }
  const e = (error ?? {}) as { code?: unknown; type?: unknown; message?: unknown }
  const code = typeof e.code === "string" ? e.code : e.type === "altapay_unreachable" ? "altapay_unreachable" : undefined
  return { ...(code ? { code } : {}), message: typeof e.message === "string" ? e.message : "" }
}

/**
 * The customer's words for one of the plugin's refusals (a saved card declined, removed or not
 * theirs; an earlier attempt still being checked; AltaPay out of reach, with the reference the
 * merchant finds in the log), or undefined for anything else: show your own text then.
 */
export function customerMessageFor(error: unknown, hints: CustomerLanguageHints = {}): string | undefined {
  const { code, message } = said(error)
  const language = storefrontLanguage(hints)
  if (code === customerMessageCode("altapay_unreachable")) {
    const reference = /\(reference (altapay-[0-9a-f]+)\)/.exec(message)?.[1]
    const text = customerMessage("altapay_unreachable", {}, language)
    return reference ? `${text} ${customerMessage("reference_note", { reference }, language)}` : text
  }
  for (const known of RECOGNISED) {
    const match = known.pattern.exec(message)
    if (!match && code !== customerMessageCode(known.key)) continue
    const values: TextValues = Object.fromEntries(known.names.map((name, i) => [name, match?.[i + 1] ?? ""]))
    if (known.names.some((name) => !values[name])) continue
    return customerMessage(known.key, values, language)
  }
  return undefined
}
