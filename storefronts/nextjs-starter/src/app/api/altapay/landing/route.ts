import { sdk } from "@lib/config"
import { altapayNotice, countryPath, landingPage, medusaId } from "@lib/util/altapay-landing"

export const dynamic = "force-dynamic"

/**
 * The landing page of medusa-payment-altapay (its successUrl and failureUrl):
 *   `${STORE_URL}/api/altapay/landing?outcome={outcome}&cart_id={cart_id}&order_id={order_id}&message={message}`
 * The Medusa plugin has already completed the cart (or found it unpaid, or under review) when
 * AltaPay sends the customer here. This page only says so and moves on: to the order confirmation
 * through /api/altapay/done (which lets go of the cart cookie), or back to the payment step. When
 * AltaPay sent a message the customer must see, the page shows it and waits for a click.
 */
export async function GET(request: Request) {
  const params = new URL(request.url).searchParams
  const orderId = medusaId(params.get("order_id"), "order")
  // Filled by the plugin only from AltaPay's verified post; shown as text, never as HTML.
  const notice = altapayNotice(params.get("message"))
  // The plugin names the order only when AltaPay's signed post proved the return is AltaPay's.
  if (params.get("outcome") === "paid") {
    return landingPage(
      "Thank you: your payment was received and your order is placed.",
      orderId ? `/api/altapay/done?order_id=${orderId}` : "/api/altapay/done",
      orderId ? "See your order" : "Continue shopping",
      notice
    )
  }
  const cartId = medusaId(params.get("cart_id"), "cart")
  const cart = cartId
    ? await sdk.store.cart
        .retrieve(cartId, { fields: "id,shipping_address.country_code" })
        .then(({ cart }) => cart)
        .catch(() => null)
    : null
  const country = countryPath(cart?.shipping_address?.country_code)
  // AltaPay holds the payment open (e.g. Klarna's manual review): paying again would pay twice.
  if (params.get("outcome") === "review") {
    return landingPage(
      "Thank you: your payment is being reviewed. Your order is placed as soon as it is approved; if it is not, nothing is charged.",
      `${country}/`,
      "Continue shopping",
      notice
    )
  }
  const reason = params.get("outcome") === "declined" ? "failed" : "unconfirmed"
  return landingPage(
    reason === "failed"
      ? "Your payment was not completed, and no order was placed."
      : "We could not confirm your payment, so no order was placed here.",
    `${country}/checkout?step=payment&altapay=${reason}`,
    "Back to checkout",
    notice
  )
}
