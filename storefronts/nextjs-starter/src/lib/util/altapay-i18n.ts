/**
 * The kit's texts in English, Danish, Swedish, Norwegian, Finnish and German (medusa-payment-altapay
 * storefront kit). The language is the shopper's: the cart's locale (Medusa's cart.locale, which the
 * starter sets from its locale cookie, and which also picks AltaPay's payment page language), else
 * the cart's or the URL's country, else English. Plain TypeScript: server and client components use it.
 *
 * The plugin answers in English with a stable code; `altapayServerText` finds which of its
 * messages a text is (the starter passes on only the message) so the kit shows it in the shopper's
 * language, with AltaPay's own message for the cardholder kept as AltaPay wrote it.
 */

export const ALTAPAY_LANGUAGES = ["en", "da", "sv", "nb", "fi", "de"] as const
export type AltaPayLanguage = (typeof ALTAPAY_LANGUAGES)[number]

const COUNTRY_LANGUAGES: Record<string, AltaPayLanguage> = {
  dk: "da",
  gl: "da",
  fo: "da",
  se: "sv",
  ax: "sv",
  no: "nb",
  sj: "nb",
  fi: "fi",
  de: "de",
  at: "de",
  ch: "de",
  li: "de",
}

/** One of the six for a BCP 47 locale ("da-DK"; no and nn are Bokmål here), else the country's, else English. */
export function altapayLanguage(hints: {
  locale?: string | null
  countryCode?: string | null
}): AltaPayLanguage {
  const primary = /^([a-z]{2,3})(?:[-_]|$)/i
    .exec(hints.locale?.trim() ?? "")?.[1]
    ?.toLowerCase()
  const fromLocale = primary === "no" || primary === "nn" ? "nb" : primary
  if (ALTAPAY_LANGUAGES.includes(fromLocale as AltaPayLanguage)) {
    return fromLocale as AltaPayLanguage
  }
  // A locale AltaPay's page speaks and we have no words for (fr-FR) means
  // English; one AltaPay's page does not speak either (ko-KR) gets the page
  // the country's language, and so does the kit.
  if (primary && ALTAPAY_PAGE_LANGUAGES.includes(primary)) {
    return "en"
  }
  return (
    COUNTRY_LANGUAGES[hints.countryCode?.trim().toLowerCase() ?? ""] ?? "en"
  )
}

/** AltaPay's payment page languages (with nb, nn and ee, which AltaPay takes as no and et). */
const ALTAPAY_PAGE_LANGUAGES = [
  "ca", "cs", "da", "de", "ee", "en", "es", "et", "eu", "fi", "fr", "hr", "is", "it",
  "ja", "lt", "nb", "nl", "nn", "no", "pl", "pt", "ru", "sk", "sl", "sv", "th", "tr", "zh",
]

/** The language of a cart: its locale, else its shipping country, else `countryCode` (the URL's). */
export const altapayCartLanguage = (
  cart: { shipping_address?: { country_code?: string | null } | null } | null,
  countryCode?: string | null,
): AltaPayLanguage =>
  altapayLanguage({
    locale: (cart as { locale?: string | null } | null)?.locale,
    countryCode: cart?.shipping_address?.country_code ?? countryCode,
  })

