/**
 * With no landing page configured, AltaPay shows the customer the plugin's own answer to its return
 * post: in the payment page's language where it is one of the shop's six (the cart's locale, else its
 * country, else the registration's `language`), with AltaPay's message for the customer under it.
 */
import { plainAnswer } from "../../../src/lib/customer-return/plain-answer"

/** A query that knows one cart for every payment session. */
function cartQuery(cart: { locale?: string | null; shipping?: string } | null) {
  return {
    graph: async ({ entity }: { entity: string }) => {
      if (entity === "payment_session") return { data: cart ? [{ id: "payses_1", payment_collection: { cart: { id: "cart_1" } } }] : [] }
      if (entity === "cart" && cart) return { data: [{ id: "cart_1", locale: cart.locale ?? null, shipping_address: cart.shipping ? { country_code: cart.shipping } : null }] }
      return { data: [] }
    },
  } as never
}

describe("the plain answer to AltaPay's return post", () => {
  it("speaks the cart's locale", async () => {
    expect(await plainAnswer(cartQuery({ locale: "da-DK" }), "payses_1", "paid", undefined, "en")).toBe("Din betaling er modtaget, og din ordre er afgivet.")
    expect(await plainAnswer(cartQuery({ locale: "nb-NO" }), "payses_1", "declined", undefined, "en")).toBe("Betalingen din ble ikke fullført, og ingen bestilling ble lagt inn.")
    expect(await plainAnswer(cartQuery({ locale: "de-AT" }), "payses_1", "review", undefined, "da")).toMatch(/^Ihre Zahlung wird geprüft\./)
  })

  it("else the cart's country, else the registration's language, and English where AltaPay's page speaks one the shop does not", async () => {
    expect(await plainAnswer(cartQuery({ shipping: "se" }), "payses_1", "paid", undefined, "en")).toBe("Din betalning har tagits emot och din beställning är lagd.")
    expect(await plainAnswer(cartQuery(null), "payses_1", "unconfirmed", undefined, "fi")).toBe("Maksua ei suoritettu loppuun, eikä tilausta tehty.")
    expect(await plainAnswer(cartQuery({ locale: "fr-FR" }), "payses_1", "paid", undefined, "da")).toBe("Your payment was received and your order was placed.")
    expect(await plainAnswer(undefined, "payses_1", "paid", undefined, "en")).toBe("Your payment was received and your order was placed.")
  })

  it("puts AltaPay's message for the customer under it, as AltaPay sent it", async () => {
    expect(await plainAnswer(cartQuery({ locale: "da" }), "payses_1", "declined", "Kortet er udløbet.", "en")).toBe(
      "Din betaling blev ikke gennemført, og der blev ikke afgivet nogen ordre.\n\nKortet er udløbet."
    )
  })
})
