/**
 * The suites whose store has saved cards and the request log on, on one Medusa app, and the two
 * admin browser suites on one admin UI and one Chromium (useAdminBrowser()). Each option is what
 * one suite needs and leaves the others' behaviour as it was: saved cards with the account page
 * as their return (saved cards, the customer page's widget, merchant charges), the request log
 * with limits of its own (so its route and the panel show the registration's values, not the
 * defaults), a 3 s wait for AltaPay's answer (a charge answered late fits in a test), and a notice
 * period longer than the sandbox's seven-day authorisations (the AltaPay page lists a reservation).
 */
import { STORE_APP_DIR, useAltaPayStore } from "../../tools/test-store/store-app/altapay-store"
import { storeSuites } from "../../tools/test-store/store-app/runner"
import adminBrowser from "../admin/admin-browser.suite"
import agreementCharges from "../admin/agreement-charges.suite"
import payoutsBrowser from "../admin/payouts-browser.suite"
import requestLog from "../admin/request-log.suite"
import savedCards, { CARDS_PAGE, HEADERS_TIMEOUT_MS } from "../storefront/saved-cards.suite"

jest.setTimeout(240_000)

useAltaPayStore({
  savedCards: { enabled: true, returnUrl: CARDS_PAGE },
  requestLog: { enabled: true, maxEntries: 20, retentionDays: 2 },
  headersTimeoutMs: HEADERS_TIMEOUT_MS,
  jobs: { expiryNoticeDays: 10 } as never,
})

storeSuites({
  cwd: STORE_APP_DIR,
  // The Payouts pages first: the sandbox pays out every capture it holds, and the others capture.
  // Then the admin in Chromium: its AltaPay page counts the posts the app has seen (kept in
  // Medusa's cache, which a database restore leaves alone), and the others post too.
  suites: {
    "the Payouts pages in a real browser": payoutsBrowser,
    "the AltaPay panel in a real browser": adminBrowser,
    "the request log": requestLog,
    "charges the merchant starts": agreementCharges,
    "saved cards": savedCards,
  },
})
