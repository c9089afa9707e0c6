/**
 * Middlewares of the plugin's routes. One flat list: each entry is one route's validation / auth.
 */
import { authenticate, defineMiddlewares, validateAndTransformBody, type MedusaNextFunction, type MedusaRequest, type MedusaResponse } from "@medusajs/framework/http"
import type { Logger } from "@medusajs/framework/types"
import { ContainerRegistrationKeys } from "@medusajs/framework/utils"
import { cachedSourceCheck } from "../lib/callbacks/source-addresses"
import { altapayOptionsFromConfig } from "../lib/registrations/from-config"
import { serverKeys } from "../lib/registrations/server-keys"
import { ARRIVAL_HEADER, arrivalStamp } from "../lib/callbacks/arrival"
import { noteSourceRefused } from "../lib/health/hooks"
import { answerAltaPayTestPost, noteAltaPayTestPost } from "./altapay-test-post"
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
    const provider = (req.params as Record<string, string | undefined> | undefined)?.provider ?? req.path.split("/").pop() ?? ""
    if (provider.startsWith("altapay_")) {
      // Medusa's webhook route serves provider pp_<provider>: stamp with that registration's keys.
      const { options } = altapayOptionsFromConfig(req.scope, `pp_${provider}`)
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
 * /hooks/payment/altapay_<id>, /altapay/return/<id>/<kind> or /altapay/saved-card-return/<id>/<kind>;
 * undefined for other providers.
 */
function registrationOf(req: MedusaRequest): string | undefined {
  const segments = (req.originalUrl ?? req.url).split("?")[0].split("/").filter(Boolean).map(decodeURIComponent)
  if (segments[0] === "hooks" && segments[1] === "payment" && segments[2]?.startsWith("altapay_")) return `pp_${segments[2]}`
  if (segments[0] === "altapay" && (segments[1] === "return" || segments[1] === "saved-card-return") && segments[2]) return `pp_altapay_${segments[2]}`
  return undefined
}

/**
 * Refuses (403) AltaPay notification callbacks and return posts (POST) from an address the registration's
 * `callbackSources` does not name. The address is Express's `req.ip`, which follows Medusa's
 * `trust proxy` setting (1: the address the one proxy in front of Medusa saw; docs/security.md).
 * A GET of a return URL is left alone: that is a customer's browser, and it changes nothing
 * without AltaPay's confirmation.
 */
export function refuseUnknownCallbackSources(req: MedusaRequest, res: MedusaResponse, next: MedusaNextFunction): void {
  const providerId = registrationOf(req)
  let sources
  try {
    sources = providerId ? altapayOptionsFromConfig(req.scope, providerId).options.callbackSources : undefined
  } catch {
    // No such AltaPay registration: the route answers for itself.
    sources = undefined
  }
  if (!sources || cachedSourceCheck(sources)(req.ip)) return next()
  const logger = req.scope.resolve<Logger>(ContainerRegistrationKeys.LOGGER)
  logger.warn(`AltaPay: refused ${req.method} ${req.path} from ${req.ip ?? "an unknown address"}: not an address callbackSources of ${providerId} allows (403).`)
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
      method: ["POST"],
      matcher: "/admin/altapay/orders/:id/agreement-charges",
      middlewares: [validateAndTransformBody(AdminCreateAltaPayAgreementCharge)],
    },
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
