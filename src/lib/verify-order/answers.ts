/**
 * What the verify endpoint answers AltaPay, in one place. AltaPay goes on with the payment only on
 * HTTP 200 with the text `OKAY`; any other text declines it and "the first 255 characters of your
 * response is shown as an error message to the customer" (AltaPay's Payment Verify Order Page;
 * sdk-csharp PaymentRequestConfig.cs: HTML stripped, 255 characters). No storefront stands between
 * that text and the customer, so each refusal is one plain sentence of the customer catalogue in the
 * payment page's language (as plain-answer.ts does); what the merchant needs goes to the log.
 */
import { customerMessage, type CustomerMessageKey } from "../languages/customer-messages"
import type { Language } from "../languages/languages"

export const OKAY = "OKAY"

/** Why a payment was refused, each with its sentence in the customer catalogue (every one under 255 characters). */
export const REFUSALS = {
  cartChanged: "verify_cart_changed",
  stock: "verify_stock",
  promotion: "verify_promotion",
  alreadyPaid: "verify_already_paid",
  unverified: "verify_unconfirmed",
} as const satisfies Record<string, CustomerMessageKey>

export type Refusal = keyof typeof REFUSALS

/** The endpoint's answer: `OKAY`, or the refusal's sentence (status 200 either way, as AltaPay reads them). */
export interface VerifyAnswer {
  status: number
  text: string
}

export const okay = (): VerifyAnswer => ({ status: 200, text: OKAY })
export const refuse = (why: Refusal, language: Language = "en"): VerifyAnswer => ({ status: 200, text: customerMessage(REFUSALS[why], {}, language) })
