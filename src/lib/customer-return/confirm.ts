/**
 * Whether the payment a customer's return names is paid, as Medusa's webhook action. AltaPay's
 * gateway posts the return form signed with `AltaPay-Signature` (the same form and signature as its
 * notification callback); a post whose signature verifies with the registration's callbackSecret is
 * AltaPay speaking. Anything else (unsigned, forged, stale, no callbackSecret configured, a plain
 * browser GET) is only a hint which session to ask about: AltaPay's own record decides
 * (confirmed-action.ts), and the posted amounts and status are never used.
 *
 * Such anonymous look-ups are capped (look-up-budget.ts, issue 29) and sent once, without retries,
 * on a client of their own (its own connections), so a flood of them never queues the provider's
 * authorize, capture and refund calls. A signed post is never capped: it needs a look-up only when it
 * states a failure, and that one uses the provider's client with its retries.
 */
import type { Logger, WebhookActionResult } from "@medusajs/framework/types"
import { PaymentActions } from "@medusajs/framework/utils"
import { parseCallback, verifyCallbackSignature, type AltaPayCallback, type AltaPayClient, type GatewayTransaction } from "../../altapay"
import { confirmedActionFor, statedAction } from "../callbacks/confirmed-action"
import { isOpenAtAltaPay, transactionForOrder } from "../medusa-mapping/status"
import type { AltaPayOptions } from "../registrations/options"
import { sharedAltaPayClient } from "../registrations/shared-client"
import type { ScaleOut } from "../scale-out/shared-state"
import { LookUpBudget, type CapReason } from "./look-up-budget"

const PAID: ReadonlySet<string> = new Set([PaymentActions.AUTHORIZED, PaymentActions.SUCCESSFUL])

export interface ReturnPost {
  /** shop_orderid as AltaPay posted it: the Medusa payment session's, in either form (shop-order-id.ts). */
  shopOrderId: string
  /** The raw form body exactly as received; absent for a GET. */
  rawBody?: Buffer
  signatureHeader?: string
}

export interface ConfirmedReturn {
  result: WebhookActionResult
  /** What decided: the verified signature, a live look-up at AltaPay, or the look-up cap (nothing asked, nothing confirmed). */
  by: "signature" | "look-up" | `look-up cap: ${CapReason}`
  /**
   * The payment is open (AltaPay's status `open`, TransactionStatus `pending`: Klarna's manual review,
   * say): neither paid nor failed yet. From the verified post or from AltaPay's record.
   */
  open?: boolean
  /**
   * The message AltaPay requires the customer to see (`error_message` when
   * `cardholder_message_must_be_shown`, always for Klarna). Only ever from a verified, fresh signed
   * post: nothing an anonymous request sends reaches the customer's page.
   */
  cardholderMessage?: string
}

/** What anonymous returns look AltaPay up with: their budget, and a client without retries, on connections of its own. */
export interface AnonymousLookUps {
  budget: LookUpBudget
  client: AltaPayClient
}

type Registration = { providerId: string; options: AltaPayOptions; client: AltaPayClient; scaleOut: Pick<ScaleOut, "key" | "store"> }

/** confirmReturn for a registration (altapayFromConfig), with its anonymous look-ups' budget and client. */
export function confirmReturnFor(post: ReturnPost, registration: Registration, logger?: Pick<Logger, "warn">): Promise<ConfirmedReturn> {
  return confirmReturn(post, registration.options, registration.client, anonymousLookUps(registration, logger))
}

