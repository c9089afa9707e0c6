/**
 * When AltaPay itself failed (down, slow, 5xx, unreadable answer), the storefront gets a 502 with
 * `type: "altapay_unreachable"`: a failure upstream of Medusa that is worth retrying, not a bad
 * request. MedusaError has no 502 type, so the route answers these itself.
 */
import { MedusaError } from "@medusajs/framework/utils"
import { AltaPayError } from "../../../../../altapay"

export const ALTAPAY_UNREACHABLE = "altapay_unreachable"

export interface UpstreamFailure {
  type: typeof ALTAPAY_UNREACHABLE
  code: typeof ALTAPAY_UNREACHABLE
  message: string
}

const TRANSIENT_CODES = new Set(["network", "timeout", "bad_response", "http"])

/** The 502 body for an AltaPay failure, or undefined when `error` is something else. */
export function upstreamFailure(error: unknown, doing: string): UpstreamFailure | undefined {
  // Straight from the client (the CUSTOMER token call).
  if (error instanceof AltaPayError) {
    if (error.code === "validation" || error.code === "declined") return undefined
    const detail = TRANSIENT_CODES.has(error.code) ? "" : " Check the AltaPay provider's credentials and URLs."
    return body(`AltaPay could not ${doing}: ${error.message}${detail}`)
  }
  // Through a workflow: the provider turned the AltaPay error into an UNEXPECTED_STATE MedusaError
  // ("AltaPay session creation failed: ..."), which the workflow engine hands back serialized.
  const e = error as { type?: unknown; code?: unknown; message?: unknown } | null
  if (!e || typeof e.message !== "string") return undefined
  if (e.code === ALTAPAY_UNREACHABLE || (e.type === MedusaError.Types.UNEXPECTED_STATE && /^AltaPay session (creation|update) failed/.test(e.message))) {
    return body(`AltaPay could not ${doing}: ${e.message}`)
  }
  return undefined
}

function body(message: string): UpstreamFailure {
  return { type: ALTAPAY_UNREACHABLE, code: ALTAPAY_UNREACHABLE, message }
}
