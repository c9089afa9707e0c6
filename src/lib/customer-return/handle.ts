/**
 * The plugin's return endpoint (src/api/altapay/return/[provider]/[kind]/route.ts): AltaPay's
 * gateway posts here when the customer leaves its payment page, and sends the customer wherever
 * this answers with a 303. Nothing here depends on the shopper's cookies (the request comes from
 * AltaPay, not the browser), and nothing changes unless AltaPay confirms a payment: a verified
 * signature, or AltaPay's own record (confirm.ts). A confirmed payment completes the cart under
 * the cart's lock, as Medusa's processPaymentWorkflow (which AltaPay's notification callback runs)
 * does, with the session read again under that lock (lib/callbacks/record-payment.ts):
 * whichever arrives first makes the order, the other finds it. Exactly one order.
 */
import type { Logger, MedusaContainer } from "@medusajs/framework/types"
import { ContainerRegistrationKeys, PaymentActions } from "@medusajs/framework/utils"
import { altapayFromConfig } from "../registrations/from-config"
import { noteReviewTold } from "../callbacks/failed-payments"
import { StrandedSessions } from "../follow-up/stranded"
import { noteRefused, noteReturnPost } from "../health/hooks"
import { medusaSession, orderOfCart } from "../medusa-mapping/medusa-session"
import { sessionIdFromOrderId } from "../medusa-mapping/shop-order-id"
import { processStore } from "../scale-out/shared-state"
import { confirmReturnFor, signedForSession, type ConfirmedReturn } from "./confirm"
import { landingUrl, type ReturnOutcome } from "./landing"
import { plainAnswer } from "./plain-answer"
import { savedCardReturn } from "./saved-card-return"
import { recordConfirmedPayment } from "../callbacks/record-payment"
import { messageOf } from "../follow-up/run-report"

export type ReturnKind = "success" | "failure"

export interface ReturnRequest {
  scope: MedusaContainer
  /** The registration id in the URL: `card` for pp_altapay_card. */
  registration: string
  kind: ReturnKind
  /** shop_orderid from the form (POST) or the query string (GET), either form (shop-order-id.ts). */
  shopOrderId: string | undefined
  rawBody?: Buffer
  signatureHeader?: string
  /** transaction_id as posted (or in the query): names a saved card's charge after its 3-D Secure page. */
  transactionId?: string
}

export type ReturnAnswer = { status: 303; location: string } | { status: number; text: string }

const PAID: ReadonlySet<string> = new Set([PaymentActions.AUTHORIZED, PaymentActions.SUCCESSFUL])

