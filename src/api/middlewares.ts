/**
 * Middlewares of the plugin's routes. One flat list: each entry is one route's validation / auth.
 */
import { authenticate, defineMiddlewares, validateAndTransformBody, type MedusaNextFunction, type MedusaRequest, type MedusaResponse } from "@medusajs/framework/http"
import type { Logger } from "@medusajs/framework/types"
import { ContainerRegistrationKeys } from "@medusajs/framework/utils"
import { cachedSourceCheck, callerAddress } from "../lib/callbacks/source-addresses"
import { altapayOptionsFromConfig } from "../lib/registrations/from-config"
import type { AltaPayOptions } from "../lib/registrations/options"
import { serverKeys } from "../lib/registrations/server-keys"
import { ARRIVAL_HEADER, arrivalStamp } from "../lib/callbacks/arrival"
import { webhookRegistration } from "../lib/callbacks/webhook-provider"
import { noteSourceRefused } from "../lib/health/hooks"
import { answerAltaPayTestPost, noteAltaPayTestPost } from "./altapay-test-post"
import { refundWhenOrderCanceled } from "./canceled-order-refund"
import { oneChangeOfAPaymentsOrderAtATime, oneChangeOfTheOrderOf, oneChangeOfThisOrderAtATime, refuseCancelThatKeepsMoney } from "./order-money-lock"
import { StoreAddAltaPaySavedCard } from "./store/altapay/saved-cards/validators"
import { AdminCreateAltaPayAgreementCharge } from "./admin/altapay/orders/[id]/agreement-charges/validators"
import { StoreCreateAltaPaySession } from "./store/carts/[id]/altapay-session/validators"

/**
 * Stamps when an AltaPay callback reached this server (lib/callbacks/arrival.ts), replacing any header
 * of that name the sender sent. Medusa processes the callback seconds later; the provider judges
 * the signature's age against this stamp.
 */
export function stampAltaPayWebhookArrival(req: MedusaRequest, _res: MedusaResponse, next: MedusaNextFunction): void {
  delete req.headers[ARRIVAL_HEADER]
  try {
    const registration = webhookRegistration((req.params as Record<string, string | undefined> | undefined)?.provider ?? req.path.split("/").pop())
    if (registration) {
      // Stamped with the keys of the registration Medusa hands the post to.
      const { options } = altapayOptionsFromConfig(req.scope, registration)
      const raw = (req as MedusaRequest & { rawBody?: unknown }).rawBody
      const body = Buffer.isBuffer(raw) ? raw : Buffer.from(typeof raw === "string" ? raw : "", "utf8")
      req.headers[ARRIVAL_HEADER] = arrivalStamp(body, serverKeys(options, "webhook-arrival"))
    }
  } catch {
    // No such AltaPay provider configured here: nothing to stamp; the provider then judges by the time it runs.
  }
  next()
}

/**
 * The AltaPay registration a callback or return request is for: `pp_altapay_<id>` from
 * /hooks/payment/altapay_<id> (or its other spelling pp_altapay_<id>), /altapay/return/<id>/<kind>, /altapay/saved-card-return/<id>/<kind> or
 * /altapay/verify-order/<id>; * undefined for other providers. Read as Express routes it: the path it matched (`req.path`, also of
 * an absolute-form request line), its fixed words in any case (Express routes case-insensitively:
 * /HOOKS/payment/… reaches the webhook), each segment decoded as Express decodes the route's params.
 */
function registrationOf(req: MedusaRequest): string | undefined {
  let segments: string[]
  try {
    segments = req.path.split("/").filter(Boolean).map(decodeURIComponent)
  } catch {
    // Malformed escapes: Express answers 400 before any route; nothing to name.
    return undefined
  }
  const [first, second, id] = segments
  const word = (segment: string | undefined) => segment?.toLowerCase()
  if (word(first) === "hooks" && word(second) === "payment") return webhookRegistration(id)
  if (word(first) === "altapay" && (word(second) === "return" || word(second) === "saved-card-return" || word(second) === "verify-order") && id) return `pp_altapay_${id}`
  return undefined
}

/**
 * Refuses (403) AltaPay notification callbacks, return posts and verify-order posts (POST) from an address the registration's
 * `callbackSources` does not name. The address is the socket's peer, or behind the proxies listed in
 * `callbackProxies` the one they forwarded (lib/callbacks/source-addresses.ts, `callerAddress`):
 * never Express's `req.ip`, which under Medusa's fixed `trust proxy` of 1 believes anyone's
 * X-Forwarded-For. A GET of a return URL is left alone: that is a customer's browser, and it
 * changes nothing without AltaPay's confirmation.
 */
