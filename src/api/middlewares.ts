/**
 * Middlewares of the plugin's routes. One flat list: each entry is one route's validation / auth.
 */
import { authenticate, defineMiddlewares, validateAndTransformBody } from "@medusajs/framework/http"
import { StoreCreateAltaPaySession } from "./store/carts/[id]/altapay-session/validators"

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
  ],
})
