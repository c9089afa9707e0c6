/**
 * A storefront shows the plugin's refusals in the customer's language: Medusa answers in English
 * with a stable code, and customerMessageFor() turns the code (through the helper's own calls, real
 * HTTP to a stand-in for Medusa) or the English words (a client that kept only the message, as
 * Medusa's starter does) into Danish, Swedish, Norwegian, Finnish, German or English.
 */
import { createServer, type Server } from "node:http"
import type { AddressInfo } from "node:net"
import { customerMessageFor, deleteSavedCard, storefrontLanguage, AltaPayCheckoutError } from "../../src/storefront"
import { customerMessage, customerMessageCode } from "../../src/lib/languages/customer-messages"
import { languageOf } from "../../src/lib/languages/languages"
import { paymentPageLanguage } from "../../src/lib/medusa-mapping/language"

let server: Server
let medusaUrl: string
let answer: { status: number; body: unknown } = { status: 200, body: {} }

beforeAll(async () => {
  server = createServer((req, res) => {
    req.resume()
    req.on("end", () => {
      res.writeHead(answer.status, { "content-type": "application/json" })
      res.end(JSON.stringify(answer.body))
    })
  })
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve))
  medusaUrl = `http://127.0.0.1:${(server.address() as AddressInfo).port}`
})
afterAll(() => new Promise<void>((resolve) => server.close(() => resolve())))

/** The error the helper throws when Medusa answers with this body. */
async function refusal(status: number, body: unknown): Promise<AltaPayCheckoutError> {
  answer = { status, body }
  const error = await deleteSavedCard({ medusaUrl, publishableKey: "pk_test" }, "card_1").then(
    () => undefined,
    (e: unknown) => e
  )
  if (!(error instanceof AltaPayCheckoutError)) throw new Error("expected the helper to refuse")
  return error
}

const declined = customerMessage("saved_card_declined", { altapay: "Card expired." })

describe("the customer's language", () => {
  it("is the locale's when it is one of the six (English for another), else the country's, else English", () => {
    expect(storefrontLanguage({ locale: "da-DK", countryCode: "se" })).toBe("da")
    expect(storefrontLanguage({ locale: "no", countryCode: "dk" })).toBe("nb")
    expect(storefrontLanguage({ locale: "fr-FR", countryCode: "fi" })).toBe("en")
    expect(storefrontLanguage({ locale: "", countryCode: "fi" })).toBe("fi")
    expect(storefrontLanguage({ countryCode: "AT" })).toBe("de")
    expect(storefrontLanguage({ countryCode: "gb" })).toBe("en")
    expect(storefrontLanguage({ locale: "fr-FR", countryCode: "fr" })).toBe("en")
    expect(storefrontLanguage({ language: "sv", locale: "da" })).toBe("sv")
  })

  it("is the language AltaPay's page was asked for wherever it is one of the six: a locale the page does not speak gives both the country's", () => {
    for (const [locale, countryCode] of [
      ["ko-KR", "dk"],
      ["xx", "se"],
      ["fr-FR", "dk"],
      ["da-DK", "se"],
    ]) {
      const page = paymentPageLanguage({ locale, countryCodes: [countryCode] }, "en")
      expect([locale, countryCode, storefrontLanguage({ locale, countryCode })]).toEqual([locale, countryCode, languageOf(page) ?? "en"])
    }
  })
})

describe("customerMessageFor", () => {
  it("reads Medusa's code through the helper's own calls and keeps AltaPay's message for the cardholder", async () => {
    const error = await refusal(400, { type: "not_allowed", code: customerMessageCode("saved_card_declined"), message: declined })
    expect(error.code).toBe("altapay_saved_card_declined")
    expect(customerMessageFor(error, { locale: "da-DK" })).toBe("Dit gemte kort blev afvist: Card expired. Vælg et andet kort, eller betal med et nyt.")
    expect(customerMessageFor(error, { countryCode: "de" })).toBe(
      "Ihre gespeicherte Karte wurde abgelehnt: Card expired. Wählen Sie eine andere Karte oder zahlen Sie mit einer neuen."
    )
    expect(customerMessageFor(error)).toBe(declined)
  })

  it("knows the English words where only the message arrived (Medusa's starter prefixes and ends it its own way)", () => {
    const starter = new Error(`Error setting up the request: ${declined}.`)
    expect(customerMessageFor(starter, { locale: "sv" })).toBe("Ditt sparade kort nekades: Card expired. Välj ett annat kort eller betala med ett nytt.")
    expect(customerMessageFor(customerMessage("saved_card_removed"), { locale: "nb-NO" })).toBe(customerMessage("saved_card_removed", {}, "nb"))
    expect(customerMessageFor({ message: customerMessage("saved_card_not_yours") }, { countryCode: "fi" })).toBe(customerMessage("saved_card_not_yours", {}, "fi"))
  })

  it("tells an earlier attempt still being checked, with the wait, from the money door's words", () => {
    const door = "AltaPay charge: an earlier charge (ord_1) got no answer and AltaPay does not show it yet, so nothing was sent. Try again in 12 s."
    expect(customerMessageFor({ code: "altapay_earlier_attempt_pending", message: door }, { locale: "da" })).toBe(
      "Et tidligere betalingsforsøg bliver stadig kontrolleret, så der er ikke trukket noget. Prøv igen om 12 sek."
    )
    expect(customerMessageFor(new Error(door), { locale: "fi" })).toMatch(/12 sekunnin kuluttua\.$/)
  })

  it("says AltaPay is out of reach with the reference the merchant finds in the log", async () => {
    const error = await refusal(502, {
      type: "altapay_unreachable",
      code: "altapay_unreachable",
      message: "AltaPay could not create the payment session right now; please try again in a moment (reference altapay-3f9c0a1b2d4e).",
      reference: "altapay-3f9c0a1b2d4e",
    })
    expect(customerMessageFor(error, { locale: "de-DE" })).toBe(
      "Der Zahlungsdienst ist gerade nicht erreichbar. Bitte versuchen Sie es gleich noch einmal. Referenz: altapay-3f9c0a1b2d4e"
    )
  })

  it("is undefined for anything that is not one of the plugin's customer messages", async () => {
    expect(customerMessageFor(await refusal(404, { type: "not_found", message: "Cart was not found" }), { locale: "da" })).toBeUndefined()
    expect(customerMessageFor(undefined)).toBeUndefined()
    expect(customerMessageFor({ code: "altapay_saved_card_declined", message: "something else" })).toBeUndefined()
  })
})
