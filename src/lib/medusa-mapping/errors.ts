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

export function toMedusaError(error: unknown, action: string, logger?: DetailLog): Error {
  if (error instanceof MedusaError) return error
  if (!(error instanceof AltaPayError)) {
    const reference = logDetails(logger, `AltaPay ${action} failed`, error instanceof Error ? (error.stack ?? error.message) : String(error))
    return new MedusaError(MedusaError.Types.UNEXPECTED_STATE, `AltaPay ${action} failed (reference ${reference}).`)
  }
  if (error instanceof AltaPayDeclinedError) {
    return new MedusaError(
      MedusaError.Types.NOT_ALLOWED,
      `AltaPay refused the ${action}: ${error.merchantMessage ?? error.result}. Nothing was ${action === "refund" ? "refunded" : "changed"}.`
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
