import { sdk } from "@lib/config"
import { altapayCartLanguage, altapayText } from "@lib/util/altapay-i18n"
import {
  altapayNotice,
  countryPath,
  landingPage,
  medusaId,
} from "@lib/util/altapay-landing"

export const dynamic = "force-dynamic"

/** The cart paid for: its country (where to go back to) and its locale (the page's language). */
async function paidCart(cartId: string | null) {
  if (!cartId) {
    return null
  }
  const read = (fields: string) =>
    sdk.store.cart.retrieve(cartId, { fields }).then(({ cart }) => cart)
  // A Medusa before 2.12 has no cart locale: the country alone then.
  return read("id,locale,shipping_address.country_code")
    .catch(() => read("id,shipping_address.country_code"))
    .catch(() => null)
}

/**
 * The landing page of medusa-payment-altapay (its successUrl and failureUrl):
 *   `${STORE_URL}/api/altapay/landing?outcome={outcome}&cart_id={cart_id}&order_id={order_id}&message={message}`
 * The Medusa plugin has already completed the cart (or found it unpaid, or under review) when
 * AltaPay sends the customer here. This page only says so and moves on: to the order confirmation
 * through /api/altapay/done (which lets go of the cart cookie), or back to the payment step. When
 * AltaPay sent a message the customer must see, the page shows it and waits for a click. It speaks
 * the cart's language: AltaPay's redirect carries no cookie, but the cart knows its locale.
 */
export async function GET(request: Request) {
  const params = new URL(request.url).searchParams
  const orderId = medusaId(params.get("order_id"), "order")
  // Filled by the plugin only from AltaPay's verified post; shown as text, never as HTML.
  const notice = altapayNotice(params.get("message"))
  const cart = await paidCart(medusaId(params.get("cart_id"), "cart"))
  const language = altapayCartLanguage(cart)
  const say = (key: Parameters<typeof altapayText>[1]) =>
    altapayText(language, key)
  // The plugin names the order only when AltaPay's signed post proved the return is AltaPay's.
  if (params.get("outcome") === "paid") {
    return landingPage(
      say("landingPaid"),
      orderId ? `/api/altapay/done?order_id=${orderId}` : "/api/altapay/done",
      say(orderId ? "seeOrder" : "continueShopping"),
      notice,
      language,
    )
  }
  const country = countryPath(cart?.shipping_address?.country_code)
  // AltaPay holds the payment open (e.g. Klarna's manual review): paying again would pay twice.
  if (params.get("outcome") === "review") {
    return landingPage(
      say("landingReview"),
      `${country}/`,
      say("continueShopping"),
      notice,
      language,
    )
  }
  const reason = params.get("outcome") === "declined" ? "failed" : "unconfirmed"
  return landingPage(
    say(reason === "failed" ? "landingFailed" : "landingUnconfirmed"),
    `${country}/checkout?step=payment&altapay=${reason}`,
    say("backToCheckout"),
    notice,
    language,
  )
}
