/**
 * What a shopper sees of a failure: a short message and a reference. The details (AltaPay's
 * message, transport errors with internal addresses, stack-level causes) go to the server's log
 * under the same reference, where the merchant finds them.
 */
import { randomBytes } from "node:crypto"
import type { Logger } from "@medusajs/framework/types"

export type DetailLog = Pick<Logger, "error"> | undefined

/** A reference such as `altapay-3f9c0a1b2d4e`: random, so it tells an outsider nothing. */
export function errorReference(): string {
  return `altapay-${randomBytes(6).toString("hex")}`
}

/** Logs `details` under a new reference and returns the reference. */
export function logDetails(logger: DetailLog, what: string, details: string): string {
  const reference = errorReference()
  ;(logger ?? console).error(`${what} (reference ${reference}): ${details}`)
  return reference
}
