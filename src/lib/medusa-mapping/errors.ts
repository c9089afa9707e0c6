/** The one place an AltaPay failure becomes a MedusaError, with a message a merchant can act on. */
import { MedusaError } from "@medusajs/framework/utils"
import { AltaPayDeclinedError, AltaPayError, AltaPayValidationError } from "../../altapay"

export const ALTAPAY_UNREACHABLE = "altapay_unreachable"

export function toMedusaError(error: unknown, action: string): Error {
  if (error instanceof MedusaError) return error
  if (!(error instanceof AltaPayError)) {
    return new MedusaError(MedusaError.Types.UNEXPECTED_STATE, `AltaPay ${action} failed: ${error instanceof Error ? error.message : String(error)}`)
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
  // The plugin's routes answer this code with 502: the failure is AltaPay's side of the wire.
  return new MedusaError(MedusaError.Types.UNEXPECTED_STATE, `AltaPay ${action} failed: ${error.message}${hint}`, ALTAPAY_UNREACHABLE)
}
