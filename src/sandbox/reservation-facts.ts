/**
 * What AltaPay states about a reservation besides its amount, as the sandbox makes it: the fraud
 * service's score, AVS, a terminal's surcharge, and when the authorisation lapses (and what a
 * capture after that gets). Each follows an AltaPay sample or page (docs/altapay-wire-facts.md).
 */
import type { InvoiceReservation, PaymentNature, StoredTransaction } from "./state"

const DAY_MS = 24 * 60 * 60 * 1000

/** AltaPay FAQ ("How long is a Credit Card Reservation valid?"): "Reservations placed on Visa cards must be valid for 7 days". */
export const CARD_AUTHORISATION_DAYS = 7

/**
 * AltaPay's test fraud service: "the risk score is always equal mod 101 of the created amount for
 * the payment" (its FraudExplanation in sdk-php example/xml/CallbackXML_reservationAndCapture.xml and
 * sdk-csharp MerchantApi_ParseMultiPaymentPostBackXmlResponseTests.cs: 12.34 scores 12, 98.76 scores 98).
 */
export const fraudRiskScore = (amountMinor: number, exponent: number): string => String(Math.floor(amountMinor / 10 ** exponent) % 101)

export const TEST_FRAUD_EXPLANATION = "For the test fraud service the risk score is always equal mod 101 of the created amount for the payment"

/** The sandbox's own AVS trigger: a billing postal code of 99999 does not match the card's address. */
export const AVS_MISMATCH_POSTAL_CODE = "99999"

/**
 * AddressVerification of a card payment. AltaPay's test gateway answers P with this text in its
 * samples (sdk-php test/unit/xml/ReasonCode.xml, sdk-csharp Unit/txt/*.xml) and S "AVS not supported"
 * (sdk-csharp Unit/txt/ChargebackEvent.xml, plugin-magento2-community Test/Unit/Model/GeneratorTest.php); N for the mismatch is the sandbox's own (the card schemes' "no match").
 */
export function avsResult(customer: Record<string, unknown>): { code: string; description: string } {
  const billing = customer.billingAddress
  const postal = billing && typeof billing === "object" ? ((billing as Record<string, unknown>).zipCode ?? (billing as Record<string, unknown>).postalCode) : undefined
  if (postal === undefined) return { code: "S", description: "AVS not supported" }
  if (String(postal) === AVS_MISMATCH_POSTAL_CODE) return { code: "N", description: "Neither street address nor postal code matches (sandbox test postal code 99999)" }
  return { code: "P", description: "Postal codes match for international transaction. Street address not verified due to incompatible formats" }
}

/** The surcharge a card terminal with surcharging adds, in minor units (the sandbox's `surchargePercent`). */
export const surchargeFor = (amountMinor: number, percent: number | undefined): number => (percent ? Math.round((amountMinor * percent) / 100) : 0)

/** When a new reservation's authorisation lapses: a card's after 7 days, an invoice's after its capture window. */
export function authorisationExpiry(nowMs: number, nature: PaymentNature, invoice: InvoiceReservation | undefined): number {
  const days = nature === "Invoice" && invoice ? invoice.captureWithinDays : CARD_AUTHORISATION_DAYS
  return nowMs + days * DAY_MS
}

/**
 * A capture of a card reservation whose authorisation has lapsed: AltaPay "will try to obtain a new
 * reservation"; "if this fails, the capture ultimately fails with the status 'reauth_failed'" (AltaPay
 * FAQ). A refusal message, or undefined when the capture may go on (its new authorisation then runs
 * another 7 days). Invoice reservations keep their own capture window (invoice-rules.ts).
 */
export function reauthorise(t: StoredTransaction, nowMs: number): string | undefined {
  if (t.nature === "Invoice" || t.authorisationExpiresAt === undefined || nowMs <= t.authorisationExpiresAt) return undefined
  if (t.reauth === "fails") {
    t.status = "reauth_failed"
    t.reservedMinor = t.capturedMinor
    return "The reservation had expired and its reauthorisation was declined (reauth_failed): nothing was captured."
  }
  t.authorisationExpiresAt = nowMs + CARD_AUTHORISATION_DAYS * DAY_MS
  return undefined
}
