/**
 * POST /store/carts/:id/altapay-session
 *
 * Creates (or reuses) the cart's AltaPay checkout session from the server-side cart and hands the
 * browser a fresh CUSTOMER token for that one session. The browser never supplies amounts or
 * lines, and never sees the API user's credentials or a MERCHANT token. The token is not stored
 * anywhere: not in the payment session's data or context, not in logs.
 */
import type { MedusaResponse, MedusaStoreRequest } from "@medusajs/framework/http"
import { altapayFromConfig } from "../../../../../lib/registrations/from-config"
import { acceptedTerminals, currenciesWithTerminal, terminalFor } from "../../../../../lib/registrations/options"
import { createAltaPaySessionForCartWorkflow } from "../../../../../workflows/create-altapay-session-for-cart"
import { upstreamFailure, type UpstreamFailure } from "./upstream-errors"
import type { StoreCreateAltaPaySessionType } from "./validators"

export interface StoreAltaPaySessionResponse {
  /** Medusa's payment session (AltaPay's shop_orderid). */
  payment_session_id: string
  /** The AltaPay registration the session belongs to, pp_altapay_<id>. */
  provider_id: string
  altapay: {
    /** AltaPay checkout session id. */
    session_id: string
    /** CUSTOMER token for this session only: Authorization: Bearer <token>. */
    token: string
    /** ISO 8601; ask this route again for a new token after it (or after creating a payment). */
    expires_at: string
    /** Base URL of AltaPay's Checkout API: <checkout_url>/checkout/v1/api/... */
    checkout_url: string
    /** The registration's terminal for the cart's currency: pay with the method of that terminal. */
    terminal: string | null
    /**
     * Every terminal a payment of this session is authorized on: `terminal`, then the registration's
     * `acceptedTerminals`. Empty when the registration names none (AltaPay chooses, nothing is checked).
     * A payment on any other terminal of the API user pays for nothing here: offer only these methods.
     */
    accepted_terminals: string[]
  }
}

export const POST = async (req: MedusaStoreRequest<StoreCreateAltaPaySessionType>, res: MedusaResponse<StoreAltaPaySessionResponse | UpstreamFailure>) => {
  const { options, client, providerId } = altapayFromConfig(req.scope, req.validatedBody?.provider_id)
  const actor = req.auth_context?.actor_type === "customer" ? req.auth_context.actor_id || undefined : undefined

  let session: { payment_session_id: string; altapay_session_id: string; currency_code: string }
  try {
    const { result } = await createAltaPaySessionForCartWorkflow(req.scope).run({
      input: {
        cart_id: req.params.id,
        customer_id: actor,
        provider_id: providerId,
        product_url_template: options.productUrlTemplate,
        supported_currencies: currenciesWithTerminal(options),
      },
    })
    session = result
  } catch (error) {
    const upstream = upstreamFailure(error, "create the payment session", req.scope.resolve("logger"))
    if (upstream) return void res.status(502).json(upstream)
    throw error
  }

  let issued: { token: string; expiresAt: Date }
  try {
    // AltaPay: a CUSTOMER token per customer session, spent once it has created a payment.
    issued = await client.tokens.customerToken(session.altapay_session_id)
  } catch (error) {
    const upstream = upstreamFailure(error, "issue a customer token", req.scope.resolve("logger"))
    if (upstream) return void res.status(502).json(upstream)
    throw error
  }

  res.setHeader("Cache-Control", "no-store")
  res.status(200).json({
    payment_session_id: session.payment_session_id,
    provider_id: providerId,
    altapay: {
      session_id: session.altapay_session_id,
      token: issued.token,
      expires_at: issued.expiresAt.toISOString(),
      checkout_url: options.checkoutUrl.replace(/\/+$/, ""),
      terminal: terminalFor(options, session.currency_code) ?? null,
      accepted_terminals: acceptedTerminals(options, session.currency_code) ?? [],
    },
  })
}
