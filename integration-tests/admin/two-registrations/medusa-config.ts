/**
 * A store with the AltaPay provider registered once per terminal, served with the plugin's own
 * routes (the spec's app folder links our `src`): pp_altapay_card and pp_altapay_mobilepay, the
 * same API user, and each its own callback URL (from its id: no providerId, as a merchant would
 * write it) and `paymentDataSecret`: a route
 * that used one registration's seal keys for the other's payments or sessions would not recognise
 * their data, and the provider would not recognise what such a route wrote.
 * Options come from the spec's `useAltaPayStore()`, read when the runner loads this file.
 */
import { ContainerRegistrationKeys } from "@medusajs/framework/utils"
import { ALTAPAY_PROVIDER_SOURCE, createTestAppConfig } from "../../../tools/test-store/app/config"
import { storeAltaPay } from "../../../tools/test-store/store-app/altapay-store"
import { TERMINALS } from "../../storefront/two-terminals/terminals"

const CARD_DATA_SECRET = "card-payment-data-secret-0123456789abcdef"
const MOBILEPAY_DATA_SECRET = "mobilepay-payment-data-secret-0123456789"

export default createTestAppConfig({
  paymentDependencies: [ContainerRegistrationKeys.QUERY],
  paymentProviders: [
    { resolve: ALTAPAY_PROVIDER_SOURCE, id: "card", options: { ...storeAltaPay.options, terminal: TERMINALS.card, paymentDataSecret: CARD_DATA_SECRET } },
    {
      resolve: ALTAPAY_PROVIDER_SOURCE,
      id: "mobilepay",
      options: { ...storeAltaPay.options, terminal: TERMINALS.mobilepay, paymentDataSecret: MOBILEPAY_DATA_SECRET },
    },
  ],
})
