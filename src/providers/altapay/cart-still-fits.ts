/**
 * Whether the cart a session pays for still costs what the session asks. Medusa refreshes a cart's
 * payment collection on most cart changes, not on all (POST /store/carts/:id/taxes recalculates the
 * tax and leaves it; a store-credit module may add credit lines without it), and its cart completion
 * never compares the payment with the cart: an order of the new total would be marked paid by a
 * reservation of the old one. So the completion is refused here, before AltaPay is asked anything;
 * a reservation already made is the follow-up job's (released once a new session replaces this one).
 */
import { minorToDecimal } from "../../altapay"
import { decimalText } from "../../lib/medusa-mapping/amounts"
import { CART_FIELDS_FOR_LINES, cartTotalMinorIfPayable, type CartForLines } from "../../lib/medusa-mapping/cart-lines"
import { customerError } from "../../lib/medusa-mapping/customer-error"
import { medusaSession } from "../../lib/medusa-mapping/medusa-session"
import type { AltaPayPaymentData } from "../../lib/payment-data/data"
import type { ProviderContext } from "./context"

/**
 * Throws the customer's refusal (400 on Place order) when the session's cart now costs another amount
 * or currency. No `query` dependency, or no cart (a payment link on an order): nothing to compare.
 */
export async function assertCartStillFits(ctx: ProviderContext, sessionId: string, data: AltaPayPaymentData): Promise<void> {
  if (!ctx.query) return
  const cartId = (await medusaSession(ctx.query, sessionId))?.cartId
  if (!cartId) return
  const { data: carts } = await ctx.query.graph({ entity: "cart", fields: CART_FIELDS_FOR_LINES, filters: { id: cartId } })
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
