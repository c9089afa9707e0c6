/**
 * When AltaPay itself failed (down, slow, 5xx, unreadable answer), the storefront gets a 502 with
 * `type: "altapay_unreachable"`: a failure upstream of Medusa that is worth retrying, not a bad
 * request. MedusaError has no 502 type, so the route answers these itself. The shopper sees a
 * short message and a reference; what failed (transport errors name internal addresses) goes to
 * the log under that reference.
 */
import { AltaPayError } from "../../../../../altapay"
import { logDetails, type DetailLog } from "../../../../../lib/medusa-mapping/error-reference"
import { ALTAPAY_UNREACHABLE } from "../../../../../lib/medusa-mapping/errors"

export { ALTAPAY_UNREACHABLE }

export interface UpstreamFailure {
  type: typeof ALTAPAY_UNREACHABLE
  code: typeof ALTAPAY_UNREACHABLE
  message: string
  /** Names the log line with the details. */
  reference: string
}

const TRANSIENT_CODES = new Set(["network", "timeout", "bad_response", "http"])

/** The 502 body for an AltaPay failure, or undefined when `error` is something else. */
export function upstreamFailure(error: unknown, doing: string, logger?: DetailLog): UpstreamFailure | undefined {
  // Straight from the client (the CUSTOMER token call).
  if (error instanceof AltaPayError) {
    if (error.code === "validation" || error.code === "declined") return undefined
    const detail = TRANSIENT_CODES.has(error.code) ? "" : " Check the AltaPay provider's credentials and URLs."
    return body(doing, logDetails(logger, `AltaPay could not ${doing}`, `${error.message}${detail}`))
  }
  // Through a workflow: the provider's MedusaError carries the code (its details already logged).
  const e = error as { code?: unknown; message?: unknown } | null
  if (!e || typeof e.message !== "string") return undefined
  if (e.code === ALTAPAY_UNREACHABLE) return body(doing, logDetails(logger, `AltaPay could not ${doing}`, e.message))
  return undefined
}

function body(doing: string, reference: string): UpstreamFailure {
  return {
    type: ALTAPAY_UNREACHABLE,
    code: ALTAPAY_UNREACHABLE,
    message: `AltaPay could not ${doing} right now; please try again in a moment (reference ${reference}).`,
    reference,
  }
}
