/**
 * Whether the payment a customer's return names is paid, as Medusa's webhook action. AltaPay's
 * gateway posts the return form signed with `AltaPay-Signature` (the same form and signature as its
 * notification callback); a post whose signature verifies with the registration's callbackSecret is
 * AltaPay speaking. Anything else (unsigned, forged, stale, no callbackSecret configured, a plain
 * browser GET) is only a hint which session to ask about: AltaPay's own record decides
 * (confirmed-action.ts), and the posted amounts and status are never used.
 */
import type { WebhookActionResult } from "@medusajs/framework/types"
import { PaymentActions } from "@medusajs/framework/utils"
import { parseCallback, verifyCallbackSignature, type AltaPayClient } from "../../altapay"
import { confirmedActionFor, statedAction } from "../callbacks/confirmed-action"
import type { AltaPayOptions } from "../registrations/options"

const PAID: ReadonlySet<string> = new Set([PaymentActions.AUTHORIZED, PaymentActions.SUCCESSFUL])

export interface ReturnPost {
  /** shop_orderid: the Medusa payment session id. */
  sessionId: string
  /** The raw form body exactly as received; absent for a GET. */
  rawBody?: Buffer
  signatureHeader?: string
}

export interface ConfirmedReturn {
  result: WebhookActionResult
  /** What decided: the verified signature, or a live look-up at AltaPay. */
  by: "signature" | "look-up"
}

export async function confirmReturn(
  post: ReturnPost,
  options: Pick<AltaPayOptions, "callbackSecret" | "callbackToleranceSeconds">,
  client: AltaPayClient
): Promise<ConfirmedReturn> {
  // A signed "paid" needs no question. A signed failure is still checked: AltaPay may call the fail
  // page after a successful payment ("Settings for the fail page": the customer goes back and
  // submits an empty form), and a paid session must then land on its order.
  const signed = signedResult(post, options)
  if (signed && PAID.has(signed.action)) return { result: signed, by: "signature" }
  // A failing look-up throws: the caller cannot confirm anything then.
  return { result: confirmedActionFor(post.sessionId, await client.gateway.payments({ shopOrderId: post.sessionId })), by: "look-up" }
}

/** Whether the post is AltaPay's own, verified and fresh, about this session: only then may its answer name the cart and order. */
export function signedForSession(post: ReturnPost, options: Pick<AltaPayOptions, "callbackSecret" | "callbackToleranceSeconds">): boolean {
  return signedResult(post, options) !== undefined
}

/** The action a verified, fresh, complete signed post states for its own session; else undefined. */
function signedResult(post: ReturnPost, options: Pick<AltaPayOptions, "callbackSecret" | "callbackToleranceSeconds">): WebhookActionResult | undefined {
  if (!options.callbackSecret || !post.rawBody || !post.signatureHeader) return undefined
  try {
    verifyCallbackSignature({ rawBody: post.rawBody, signatureHeader: post.signatureHeader, secret: options.callbackSecret, toleranceSeconds: options.callbackToleranceSeconds })
    const callback = parseCallback(post.rawBody.toString("utf8"))
    return callback.shopOrderId === post.sessionId ? statedAction(callback) : undefined
  } catch {
    return undefined
  }
}