export async function confirmReturn(
  post: ReturnPost,
  options: Pick<AltaPayOptions, "callbackSecret" | "callbackToleranceSeconds">,
  client: AltaPayClient,
  anonymous: AnonymousLookUps
): Promise<ConfirmedReturn> {
  const lookUp = (using: AltaPayClient) => using.gateway.payments({ shopOrderId: post.shopOrderId })
  // A failing look-up throws: the caller cannot confirm anything then.
  const decided = (transactions: Awaited<ReturnType<typeof lookUp>>): ConfirmedReturn => {
    const transaction = transactionForOrder(post.shopOrderId, transactions)
    return { result: confirmedActionFor(post.shopOrderId, transactions), by: "look-up", ...(transaction && isOpenAtAltaPay(transaction) ? { open: true } : {}) }
  }
  const signed = signedCallback(post, options)
  if (signed) {
    const message = signed.cardholderMessage ? { cardholderMessage: signed.cardholderMessage } : {}
    // A signed "paid" needs no question. A signed failure is still checked: AltaPay may call the fail
    // page after a successful payment ("Settings for the fail page": the customer goes back and
    // submits an empty form), and a paid session must then land on its order.
    const stated = statedAction(signed)
    if (stated && PAID.has(stated.action)) return { result: stated, by: "signature", ...message }
    const found = decided(await lookUp(client))
    // Open is what AltaPay said in its own words, unless its record has moved on since (paid or failed).
    const open = found.open || (signed.status === "open" && found.result.action === PaymentActions.NOT_SUPPORTED)
    return { ...found, ...(open ? { open: true } : {}), ...message }
  }
  const budgeted = await anonymous.budget.run(post.shopOrderId, () => lookUp(anonymous.client))
  if (!budgeted.admitted) return { result: { action: PaymentActions.NOT_SUPPORTED }, by: `look-up cap: ${budgeted.reason}` }
  return decided(budgeted.value)
}

/** Whether the post is AltaPay's own, verified and fresh, about this session: only then may its answer name the cart and order. */
export function signedForSession(post: ReturnPost, options: Pick<AltaPayOptions, "callbackSecret" | "callbackToleranceSeconds">): boolean {
  return signedCallback(post, options) !== undefined
}

/** The callback a verified, fresh signed post makes for its own session; else undefined. */
function signedCallback(post: ReturnPost, options: Pick<AltaPayOptions, "callbackSecret" | "callbackToleranceSeconds">): AltaPayCallback | undefined {
  if (!options.callbackSecret || !post.rawBody || !post.signatureHeader) return undefined
  try {
    verifyCallbackSignature({ rawBody: post.rawBody, signatureHeader: post.signatureHeader, secret: options.callbackSecret, toleranceSeconds: options.callbackToleranceSeconds })
    const callback = parseCallback(post.rawBody.toString("utf8"))
    return callback.shopOrderId === post.shopOrderId ? callback : undefined
  } catch {
    return undefined
  }
}

const ANONYMOUS = Symbol.for("medusa-payment-altapay.return-look-ups")
const budgets: Map<string, LookUpBudget> =
  ((globalThis as Record<symbol, unknown>)[ANONYMOUS] as Map<string, LookUpBudget> | undefined) ??
  ((globalThis as Record<symbol, unknown>)[ANONYMOUS] = new Map<string, LookUpBudget>())

/**
 * A registration's anonymous look-ups, one budget per registration in a process, counted in the
 * Payment module's cache when it has one. The client is the registration's own with no retries and
 * a key of its own, so its connections are not the provider's (`payments` needs no MERCHANT token).
 */
export function anonymousLookUps(registration: Omit<Registration, "client">, logger?: Pick<Logger, "warn">): AnonymousLookUps {
  const { providerId, options, scaleOut } = registration
  const key = [providerId, scaleOut.key, JSON.stringify(options.returnLookUps)].join("|")
  let budget = budgets.get(key)
  if (!budget) budgets.set(key, (budget = new LookUpBudget({ name: providerId, limits: options.returnLookUps, store: scaleOut.store, warn: (message) => logger?.warn(message) })))
  return { budget, client: sharedAltaPayClient({ ...options, maxRetries: 0 }, undefined, { key: `${scaleOut.key}|anonymous-return-look-ups`, store: scaleOut.store }) }
}

/**
 * AltaPay's record of one transaction a request from outside names (a return post, a GET), within the
 * anonymous look-ups' budget; undefined when the id is malformed, the budget refused, or AltaPay has none.
 */
export async function anonymousTransaction(
  registration: Omit<Registration, "client">,
  budgetKey: string,
  transactionId: string | undefined,
  logger?: Pick<Logger, "warn">
): Promise<GatewayTransaction | undefined> {
  if (!transactionId || !/^[0-9a-f]{1,32}$/.test(transactionId)) return undefined
  const anonymous = anonymousLookUps(registration, logger)
  const looked = await anonymous.budget.run(budgetKey, () => anonymous.client.gateway.payments({ transactionId }))
  return looked.admitted ? looked.value.find((t) => t.transactionId === transactionId) : undefined
}
