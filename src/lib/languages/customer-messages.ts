/**
 * What the plugin's server says to a customer, in the six languages. The server answers in English
 * with a stable code (`altapay_<key>`); the storefront helper (src/storefront/messages.ts) and the
 * kit show the customer's language from the code, or from the English text where the code was lost
 * on the way (docs/storefront.md, "Languages"). The one place the server picks the language itself
 * is the plain answer AltaPay shows when no landing page is configured (src/lib/customer-return/plain-answer.ts).
 * Browser-safe.
 */
import type { Language } from "./languages"
import { fill, type Catalogues, type TextValues } from "./text"

const en = {
  saved_card_not_yours: "The saved card chosen for this cart is not yours: choose one of your saved cards or pay with a new card.",
  saved_card_removed: "The saved card chosen for this payment was removed: choose another card or pay with a new one.",
  saved_card_declined: "Your saved card was declined: {{altapay}} Choose another card or pay with a new one.",
  card_declined: "The card was declined.",
  earlier_attempt_pending: "An earlier payment attempt is still being checked, so nothing was charged. Try again in {{seconds}} s.",
  altapay_unreachable: "The payment service could not be reached right now. Please try again in a moment.",
  reference_note: "Reference: {{reference}}",
  return_paid: "Your payment was received and your order was placed.",
  return_review: "Your payment is being reviewed. Your order is placed as soon as the payment is approved.",
  return_not_paid: "Your payment was not completed, and no order was placed.",
  verify_cart_changed: "Your cart changed while you were paying, so nothing was charged. Please check your cart and pay again.",
  verify_stock: "An item in your cart is no longer in stock, so nothing was charged. Please check your cart and pay again.",
  verify_promotion: "A discount in your cart is no longer valid, so nothing was charged. Please check your cart and pay again.",
  verify_already_paid: "This cart has been paid already, so nothing more was charged.",
  verify_unconfirmed: "Your order could not be confirmed, so nothing was charged. Please try again in a moment.",
  cart_changed_after_payment:
    "Your cart changed after the payment was started: its total is now {{total}}, but the payment is for {{paid}}. No order was placed, and any amount reserved for that payment will be released. Please start the payment again.",
}

export type CustomerMessageKey = keyof typeof en

