/**
 * The steps saved-cards.suite.ts takes as a shopper and as AltaPay: a payment session through
 * Medusa's store routes, paying on AltaPay's page with "save this card", adding a card from the
 * account page, AltaPay's post to the saved-card return, and AltaPay's list of an agreement's
 * charges. Kept here so the spec holds only what it checks.
 */
import type { RemoteQueryFunction } from "@medusajs/framework/types"
import { createAltaPayClient, type GatewayTransaction } from "../../src/altapay"
import { orderOfCart } from "../../src/lib/medusa-mapping/medusa-session"
import type AltaPaySavedCardsService from "../../src/modules/altapay-saved-cards/service"
import { TEST_CARDS } from "../../src/sandbox"
import { API_PASSWORD, API_USER, PROVIDER_ID } from "../../tools/test-store/altapay-sandbox"
import { createCart, storeHeaders, type Api, type SeededStore } from "../../tools/test-store/store"
import type { AltaPayStore } from "../../tools/test-store/store-app/altapay-store"

export type Customer = { id: string; email: string; token: string }

export interface SavedCardSpec {
  api: Api
  /** The store seeded for the running test (seeded again before each). */
  seed: () => SeededStore
  store: AltaPayStore
  query: () => Pick<RemoteQueryFunction, "graph">
  savedCards: () => AltaPaySavedCardsService
  asCustomer: (customer: { token: string }) => { headers: Record<string, string>; validateStatus: () => boolean }
  /** Every store answer passes through it (the spec checks them for secrets). */
  heard: <R extends { data: any }>(response: R) => R
  /** savedCards.returnUrl of the store under test. */
  cardsPage: string
}

export function savedCardSteps({ api, seed, store, query, savedCards, asCustomer, heard, cardsPage }: SavedCardSpec) {
  const anyStatus = { validateStatus: () => true }
  const gateway = () =>
    createAltaPayClient({ checkoutUrl: store.sandbox().checkoutUrl, gatewayUrl: store.sandbox().gatewayUrl, username: API_USER, password: API_PASSWORD }).gateway
  /** The agreement's charges (they keep its set-up's shop_orderid), as AltaPay lists them. */
  const chargesOn = async (shopOrderId: string): Promise<GatewayTransaction[]> => (await gateway().payments({ shopOrderId })).filter((t) => t.authType === "subscription_payment")
  const sessionFor = async (customer: Customer, data: Record<string, unknown>) => {
    const headers = storeHeaders(seed(), customer.token)
    const cart = await createCart(api, seed(), { customerToken: customer.token, email: customer.email })
    const { data: created } = heard(await api.post("/store/payment-collections", { cart_id: cart.id }, { headers }))
    const session = heard(
      await api.post(`/store/payment-collections/${created.payment_collection.id}/payment-sessions`, { provider_id: PROVIDER_ID, data }, { headers, ...anyStatus })
    )
    const altapay = (session.data as any).payment_collection?.payment_sessions?.find((s: { provider_id: string }) => s.provider_id === PROVIDER_ID)
    return { cart, headers, session, altapay }
  }
  const complete = async (cartId: string, headers: Record<string, string>) => heard(await api.post(`/store/carts/${cartId}/complete`, {}, { headers, ...anyStatus }))
  const eventually = async <T>(read: () => Promise<T | undefined>, what: string): Promise<T> => {
    for (let i = 0; i < 100; i++) {
      const value = await read()
      if (value !== undefined) return value
      await new Promise((resolve) => setTimeout(resolve, 100))
    }
    throw new Error(`never happened: ${what}`)
  }
  const storeCards = async (customer: Customer) =>
    (heard(await api.get("/store/altapay/saved-cards", asCustomer(customer))).data as any).saved_cards as Array<{ id: string; masked_pan: string }>
  /** The agreement a set-up under this shop_orderid made (its set-up transaction's id), as AltaPay lists it. */
  const agreementUnder = async (shopOrderId: string): Promise<string> => {
    const setUp = (await gateway().payments({ shopOrderId })).find((t) => t.authType !== "subscription_payment")
    return setUp!.transactionId
  }
  /** Pays a cart on the hosted page with "save this card" (passing the 3-D Secure page the card asks for); answers the saved card. */
  const saveWhilePaying = async (customer: Customer, cardNumber: string) => {
    const { cart, altapay } = await sessionFor(customer, { save_card: true })
    expect(altapay).toMatchObject({ status: "pending", data: { redirect_url: expect.stringMatching(/\/sandbox\/agreement\//), agreement: { mode: "setup" } } })
    const page = await store.sandbox().agreements.submit(altapay.data.altapay_session_id, { cardNumber })
    const submitted = page.challengeUrl ? await store.sandbox().challenge(page.challengeUrl) : page
    expect(submitted.status).toBe(303)
    expect(submitted.location).toMatch(/outcome=paid/)
    expect(await orderOfCart(query(), cart.id)).toEqual(expect.any(String))
    const agreementId = page.agreementId ?? (await agreementUnder(altapay.data.order_id))
    const saved = await eventually(async () => (await savedCards().listAltapaySavedCards({ agreement_id: agreementId }))[0], "the card saved with the order")
    // The shopper sees it among their cards, masked as AltaPay masks it.
    const card = (await storeCards(customer)).find((c) => c.id === saved.id)
    expect(card).toMatchObject({ masked_pan: `${cardNumber.slice(0, 6)}******${cardNumber.slice(-4)}`, scheme: "Visa" })
    return { card: card!, agreementId, cartId: cart.id }
  }
  /** AltaPay's post (or a browser's GET) to the saved-card return, naming a set-up transaction. */
  const cardReturn = (transactionId: string | undefined, method: "GET" | "POST" = "GET") =>
    method === "GET"
      ? fetch(`${store.medusaUrl()}/altapay/saved-card-return/altapay/success?transaction_id=${transactionId}`, { redirect: "manual" })
      : fetch(`${store.medusaUrl()}/altapay/saved-card-return/altapay/success`, {
          method: "POST",
          headers: { "content-type": "application/x-www-form-urlencoded" },
          body: new URLSearchParams({ transaction_id: transactionId ?? "", status: "succeeded" }).toString(),
          redirect: "manual",
        })
  /** A card added from the account page, through AltaPay's page. */
  const addFromAccount = async (customer: Customer) => {
    const started = await api.post("/store/altapay/saved-cards", { currency_code: "dkk" }, asCustomer(customer))
    const submitted = await store.sandbox().agreements.submit(String(started.data.redirect_url).split("/").at(-1)!, { cardNumber: TEST_CARDS.mastercard })
    expect(submitted.location).toBe(cardsPage.replace("{outcome}", "saved"))
    const [card] = await savedCards().listAltapaySavedCards({ agreement_id: submitted.agreementId })
    return { card, transactionId: submitted.transactionId! }
  }
  /** The live (not deleted) cards on an agreement. */
  const liveOn = async (agreementId: string) => savedCards().listAltapaySavedCards({ agreement_id: agreementId })
  return { chargesOn, sessionFor, complete, eventually, storeCards, saveWhilePaying, cardReturn, addFromAccount, liveOn }
}
