/** The one error order-line code throws, listing every problem, and the range check it shares. */
import { AltaPayValidationError, type ValidationIssue } from "../errors"
import { MAX_MINOR_UNITS } from "../money"

export function validationError(title: string, issues: ValidationIssue[]): AltaPayValidationError {
  const shown = issues.slice(0, 5).map((x) => `${x.field} ${x.message}`)
  const more = issues.length > shown.length ? `; and ${issues.length - shown.length} more` : ""
  return new AltaPayValidationError(`${title}: ${shown.join("; ")}${more}.`, issues)
}

const MAX = BigInt(MAX_MINOR_UNITS)

/** A minor-unit amount as a number, refused beyond what JSON numbers carry exactly. */
export function toSafeMinor(value: bigint, field: string): number {
  if (value > MAX || value < -MAX) {
    throw validationError("Amount out of range", [{ field, message: `amount is too large (at most ${MAX_MINOR_UNITS} minor units)` }])
  }
  return Number(value)
}
