/**
 * POST /admin/altapay/payment-links  { cart_id } | { order_id }, optional validity_seconds
 *
 * An AltaPay payment link for phone and e-mail orders. The link belongs to an AltaPay session of
 * a Medusa payment session (AltaPay's shop_orderid), so paying it runs the usual flow: the
 * callback authorizes that session and, for a cart, completes the cart into an order.
 */
import type { AuthenticatedMedusaRequest, MedusaResponse } from "@medusajs/framework/http"
import { MedusaError } from "@medusajs/framework/utils"
import { z } from "zod"
import { altapayFromConfig } from "../../../../lib/registrations/from-config"
import { toMedusaError } from "../../../../lib/medusa-mapping/errors"
import { AttemptBook } from "../../../../lib/money-door/attempts"
import { notePaymentLink } from "../../../../lib/medusa-mapping/open-payments"
import { processStore } from "../../../../lib/scale-out/shared-state"
import { terminalFor } from "../../../../lib/registrations/options"
import { sessionForCart, sessionForOrder, type LinkSession } from "../_lib/link-sessions"
import { parseBody } from "../_lib/parse-body"
import type { Money } from "../_lib/payment-view"

const DAY = 24 * 60 * 60

const AdminCreateAltaPayPaymentLink = z
  .object({
    cart_id: z.string().min(1).optional(),
    order_id: z.string().min(1).optional(),
    /** The AltaPay registration (pp_altapay_<id>) to pay with; needed when the store has several. */
    provider_id: z.string().min(1).max(200).optional(),
    /** How long the link can be paid, in seconds: 5 minutes to 30 days (default 1 day). */
    validity_seconds: z
      .number()
      .int()
      .min(300)
      .max(30 * DAY)
      .default(DAY),
  })
  .strict()
  .refine((body) => !!body.cart_id !== !!body.order_id, { message: "give either cart_id or order_id", path: ["cart_id"] })

export interface AdminAltaPayPaymentLinkResponse {
  payment_link: {
    id: string | null
    url: string
    expires_at: string
    /** As AltaPay returned it (an image URL or data URL), when it did. */
    qr_code: string | null
  }
  amount: Money
  cart_id: string | null
  order_id: string | null
  payment_collection_id: string
  /** The Medusa payment session the link pays (AltaPay's shop_orderid). */
  payment_session_id: string
  altapay_session_id: string
  /** The AltaPay registration the link pays with, and its terminal for the currency. */
  provider_id: string
  terminal: string | null
}

export const POST = async (req: AuthenticatedMedusaRequest, res: MedusaResponse<AdminAltaPayPaymentLinkResponse>) => {
  const body = parseBody(AdminCreateAltaPayPaymentLink, req.body)
  const { client, options, providerId, scaleOut } = altapayFromConfig(req.scope, body.provider_id)
  const target = { providerId, options, attempts: new AttemptBook(scaleOut.store) }
  const session: LinkSession = body.cart_id ? await sessionForCart(req.scope, body.cart_id, target) : await sessionForOrder(req.scope, body.order_id as string, target)

  // AltaPay counts validityTime in minutes (CreatePaymentLink); its answer carries no expiry, so
  // the one shown is the time asked for, rounded up to whole minutes as sent.
  const validityMinutes = Math.ceil(body.validity_seconds / 60)
  const requestedAt = Date.now()
  let link
  try {
    link = await client.checkout.createPaymentLink(session.altapay_session_id, { validityMinutes })
  } catch (error) {
    throw toMedusaError(error, "payment link")
  }
  if (!link.paymentLink) throw new MedusaError(MedusaError.Types.UNEXPECTED_STATE, "AltaPay created the payment link but returned no URL.")

  // A merchant charge on the order waits while the link can be paid (lib/medusa-mapping/open-payments.ts).
  const expiresAt = new Date(requestedAt + validityMinutes * 60_000)
  await notePaymentLink(scaleOut.store ?? processStore(), session.payment_session_id, expiresAt)
  res.setHeader("Cache-Control", "no-store")
  res.status(200).json({
    payment_link: {
      id: link.id ?? null,
      url: link.paymentLink,
      expires_at: expiresAt.toISOString(),
      qr_code: link.qrCode ?? null,
    },
    amount: session.amount,
    cart_id: body.cart_id ?? null,
    order_id: body.order_id ?? null,
    payment_collection_id: session.payment_collection_id,
    payment_session_id: session.payment_session_id,
    altapay_session_id: session.altapay_session_id,
    provider_id: providerId,
    terminal: terminalFor(options, session.amount.currency) ?? null,
  })
}
