import { sdk } from "@lib/config"
import { backToPayment } from "@lib/util/altapay-return"

export const dynamic = "force-dynamic"

type Context = { params: Promise<{ cartId: string }> }

/**
 * AltaPay's failureUrl: `${STORE_URL}/api/altapay/failure/{cart_id}` (medusa-payment-altapay
 * storefront kit). The payment was declined or cancelled: back to the payment step, in the cart's
 * country, where "Place order" starts a fresh AltaPay payment page.
 */
async function paymentFailed(_request: Request, { params }: Context) {
  const { cartId } = await params
  const cart = await sdk.store.cart
    .retrieve(cartId, { fields: "id,shipping_address.country_code" })
    .then(({ cart }) => cart)
    .catch(() => null)
  return backToPayment("failed", cart?.shipping_address?.country_code)
}

export { paymentFailed as GET, paymentFailed as POST }
