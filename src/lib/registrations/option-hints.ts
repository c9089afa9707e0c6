/**
 * What a message about an option tells the merchant to set: the environment variable the example
 * configs (medusa-config.example.ts, medusa-config.multi.example.ts) read it from, where in AltaPay's
 * Merchant Interface a value comes from, and the language a wrong `language` most likely meant.
 * The provider's start-up messages and altapay-check share these, so both name the same fix.
 */
import { ALTAPAY_LANGUAGES, countryLanguage } from "../medusa-mapping/language"

/** Where the callback secret is made (AltaPay's Callback Endpoints Security, "Secret setup"). */
export const WEBHOOK_SECRET_AT_ALTAPAY = "AltaPay's Merchant Interface: Settings > Configuration, Webhook Secrets, Add Secret"

/** What a required option is, and the variable medusa-config.example.ts reads it from. */
const REQUIRED: Record<string, string> = {
  checkoutUrl: "AltaPay's Checkout API, e.g. https://<shop>.altapaysecure.com (ALTAPAY_CHECKOUT_URL in medusa-config.example.ts)",
  gatewayUrl: "AltaPay's merchant API, e.g. https://<shop>.altapaysecure.com (ALTAPAY_GATEWAY_URL, else ALTAPAY_CHECKOUT_URL, in medusa-config.example.ts)",
  username: "the AltaPay API user (ALTAPAY_USERNAME in medusa-config.example.ts)",
  password: "the AltaPay API user's password (ALTAPAY_PASSWORD in medusa-config.example.ts)",
  backendUrl: "this Medusa server's public URL, where AltaPay posts its callbacks (MEDUSA_BACKEND_URL in medusa-config.example.ts)",
}

/** The message for a required option that is missing, or undefined for any other option. */
export function notSetMessage(option: string): string | undefined {
  return REQUIRED[option] ? `is not set: give ${REQUIRED[option]}` : undefined
}

/** The variable the example configs read a registration's terminal from. */
export function terminalVariable(registrationId: string): string {
  if (registrationId === "altapay" || registrationId === "card") return "ALTAPAY_TERMINAL"
  return `ALTAPAY_${registrationId.toUpperCase().replace(/[^A-Z0-9]/g, "_")}_TERMINAL`
}

/** AltaPay's payment methods that have terminals of their own, by what a registration's id may call them. */
const METHODS: Array<[RegExp, string]> = [
  [/mobilepay/, "MobilePay"],
  [/vipps/, "Vipps"],
  [/swish/, "Swish"],
  [/klarna/, "Klarna"],
  [/applepay/, "Apple Pay"],
  [/googlepay/, "Google Pay"],
  [/paypal/, "PayPal"],
  [/viabill/, "ViaBill"],
  [/trustly/, "Trustly"],
  [/ideal/, "iDEAL"],
  [/bancontact/, "Bancontact"],
  [/przelewy|p24/, "Przelewy24"],
  [/twint/, "TWINT"],
  [/anyday/, "Anyday"],
  [/invoice/, "invoice"],
]

/** The payment method a registration is named for (`mobilepay` -> MobilePay), or undefined (`card`, `altapay`). */
export function methodNamedBy(registrationId: string): string | undefined {
  const name = registrationId.toLowerCase().replace(/[^a-z0-9]/g, "")
  return METHODS.find(([pattern]) => pattern.test(name))?.[1]
}

/** A registration named for a method but given no terminal: what happens and what to set. */
export function methodWithoutTerminal(registrationId: string, method: string): string {
  const example = registrationId === "mobilepay" ? " in medusa-config.multi.example.ts" : ""
  return `pp_altapay_${registrationId} is named for ${method} but has no terminal: AltaPay then opens its first card method, not ${method}; set terminal to the API user's ${method} terminal (${terminalVariable(registrationId)}${example})`
}

const LANGUAGE_LIST = [...ALTAPAY_LANGUAGES].sort().join(", ")

/** Why a `language` value is not one of AltaPay's, with the language it most likely meant. */
export function languageProblem(value: unknown): string {
  const text = typeof value === "string" ? value : JSON.stringify(value)
  const meant = typeof value === "string" ? countryLanguage(value) : undefined
  const hint = meant && meant !== value ? `; "${text}" is a country code, and its language is "${meant}": use language: "${meant}"` : ""
  return `"${text}" is not one of AltaPay's payment page languages (${LANGUAGE_LIST}; nb and nn are sent as no, ee as et)${hint}`
}
