/**
 * Middlewares of the plugin's routes. One flat list: each entry is one route's validation / auth.
 */
import { authenticate, defineMiddlewares, validateAndTransformBody, type MedusaNextFunction, type MedusaRequest, type MedusaResponse } from "@medusajs/framework/http"
import { altapayOptionsFromConfig } from "../lib/registrations/from-config"
import { serverKeys } from "../lib/registrations/server-keys"
import { ARRIVAL_HEADER, arrivalStamp } from "../lib/callbacks/arrival"
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
      // AltaPay's signed return post: the signature covers the raw form body (lib/customer-return).
      method: ["POST"],
      matcher: "/altapay/return/*",
      bodyParser: { preserveRawBody: true },
    },
    {
      method: ["POST"],
      matcher: "/hooks/payment/:provider",
      middlewares: [stampAltaPayWebhookArrival],
    },
  ],
})
