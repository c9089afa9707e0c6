/**
 * A store with the AltaPay provider registered once per terminal, as docs/merchant.md's multi-registration
 * setup does: pp_altapay_card (the card terminal) and pp_altapay_mobilepay (the MobilePay
 * terminal), each with its own `providerId` (so its own callback URL) and the same API user.
 * Options come from the spec's `useAltaPayStore()` (sandbox URLs, app port, return URLs), read
 * when the runner loads this file in its beforeAll: a spec must not import this file itself.
 */
import { ContainerRegistrationKeys } from "@medusajs/framework/utils"
import { ALTAPAY_PROVIDER_SOURCE, createTestAppConfig } from "../../../tools/test-store/app/config"
import { storeAltaPay } from "../../../tools/test-store/store-app/altapay-store"
import { TERMINALS } from "./terminals"

export default createTestAppConfig({
  // query: the provider reads the cart for its lines and for {cart_id} in the return URLs.
  paymentDependencies: [ContainerRegistrationKeys.QUERY],
  paymentProviders: Object.entries(TERMINALS).map(([id, terminal]) => ({
    resolve: ALTAPAY_PROVIDER_SOURCE,
    id,
    options: { ...storeAltaPay.options, terminal, providerId: id },
  })),
})