export function refuseUnknownCallbackSources(req: MedusaRequest, res: MedusaResponse, next: MedusaNextFunction): void {
  const providerId = registrationOf(req)
  let options: Pick<AltaPayOptions, "callbackSources" | "callbackProxies"> | undefined
  try {
    options = providerId ? altapayOptionsFromConfig(req.scope, providerId).options : undefined
  } catch {
    // No such AltaPay registration: the route answers for itself.
    options = undefined
  }
  const sources = options?.callbackSources
  if (!sources) return next()
  const forwardedFor = req.headers["x-forwarded-for"]
  const address = callerAddress(req.socket?.remoteAddress, forwardedFor, options?.callbackProxies && cachedSourceCheck(options.callbackProxies))
  if (cachedSourceCheck(sources)(address)) return next()
  const logger = req.scope.resolve<Logger>(ContainerRegistrationKeys.LOGGER)
  const unread = forwardedFor && !options?.callbackProxies ? ` Its X-Forwarded-For was not read: list your proxy in front of Medusa in callbackProxies if there is one.` : ""
  logger.warn(`AltaPay: refused ${req.method} ${req.path} from ${address ?? "an unknown address"}: not an address callbackSources of ${providerId} allows (403).${unread}`)
  res.status(403).type("text/plain").send("Forbidden.")
  void noteSourceRefused(req.scope, providerId!, req.originalUrl ?? req.url)
}

export default defineMiddlewares({
  routes: [
    {
      method: ["POST"],
      matcher: "/store/carts/:id/altapay-session",
      middlewares: [
        // Medusa already authenticates /store optionally; named here so the rule is visible: a
        // signed-in customer is recognised, a guest passes (the route decides per cart).
        authenticate("customer", ["session", "bearer"], { allowUnauthenticated: true }),
        validateAndTransformBody(StoreCreateAltaPaySession),
      ],
    },
    {
      // Medusa authenticates /admin itself (an admin user, 401 otherwise); this validates the body.
      // A charge is a change of the order's money: one at a time with the routes below (order-money-lock.ts).
      method: ["POST"],
      matcher: "/admin/altapay/orders/:id/agreement-charges",
      middlewares: [validateAndTransformBody(AdminCreateAltaPayAgreementCharge), oneChangeOfThisOrderAtATime],
    },
    // Medusa's Capture, Refund and Cancel buttons and the order panel's item captures and refunds:
    // one change of an AltaPay order's money at a time (order-money-lock.ts).
    ...["/admin/payments/:id/capture", "/admin/altapay/payments/:id/captures", "/admin/altapay/payments/:id/refunds"].map((matcher) => ({
      method: ["POST" as const],
      matcher,
      middlewares: [oneChangeOfAPaymentsOrderAtATime],
    })),
    // Medusa's Refund of a canceled order's payment moves the money and answers 400 (canceled-order-refund.ts).
    { method: ["POST"], matcher: "/admin/payments/:id/refund", middlewares: [oneChangeOfAPaymentsOrderAtATime, refundWhenOrderCanceled] },
    {
      method: ["POST"],
      matcher: "/admin/orders/:id/cancel",
      middlewares: [oneChangeOfThisOrderAtATime, refuseCancelThatKeepsMoney],
    },
    // The confirms that move an order to its next version, never beside a capture or refund of it.
    { method: ["POST"], matcher: "/admin/order-edits/:id/confirm", middlewares: [oneChangeOfThisOrderAtATime] },
    { method: ["POST"], matcher: "/admin/claims/:id/request", middlewares: [oneChangeOfTheOrderOf("order_claim")] },
    { method: ["POST"], matcher: "/admin/exchanges/:id/request", middlewares: [oneChangeOfTheOrderOf("order_exchange")] },
    ...["/admin/returns/:id/request", "/admin/returns/:id/receive/confirm"].map((matcher) => ({
      method: ["POST" as const],
      matcher,
      middlewares: [oneChangeOfTheOrderOf("return")],
    })),
    {
      // A customer's own saved cards: a signed-in customer only (401 otherwise), as /store/customers/me.
      method: ["GET", "DELETE"],
      matcher: "/store/altapay/saved-cards*",
      middlewares: [authenticate("customer", ["session", "bearer"])],
    },
    {
      method: ["POST"],
      matcher: "/store/altapay/saved-cards",
      middlewares: [authenticate("customer", ["session", "bearer"]), validateAndTransformBody(StoreAddAltaPaySavedCard)],
    },
    {
      // AltaPay's posts after a card was added from the account page (lib/saved-cards/account-setup.ts),
      // and a later purchase's return after 3-D Secure: signed like the return below.
      method: ["POST"],
      matcher: "/altapay/saved-card-return/*",
      bodyParser: { preserveRawBody: true },
      middlewares: [refuseUnknownCallbackSources],
    },
    {
      // AltaPay's last look at the cart before it charges (lib/verify-order): signed like the return below.
      method: ["POST"],
      matcher: "/altapay/verify-order/*",
      bodyParser: { preserveRawBody: true },
      middlewares: [refuseUnknownCallbackSources],
    },
    {
      // AltaPay's signed return post: the signature covers the raw form body (lib/customer-return).
      method: ["POST"],
      matcher: "/altapay/return/*",
      bodyParser: { preserveRawBody: true },
      middlewares: [noteAltaPayTestPost, refuseUnknownCallbackSources, answerAltaPayTestPost],
    },

    {
      method: ["POST"],
      matcher: "/hooks/payment/:provider",
      middlewares: [noteAltaPayTestPost, refuseUnknownCallbackSources, answerAltaPayTestPost, stampAltaPayWebhookArrival],
    },
  ],
})
