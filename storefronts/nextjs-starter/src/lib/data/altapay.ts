"use server"

import { sdk } from "@lib/config"
import { isAltaPay } from "@lib/constants"
import { HttpTypes } from "@medusajs/types"
import { cookies as nextCookies } from "next/headers"
import { randomUUID } from "node:crypto"
import { initiatePaymentSession } from "./cart"
import { getAuthHeaders, getCartId } from "./cookies"

// medusa-payment-altapay storefront kit. The id of the last payment session whose AltaPay page
// this browser was sent to: an AltaPay payment page takes one attempt, so a session the customer
// already left for (and came back from: declined, cancelled, or the browser's back button) is
// replaced by a new one, which comes with a fresh page.
const SENT_COOKIE = "_medusa_altapay_sent"

export type AltaPayPaymentPage = { url: string } | { error: string }

/**
 * The AltaPay payment page to send the customer to for the cart's AltaPay payment session.
 * Returns the error to show instead of throwing: Next.js hides thrown messages in production.
 */
export async function altapayPaymentPage(): Promise<AltaPayPaymentPage> {
  const cartId = await getCartId()
  if (!cartId) {
    return { error: "Your cart was not found. Please reload the page." }
  }

  try {
    // Read fresh (no Next.js cache): the session may have been replaced in another tab.
    const { cart } = await sdk.client.fetch<HttpTypes.StoreCartResponse>(
      `/store/carts/${cartId}`,
      {
        query: { fields: "id,*payment_collection,*payment_collection.payment_sessions" },
        headers: { ...(await getAuthHeaders()) },
        cache: "no-store",
      }
    )
    const current = cart.payment_collection?.payment_sessions?.find((s) =>
      isAltaPay(s.provider_id)
    )
    if (!current) {
      return { error: "Choose a payment method first." }
    }

    const cookies = await nextCookies()
    let session: HttpTypes.StorePaymentSession | undefined = current
    if (
      current.status !== "pending" ||
      cookies.get(SENT_COOKIE)?.value === current.id
    ) {
      // Medusa replaces the session; the provider retires the old AltaPay page.
      const { payment_collection } = await initiatePaymentSession(cart, {
        provider_id: current.provider_id,
      })
      session = payment_collection?.payment_sessions?.find(
        (s) => s.provider_id === current.provider_id
      )
    }

    const url = session?.data?.redirect_url
    if (!session || typeof url !== "string") {
      return {
        error:
          "AltaPay did not return a payment page. Please try again or choose another payment method.",
      }
    }
    cookies.set(SENT_COOKIE, session.id, {
      maxAge: 60 * 60 * 24,
      httpOnly: true,
      sameSite: "strict",
      secure: process.env.NODE_ENV === "production",
    })
    return { url }
  } catch (error) {
    // Details stay on the server: Medusa's and AltaPay's messages are not for the shopper.
    const reference = randomUUID().slice(0, 8)
    console.error(`AltaPay: the payment page for cart ${cartId} could not be prepared (ref ${reference}):`, error)
    return { error: `The payment could not be started. Please try again. (Reference ${reference})` }
  }
}
