/**
 * The kit speaks the customer's language (issue 43): it picks the language as the plugin does, and
 * shows the store's English refusals (as the starter passes them on: its own words before, a full
 * stop after) in that language, AltaPay's message for the cardholder kept as AltaPay wrote it.
 */
import { customerMessage } from "../../src/lib/languages/customer-messages"
import { storefrontLanguage } from "../../src/storefront"
import { altapayCartLanguage, altapayLanguage, altapayServerText, altapayText } from "../../storefronts/nextjs-starter/src/lib/util/altapay-i18n"

describe("the kit's language", () => {
  it("is the one the plugin's storefront helper picks, for every locale and country", () => {
    const locales = [undefined, null, "", "da", "da-DK", "sv_SE", "nb-NO", "no", "nn", "fi", "de-CH", "en-GB", "fr-FR", "pt-BR", "ko-KR", "xx", "x"]
    const countries = [undefined, null, "dk", "GL", "se", "ax", "no", "fi", "de", "at", "ch", "gb", "fr", "us"]
    for (const locale of locales)
      for (const countryCode of countries)
        expect([locale, countryCode, altapayLanguage({ locale, countryCode })]).toEqual([locale, countryCode, storefrontLanguage({ locale, countryCode })])
  })

  it("of a cart is its locale, else its shipping country, else the URL's country", () => {
    expect(altapayCartLanguage({ locale: "sv-SE", shipping_address: { country_code: "dk" } } as never)).toBe("sv")
    expect(altapayCartLanguage({ shipping_address: { country_code: "no" } })).toBe("nb")
    expect(altapayCartLanguage(null, "de")).toBe("de")
    expect(altapayCartLanguage(null)).toBe("en")
  })
})

describe("the store's refusals in the kit", () => {
  it("a declined saved card: the customer's language around AltaPay's own message", () => {
    const starter = `Error setting up the request: ${customerMessage("saved_card_declined", { altapay: "Kortet er spærret." })}.`
    const text = altapayServerText(starter)!
    expect(text).toEqual({ key: "saved_card_declined", values: { altapay: "Kortet er spærret." } })
    expect(altapayText("da", text.key, text.values)).toBe("Dit gemte kort blev afvist: Kortet er spærret. Vælg et andet kort, eller betal med et nyt.")
    expect(altapayText("fi", text.key, text.values)).toBe("Tallennettu korttisi hylättiin: Kortet er spærret. Valitse toinen kortti tai maksa uudella kortilla.")
  })

  it("a removed card, another customer's card, an earlier attempt still being checked; nothing for other errors", () => {
    expect(altapayServerText(`Error: ${customerMessage("saved_card_removed")}.`)).toEqual({ key: "saved_card_removed", values: {} })
    expect(altapayServerText(customerMessage("saved_card_not_yours"))).toEqual({ key: "saved_card_not_yours", values: {} })
    const door = "AltaPay charge: an earlier charge (ord_1) got no answer and AltaPay does not show it yet, so nothing was sent. Try again in 9 s.."
    expect(altapayText("de", altapayServerText(door)!.key, altapayServerText(door)!.values)).toBe(
      "Ein früherer Zahlungsversuch wird noch geprüft, daher wurde nichts belastet. Versuchen Sie es in 9 Sekunden erneut."
    )
    expect(altapayServerText("Error setting up the request: Cart was not found.")).toBeUndefined()
  })
})
