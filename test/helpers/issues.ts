import { AltaPayAmountPrecisionError, AltaPayValidationError } from "../../src/altapay/errors"

/** Runs `fn`, which must throw an AltaPayValidationError, and returns the issues it names. */
export function issuesOf(fn: () => unknown): { field: string; message: string }[] {
  try {
    fn()
  } catch (error) {
    expect(error).toBeInstanceOf(AltaPayValidationError)
    return (error as AltaPayValidationError).issues
  }
  throw new Error("expected a validation error")
}

/** Whether `encode` threw AltaPayAmountPrecisionError: amounts AltaPay's 2 decimals cannot carry. */
export function refusedForPrecision(encode: () => unknown): boolean {
  try {
    encode()
    return false
  } catch (error) {
    return error instanceof AltaPayAmountPrecisionError
  }
}
