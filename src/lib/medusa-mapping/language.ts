/**
 * The language of AltaPay's payment page for a cart: the cart's locale when AltaPay has that
 * language, else the language of the cart's country (shipping, then billing address), else the
 * registration's `language` option.
 *
 * AltaPay's languages: AltaPay/api-php src/Types/LanguageTypes.php (ca, cs, da, de, en, es, fi, fr,
 * hr, is, ja, lt, nl, no, nb, nn, pl, sv, th, tr, zh, et, ee, it, pt, ru, sk, sl, eu; "nb, nn will be
 * converted to no", "ee will be converted to et"); AltaPay/plugin-wordpress views/paymentClass.tpl
 * keeps the same list and sends the first part of the shop's locale; AltaPay/plugin-salesforce
 * marketPayDataHelper.js sends the first part of the site's locale as the session's `language`.
 */
import type { RemoteQueryFunction } from "@medusajs/framework/types"
import { ALTAPAY_LANGUAGES, altapayLanguageOf } from "../languages/languages"

export { ALTAPAY_LANGUAGES, altapayLanguageOf }

type Query = Pick<RemoteQueryFunction, "graph">

/**
 * The language most people in a country read a shop in, for countries whose language AltaPay has.
 * Countries with several (BE, CH, LU, ES's regions) take the one most shops there default to; a
 * cart locale always wins over this guess. **Our choice**, not AltaPay's.
 */
const COUNTRY_LANGUAGES: Record<string, string> = {
  dk: "da",
  gl: "da",
  fo: "da",
  se: "sv",
  ax: "sv",
  no: "no",
  sj: "no",
  fi: "fi",
  is: "is",
  de: "de",
  at: "de",
  ch: "de",
  li: "de",
  nl: "nl",
  be: "nl",
  fr: "fr",
  lu: "fr",
  mc: "fr",
  es: "es",
  ad: "ca",
  it: "it",
  sm: "it",
  va: "it",
  pt: "pt",
  br: "pt",
  pl: "pl",
  cz: "cs",
  sk: "sk",
  si: "sl",
  hr: "hr",
  ee: "et",
  lt: "lt",
  ru: "ru",
  tr: "tr",
  jp: "ja",
  th: "th",
  cn: "zh",
  tw: "zh",
  hk: "zh",
  mx: "es",
  ar: "es",
  cl: "es",
  co: "es",
  pe: "es",
  gb: "en",
  ie: "en",
  us: "en",
  ca: "en",
  au: "en",
  nz: "en",
  za: "en",
  mt: "en",
  in: "en",
  sg: "en",
}

/** The language a country's code stands for (`dk` -> `da`), where AltaPay has it: see COUNTRY_LANGUAGES. */
export function countryLanguage(countryCode: string): string | undefined {
  const code = countryCode.toLowerCase()
  return Object.hasOwn(COUNTRY_LANGUAGES, code) ? COUNTRY_LANGUAGES[code] : undefined
}

export interface CartLanguageHints {
  /** The cart's BCP 47 locale, e.g. "da-DK" (carts have one since Medusa's cart migration 20251208130704). */
  locale?: string | null
  /** ISO 3166-1 alpha-2, shipping address first. */
  countryCodes?: (string | null | undefined)[]
}

/** The payment page's language for these hints, else `fallback` (the `language` option). */
export function paymentPageLanguage(hints: CartLanguageHints | undefined, fallback: string): string {
  const fromLocale = altapayLanguageOf(hints?.locale)
  if (fromLocale) return fromLocale
  for (const country of hints?.countryCodes ?? []) {
    const language = country ? COUNTRY_LANGUAGES[country.toLowerCase()] : undefined
    if (language) return language
  }
  return fallback
}

/**
 * The cart's locale and countries for a payment session, through `query`; undefined without one,
 * for a session of no cart, or when they cannot be read. Where Medusa's carts have no locale, only
 * the countries are read.
 */
export async function cartLanguageHints(query: Query | undefined, paymentSessionId: string): Promise<CartLanguageHints | undefined> {
  if (!query) return undefined
  try {
    const { data: sessions } = await query.graph({ entity: "payment_session", fields: ["id", "payment_collection.cart.id"], filters: { id: paymentSessionId } })
    const cartId = (sessions[0] as { payment_collection?: { cart?: { id?: string } | null } | null } | undefined)?.payment_collection?.cart?.id
    return cartId ? await cartLanguageHintsOf(query, cartId) : undefined
  } catch {
    return undefined
  }
}

/** The same for a cart by its id (undefined when it cannot be read). */
export async function cartLanguageHintsOf(query: Query, cartId: string): Promise<CartLanguageHints | undefined> {
  try {
    const countries = ["shipping_address.country_code", "billing_address.country_code"]
    const read = (fields: string[]) => query.graph({ entity: "cart", fields: ["id", ...fields], filters: { id: cartId } })
    const { data } = await read(["locale", ...countries]).catch(() => read(countries))
    const cart = data[0] as
      { locale?: string | null; shipping_address?: { country_code?: string | null } | null; billing_address?: { country_code?: string | null } | null } | undefined
    if (!cart) return undefined
    return { locale: cart.locale ?? null, countryCodes: [cart.shipping_address?.country_code, cart.billing_address?.country_code] }
  } catch {
    return undefined
  }
}
