"use server"

import { sdk } from "@lib/config"
import { altapaySavesCards, isAltaPay } from "@lib/constants"
import { AltaPayText, altapayServerText } from "@lib/util/altapay-i18n"
import { AltaPaySavedCard } from "@lib/util/altapay-saved-card"
import { HttpTypes } from "@medusajs/types"
import { unstable_rethrow } from "next/navigation"
import { cookies as nextCookies } from "next/headers"
import { randomUUID } from "node:crypto"
import { listAltaPaySavedCards } from "./altapay-saved-cards"
import { initiatePaymentSession, placeOrder } from "./cart"
import { getAuthHeaders, getCartId } from "./cookies"

// medusa-payment-altapay storefront kit. The id of the last payment session this browser used up:
// sent to its AltaPay page (an AltaPay payment page takes one attempt, so a session the customer
// already left for and came back from, declined, cancelled or by the browser's back button, is
// replaced by a new one, which comes with a fresh page), or paid with a saved card.
const SENT_COOKIE = "_medusa_altapay_sent"

/** Where to send the customer, or what to tell them (in the language of the component that shows it). */
export type AltaPayPaymentPage = { url: string } | { error: AltaPayText }

export type AltaPayCardOptions = {
  /** The customer's cards saved on the cart's AltaPay registration. */
  cards: AltaPaySavedCard[]
  /** Whether "Save this card" is offered: a signed-in customer, a registration that saves cards. */
  canSave: boolean
}

/**
 * What the review step offers besides AltaPay's page for a new card: the signed-in customer's
 * saved cards of the chosen registration, and "Save this card". Nothing for a guest.
 */
export async function altapayCardOptions(): Promise<AltaPayCardOptions> {
  const cartId = await getCartId()
  if (!cartId || !("authorization" in (await getAuthHeaders()))) {
    return { cards: [], canSave: false }
  }
  const providerId = await freshCart(cartId)
    .then((cart) => altapaySession(cart)?.provider_id)
    .catch(() => undefined)
  const cards = providerId ? (await listAltaPaySavedCards()) ?? [] : []
  return {
    cards: cards.filter((card) => card.provider_id === providerId),
    canSave: altapaySavesCards(providerId),
  }
}

/**
 * The AltaPay payment page to send the customer to for the cart's AltaPay payment session; with
 * `saveCard`, the page that also saves the card for the signed-in customer's next orders.
 * Returns the error to show instead of throwing: Next.js hides thrown messages in production.
 */
export async function altapayPaymentPage(
  options: { saveCard?: boolean } = {}
): Promise<AltaPayPaymentPage> {
  const cartId = await getCartId()
  if (!cartId) {
    return { error: { key: "cartNotFound" } }
  }

  try {
    const cart = await freshCart(cartId)
    const current = altapaySession(cart)
    if (!current) {
      return { error: { key: "chooseMethod" } }
    }

    const cookies = await nextCookies()
    let session: HttpTypes.StorePaymentSession | undefined = current
    if (
      options.saveCard ||
      current.status !== "pending" ||
      cookies.get(SENT_COOKIE)?.value === current.id
    ) {
      // Medusa replaces the session; the provider retires the old AltaPay page. Saving the card
      // takes a page of its own (AltaPay sets up the agreement and reserves in one visit).
      session = await replaceSession(
        cart,
        current.provider_id,
        options.saveCard ? { save_card: true } : undefined
      )
    }

    const url = session?.data?.redirect_url
    if (!session || typeof url !== "string") {
      return { error: { key: "noPaymentPage" } }
    }
    await rememberUsed(session.id)
    return { url }
  } catch (error) {
    return failed(cartId, "the payment page", error)
  }
}

/**
 * Pays with a saved card: no AltaPay page, so the kit completes the cart itself (the starter's
 * placeOrder, which goes on to the order confirmation). When AltaPay asks for 3-D Secure the cart
 * stays open and this returns AltaPay's challenge page; after it the plugin completes the cart and
 * the customer comes back through the landing page, as from any AltaPay page.
 */
