/**
 * The one place an AltaPay failure becomes a MedusaError. Medusa's error handler answers
 * UNEXPECTED_STATE with the message as it is, also on store routes a shopper calls, so those
 * messages carry only what to do and a reference; what failed (transport errors name internal
 * addresses) goes to the log under that reference.
 */
import { MedusaError } from "@medusajs/framework/utils"
import { AltaPayDeclinedError, AltaPayError, AltaPayValidationError } from "../../altapay"
import { logDetails, type DetailLog } from "./error-reference"

export const ALTAPAY_UNREACHABLE = "altapay_unreachable"

/**
 * A capture of a lapsed card reservation: AltaPay tried a new authorisation and the issuer declined
 * it (AltaPay FAQ: "the capture ultimately fails with the status 'reauth_failed'"). The money is no
 * longer held, so capturing again cannot work: the customer must pay again.
 */
export const REAUTH_FAILED =
  "AltaPay could not capture: the card reservation had expired and AltaPay's new authorisation was declined by the card issuer (reauth_failed). Nothing was captured and the reservation is gone. Ask the customer to pay again (a payment link for the amount, or a charge on a saved card), or cancel the order; AltaPay's FAQ advises to stall the shipment meanwhile."

function reauthFailed(error: AltaPayDeclinedError): boolean {
  const transactions = (error.response as { transactions?: Array<{ transactionStatus?: string }> } | undefined)?.transactions ?? []
  return transactions.some((t) => t.transactionStatus?.toLowerCase() === "reauth_failed") || /reauth_failed/i.test(error.merchantMessage ?? "")
}

export function toMedusaError(error: unknown, action: string, logger?: DetailLog): Error {
  if (error instanceof MedusaError) return error
  if (!(error instanceof AltaPayError)) {
    const reference = logDetails(logger, `AltaPay ${action} failed`, error instanceof Error ? (error.stack ?? error.message) : String(error))
    return new MedusaError(MedusaError.Types.UNEXPECTED_STATE, `AltaPay ${action} failed (reference ${reference}).`)
  }
  if (error instanceof AltaPayDeclinedError) {
    if (action === "capture" && reauthFailed(error)) return new MedusaError(MedusaError.Types.NOT_ALLOWED, REAUTH_FAILED)
    return new MedusaError(
      MedusaError.Types.NOT_ALLOWED,
      `AltaPay refused the ${action}: ${sentence(error.merchantMessage ?? error.result)} Nothing was ${action === "refund" ? "refunded" : "changed"}.`
    )
  }
  if (error instanceof AltaPayValidationError) return new MedusaError(MedusaError.Types.INVALID_DATA, `AltaPay ${action}: ${error.message}`)
  const hint =
    error.code === "auth"
      ? " Check the provider's username and password (AltaPay API user) and that checkoutUrl/gatewayUrl point at the same environment."
      : error.mayHaveReachedAltaPay
        ? " AltaPay may have processed it: check the payment in AltaPay before trying again."
        : " Nothing was changed at AltaPay; try again."
  const reference = logDetails(logger, `AltaPay ${action} failed`, `${error.message}${hint}`)
  // The plugin's routes answer this code with 502: the failure is AltaPay's side of the wire.
  return new MedusaError(MedusaError.Types.UNEXPECTED_STATE, `AltaPay ${action} failed (reference ${reference}).${hint}`, ALTAPAY_UNREACHABLE)
}

/** AltaPay's message as a sentence: its own full stop kept, one added where it has none. */
const sentence = (text: string): string => (/[.!?]$/.test(text.trim()) ? text.trim() : `${text.trim()}.`)