const CATALOGUES: Catalogues<typeof en> = {
  en,
  da: {
    saved_card_not_yours: "Det gemte kort, der er valgt til denne kurv, er ikke dit: vælg et af dine gemte kort, eller betal med et nyt kort.",
    saved_card_removed: "Det gemte kort, der er valgt til denne betaling, er blevet slettet: vælg et andet kort, eller betal med et nyt.",
    saved_card_declined: "Dit gemte kort blev afvist: {{altapay}} Vælg et andet kort, eller betal med et nyt.",
    card_declined: "Kortet blev afvist.",
    earlier_attempt_pending: "Et tidligere betalingsforsøg bliver stadig kontrolleret, så der er ikke trukket noget. Prøv igen om {{seconds}} sek.",
    altapay_unreachable: "Betalingstjenesten kunne ikke nås lige nu. Prøv igen om et øjeblik.",
    reference_note: "Reference: {{reference}}",
    return_paid: "Din betaling er modtaget, og din ordre er afgivet.",
    return_review: "Din betaling bliver gennemgået. Din ordre afgives, så snart betalingen er godkendt.",
    return_not_paid: "Din betaling blev ikke gennemført, og der blev ikke afgivet nogen ordre.",
    verify_cart_changed: "Din kurv blev ændret, mens du betalte, så der er ikke trukket noget. Tjek din kurv, og betal igen.",
    verify_stock: "En vare i din kurv er ikke længere på lager, så der er ikke trukket noget. Tjek din kurv, og betal igen.",
    verify_promotion: "En rabat i din kurv gælder ikke længere, så der er ikke trukket noget. Tjek din kurv, og betal igen.",
    verify_already_paid: "Denne kurv er allerede betalt, så der er ikke trukket mere.",
    verify_unconfirmed: "Din ordre kunne ikke bekræftes, så der er ikke trukket noget. Prøv igen om et øjeblik.",
    cart_changed_after_payment:
      "Din kurv blev ændret, efter at betalingen blev startet: totalen er nu {{total}}, men betalingen er på {{paid}}. Der er ikke afgivet nogen ordre, og et beløb, der er reserveret til betalingen, bliver frigivet. Start betalingen igen.",
  },
  sv: {
    saved_card_not_yours: "Det sparade kortet som valts för den här varukorgen är inte ditt: välj ett av dina sparade kort eller betala med ett nytt kort.",
    saved_card_removed: "Det sparade kortet som valts för den här betalningen har tagits bort: välj ett annat kort eller betala med ett nytt.",
    saved_card_declined: "Ditt sparade kort nekades: {{altapay}} Välj ett annat kort eller betala med ett nytt.",
    card_declined: "Kortet nekades.",
    earlier_attempt_pending: "Ett tidigare betalningsförsök kontrolleras fortfarande, så inget har dragits. Försök igen om {{seconds}} s.",
    altapay_unreachable: "Betaltjänsten kunde inte nås just nu. Försök igen om en stund.",
    reference_note: "Referens: {{reference}}",
    return_paid: "Din betalning har tagits emot och din beställning är lagd.",
    return_review: "Din betalning granskas. Din beställning läggs så snart betalningen har godkänts.",
    return_not_paid: "Din betalning genomfördes inte, och ingen beställning lades.",
    verify_cart_changed: "Din varukorg ändrades medan du betalade, så inget har dragits. Kontrollera din varukorg och betala igen.",
    verify_stock: "En vara i din varukorg finns inte längre i lager, så inget har dragits. Kontrollera din varukorg och betala igen.",
    verify_promotion: "En rabatt i din varukorg gäller inte längre, så inget har dragits. Kontrollera din varukorg och betala igen.",
    verify_already_paid: "Den här varukorgen är redan betald, så inget mer har dragits.",
    verify_unconfirmed: "Din beställning kunde inte bekräftas, så inget har dragits. Försök igen om en stund.",
    cart_changed_after_payment:
      "Din varukorg ändrades efter att betalningen startades: summan är nu {{total}}, men betalningen gäller {{paid}}. Ingen beställning har lagts, och ett belopp som reserverats för betalningen släpps. Starta betalningen igen.",
  },
  nb: {
    saved_card_not_yours: "Det lagrede kortet som er valgt for denne handlekurven, er ikke ditt: velg et av dine lagrede kort, eller betal med et nytt kort.",
    saved_card_removed: "Det lagrede kortet som er valgt for denne betalingen, er fjernet: velg et annet kort, eller betal med et nytt.",
    saved_card_declined: "Det lagrede kortet ditt ble avvist: {{altapay}} Velg et annet kort, eller betal med et nytt.",
    card_declined: "Kortet ble avvist.",
    earlier_attempt_pending: "Et tidligere betalingsforsøk blir fortsatt kontrollert, så ingenting er trukket. Prøv igjen om {{seconds}} sek.",
    altapay_unreachable: "Betalingstjenesten kunne ikke nås akkurat nå. Prøv igjen om et øyeblikk.",
    reference_note: "Referanse: {{reference}}",
    return_paid: "Betalingen din er mottatt, og bestillingen din er lagt inn.",
    return_review: "Betalingen din blir vurdert. Bestillingen din legges inn så snart betalingen er godkjent.",
    return_not_paid: "Betalingen din ble ikke fullført, og ingen bestilling ble lagt inn.",
    verify_cart_changed: "Handlekurven din ble endret mens du betalte, så ingenting er trukket. Sjekk handlekurven, og betal på nytt.",
    verify_stock: "En vare i handlekurven din er ikke lenger på lager, så ingenting er trukket. Sjekk handlekurven, og betal på nytt.",
    verify_promotion: "En rabatt i handlekurven din gjelder ikke lenger, så ingenting er trukket. Sjekk handlekurven, og betal på nytt.",
    verify_already_paid: "Denne handlekurven er allerede betalt, så ingenting mer er trukket.",
    verify_unconfirmed: "Bestillingen din kunne ikke bekreftes, så ingenting er trukket. Prøv igjen om et øyeblikk.",
    cart_changed_after_payment:
      "Handlekurven din ble endret etter at betalingen ble startet: totalen er nå {{total}}, men betalingen gjelder {{paid}}. Ingen bestilling er lagt inn, og et beløp som er reservert for betalingen, blir frigitt. Start betalingen på nytt.",
  },
  fi: {
    saved_card_not_yours: "Tähän ostoskoriin valittu tallennettu kortti ei ole sinun: valitse jokin tallennetuista korteistasi tai maksa uudella kortilla.",
    saved_card_removed: "Tähän maksuun valittu tallennettu kortti on poistettu: valitse toinen kortti tai maksa uudella kortilla.",
    saved_card_declined: "Tallennettu korttisi hylättiin: {{altapay}} Valitse toinen kortti tai maksa uudella kortilla.",
    card_declined: "Kortti hylättiin.",
    earlier_attempt_pending: "Aiempaa maksuyritystä tarkistetaan vielä, joten mitään ei veloitettu. Yritä uudelleen {{seconds}} sekunnin kuluttua.",
    altapay_unreachable: "Maksupalveluun ei juuri nyt saatu yhteyttä. Yritä hetken kuluttua uudelleen.",
    reference_note: "Viite: {{reference}}",
    return_paid: "Maksusi on vastaanotettu, ja tilauksesi on tehty.",
    return_review: "Maksuasi tarkistetaan. Tilauksesi tehdään heti, kun maksu on hyväksytty.",
    return_not_paid: "Maksua ei suoritettu loppuun, eikä tilausta tehty.",
    verify_cart_changed: "Ostoskorisi muuttui maksun aikana, joten mitään ei veloitettu. Tarkista ostoskorisi ja maksa uudelleen.",
    verify_stock: "Ostoskorisi tuotetta ei ole enää varastossa, joten mitään ei veloitettu. Tarkista ostoskorisi ja maksa uudelleen.",
    verify_promotion: "Ostoskorisi alennus ei ole enää voimassa, joten mitään ei veloitettu. Tarkista ostoskorisi ja maksa uudelleen.",
    verify_already_paid: "Tämä ostoskori on jo maksettu, joten mitään ei veloitettu lisää.",
    verify_unconfirmed: "Tilaustasi ei voitu vahvistaa, joten mitään ei veloitettu. Yritä hetken kuluttua uudelleen.",
    cart_changed_after_payment:
      "Ostoskorisi muuttui maksun aloittamisen jälkeen: summa on nyt {{total}}, mutta maksu on {{paid}}. Tilausta ei tehty, ja maksua varten varattu summa vapautetaan. Aloita maksu uudelleen.",
  },
  de: {
    saved_card_not_yours:
      "Die für diesen Warenkorb gewählte gespeicherte Karte gehört nicht Ihnen: Wählen Sie eine Ihrer gespeicherten Karten oder zahlen Sie mit einer neuen Karte.",
    saved_card_removed: "Die für diese Zahlung gewählte gespeicherte Karte wurde entfernt: Wählen Sie eine andere Karte oder zahlen Sie mit einer neuen.",
    saved_card_declined: "Ihre gespeicherte Karte wurde abgelehnt: {{altapay}} Wählen Sie eine andere Karte oder zahlen Sie mit einer neuen.",
    card_declined: "Die Karte wurde abgelehnt.",
    earlier_attempt_pending: "Ein früherer Zahlungsversuch wird noch geprüft, daher wurde nichts belastet. Versuchen Sie es in {{seconds}} Sekunden erneut.",
    altapay_unreachable: "Der Zahlungsdienst ist gerade nicht erreichbar. Bitte versuchen Sie es gleich noch einmal.",
    reference_note: "Referenz: {{reference}}",
    return_paid: "Ihre Zahlung ist eingegangen, und Ihre Bestellung wurde aufgegeben.",
    return_review: "Ihre Zahlung wird geprüft. Ihre Bestellung wird aufgegeben, sobald die Zahlung genehmigt ist.",
    return_not_paid: "Ihre Zahlung wurde nicht abgeschlossen, und es wurde keine Bestellung aufgegeben.",
    verify_cart_changed: "Ihr Warenkorb hat sich während der Zahlung geändert, daher wurde nichts belastet. Bitte prüfen Sie Ihren Warenkorb und zahlen Sie erneut.",
    verify_stock: "Ein Artikel in Ihrem Warenkorb ist nicht mehr vorrätig, daher wurde nichts belastet. Bitte prüfen Sie Ihren Warenkorb und zahlen Sie erneut.",
    verify_promotion: "Ein Rabatt in Ihrem Warenkorb gilt nicht mehr, daher wurde nichts belastet. Bitte prüfen Sie Ihren Warenkorb und zahlen Sie erneut.",
    verify_already_paid: "Dieser Warenkorb ist bereits bezahlt, daher wurde nichts weiter belastet.",
    verify_unconfirmed: "Ihre Bestellung konnte nicht bestätigt werden, daher wurde nichts belastet. Bitte versuchen Sie es gleich noch einmal.",
    cart_changed_after_payment:
      "Ihr Warenkorb hat sich geändert, nachdem die Zahlung gestartet wurde: Die Summe beträgt jetzt {{total}}, die Zahlung aber {{paid}}. Es wurde keine Bestellung aufgegeben, und ein für die Zahlung reservierter Betrag wird freigegeben. Bitte starten Sie die Zahlung erneut.",
  },
}

/** Every customer message in every language, for the completeness test and the storefront helper. */
export const CUSTOMER_MESSAGES: Readonly<Catalogues<typeof en>> = CATALOGUES

/** The message in `language` (English by default: what the server answers with). */
export function customerMessage(key: CustomerMessageKey, values: TextValues = {}, language: Language = "en"): string {
  return fill(CATALOGUES[language][key], values)
}

/** The stable code a Medusa error carries for a customer message: `altapay_<key>` (altapay_unreachable as it always was). */
export const customerMessageCode = (key: CustomerMessageKey): string => (key.startsWith("altapay_") ? key : `altapay_${key}`)