export async function altapaySavedCardPayment(
  savedCardId: string
): Promise<AltaPayPaymentPage> {
  const cartId = await getCartId()
  if (!cartId) {
    return { error: { key: "cartNotFound" } }
  }

  try {
    const cart = await freshCart(cartId)
    const current = altapaySession(cart)
    if (!current) {
      return { error: { key: "chooseMethod" } }
    }
    const session = await replaceSession(cart, current.provider_id, {
      saved_card_id: savedCardId,
    })
    if (!session) {
      return { error: { key: "notStarted" } }
    }
    // Tied to this card now: paying with a new card afterwards needs a fresh session.
    await rememberUsed(session.id)

    let notPlaced: unknown
    try {
      await placeOrder(cartId)
    } catch (error) {
      // placeOrder's redirect to the order confirmation: the order is placed.
      unstable_rethrow(error)
      // Medusa answers 400 when the provider did not authorize the session, after saving the
      // session's status and data: they tell 3-D Secure from a decline.
      notPlaced = error
    }

    const after = altapaySession(await freshCart(cartId))
    const challenge = after?.data?.redirect_url
    if (after?.status === "requires_more" && typeof challenge === "string") {
      return { url: challenge }
    }
    // The plugin's refusals are written for the customer (a decline carries AltaPay's message,
    // which AltaPay may require shown: docs/storefront.md, "Saving a card, and paying with one"),
    // and shown in the customer's language; any other failure stays on the server.
    // (The starter's medusaError puts "Error setting up the request: " before the message.)
    const refusal = altapayServerText(
      notPlaced instanceof Error ? notPlaced.message : ""
    )
    if (refusal) {
      return { error: refusal }
    }
    const reference = randomUUID().slice(0, 8)
    console.error(
      `AltaPay: saved card ${savedCardId} did not pay cart ${cartId} (ref ${reference}, session ${after?.status}):`,
      notPlaced
    )
    return { error: { key: "savedCardNotAccepted", values: { reference } } }
  } catch (error) {
    unstable_rethrow(error) // the redirect to the order confirmation, rethrown above
    return failed(cartId, "the saved-card payment", error)
  }
}

/** The cart and its payment sessions, read fresh (no Next.js cache): another tab may have changed them. */
async function freshCart(cartId: string): Promise<HttpTypes.StoreCart> {
  const { cart } = await sdk.client.fetch<HttpTypes.StoreCartResponse>(
    `/store/carts/${cartId}`,
    {
      query: {
        fields: "id,*payment_collection,*payment_collection.payment_sessions",
      },
      headers: { ...(await getAuthHeaders()) },
      cache: "no-store",
    }
  )
  return cart
}

const altapaySession = (cart: HttpTypes.StoreCart) =>
  cart.payment_collection?.payment_sessions?.find((s) =>
    isAltaPay(s.provider_id)
  )

async function replaceSession(
  cart: HttpTypes.StoreCart,
  providerId: string,
  data?: Record<string, unknown>
) {
  const { payment_collection } = await initiatePaymentSession(cart, {
    provider_id: providerId,
    ...(data ? { data } : {}),
  })
  return payment_collection?.payment_sessions?.find(
    (s) => s.provider_id === providerId
  )
}

async function rememberUsed(sessionId: string) {
  ;(await nextCookies()).set(SENT_COOKIE, sessionId, {
    maxAge: 60 * 60 * 24,
    httpOnly: true,
    sameSite: "strict",
    secure: process.env.NODE_ENV === "production",
  })
}

function failed(
  cartId: string,
  what: string,
  error: unknown
): { error: AltaPayText } {
  // Details stay on the server: Medusa's and AltaPay's messages are not for the shopper.
  const reference = randomUUID().slice(0, 8)
  console.error(
    `AltaPay: ${what} for cart ${cartId} could not be prepared (ref ${reference}):`,
    error
  )
  return { error: { key: "notStartedReference", values: { reference } } }
}