const en = {
  card: "Card",
  placeOrder: "Place order",
  payWith: "Pay with",
  newCard: "A new card",
  saveCard: "Save this card for my next orders",
  cardExpires: "expires {{expiry}}",
  notStarted: "The payment could not be started. Please try again.",
  notStartedReference:
    "The payment could not be started. Please try again. (Reference {{reference}})",
  cartNotFound: "Your cart was not found. Please reload the page.",
  chooseMethod: "Choose a payment method first.",
  noPaymentPage:
    "AltaPay did not return a payment page. Please try again or choose another payment method.",
  savedCardNotAccepted:
    "Your saved card was not accepted, and no order was placed. Please try another card. (Reference {{reference}})",
  noticeFailed:
    "Your payment was not completed: it was declined or cancelled, and no order was placed. You can try again with the same or another payment method.",
  noticeUnconfirmed:
    "We could not confirm your payment yet, so no order was placed here. If it went through after all, the store places the order for you; otherwise anything reserved on your card is released. You can try again.",
  landingPaid: "Thank you: your payment was received and your order is placed.",
  landingReview:
    "Thank you: your payment is being reviewed. Your order is placed as soon as it is approved; if it is not, nothing is charged.",
  landingFailed: "Your payment was not completed, and no order was placed.",
  landingUnconfirmed:
    "We could not confirm your payment, so no order was placed here.",
  seeOrder: "See your order",
  continueShopping: "Continue shopping",
  backToCheckout: "Back to checkout",
  savedCards: "Saved cards",
  savedCardsDescription: "View and delete your saved cards",
  savedCardsIntro:
    "Cards you chose to save while paying. Pick one at checkout to pay without entering it again; delete those you no longer want kept.",
  savedCardsNotLoaded:
    "Your saved cards could not be loaded. Please reload the page.",
  noSavedCards:
    'You have no saved cards. Tick "Save this card" when you pay with a card to save it.',
  savedCardExpires: "Expires {{expiry}}",
  delete: "Delete",
  deleteCard: "Delete {{card}}",
  deleteFailed: "The card could not be deleted. Please try again.",
  // The plugin's own messages (medusa-payment-altapay src/lib/languages/customer-messages.ts, word for word).
  saved_card_not_yours:
    "The saved card chosen for this cart is not yours: choose one of your saved cards or pay with a new card.",
  saved_card_removed:
    "The saved card chosen for this payment was removed: choose another card or pay with a new one.",
  saved_card_declined:
    "Your saved card was declined: {{altapay}} Choose another card or pay with a new one.",
  earlier_attempt_pending:
    "An earlier payment attempt is still being checked, so nothing was charged. Try again in {{seconds}} s.",
  cart_changed_after_payment:
    "Your cart changed after the payment was started: its total is now {{total}}, but the payment is for {{paid}}. No order was placed, and any amount reserved for that payment will be released. Please start the payment again.",
}

export type AltaPayTextKey = keyof typeof en
type Texts = Record<AltaPayTextKey, string>

