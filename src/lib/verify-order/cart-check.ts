/**
 * The cart as Medusa has it now, against what the payment session was made for and what AltaPay
 * is about to charge: the session still there and unpaid, AltaPay's amount the session's, the
 * cart not completed, its total (Medusa's own totals) and goods the session's, its discounts still
 * valid (promotions.ts) and its items in stock (stock.ts).
 */
import type { MedusaContainer, RemoteQueryFunction } from "@medusajs/framework/types"
import { ContainerRegistrationKeys } from "@medusajs/framework/utils"
import { minorToDecimal, type OrderLine } from "../../altapay"
import { decimalText } from "../medusa-mapping/amounts"
import { CART_FIELDS_FOR_LINES, cartOrderLines, cartTotalMinorIfPayable, type CartForLines } from "../medusa-mapping/cart-lines"
import { sessionIdFromOrderId } from "../medusa-mapping/shop-order-id"
import { provenSessionData, type AltaPayPaymentData } from "../payment-data/data"
import type { AltaPayOptions } from "../registrations/options"
import { serverKeys } from "../registrations/server-keys"
import type { Refusal } from "./answers"
import { CART_FIELDS_FOR_PROMOTIONS, endedPromotion, type CartForPromotions } from "./promotions"
import { CART_FIELDS_FOR_STOCK, stockShortfall, type CartForStock } from "./stock"

type Query = Pick<RemoteQueryFunction, "graph">

/** What AltaPay posted, from a post whose signature verified. */
export interface VerifiedPost {
  shopOrderId: string
  amountMinor: number
  /** ISO 4217 alpha. */
  currency: string
}

/** Why the payment must not go on: the customer's sentence, and the detail for the merchant's log. */
export interface CartProblem {
  refusal: Refusal
  detail: string
  /** The language AltaPay's payment page was asked for, where the session's data says it. */
  pageLanguage?: string
}

const CART_FIELDS = [...new Set([...CART_FIELDS_FOR_LINES, "completed_at", ...CART_FIELDS_FOR_PROMOTIONS, ...CART_FIELDS_FOR_STOCK])]

interface SessionRow {
  id: string
  provider_id?: string
  status?: string
  data?: Record<string, unknown> | null
  payment_collection?: { cart?: { id?: string } | null } | null
}

type CartNow = CartForLines & CartForPromotions & CartForStock & { completed_at?: string | Date | null }

export async function cartProblem(scope: MedusaContainer, options: AltaPayOptions, providerId: string, post: VerifiedPost): Promise<CartProblem | undefined> {
  const query = scope.resolve<Query>(ContainerRegistrationKeys.QUERY)
  const sessionId = sessionIdFromOrderId(post.shopOrderId)
  const { data: sessions } = await query.graph({
    entity: "payment_session",
    fields: ["id", "provider_id", "status", "data", "payment_collection.cart.id"],
    filters: { id: sessionId },
  })
  const session = (sessions as SessionRow[]).find((s) => s.id === sessionId)
  // Medusa deletes a cart's payment session when the cart's total or currency changes.
  if (!session) return { refusal: "cartChanged", detail: `Medusa has no payment session ${sessionId} (it deletes one when the cart's total changes)` }
  if (session.provider_id !== providerId) return { refusal: "unverified", detail: `payment session ${sessionId} is ${session.provider_id}'s, not ${providerId}'s` }
  if (session.status !== "pending") {
    const paid = session.status === "authorized" || session.status === "captured"
    return { refusal: paid ? "alreadyPaid" : "cartChanged", detail: `payment session ${sessionId} is ${session.status}, not waiting for a payment` }
  }
  const data = provenSessionData(session, serverKeys(options, "payment-data-seal"))
  if (!data) return { refusal: "unverified", detail: `payment session ${sessionId} has no payment data the provider sealed` }
  const problem = await paidCartProblem(scope, query, options, post, session, data)
  // Refused in the language AltaPay's page was made in, whatever the cart says now.
  return problem && data.page_language ? { ...problem, pageLanguage: data.page_language } : problem
}

/** What changed since the session's payment page was made, for a session the provider sealed. */
async function paidCartProblem(
  scope: MedusaContainer,
  query: Query,
  options: AltaPayOptions,
  post: VerifiedPost,
  session: SessionRow,
  data: AltaPayPaymentData
): Promise<CartProblem | undefined> {
  // A browser holding the session's CUSTOMER token can change the AltaPay session: AltaPay's amount must be the session's.
  if (post.amountMinor !== data.amount_minor || post.currency !== data.currency) {
    return {
      refusal: "cartChanged",
      detail: `AltaPay is charging ${post.amountMinor} ${post.currency} minor units, the session was made for ${data.amount_minor} ${data.currency}`,
    }
  }
  const cartId = session.payment_collection?.cart?.id
  // A payment link's session pays an order's amount due, fixed when the link was made: no cart to look at.
  if (!cartId) return undefined
  const { data: carts } = await query.graph({ entity: "cart", fields: CART_FIELDS, filters: { id: cartId } })
  const cart = carts[0] as CartNow | undefined
  if (!cart) return { refusal: "cartChanged", detail: `cart ${cartId} no longer exists` }
  if (cart.completed_at) return { refusal: "alreadyPaid", detail: `cart ${cartId} is completed already` }
  const totalMinor = cartTotalMinorIfPayable(cart)
  if (totalMinor !== data.amount_minor || cart.currency_code.toUpperCase() !== data.currency) {
    return {
      refusal: "cartChanged",
      detail: `cart ${cartId} totals ${decimalText(cart.total ?? 0, cart.currency_code)} ${cart.currency_code.toUpperCase()} now, the session was made for ${minorToDecimal(data.amount_minor, data.currency)} ${data.currency}`,
    }
  }
  // The same total can hold other goods (an item swapped for one of the same price): compare what is bought.
  if (data.order_lines_source !== "summary" && !sameGoods(cartOrderLines(cart, { productUrlTemplate: options.productUrlTemplate }, totalMinor), data.order_lines)) {
    return { refusal: "cartChanged", detail: `cart ${cartId} holds other items than the session was made for` }
  }
  const ended = await endedPromotion(query, cart)
  if (ended) return { refusal: "promotion", detail: ended }
  const short = await stockShortfall(scope, cart)
  if (short) return { refusal: "stock", detail: short }
  return undefined
}

/** The goods and money of two line lists, in any order; names, images and links may differ. */
function sameGoods(now: readonly OrderLine[], then: readonly OrderLine[]): boolean {
  const key = (l: OrderLine) => JSON.stringify([l.itemId, l.quantity, l.unitPriceMinor, l.taxAmountMinor, l.taxPercent ?? null, l.goodsType ?? null, l.discountPercent ?? null])
  const a = now.map(key).sort()
  const b = then.map(key).sort()
  return a.length === b.length && a.every((k, i) => k === b[i])
}