export async function handleCustomerReturn(request: ReturnRequest): Promise<ReturnAnswer> {
  let registration: ReturnType<typeof altapayFromConfig>
  try {
    registration = altapayFromConfig(request.scope, `pp_altapay_${request.registration}`)
  } catch {
    return { status: 404, text: "No such AltaPay registration." }
  }
  const shopOrderId = request.shopOrderId
  if (!shopOrderId || !/^[\w-]{1,100}$/.test(shopOrderId)) return { status: 400, text: "shop_orderid is missing or malformed." }
  const logger = loggerOf(request.scope)
  await noteReturnPost(registration, request)
  const query = request.scope.resolve(ContainerRegistrationKeys.QUERY)
  // AltaPay is asked by the shop_orderid as posted; Medusa by the session id it maps back to, or
  // (a saved card's charge after 3-D Secure) by the session the charge was made for.
  const charge = await savedCardReturn(registration, { shopOrderId, transactionId: request.transactionId }, logger).catch(() => undefined)
  const sessionId = charge?.sessionId ?? sessionIdFromOrderId(shopOrderId)

  let confirmed: ConfirmedReturn | undefined = charge?.confirmed
  try {
    confirmed ??= await confirmReturnFor({ shopOrderId, rawBody: request.rawBody, signatureHeader: request.signatureHeader }, registration, logger)
  } catch (error) {
    logger?.warn(
      `AltaPay return (${request.kind}) for payment session ${sessionId}: AltaPay could not be asked (${error instanceof Error ? error.message : String(error)}); nothing changed.`
    )
  }
  const action = confirmed?.result.action
  // Medusa's cart for the session, read to take its lock; under it the session is read again and
  // acted on by ids (lib/callbacks/record-payment.ts). A session Medusa does not have (or no
  // longer has under the lock) starts nothing: its payment is the follow-up's.
  const medusa = await medusaSession(query, sessionId)
  let recorded = false
  // Medusa's session after our authorize refused the payment (error: the fraud policy declined it, say).
  let refused = false
  if (confirmed && action && PAID.has(action) && confirmed.result.data?.session_id === sessionId) {
    const run = medusa ? await recordConfirmedPayment(request.scope, { id: sessionId, cartId: medusa.cartId }) : undefined
    if (run?.outcome === "failed") {
      logger?.warn(`AltaPay return for payment session ${sessionId}: Medusa did not complete the payment: ${messageOf(run.error)}`)
      refused = (await medusaSession(query, sessionId))?.status === "error"
    } else if (!run || run.outcome === "gone") {
      await new StrandedSessions(registration.scaleOut.store ?? processStore(), registration.scaleOut.paymentLock, registration.options.providerId).noteUnknown(
        sessionId,
        "AltaPay return",
        logger,
        // A saved card's charge was posted under its agreement's shop_orderid: found there.
        charge ? { agreementOrderId: shopOrderId } : { shopOrderId }
      )
      await noteRefused(registration.scaleOut, registration.options, "return", "unknown-session")
    } else {
      recorded = true
    }
  }
  // The cart (or a payment link's order) as read before the workflow; the cart's order as it is now.
  const cartId = medusa?.cartId ?? undefined
  const linkOrder = !!medusa && !cartId && !!medusa.orderId
  const orderId = cartId ? await orderOfCart(query, cartId) : (medusa?.orderId ?? undefined)
  // A cart is paid once it became an order; a payment link's order once Medusa recorded the payment.
  const paid = linkOrder ? recorded : !!orderId
  // Open (AltaPay's status open, e.g. Klarna's manual review): not paid, not failed; the order
  // follows when AltaPay settles it (its notification callback, else the follow-up job).
  const outcome: ReturnOutcome = paid ? "paid" : confirmed?.open ? "review" : action === PaymentActions.FAILED || refused || medusa?.status === "error" ? "declined" : "unconfirmed"
  logger?.info(`AltaPay return (${request.kind}) for payment session ${sessionId}: ${outcome}${confirmed ? ` (decided by ${confirmed.by})` : ""}.`)
  // The customer leaves expecting an order: should AltaPay decline it later, the merchant is told (lib/callbacks/failed-payments.ts).
  if (outcome === "review") await noteReviewTold(registration.scaleOut.store ?? processStore(), sessionId).catch(() => undefined)

  const { successUrl, failureUrl } = registration.options
  // A payment under review must not be paid again: it goes where a paid one goes.
  const template = outcome === "paid" ? successUrl : outcome === "review" ? (successUrl ?? failureUrl) : failureUrl
  // Only AltaPay's signed post proves it speaks for this session: an anonymous request (a GET, an
  // unsigned post) learns the outcome, never the cart or order a session id leads to, and puts no
  // text of its own on the customer's page (the message comes from the verified post only).
  const proven = signedForSession({ shopOrderId, rawBody: request.rawBody, signatureHeader: request.signatureHeader }, registration.options)
  const message = proven ? confirmed?.cardholderMessage : undefined
  // AltaPay shows a 200's text to the customer itself (its OK and fail pages must show the message too).
  if (!template) return { status: 200, text: await plainAnswer(query, sessionId, outcome, message, registration.options.language) }
  return {
    status: 303,
    location: landingUrl(template, {
      session_id: sessionId,
      cart_id: proven ? cartId : undefined,
      order_id: proven ? orderId : undefined,
      outcome,
      message,
    }),
  }
}

function loggerOf(scope: MedusaContainer): Logger | undefined {
  try {
    return scope.resolve<Logger>(ContainerRegistrationKeys.LOGGER)
  } catch {
    return undefined
  }
}