const TEXTS: Record<AltaPayLanguage, Texts> = {
  en,
  da: {
    card: "Kort",
    placeOrder: "Afgiv ordre",
    payWith: "Betal med",
    newCard: "Et nyt kort",
    saveCard: "Gem kortet til mine næste ordrer",
    cardExpires: "udløber {{expiry}}",
    notStarted: "Betalingen kunne ikke startes. Prøv igen.",
    notStartedReference:
      "Betalingen kunne ikke startes. Prøv igen. (Reference {{reference}})",
    cartNotFound: "Din kurv blev ikke fundet. Genindlæs siden.",
    chooseMethod: "Vælg først en betalingsmetode.",
    noPaymentPage:
      "AltaPay returnerede ingen betalingsside. Prøv igen, eller vælg en anden betalingsmetode.",
    savedCardNotAccepted:
      "Dit gemte kort blev ikke godkendt, og der blev ikke afgivet nogen ordre. Prøv et andet kort. (Reference {{reference}})",
    noticeFailed:
      "Din betaling blev ikke gennemført: den blev afvist eller annulleret, og der blev ikke afgivet nogen ordre. Du kan prøve igen med samme eller en anden betalingsmetode.",
    noticeUnconfirmed:
      "Vi kunne endnu ikke bekræfte din betaling, så der blev ikke afgivet nogen ordre her. Hvis den alligevel gik igennem, afgiver butikken ordren for dig; ellers frigives det, der er reserveret på dit kort. Du kan prøve igen.",
    landingPaid: "Tak: din betaling er modtaget, og din ordre er afgivet.",
    landingReview:
      "Tak: din betaling bliver gennemgået. Din ordre afgives, så snart den er godkendt; bliver den ikke det, trækkes der intet.",
    landingFailed:
      "Din betaling blev ikke gennemført, og der blev ikke afgivet nogen ordre.",
    landingUnconfirmed:
      "Vi kunne ikke bekræfte din betaling, så der blev ikke afgivet nogen ordre her.",
    seeOrder: "Se din ordre",
    continueShopping: "Fortsæt med at handle",
    backToCheckout: "Tilbage til kassen",
    savedCards: "Gemte kort",
    savedCardsDescription: "Se og slet dine gemte kort",
    savedCardsIntro:
      "Kort, du har valgt at gemme, da du betalte. Vælg et ved kassen for at betale uden at indtaste det igen; slet dem, du ikke længere vil have gemt.",
    savedCardsNotLoaded: "Dine gemte kort kunne ikke hentes. Genindlæs siden.",
    noSavedCards:
      'Du har ingen gemte kort. Sæt flueben i "Gem kortet", når du betaler med et kort, for at gemme det.',
    savedCardExpires: "Udløber {{expiry}}",
    delete: "Slet",
    deleteCard: "Slet {{card}}",
    deleteFailed: "Kortet kunne ikke slettes. Prøv igen.",
    saved_card_not_yours:
      "Det gemte kort, der er valgt til denne kurv, er ikke dit: vælg et af dine gemte kort, eller betal med et nyt kort.",
    saved_card_removed:
      "Det gemte kort, der er valgt til denne betaling, er blevet slettet: vælg et andet kort, eller betal med et nyt.",
    saved_card_declined:
      "Dit gemte kort blev afvist: {{altapay}} Vælg et andet kort, eller betal med et nyt.",
    earlier_attempt_pending:
      "Et tidligere betalingsforsøg bliver stadig kontrolleret, så der er ikke trukket noget. Prøv igen om {{seconds}} sek.",
    cart_changed_after_payment:
      "Din kurv blev ændret, efter at betalingen blev startet: totalen er nu {{total}}, men betalingen er på {{paid}}. Der er ikke afgivet nogen ordre, og et beløb, der er reserveret til betalingen, bliver frigivet. Start betalingen igen.",
  },
  sv: {
    card: "Kort",
    placeOrder: "Lägg beställning",
    payWith: "Betala med",
    newCard: "Ett nytt kort",
    saveCard: "Spara kortet till mina nästa beställningar",
    cardExpires: "går ut {{expiry}}",
    notStarted: "Betalningen kunde inte startas. Försök igen.",
    notStartedReference:
      "Betalningen kunde inte startas. Försök igen. (Referens {{reference}})",
    cartNotFound: "Din varukorg hittades inte. Ladda om sidan.",
    chooseMethod: "Välj först ett betalningssätt.",
    noPaymentPage:
      "AltaPay returnerade ingen betalningssida. Försök igen eller välj ett annat betalningssätt.",
    savedCardNotAccepted:
      "Ditt sparade kort godkändes inte, och ingen beställning lades. Försök med ett annat kort. (Referens {{reference}})",
    noticeFailed:
      "Din betalning genomfördes inte: den nekades eller avbröts, och ingen beställning lades. Du kan försöka igen med samma eller ett annat betalningssätt.",
    noticeUnconfirmed:
      "Vi kunde ännu inte bekräfta din betalning, så ingen beställning lades här. Om den ändå gick igenom lägger butiken beställningen åt dig; annars släpps det som reserverats på ditt kort. Du kan försöka igen.",
    landingPaid:
      "Tack: din betalning har tagits emot och din beställning är lagd.",
    landingReview:
      "Tack: din betalning granskas. Din beställning läggs så snart den har godkänts; om den inte godkänns dras ingenting.",
    landingFailed:
      "Din betalning genomfördes inte, och ingen beställning lades.",
    landingUnconfirmed:
      "Vi kunde inte bekräfta din betalning, så ingen beställning lades här.",
    seeOrder: "Se din beställning",
    continueShopping: "Fortsätt handla",
    backToCheckout: "Tillbaka till kassan",
    savedCards: "Sparade kort",
    savedCardsDescription: "Visa och ta bort dina sparade kort",
    savedCardsIntro:
      "Kort som du valt att spara när du betalade. Välj ett i kassan för att betala utan att ange det igen; ta bort dem du inte längre vill ha sparade.",
    savedCardsNotLoaded: "Dina sparade kort kunde inte hämtas. Ladda om sidan.",
    noSavedCards:
      'Du har inga sparade kort. Kryssa i "Spara kortet" när du betalar med ett kort för att spara det.',
    savedCardExpires: "Går ut {{expiry}}",
    delete: "Ta bort",
    deleteCard: "Ta bort {{card}}",
    deleteFailed: "Kortet kunde inte tas bort. Försök igen.",
    saved_card_not_yours:
      "Det sparade kortet som valts för den här varukorgen är inte ditt: välj ett av dina sparade kort eller betala med ett nytt kort.",
    saved_card_removed:
      "Det sparade kortet som valts för den här betalningen har tagits bort: välj ett annat kort eller betala med ett nytt.",
    saved_card_declined:
      "Ditt sparade kort nekades: {{altapay}} Välj ett annat kort eller betala med ett nytt.",
    earlier_attempt_pending:
      "Ett tidigare betalningsförsök kontrolleras fortfarande, så inget har dragits. Försök igen om {{seconds}} s.",
    cart_changed_after_payment:
      "Din varukorg ändrades efter att betalningen startades: summan är nu {{total}}, men betalningen gäller {{paid}}. Ingen beställning har lagts, och ett belopp som reserverats för betalningen släpps. Starta betalningen igen.",
  },
  nb: {
    card: "Kort",
    placeOrder: "Send bestilling",
    payWith: "Betal med",
    newCard: "Et nytt kort",
    saveCard: "Lagre kortet til mine neste bestillinger",
    cardExpires: "utløper {{expiry}}",
    notStarted: "Betalingen kunne ikke startes. Prøv igjen.",
    notStartedReference:
      "Betalingen kunne ikke startes. Prøv igjen. (Referanse {{reference}})",
    cartNotFound: "Handlekurven din ble ikke funnet. Last inn siden på nytt.",
    chooseMethod: "Velg en betalingsmåte først.",
    noPaymentPage:
      "AltaPay returnerte ingen betalingsside. Prøv igjen, eller velg en annen betalingsmåte.",
    savedCardNotAccepted:
      "Det lagrede kortet ditt ble ikke godkjent, og ingen bestilling ble lagt inn. Prøv et annet kort. (Referanse {{reference}})",
    noticeFailed:
      "Betalingen din ble ikke fullført: den ble avvist eller avbrutt, og ingen bestilling ble lagt inn. Du kan prøve igjen med samme eller en annen betalingsmåte.",
    noticeUnconfirmed:
      "Vi kunne ennå ikke bekrefte betalingen din, så ingen bestilling ble lagt inn her. Hvis den likevel gikk gjennom, legger butikken inn bestillingen for deg; ellers frigis det som er reservert på kortet ditt. Du kan prøve igjen.",
    landingPaid:
      "Takk: betalingen din er mottatt, og bestillingen din er lagt inn.",
    landingReview:
      "Takk: betalingen din blir vurdert. Bestillingen din legges inn så snart den er godkjent; blir den ikke det, trekkes ingenting.",
    landingFailed:
      "Betalingen din ble ikke fullført, og ingen bestilling ble lagt inn.",
    landingUnconfirmed:
      "Vi kunne ikke bekrefte betalingen din, så ingen bestilling ble lagt inn her.",
    seeOrder: "Se bestillingen din",
    continueShopping: "Fortsett å handle",
    backToCheckout: "Tilbake til kassen",
    savedCards: "Lagrede kort",
    savedCardsDescription: "Se og slett de lagrede kortene dine",
    savedCardsIntro:
      "Kort du valgte å lagre da du betalte. Velg ett i kassen for å betale uten å skrive det inn på nytt; slett dem du ikke lenger vil ha lagret.",
    savedCardsNotLoaded:
      "De lagrede kortene dine kunne ikke hentes. Last inn siden på nytt.",
    noSavedCards:
      'Du har ingen lagrede kort. Kryss av for "Lagre kortet" når du betaler med et kort, for å lagre det.',
    savedCardExpires: "Utløper {{expiry}}",
    delete: "Slett",
    deleteCard: "Slett {{card}}",
    deleteFailed: "Kortet kunne ikke slettes. Prøv igjen.",
    saved_card_not_yours:
      "Det lagrede kortet som er valgt for denne handlekurven, er ikke ditt: velg et av dine lagrede kort, eller betal med et nytt kort.",
    saved_card_removed:
      "Det lagrede kortet som er valgt for denne betalingen, er fjernet: velg et annet kort, eller betal med et nytt.",
    saved_card_declined:
      "Det lagrede kortet ditt ble avvist: {{altapay}} Velg et annet kort, eller betal med et nytt.",
    earlier_attempt_pending:
      "Et tidligere betalingsforsøk blir fortsatt kontrollert, så ingenting er trukket. Prøv igjen om {{seconds}} sek.",
    cart_changed_after_payment:
      "Handlekurven din ble endret etter at betalingen ble startet: totalen er nå {{total}}, men betalingen gjelder {{paid}}. Ingen bestilling er lagt inn, og et beløp som er reservert for betalingen, blir frigitt. Start betalingen på nytt.",
  },
  fi: {
    card: "Kortti",
    placeOrder: "Tee tilaus",
    payWith: "Maksutapa",
    newCard: "Uusi kortti",
    saveCard: "Tallenna kortti seuraavia tilauksiani varten",
    cardExpires: "vanhenee {{expiry}}",
    notStarted: "Maksua ei voitu aloittaa. Yritä uudelleen.",
    notStartedReference:
      "Maksua ei voitu aloittaa. Yritä uudelleen. (Viite {{reference}})",
    cartNotFound: "Ostoskoriasi ei löytynyt. Lataa sivu uudelleen.",
    chooseMethod: "Valitse ensin maksutapa.",
    noPaymentPage:
      "AltaPay ei palauttanut maksusivua. Yritä uudelleen tai valitse toinen maksutapa.",
    savedCardNotAccepted:
      "Tallennettua korttiasi ei hyväksytty, eikä tilausta tehty. Kokeile toista korttia. (Viite {{reference}})",
    noticeFailed:
      "Maksuasi ei suoritettu loppuun: se hylättiin tai peruutettiin, eikä tilausta tehty. Voit yrittää uudelleen samalla tai toisella maksutavalla.",
    noticeUnconfirmed:
      "Emme vielä pystyneet vahvistamaan maksuasi, joten tilausta ei tehty täällä. Jos maksu kuitenkin onnistui, kauppa tekee tilauksen puolestasi; muuten kortillesi tehty varaus vapautetaan. Voit yrittää uudelleen.",
    landingPaid: "Kiitos: maksusi on vastaanotettu, ja tilauksesi on tehty.",
    landingReview:
      "Kiitos: maksuasi tarkistetaan. Tilauksesi tehdään heti, kun maksu on hyväksytty; jos sitä ei hyväksytä, mitään ei veloiteta.",
    landingFailed: "Maksua ei suoritettu loppuun, eikä tilausta tehty.",
    landingUnconfirmed:
      "Emme pystyneet vahvistamaan maksuasi, joten tilausta ei tehty täällä.",
    seeOrder: "Näytä tilauksesi",
    continueShopping: "Jatka ostoksia",
    backToCheckout: "Takaisin kassalle",
    savedCards: "Tallennetut kortit",
    savedCardsDescription: "Näytä ja poista tallennetut korttisi",
    savedCardsIntro:
      "Kortit, jotka valitsit tallennettaviksi maksaessasi. Valitse kortti kassalla, niin voit maksaa syöttämättä sitä uudelleen; poista ne, joita et enää halua säilyttää.",
    savedCardsNotLoaded:
      "Tallennettuja korttejasi ei voitu hakea. Lataa sivu uudelleen.",
    noSavedCards:
      'Sinulla ei ole tallennettuja kortteja. Valitse "Tallenna kortti", kun maksat kortilla, niin se tallennetaan.',
    savedCardExpires: "Vanhenee {{expiry}}",
    delete: "Poista",
    deleteCard: "Poista {{card}}",
    deleteFailed: "Korttia ei voitu poistaa. Yritä uudelleen.",
    saved_card_not_yours:
      "Tähän ostoskoriin valittu tallennettu kortti ei ole sinun: valitse jokin tallennetuista korteistasi tai maksa uudella kortilla.",
    saved_card_removed:
      "Tähän maksuun valittu tallennettu kortti on poistettu: valitse toinen kortti tai maksa uudella kortilla.",
    saved_card_declined:
      "Tallennettu korttisi hylättiin: {{altapay}} Valitse toinen kortti tai maksa uudella kortilla.",
    earlier_attempt_pending:
      "Aiempaa maksuyritystä tarkistetaan vielä, joten mitään ei veloitettu. Yritä uudelleen {{seconds}} sekunnin kuluttua.",
    cart_changed_after_payment:
      "Ostoskorisi muuttui maksun aloittamisen jälkeen: summa on nyt {{total}}, mutta maksu on {{paid}}. Tilausta ei tehty, ja maksua varten varattu summa vapautetaan. Aloita maksu uudelleen.",
  },
  de: {
    card: "Karte",
    placeOrder: "Zahlungspflichtig bestellen",
    payWith: "Bezahlen mit",
    newCard: "Eine neue Karte",
    saveCard: "Diese Karte für meine nächsten Bestellungen speichern",
    cardExpires: "gültig bis {{expiry}}",
    notStarted:
      "Die Zahlung konnte nicht gestartet werden. Bitte versuchen Sie es erneut.",
    notStartedReference:
      "Die Zahlung konnte nicht gestartet werden. Bitte versuchen Sie es erneut. (Referenz {{reference}})",
    cartNotFound:
      "Ihr Warenkorb wurde nicht gefunden. Bitte laden Sie die Seite neu.",
    chooseMethod: "Wählen Sie zuerst eine Zahlungsart.",
    noPaymentPage:
      "AltaPay hat keine Zahlungsseite geliefert. Bitte versuchen Sie es erneut oder wählen Sie eine andere Zahlungsart.",
    savedCardNotAccepted:
      "Ihre gespeicherte Karte wurde nicht akzeptiert, und es wurde keine Bestellung aufgegeben. Bitte versuchen Sie es mit einer anderen Karte. (Referenz {{reference}})",
    noticeFailed:
      "Ihre Zahlung wurde nicht abgeschlossen: Sie wurde abgelehnt oder abgebrochen, und es wurde keine Bestellung aufgegeben. Sie können es mit derselben oder einer anderen Zahlungsart erneut versuchen.",
    noticeUnconfirmed:
      "Wir konnten Ihre Zahlung noch nicht bestätigen, daher wurde hier keine Bestellung aufgegeben. Falls sie doch durchgegangen ist, gibt der Shop die Bestellung für Sie auf; andernfalls wird der auf Ihrer Karte reservierte Betrag freigegeben. Sie können es erneut versuchen.",
    landingPaid:
      "Vielen Dank: Ihre Zahlung ist eingegangen, und Ihre Bestellung ist aufgegeben.",
    landingReview:
      "Vielen Dank: Ihre Zahlung wird geprüft. Ihre Bestellung wird aufgegeben, sobald sie genehmigt ist; andernfalls wird nichts belastet.",
    landingFailed:
      "Ihre Zahlung wurde nicht abgeschlossen, und es wurde keine Bestellung aufgegeben.",
    landingUnconfirmed:
      "Wir konnten Ihre Zahlung nicht bestätigen, daher wurde hier keine Bestellung aufgegeben.",
    seeOrder: "Ihre Bestellung ansehen",
    continueShopping: "Weiter einkaufen",
    backToCheckout: "Zurück zur Kasse",
    savedCards: "Gespeicherte Karten",
    savedCardsDescription: "Ihre gespeicherten Karten ansehen und löschen",
    savedCardsIntro:
      "Karten, die Sie beim Bezahlen speichern wollten. Wählen Sie an der Kasse eine aus, um zu bezahlen, ohne sie erneut einzugeben; löschen Sie die, die Sie nicht mehr gespeichert haben möchten.",
    savedCardsNotLoaded:
      "Ihre gespeicherten Karten konnten nicht geladen werden. Bitte laden Sie die Seite neu.",
    noSavedCards:
      'Sie haben keine gespeicherten Karten. Wählen Sie beim Bezahlen mit einer Karte "Diese Karte für meine nächsten Bestellungen speichern", um sie zu speichern.',
    savedCardExpires: "Gültig bis {{expiry}}",
    delete: "Löschen",
    deleteCard: "{{card}} löschen",
    deleteFailed:
      "Die Karte konnte nicht gelöscht werden. Bitte versuchen Sie es erneut.",
    saved_card_not_yours:
      "Die für diesen Warenkorb gewählte gespeicherte Karte gehört nicht Ihnen: Wählen Sie eine Ihrer gespeicherten Karten oder zahlen Sie mit einer neuen Karte.",
    saved_card_removed:
      "Die für diese Zahlung gewählte gespeicherte Karte wurde entfernt: Wählen Sie eine andere Karte oder zahlen Sie mit einer neuen.",
    saved_card_declined:
      "Ihre gespeicherte Karte wurde abgelehnt: {{altapay}} Wählen Sie eine andere Karte oder zahlen Sie mit einer neuen.",
    earlier_attempt_pending:
      "Ein früherer Zahlungsversuch wird noch geprüft, daher wurde nichts belastet. Versuchen Sie es in {{seconds}} Sekunden erneut.",
    cart_changed_after_payment:
      "Ihr Warenkorb hat sich geändert, nachdem die Zahlung gestartet wurde: Die Summe beträgt jetzt {{total}}, die Zahlung aber {{paid}}. Es wurde keine Bestellung aufgegeben, und ein für die Zahlung reservierter Betrag wird freigegeben. Bitte starten Sie die Zahlung erneut.",
  },
}

