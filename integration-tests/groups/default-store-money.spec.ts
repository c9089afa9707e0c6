/**
 * More suites with the default provider options, on a second Medusa app: money after checkout in
 * other currencies, one order paid by two AltaPay payments, a cart changed while its payment is
 * under way, payments AltaPay took while the customer never came back, fraud review and the shop's
 * languages.
 * The default store's group (default-store.spec.ts) has the same options; apart, the two groups run
 * in the two lanes (scripts/test-integration.js) and neither lane outgrows the CI budget.
 */
import { STORE_APP_DIR, useAltaPayStore } from "../../tools/test-store/store-app/altapay-store"
import { storeSuites } from "../../tools/test-store/store-app/runner"
import otherCurrencies from "../admin/other-currencies.suite"
import twoPaymentsOneOrder from "../admin/two-payments-one-order.suite"
import cartChangedWhilePaying from "../storefront/cart-changed-while-paying.suite"
import draftAndFreeOrders from "../admin/draft-and-free-orders.suite"
import adminMoneyRaces from "../admin/admin-money-races.suite"
import strandedPayments from "../jobs/stranded-payments.suite"
import fraudReview from "../admin/fraud-review.suite"
import languages from "../storefront/languages.suite"

jest.setTimeout(180_000)

useAltaPayStore()

storeSuites({
  cwd: STORE_APP_DIR,
  suites: {
    "money in other currencies after checkout": otherCurrencies,
    "one order, two AltaPay payments": twoPaymentsOneOrder,
    "a cart changed while its payment is under way": cartChangedWhilePaying,
    "draft orders, free carts and amounts paid another way": draftAndFreeOrders,
    "two admin tabs moving one order's money": adminMoneyRaces,
    "payments AltaPay took while the customer never came back": strandedPayments,
    "fraud review": fraudReview,
    "the shop's languages": languages,
  },
})
