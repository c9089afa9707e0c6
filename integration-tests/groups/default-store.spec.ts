/**
 * The suites whose store has the default provider options, on one Medusa app (storeSuites():
 * one boot, each suite on its own seeded database). A suite that needs other options joins the
 * group of those options, or boots its own app as a `*.spec.ts`. default-store-money.spec.ts has
 * the same options on a second app, so that the two run in different lanes.
 */
import { STORE_APP_DIR, useAltaPayStore } from "../../tools/test-store/store-app/altapay-store"
import { storeSuites } from "../../tools/test-store/store-app/runner"
import altapayAdmin from "../admin/altapay-admin.suite"
import backOfficeChanges from "../admin/back-office-changes.suite"
import orderCancel from "../admin/order-cancel.suite"
import refundRecords from "../admin/refund-records.suite"
import paymentLinkChanges from "../admin/payment-link-changes.suite"
import returnsExchangesClaims from "../admin/returns-exchanges-claims.suite"
import creditLines from "../admin/credit-lines.suite"
import payouts from "../payouts/payouts.suite"
import payoutCases from "../payouts/payout-cases.suite"
import hostileCallbacks from "../storefront/hostile-callbacks.suite"
import customerTokenAttacks from "../storefront/customer-token-attacks.suite"
import hostileCatalogAndBodies from "../admin/hostile-catalog-and-bodies.suite"
import bigCarts from "../storefront/big-carts.suite"
import taxInclusivePrices from "../admin/tax-inclusive-prices.suite"
import promotionsAndTaxRules from "../admin/promotions-and-tax-rules.suite"

jest.setTimeout(180_000)

useAltaPayStore()

storeSuites({
  cwd: STORE_APP_DIR,
  // Payouts first: the sandbox pays out every capture it holds, and the other suites capture too.
  suites: {
    payouts,
    "payouts in the cases finance meets": payoutCases,
    "the order's AltaPay panel and routes": altapayAdmin,
    "refund records": refundRecords,
    "order cancel": orderCancel,
    "payment links after the order changed": paymentLinkChanges,
    "money moved in AltaPay's back office": backOfficeChanges,
    "returns, exchanges and claims": returnsExchangesClaims,
    "store credit lines": creditLines,
    "hostile callbacks and returns": hostileCallbacks,
    "a hostile browser with its CUSTOMER token": customerTokenAttacks,
    "hostile catalog data and admin bodies": hostileCatalogAndBodies,
    "big carts and big numbers": bigCarts,
    "tax-inclusive prices": taxInclusivePrices,
    "promotions, shipping and tax rules": promotionsAndTaxRules,
  },
})
