/**
 * The calls Medusa's Next.js starter makes with @medusajs/js-sdk, and only those: a cart up to the
 * payment step, then a payment session for a redirect-flow provider. Specs that prove an unchanged
 * storefront pays with AltaPay share them (the whole-store redirect spec, the scratch-store install).
 */
import type Medusa from "@medusajs/js-sdk"
import type { SeededStore } from "../../tools/test-store/store"

export interface StarterAddress {
  first_name: string
  last_name: string
  address_1: string
  city: string
  postal_code: string
  country_code: string
  phone?: string
}

/** Two coffees and a tea, the address, and the seed's shipping option: the cart at the payment step. */
export async function starterCartAtPayment(sdk: Medusa, seed: SeededStore, address: StarterAddress) {
  const { cart } = await sdk.store.cart.create({
    region_id: seed.region.id,
    email: "karen@example.com",
    items: [
      { variant_id: seed.products.coffee.variantId, quantity: 2 },
      { variant_id: seed.products.tea.variantId, quantity: 1 },
    ],
  })
  await sdk.store.cart.update(cart.id, { shipping_address: address, billing_address: address })
  const { cart: shipped } = await sdk.store.cart.addShippingMethod(cart.id, { option_id: seed.shippingOption.id })
  return shipped
}

/** "Place order" with a redirect-flow provider: the new session and the payment page it names. */
export async function initiateRedirectSession(sdk: Medusa, cartId: string, providerId: string): Promise<{ paymentSessionId: string; redirectUrl: string }> {
  const { cart } = await sdk.store.cart.retrieve(cartId)
  const { payment_collection } = await sdk.store.payment.initiatePaymentSession(cart, { provider_id: providerId })
  const session = payment_collection.payment_sessions?.find((s) => s.provider_id === providerId)
  const redirectUrl = session?.data?.redirect_url
  if (!session || typeof redirectUrl !== "string") throw new Error(`the ${providerId} session carries no redirect_url`)
  return { paymentSessionId: session.id, redirectUrl }
}
