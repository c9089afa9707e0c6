import { sdk } from "@lib/config"
import { getCacheTag, getCartId, removeCartId } from "@lib/data/cookies"
import { countryPath, medusaId } from "@lib/util/altapay-landing"
import { revalidateTag } from "next/cache"

export const dynamic = "force-dynamic"

/**
 * After a paid AltaPay return (medusa-payment-altapay storefront kit): reached from the landing
 * page's own, same-site navigation, so the SameSite=Strict cart cookie is here. It is cleared only
 * when its cart is completed (a link from elsewhere cannot empty a shopper's cart), then on to the
 * starter's order confirmation page.
 */
export async function GET(request: Request) {
  const orderId = medusaId(new URL(request.url).searchParams.get("order_id"), "order")
  const cartId = await getCartId()
  if (cartId) {
    const completed = await sdk.store.cart
      .retrieve(cartId, { fields: "id,completed_at" })
      .then(({ cart }) => !!cart.completed_at)
      .catch(() => false)
    if (completed) {
      await removeCartId()
      revalidateTag(await getCacheTag("carts"))
      revalidateTag(await getCacheTag("orders"))
    }
  }
  if (!orderId) {
    return new Response(null, { status: 303, headers: { location: "/" } })
  }
  const order = await sdk.store.order
    .retrieve(orderId, { fields: "id,shipping_address.country_code" })
    .then(({ order }) => order)
    .catch(() => null)
  const location = `${countryPath(order?.shipping_address?.country_code)}/order/${orderId}/confirmed`
  return new Response(null, { status: 303, headers: { location } })
}
