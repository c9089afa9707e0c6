import { AltaPayValidationError } from "../../src/altapay/errors"

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
