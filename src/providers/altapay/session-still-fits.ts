/**
 * Whether the session still pays what its cart or order now asks, read when it is authorized.
 *
 * A cart: Medusa refreshes a cart's payment collection on most cart changes, not on all (POST
 * /store/carts/:id/taxes recalculates the tax and leaves it; a store-credit module may add credit
 * lines without it), and its cart completion never compares the payment with the cart: an order of
 * the new total would be marked paid by a reservation of the old one.
 *
 * An order (a payment link): an order edit, claim, exchange, return or cancel changes what is due
 * without touching the link's session; the plugin's subscriber retires such a link, but AltaPay's
 * post for a link paid in between reaches Medusa's webhook workflow first, which would record the
 * old amount (169.31 DKK on an order now owing 56.88).
 *
 * Either way the authorization is refused here, before AltaPay is asked anything; a reservation
 * already made is the follow-up job's (released once the session is replaced or retired).
 */
import { MedusaError } from "@medusajs/framework/utils"
import { minorToDecimal } from "../../altapay"
import { decimalText } from "../../lib/medusa-mapping/amounts"
import { linkNoLongerFits, orderDue } from "../../lib/medusa-mapping/amount-due"
import { CART_FIELDS_FOR_LINES, cartTotalMinorIfPayable, type CartForLines } from "../../lib/medusa-mapping/cart-lines"
import { customerError } from "../../lib/medusa-mapping/customer-error"
import { medusaSession } from "../../lib/medusa-mapping/medusa-session"
import type { AltaPayPaymentData } from "../../lib/payment-data/data"
import type { ProviderContext } from "./context"

/** Throws when the session's cart or order no longer fits it (below); no `query` dependency: nothing to compare. */
export async function assertSessionStillFits(ctx: ProviderContext, sessionId: string, data: AltaPayPaymentData): Promise<void> {
  if (!ctx.query) return
  const session = await medusaSession(ctx.query, sessionId)
  if (session?.cartId) await assertCartStillFits(ctx, session.cartId, sessionId, data)
  else if (session?.orderId) await assertLinkStillFits(ctx, session.orderId, sessionId, data)
}

/** The customer's refusal (400 on Place order) when the cart now costs another amount or currency. */
async function assertCartStillFits(ctx: ProviderContext, cartId: string, sessionId: string, data: AltaPayPaymentData): Promise<void> {
  const { data: carts } = await ctx.query!.graph({ entity: "cart", fields: CART_FIELDS_FOR_LINES, filters: { id: cartId } })
  const cart = carts[0] as CartForLines | undefined
  if (!cart) return
  const currency = cart.currency_code.toUpperCase()
  if (cartTotalMinorIfPayable(cart) === data.amount_minor && currency === data.currency.toUpperCase()) return
  const total = `${decimalText(cart.total ?? 0, currency)} ${currency}`
  const paid = `${minorToDecimal(data.amount_minor, data.currency)} ${data.currency.toUpperCase()}`
  ctx.logger?.warn(
    `AltaPay authorize ${sessionId}: cart ${cartId} now costs ${total}, but the payment session is for ${paid} (the cart changed without its payment collection being refreshed); not authorized, nothing was asked of AltaPay, and no order was placed. A reservation made for it is released by the follow-up job once the customer starts a new payment.`
  )
  throw customerError("cart_changed_after_payment", { total, paid })
}

/** Refused when the order a payment link pays no longer asks the link's amount (linkNoLongerFits). */
async function assertLinkStillFits(ctx: ProviderContext, orderId: string, sessionId: string, data: AltaPayPaymentData): Promise<void> {
  const due = await orderDue(ctx.query!, orderId)
  const now = linkNoLongerFits(due, data.amount_minor)
  if (!now) return
  const message = `AltaPay authorize ${sessionId}: the payment link for ${minorToDecimal(data.amount_minor, data.currency)} ${data.currency.toUpperCase()} on order ${due.name} no longer fits the order (${now}); not authorized, nothing was asked of AltaPay, and nothing was recorded. The link is retired and a payment made on it is released by the follow-up job; send a new link for what is due.`
  ctx.logger?.warn(message)
  throw new MedusaError(MedusaError.Types.NOT_ALLOWED, message)
}
