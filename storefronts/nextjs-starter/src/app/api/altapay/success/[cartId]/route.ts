import { sdk } from "@lib/config"
import { getAuthHeaders, getCacheTag, removeCartId } from "@lib/data/cookies"
import { backToPayment } from "@lib/util/altapay-return"
import { revalidateTag } from "next/cache"

export const dynamic = "force-dynamic"

type Context = { params: Promise<{ cartId: string }> }

/**
 * AltaPay's successUrl: `${STORE_URL}/api/altapay/success/{cart_id}` (medusa-payment-altapay
 * storefront kit). The cart comes from the URL because the cart cookie is SameSite=Strict and
 * the browser does not send it on the way back from AltaPay. Completing a cart that is already
 * completed (AltaPay's callback got there first, or a reload) returns the same order.
 */
async function completeCart(_request: Request, { params }: Context) {
  const { cartId } = await params
  const headers = { ...(await getAuthHeaders()) }

  for (let attempt = 1; ; attempt++) {
    try {
      const result = await sdk.store.cart.complete(cartId, {}, headers)
      if (result.type !== "order") {
        return backToPayment("unconfirmed", result.cart?.shipping_address?.country_code)
      }
      revalidateTag(await getCacheTag("carts"))
      revalidateTag(await getCacheTag("orders"))
      await removeCartId()
      const countryCode = result.order.shipping_address?.country_code?.toLowerCase()
      return new Response(null, {
        status: 303,
        headers: { location: `/${countryCode}/order/${result.order.id}/confirmed` },
      })
    } catch (error) {
      // 409: AltaPay's callback is completing this cart right now; its order is there a moment later.
      if ((error as { status?: number }).status === 409 && attempt < 10) {
        await new Promise((resolve) => setTimeout(resolve, 1000))
        continue
      }
      return backToPayment("unconfirmed")
    }
  }
}

export { completeCart as GET, completeCart as POST }
