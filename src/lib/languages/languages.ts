/**
 * The shop's languages (issue 43): every text of the admin, the storefront kit and the messages a
 * customer reads exists in these six. Browser-safe (no imports): the admin, the storefront helper
 * and the server all choose with it.
 */
export const LANGUAGES = ["en", "da", "sv", "nb", "fi", "de"] as const
export type Language = (typeof LANGUAGES)[number]

/** Norwegian is Bokmål here: AltaPay's payment page takes "no" (and folds nb and nn into it). */
const ALIASES: Record<string, Language> = { no: "nb", nn: "nb" }

/** Our language of a BCP 47 tag or AltaPay language code ("da-DK", "de_AT", "no"), or undefined. */
/** The primary language subtag of a BCP 47 tag ("da-DK" -> "da"), lower case, or undefined for no tag. */
const primaryOf = (tag: string | null | undefined): string | undefined => /^([a-z]{2,3})(?:[-_]|$)/i.exec(tag?.trim() ?? "")?.[1]?.toLowerCase()

export function languageOf(tag: string | null | undefined): Language | undefined {
  const primary = primaryOf(tag)
  if (!primary) return undefined
  const language = ALIASES[primary] ?? primary
  return (LANGUAGES as readonly string[]).includes(language) ? (language as Language) : undefined
}

/**
 * The language most shoppers of a country read, for countries whose language is one of ours.
 * **Our choice**, as src/lib/medusa-mapping/language.ts makes it for AltaPay's page.
 */
const COUNTRY_LANGUAGES: Record<string, Language> = {
  dk: "da",
  gl: "da",
  fo: "da",
  se: "sv",
  ax: "sv",
  no: "nb",
  sj: "nb",
  fi: "fi",
  de: "de",
  at: "de",
  ch: "de",
  li: "de",
}

/** Our language for an ISO 3166-1 alpha-2 country, or undefined. */
export const languageOfCountry = (country: string | null | undefined): Language | undefined => (country ? COUNTRY_LANGUAGES[country.trim().toLowerCase()] : undefined)

/**
 * The shopper's language: the locale's when it names one of ours; English when it names another
 * AltaPay's page speaks (a French shopper reads AltaPay's page in French, and English is nearer
 * than the country's language); otherwise (no locale, or one AltaPay's page does not speak either,
 * whose page then speaks the country's language) the first country that names one of ours; else
 * English. So the customer reads the page's language wherever we have it.
 */
export function chooseLanguage(locale: string | null | undefined, countries: Array<string | null | undefined> = []): Language {
  const ours = languageOf(locale)
  if (ours) return ours
  if (altapayLanguageOf(locale)) return "en"
  return countries.map(languageOfCountry).find((language) => language !== undefined) ?? "en"
}

/** AltaPay's payment page languages, as we send them (nb and nn as no, ee as et): sources in src/lib/medusa-mapping/language.ts. */
export const ALTAPAY_LANGUAGES: ReadonlySet<string> = new Set([
  "ca",
  "cs",
  "da",
  "de",
  "en",
  "es",
  "et",
  "eu",
  "fi",
  "fr",
  "hr",
  "is",
  "it",
  "ja",
  "lt",
  "nl",
  "no",
  "pl",
  "pt",
  "ru",
  "sk",
  "sl",
  "sv",
  "th",
  "tr",
  "zh",
])

const ALTAPAY_ALIASES: Record<string, string> = { nb: "no", nn: "no", ee: "et" }

/** AltaPay's form of a BCP 47 tag's language, or undefined when AltaPay does not have it. */
export function altapayLanguageOf(tag: string | null | undefined): string | undefined {
  const primary = primaryOf(tag)
  if (!primary) return undefined
  const language = ALTAPAY_ALIASES[primary] ?? primary
  return ALTAPAY_LANGUAGES.has(language) ? language : undefined
}