/** Every text in every language (for the completeness test). */
export const ALTAPAY_TEXTS: Readonly<Record<AltaPayLanguage, Texts>> = TEXTS

/** A text to show later, in whatever language the component that shows it has: what the kit's server actions return. */
export type AltaPayText = {
  key: AltaPayTextKey
  values?: Record<string, string | number>
}

/** The text in `language`, each {{name}} filled in. */
export function altapayText(
  language: AltaPayLanguage,
  key: AltaPayTextKey,
  values: Record<string, string | number> = {},
): string {
  return (TEXTS[language] ?? en)[key].replace(
    /\{\{\s*(\w+)\s*\}\}/g,
    (whole, name: string) => (name in values ? String(values[name]) : whole),
  )
}

/** The plugin's customer messages, as the English words with their values caught. */
const SERVER_MESSAGES = (
  [
    "saved_card_declined",
    "saved_card_removed",
    "saved_card_not_yours",
    "cart_changed_after_payment",
  ] as const
).map((key) => {
  const names: string[] = []
  const source = en[key]
    .split(/(\{\{\s*\w+\s*\}\})/)
    .map((part) => {
      const name = /^\{\{\s*(\w+)\s*\}\}$/.exec(part)?.[1]
      if (name) {
        names.push(name)
        return "(.+?)"
      }
      return part.replace(/[.*+?^${}()|[\]\\]/g, "\\$&")
    })
    .join("")
  return { key, pattern: new RegExp(source), names }
})

/**
 * Which of the plugin's customer messages `message` is (the starter passes on Medusa's message
 * only, with its own words before it), or undefined. The money door's refusal, written for the
 * merchant, is known by its end: "… so nothing was sent. Try again in N s."
 */
export function altapayServerText(message: string): AltaPayText | undefined {
  for (const { key, pattern, names } of SERVER_MESSAGES) {
    const match = pattern.exec(message)
    if (match) {
      return {
        key,
        values: Object.fromEntries(
          names.map((name, i) => [name, match[i + 1]]),
        ),
      }
    }
  }
  const wait = /so nothing was sent\. Try again in (\d+) s\./.exec(message)
  return wait
    ? { key: "earlier_attempt_pending", values: { seconds: wait[1] } }
    : undefined
}
